"""The Hunan variants (changsha, zhuanzhuan) and the engine additions they brought.

Completeness (names, texts, an illustrating example for every fan, option and special rule),
prerequisites that both pass and fail, statuses, and small hand-worked checks of each addition:
opening wins, the all_258 form, 相公, pair_258 exemptions by fan, small units and tiers, the
bird settings, meld counts_as, last_meld, the passed-win lock, and the next dealer of a table.
"""

import json
from pathlib import Path

import pytest

from mjtools.batch.examples import run_example
from mjtools.errors import IllegalHandError, RuleFileError, UsageError
from mjtools.rules import load, load_path
from mjtools.rules.freeze import thaw
from mjtools.rules.hand_options import build_context, normalize
from mjtools.scoring import score
from mjtools.scoring.models.category import tier_of
from mjtools.scoring.table import settle_table
from mjtools.tiles.notation import parse_hand

VARIANTS = ["changsha", "zhuanzhuan"]
STATUS = {"changsha": "regional_standard", "zhuanzhuan": "house_default"}
# Each variant's prerequisites: the reason prefix some invalid example must show.
PREREQS = {
    "changsha": ["pair_258", "opening_win", "pass_lock", "dead_hand"],
    "zhuanzhuan": ["self_draw_only", "full_flush_without_258_pair"],
}


def sc(rs, hand: str, **opts):
    rec = score(parse_hand(hand), rs, build_context(normalize(opts, "score"), rs), hand)
    if rec["valid"]:
        assert abs(sum(rec["payments"].values()) - rec["points"]) < 1e-9
    return rec


def pays(rec) -> dict[str, float]:
    return {s: a for s, a in rec["payments"].items() if a}


@pytest.fixture(scope="module")
def cs():
    return load("changsha")


@pytest.mark.parametrize("rid", VARIANTS)
def test_documented_and_illustrated(rid):
    raw = thaw(load(rid).raw)
    illustrated = {i for ex in raw["examples"].values() for i in ex.get("illustrates", ())}
    for kind in ("fans", "options", "special_rules"):
        for key, node in (raw.get(kind) or {}).items():
            if node is None:
                continue
            for lang in ("en", "zh_hans"):
                assert (node.get("text") or {}).get(lang), f"{rid} {kind}.{key}: no {lang} text"
                if kind != "options":
                    assert (node.get("names") or {}).get(lang), f"{rid} {kind}.{key}: no {lang} name"
            assert key in illustrated, f"{rid}: {kind}.{key} has no illustrating example"
            if kind == "options":
                for choice, text in node["choices"].items():
                    assert text.get("en") and text.get("zh_hans"), f"{rid} options.{key}.{choice}"
    for lang in ("en", "zh_hans", "zh_hant"):
        assert raw["names"].get(lang)
    for key, text in raw["unsupported"].items():
        assert text.get("en") and text.get("zh_hans"), f"{rid} unsupported.{key}"
    assert all(ex.get("source", "").strip() for ex in raw["examples"].values())
    assert raw["status"] == STATUS[rid]


def test_changsha_has_published_examples():
    examples = thaw(load("changsha").raw)["examples"]
    published = [e for e, ex in examples.items() if not ex["source"].startswith("derived")]
    assert len(published) >= 6


def test_unsupported_piao_and_hongzhong_say_why():
    assert "piao" in load("changsha").raw["unsupported"]
    assert "红中" in load("zhuanzhuan").raw["unsupported"]["hongzhong"]["zh_hans"]


@pytest.mark.parametrize("rid", sorted(PREREQS))
def test_prerequisites_pass_and_fail(rid):
    rs = load(rid)
    reasons, valid = [], 0
    for ex in rs.examples.values():
        if "hand" not in ex:
            continue
        rec = run_example(rs, ex)
        valid += bool(rec["valid"])
        if not rec["valid"]:
            reasons.append(rec["reason"])
    assert valid
    for prefix in PREREQS[rid]:
        assert any(r.startswith(prefix) for r in reasons), f"{rid}: no example fails {prefix}"


# -- opening wins ---------------------------------------------------------------------------------


def test_opening_win_is_paid_as_a_small_self_draw(cs):
    # 1111m: 四喜; two triplets (1111m, 999p): 六六顺. Two small units: 2 x 2 from each, E +1.
    rec = sc(cs, "1111m999p123456s", seat="W", situation=["opening_win"])
    assert {f["id"] for f in rec["fans"]} == {"opening_four_of_kind", "opening_two_pungs"}
    assert pays(rec) == {"E": 5, "S": 4, "N": 4}
    # The same fans never count on an ordinary win: 1111m here is a pung and a chow.
    rec = sc(cs, "1111m23m999p234s5s+5s", seat="W", tsumo=True)
    assert [f["id"] for f in rec["fans"]] == ["basic_win"]


def test_opening_win_input_errors(cs):
    with pytest.raises(IllegalHandError, match="dealt 14 tiles"):
        sc(cs, "1111m999p123456s", seat="E", situation=["opening_win"])
    with pytest.raises(IllegalHandError, match="melds"):
        sc(cs, "1111m999p123s(456s@S)", seat="W", situation=["opening_win"])
    with pytest.raises(UsageError, match="from"):
        sc(cs, "1111m999p123456s", seat="W", situation=["opening_win"], **{"from": "S"})
    with pytest.raises(UsageError, match="no opening wins"):
        sc(load("zhuanzhuan"), "1111m999p123456s", seat="W", situation=["opening_win"])


def test_opening_win_cli_error_is_one_line(run):
    r = run("score", "-r", "changsha", "1111m999p123456s7s", "--seat", "W", "--situation", "opening_win")
    assert r.exit_code == 2
    assert "Traceback" not in r.output and "dealt 13 tiles" in r.output


# -- shapes and prerequisites ----------------------------------------------------------------------


def test_all_258_form_wins_without_sets_and_counts_for_shanten(run, cs):
    rec = sc(cs, "22558m258p2558s8s+8s", seat="S", **{"from": "W"})
    assert rec["valid"] and [f["id"] for f in rec["fans"]] == ["all_258"]
    r = run("shanten", "-r", "changsha", "22558m258p2558s8s", "-f", "json")
    assert json.loads(r.stdout)["forms"]["all_258"] == 0
    # A pon of a non-258 tile rules the form out.
    assert not sc(cs, "2558m258p2558s8s(777m@W)+8s", seat="S", **{"from": "W"})["valid"]


def test_pair_258_exempt_by_fan(cs):
    hand = "123m456m789p99s34s+5s"
    assert sc(cs, hand, seat="S", tsumo=True)["reason"].startswith("pair_258")
    rec = sc(cs, hand, seat="S", tsumo=True, last_tile=True)
    assert rec["valid"] and pays(rec) == {"E": 7, "W": 6, "N": 6}


def test_fully_melded_wait_needs_no_258_pair(run):
    # 全求人 is a big win, so the lone 9s waits for its partner; a concealed kong spoils it.
    r = run("wait", "-r", "changsha", "9s(123m@E)(456p@E)(789p@E)(222s@W)", "--seat", "S", "-f", "json")
    assert json.loads(r.stdout)["waits"] == ["9s"]
    r = run("wait", "-r", "changsha", "9s(123m@E)(456p@E)(789p@E)[2222s]", "--seat", "S", "-f", "json")
    assert json.loads(r.stdout)["tenpai"] is False


def test_dead_hand_too_few(cs):
    rec = sc(cs, "123m456m789p5s+5s", seat="S", **{"from": "W"})
    assert rec["reason"] == "dead_hand: 11 tiles where a win has 14 (小相公, too few tiles)"
    with pytest.raises(IllegalHandError):  # without the rule a wrong count is bad input
        sc(load("sichuan-xuezhan"), "123m456m789p5s+5s", seat="S", **{"from": "W"})


def test_passed_win_only_under_pass_lock(cs):
    assert sc(cs, "123m456m789p234s5s+5s", seat="S", situation=["passed_win"], **{"from": "W"})["reason"].startswith("pass_lock")
    with pytest.raises(UsageError):  # riichi declares its situations; passed_win is not one
        sc(load("riichi"), "123m456m789p234s5s+5s", seat="S", situation=["passed_win"])


def test_meld_counts_as_and_last_meld(cs):
    with pytest.raises(IllegalHandError, match="counts as a kong"):
        sc(cs, "333p666s9s(777m@S)(222m@W/bu)+9s", seat="N", tsumo=True)
    # A real kong as the last call keeps 杠上花; a 补张 before it does not matter.
    rec = sc(cs, "666s9s(3333p@W/bu)(777m@S)[2222m]+9s", seat="N", tsumo=True, kong_bloom=True)
    assert {f["id"] for f in rec["fans"]} == {"all_pungs", "kong_bloom"}


def test_tiers_and_small_units():
    tiers = {"a": {"min_units": 1}, "b": {"min_units": 2}, "c": {"min_units": 3}}
    assert [tier_of(tiers, u) for u in (0, 1, 2, 5)] == [None, "a", "b", "c"]


# -- birds ------------------------------------------------------------------------------------------


def test_bird_hits_winner_only_and_double(cs):
    zz = load("zhuanzhuan")
    # From the winner S: 2m lands on W, which misses under hits: winner.
    assert pays(sc(zz, "123m456p789s234m6s+6s", seat="S", tsumo=True, birds="2m"))["W"] == 2
    # Changsha, doubling: W pays 1 for the small win; 6p and 2s both land on S, the winner,
    # each doubling W's payment: 2, then 4.
    rec = sc(cs.with_options({"bird_hit": "double"}), "123m456m789p234s5s+5s", seat="S", **{"from": "W"}, birds="6p2s")
    assert pays(rec) == {"W": 4}
    with pytest.raises(UsageError, match="no birds"):
        sc(cs.with_options({"bird_count": 0}), "123m456m789p234s5s+5s", seat="S", tsumo=True, birds="1m")


# -- table cases ------------------------------------------------------------------------------------


def test_next_dealer_after_a_win_and_a_draw(cs):
    out = settle_table({"table": {"S": "123m456m789p234s5s+5s"}, "event": "win", "winners": ["S"], "from": "W"}, cs)
    assert out["next_dealer"] == "S"
    # After a draw: wall.exhaustive_dealer (repeat: East deals again).
    out = settle_table({"table": {"E": "123m456m789m1p(3333p@S)"}, "event": "draw", "active": "E"}, load("sichuan-xuezhan"))
    assert out["next_dealer"] == "E"
    # 血战 deals to the first winner; after two winners on one discard, to the discarder.
    out = settle_table({"table": {"S": "1122334455667m+7m", "W": "123p456p789p55m68m+7m"}, "event": "win", "winners": ["S", "W"], "from": "E"}, load("sichuan-xuezhan"))
    assert out["next_dealer"] == "E"


# -- rule-file checks -------------------------------------------------------------------------------


def _file(tmp_path: Path, body: str) -> Path:
    p = tmp_path / "x.yaml"
    p.write_text("schema_version: 1\nid: x\nextends: base-chinese-108\nnames: {en: X, zh_hans: X}\n" + body, encoding="utf-8")
    return p


def test_checks_refuse_unknown_exemptions_and_opening_wins(tmp_path):
    with pytest.raises(RuleFileError, match="pair_258_exempt"):
        load_path(_file(tmp_path, "win: {forms: [standard], require: [pair_258], pair_258_exempt: [nonsense]}\n"))
    with pytest.raises(RuleFileError, match="opening win"):
        load_path(_file(tmp_path, "play: {opening_wins: [not_a_fan]}\n"))
