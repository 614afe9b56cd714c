"""The riichi and sanma rule files: complete texts, every rule illustrated, every peer option
and input accounted for, and bad riichi input refused with one line."""

from __future__ import annotations

import inspect
import json
from pathlib import Path

import pytest
from mahjong.hand_calculating.hand_config import HandConfig, OptionalRules

from mjtools.rules import load_path

ROOT = Path(__file__).resolve().parent.parent
FILES = ["riichi", "riichi-sanma"]


def own(rid: str, section: str):
    rs = load_path(ROOT / "rules.d" / f"{rid}.yaml")
    path = str((ROOT / "rules.d" / f"{rid}.yaml").resolve())
    data = rs.raw.get(section, {})
    return rs, {k: v for k, v in data.items() if str(Path(rs.origin(f"{section}.{k}")).resolve()) == path}


@pytest.mark.parametrize("rid", FILES)
def test_texts_and_examples(rid):
    rs, fans = own(rid, "fans")
    _, options = own(rid, "options")
    _, specials = own(rid, "special_rules")
    illustrated = {i for ex in rs.examples.values() for i in ex.get("illustrates", ())}
    problems = []
    for kind, table in (("fan", fans), ("option", options), ("special rule", specials)):
        for key, item in table.items():
            names, text = item.get("names", {}), item.get("text", {})
            for lang in ("en", "zh_hans"):
                if not names.get(lang) or not text.get(lang):
                    problems.append(f"{kind} {key}: no {lang} name or text")
            if kind == "fan" and item.get("yaku", True) and not names.get("ja"):
                problems.append(f"fan {key}: no Japanese name")
            if key not in illustrated:
                problems.append(f"{kind} {key}: no example illustrates it")
    _, examples = own(rid, "examples")
    for eid, ex in examples.items():
        if not ex.get("source") or not ex.get("illustrates"):
            problems.append(f"example {eid}: needs source and illustrates")
    assert not problems, problems


def test_thirty_worked_examples():
    total = sum(len(own(rid, "examples")[1]) for rid in FILES)
    assert total >= 30, total


def peers() -> tuple[set[str], set[str]]:
    named, unsupported = set(), set()
    for rid in FILES:
        rs = load_path(ROOT / "rules.d" / f"{rid}.yaml")
        for section in ("options", "fans", "situations"):
            for item in rs.raw.get(section, {}).values():
                if item.get("peer"):
                    named.add(item["peer"])
        unsupported |= set(rs.raw.get("unsupported", {}))
    return named, unsupported


def test_every_optional_rule_has_an_option_or_a_reason():
    """Each OptionalRules field of mahjong 2.1.0 is a rule option naming it as `peer`, or is
    listed under `unsupported` with why."""
    named, unsupported = peers()
    fields = [p for p in inspect.signature(OptionalRules.__init__).parameters if p != "self"]
    text = " ".join(named)
    missing = [f for f in fields if f"OptionalRules.{f}" not in text and f not in unsupported]
    assert not missing, missing


# Each HandConfig input of mahjong 2.1.0 and the mjtools input that gives it.
HANDCONFIG_INPUTS = {
    "is_tsumo": "--tsumo",
    "is_riichi": "--riichi",
    "is_ippatsu": "--ippatsu",
    "is_rinshan": "--kong-bloom",
    "is_chankan": "--robbing-kong",
    "is_haitei": "--last-tile --tsumo",
    "is_houtei": "--last-tile --ron",
    "is_daburu_riichi": "--double-riichi",
    "is_nagashi_mangan": "--situation nagashi",
    "is_tenhou": "--first-turn --tsumo (dealer)",
    "is_renhou": "--first-turn --ron (non-dealer) or --situation renhou",
    "is_chiihou": "--first-turn --tsumo (non-dealer)",
    "is_open_riichi": "--situation open_riichi",
    "player_wind": "--seat",
    "round_wind": "--round",
    "kyoutaku_number": "--sticks",
    "tsumi_number": "--honba",
    "paarenchan": "--situation paarenchan=N",
    "num_nuki_dora": "--kita N or {kita=44z}",
    "options": "-o NAME=VALUE (the rule options)",
}


def test_every_handconfig_input_has_a_cli_input():
    fields = {p for p in inspect.signature(HandConfig.__init__).parameters if p != "self"}
    assert fields == set(HANDCONFIG_INPUTS), fields ^ set(HANDCONFIG_INPUTS)
    named, _ = peers()
    text = " ".join(named)
    for flag in ("is_open_riichi", "is_nagashi_mangan", "is_renhou", "paarenchan", "is_riichi", "is_ippatsu", "num_nuki_dora"):
        assert flag in text, flag


@pytest.mark.parametrize("args, words", [
    (["score", "(123m)456p789s23s55p+4s", "--riichi"], "concealed hand"),
    (["score", "123m456p789s23s55p+4s", "--ippatsu"], "ippatsu needs --riichi"),
    (["score", "123m456p789s23s55p+4s", "--robbing-kong", "--tsumo"], "cannot be --tsumo"),
    (["score", "123m456p789s23s55p+4s", "--kong-bloom"], "add --tsumo"),
    (["score", "123m456p789s23s55p+4s", "--kita", "1"], "three-player"),
    (["score", "123m456p789s23s55p+4s", "--situation", "nagasi"], "--situation nagasi"),
    (["score", "123m456p789s23s55p+4s", "--situation", "open_riichi"], "needs --riichi"),
    (["score", "(123m)456p789s23s55p+4s", "--first-turn", "--tsumo"], "no melds"),
    (["score", "123p456p789s23s55p+4s", "-r", "sanma", "--seat", "N"], "E, S, W"),
    (["score", "123p456p789s23s55p+4s", "-r", "sanma", "--round", "N"], "rounds"),
    (["score", "(123p)456p789s23s55p+4s", "-r", "sanma"], "no chi"),
    (["score", "234m456p789s23s55p+4s", "-r", "sanma"], "not in the riichi-sanma tile set"),
    (["score", "123p456p789s23s55p{kita=11z}+4s", "-r", "sanma"], "kita"),
    (["score", "123p456p789s23s55p{kita=44z}+4s", "-r", "sanma", "--kita", "4"], "only 4 exist"),
    (["score", "00p123m456p789s23s+4s"], "red 5p"),
])
def test_bad_riichi_input_is_one_line(run, args, words):
    r = run(*args)
    assert r.exit_code == 2, (r.stdout, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0], r.stderr


def test_score_record_contract(run):
    rec = json.loads(run("score", "123m456p789s23s55p+4s", "--seat", "S", "--tsumo", "--riichi", "--honba", "1", "--sticks", "2", "-f", "json").stdout)
    assert rec["valid"] and rec["han"] == 3 and rec["fu"] == 20 and rec["limit"] is None
    assert {f["id"] for f in rec["fans"]} == {"riichi", "concealed_self_draw", "pinfu"}
    riichi = next(f for f in rec["fans"] if f["id"] == "riichi")
    assert riichi["name"] == "Riichi" and "names" not in riichi and riichi["unit"] == "han"
    assert rec["payments"] == {"E": 1400, "W": 800, "N": 800} and rec["pot"] == 2000
    assert rec["points"] == sum(rec["payments"].values()) + rec["pot"] == 5000
    assert sum(e["amount"] for e in rec["ledger"]) == rec["points"]
    assert [p["reason"] for p in rec["fu_breakdown"]] == ["base"]


def test_explain_shows_every_reading(run):
    rec = json.loads(run("score", "111222333m456p7s+7s", "--seat", "S", "--explain", "-f", "json").stdout)
    ex = rec["explain"]
    points = sorted(r["points"] for r in ex["readings"])
    assert points == [1300, 3200] and rec["points"] == 3200
    assert any(s.startswith("fu:") and s.endswith("-> 50") for s in ex["steps"])
    assert any(s.startswith("ron: E pays") and "3200" in s for s in ex["steps"])
    assert ex["awarded"][0]["id"] == "concealed_pungs_3" and ex["awarded"][0]["rule"]


def test_nagashi_takes_thirteen_tiles(run):
    rec = json.loads(run("score", "13579m2468p159s1z", "--situation", "nagashi", "--seat", "W", "-f", "json").stdout)
    assert rec["limit"] == "nagashi mangan" and rec["payments"] == {"E": 4000, "S": 2000, "N": 2000}


def test_languages(run):
    rec = json.loads(run("score", "234567m234p5688s+7s", "--seat", "S", "--lang", "ja", "-f", "json").stdout)
    assert [f["name"] for f in rec["fans"]] == ["平和", "断幺九"]
    rec = json.loads(run("score", "234567m234p5688s+7s", "--seat", "S", "--lang", "zh", "-f", "json").stdout)
    assert [f["name"] for f in rec["fans"]] == ["平和", "断幺九"]


def test_north_split_arithmetic():
    """北家折半: North's payment (rounded up to 100), halved and rounded up to 100 again, is
    added to each payer; equal to rounding each half share up for every han/fu a hand can have."""
    from mjtools.scoring.models.riichi import north_half, up100

    for han in range(1, 5):
        for fu in (20, 25, 30, 40, 50, 60, 70, 80, 90, 100, 110):
            basic = min(fu * 2 ** (han + 2), 2000)
            for dealer in (True, False):
                share = basic * (2 if dealer else 1)
                assert north_half(basic, dealer) == up100(-(-share // 2))
    assert north_half(2000, False) == 1000 and north_half(2000, True) == 2000
