"""The nine regional variant files and the engine additions they brought.

Completeness (names, texts, an illustrating example for every fan, option and special rule),
prerequisites that both pass and fail, statuses, and small hand-worked checks of each addition.
"""

from pathlib import Path

import pytest

from mjtools.batch.examples import run_example
from mjtools.errors import IllegalHandError, UsageError
from mjtools.rules import load
from mjtools.rules.freeze import thaw
from mjtools.rules.hand_options import build_context, normalize
from mjtools.scoring import score
from mjtools.scoring.table import settle_table
from mjtools.tiles.notation import parse_hand

VARIANTS = ["shenyang", "hainan", "yunnan", "guizhou-zhuoji", "inner-mongolia", "guannan", "nanjing", "lisi", "baoting-koupai"]
HOUSE = {"shenyang", "yunnan", "inner-mongolia", "guannan", "nanjing", "lisi", "baoting-koupai"}
ROOT = Path(__file__).resolve().parent.parent

# Each variant's prerequisites: the reason prefix an invalid example must show.
PREREQS = {
    "shenyang": ["must_open", "all_three_suits_required", "terminal_required"],
    "hainan": ["minimum_fan", "ming_mo_discard"],
    "yunnan": ["self_draw_only"],
    "guizhou-zhuoji": ["missing_suit"],
    "inner-mongolia": ["must_open", "pung_required", "terminal_required"],
    "lisi": ["ready_declaration", "stood"],
    "baoting-koupai": ["ready_declaration", "missing_suit", "one_suit_and_honors"],
}


def sc(rs, hand: str, **opts):
    return score(parse_hand(hand), rs, build_context(normalize(opts, "score"), rs), hand)


@pytest.mark.parametrize("rid", VARIANTS)
def test_documented_and_illustrated(rid):
    rs = load(rid)
    raw = thaw(rs.raw)
    assert (ROOT / "rules.d" / f"{rid}.yaml").exists()
    illustrated = {i for ex in raw.get("examples", {}).values() for i in ex.get("illustrates", ())}
    for kind in ("fans", "options", "special_rules"):
        for key, node in (raw.get(kind) or {}).items():
            if node is None:
                continue
            for lang in ("en", "zh_hans"):
                assert (node.get("text") or {}).get(lang), f"{rid} {kind}.{key}: no {lang} text"
                if kind != "options":
                    assert (node.get("names") or {}).get(lang), f"{rid} {kind}.{key}: no {lang} name"
            assert key in illustrated, f"{rid}: {kind}.{key} has no illustrating example"
            if kind == "options" and isinstance(node.get("choices"), dict):
                for choice, text in node["choices"].items():
                    assert text.get("en") and text.get("zh_hans"), f"{rid} options.{key}.{choice}"
    for lang in ("en", "zh_hans", "zh_hant"):
        assert raw["names"].get(lang)
    assert all(ex.get("source", "").strip() for ex in raw["examples"].values())


@pytest.mark.parametrize("rid", VARIANTS)
def test_status(rid):
    assert load(rid).raw["status"] == ("house_default" if rid in HOUSE else "regional_standard")


@pytest.mark.parametrize("rid", ["shenyang", "hainan", "guizhou-zhuoji"])
def test_seed_given_values_are_quoted(rid):
    examples = thaw(load(rid).raw)["examples"]
    quoted = [e for e, ex in examples.items() if ex["source"].startswith(("seed 004", "GZ"))]
    assert len(quoted) >= 6, f"{rid}: only {len(quoted)} sourced examples"


@pytest.mark.parametrize("rid", sorted(PREREQS))
def test_prerequisites_pass_and_fail(rid):
    rs = load(rid)
    reasons, valid = [], 0
    for ex in rs.examples.values():
        if "hand" not in ex or ex.get("command", "score") != "score":
            continue
        rec = run_example(rs, ex)
        if rec["valid"]:
            valid += 1
        else:
            reasons.append(rec["reason"])
    assert valid
    for prefix in PREREQS[rid]:
        assert any(r.startswith(prefix) for r in reasons), f"{rid}: no example fails {prefix}"


# -- engine additions, worked by hand -------------------------------------------------------------


def test_discarder_multipliers_stack_with_shares_and_dealer():
    rs = load("shenyang")
    # basic 1 fan = 2; E wins from S: S pays 2 x 2 (discarder share) x 2 (dealer) x 2 (闭门炮).
    rec = sc(rs, "123m789s456s9p(555p@N)+9p", seat="E", **{"from": "S"}, situation=["discarder_concealed"])
    assert rec["payments"] == {"S": 16, "W": 4, "N": 4}


def test_meld_kind_shape_is_checked():
    with pytest.raises(IllegalHandError):
        sc(load("shenyang"), "123m789s9p(124z/liang)(555p@N)+9p", seat="S")


def test_forbid_reason_and_option():
    rs = load("shenyang")
    hand = "5m(111m@N)(999s@W)(555p@E)(222p@W)+5m"
    assert sc(rs, hand, seat="S")["valid"]
    assert sc(rs.with_options({"golden_hook_allowed": False}), hand, seat="S")["reason"].startswith("golden_hook_barred")


def test_aside_in_hand_counts_toward_size_and_sets():
    rs = load("lisi")
    rec = sc(rs, "{stood=1m5p9s}23m46p78s11s34m+5m", riichi=True, seat="W", **{"from": "N"})
    assert rec["valid"] and rec["points"] == 1
    assert sc(rs, "{stood=12345m}6m789p11s23s+4s", riichi=True)["reason"].startswith("stood: 5 tiles")
    with pytest.raises(IllegalHandError):  # stood tiles count toward the 14
        sc(rs, "{stood=123m}6m789p11s23s4s+4s", riichi=True)


def test_follow_dealer_and_false_win_need_their_settings():
    with pytest.raises(UsageError):
        settle_table({"table": {"S": "123m456m789m11p23p+4p"}, "event": "win", "winners": ["S"], "situation": ["follow_dealer=1"]}, load("yunnan"))
    with pytest.raises(UsageError):
        settle_table({"table": {"N": "123m456m789m11p23p"}, "event": "false_win"}, load("baoting-koupai"))
    out = settle_table({"table": {"N": "123m456m789m11p23p"}, "event": "false_win", "offender": "S"}, load("baoting-koupai"))
    assert out["net"] == {"E": 2, "S": -4, "W": 1, "N": 1}


def test_deal_flip_chicken_and_golden():
    rs = load("guizhou-zhuoji")
    # 9p turned after the deal: 1p is a chicken (1 each); 7p after the win: 8p golden (2 each).
    out = settle_table({"table": {"S": "111p234m567m99m78m+9m", "E": "88p123m456m789m22s"}, "event": "win", "winners": ["S"],
                        "indicator": ["deal_chicken=9p", "chicken=7p"]}, rs)
    # Hand 3 from each; S's three 1p collect 3 from each; E's two 8p collect 4 from each.
    assert out["net"] == {"S": 9 + 9 - 4, "E": -3 - 3 + 12, "W": -3 - 3 - 4, "N": -3 - 3 - 4}


def test_stake_keeps_base_as_money_unit():
    rec = sc(load("guizhou-zhuoji"), "123m456m789m2p[1111p]+2p", seat="S", tsumo=True)
    assert rec["fan_total"] == 3 and rec["payments"] == {"E": 6, "W": 6, "N": 6}


def test_bad_table_event_is_a_usage_error(run):
    r = run("score", "-r", "baoting-koupai", "--input", "-", input='{"table": {"N": "123m456m789m11p23p"}, "event": "oops"}\n')
    assert r.exit_code == 1 and "false_win" in r.stderr  # a table: the failed case on stderr
