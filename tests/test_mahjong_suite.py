"""The scoring cases of the `mahjong` package's own test suite, in mjtools notation.

tests/data/mahjong_suite_cases.jsonl holds one case a line, written as data from the tests of
MahjongRepository/mahjong (yaku, yakuman, fu, score table, hand dividing, errors, Aotenjou): the hand and the
options as a batch case gives them (`args`, rule options in `options`), and what the upstream
test asserts (`expect`). Translation notes:

- Upstream's hands include the meld tiles; here melds are written as melds and `+X` is the win.
- Upstream leaves the seat and round wind unset unless a test sets them (no wind is valued and
  the winner is not the dealer): a case then takes a non-dealer seat and a round whose winds
  are not in the hand.
- Upstream's OptionalRules default to no open tanyao and no red fives; a case with an open
  meld or a red five says so in `options` (our defaults have both).
- A test of the fu calculator alone (tests_fu_calculation.py) gets a yaku that adds no fu
  (riichi, or the last tile / last discard) so the hand is a win; a hand-dividing test
  compares the readings `score --explain` lists.
- A score-table test (han and fu given, tests_scores_calculation.py) goes through the riichi
  model's own limit and payment functions.

Aotenjou (mahjong's limitless calculator) is riichi.yaml's option `aotenjou`; its cases set it.
Not ported: the Aotenjou test's hand with eight dora indicators (at most five exist), the
is_condition_met checks of single yaku on a divided
hand (no scoring), hands with two or more red fives of one suit (one per suit here), and
upstream flag combinations our options cannot state (is_haitei on a ron, is_houtei by tsumo,
is_tenhou for a non-dealer, is_chiihou for the dealer or on a ron, a winning tile outside the
hand): `--last-tile` and `--first-turn` take their meaning from `--tsumo` and `--seat`.

`mahjong_2_1_0` records what the installed `mahjong` 2.1.0 answered for the same inputs when
the file was written; the assertions here are the upstream tests' own.
"""

from __future__ import annotations

import copy
import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from mjtools.errors import MjError
from mjtools.rules import load
from mjtools.rules.hand_options import build_context, normalize
from mjtools.scoring import score
from mjtools.scoring.models.riichi import _params, limit_of, pay_amounts
from mjtools.tiles.notation import parse_hand

DATA = Path(__file__).parent / "data" / "mahjong_suite_cases.jsonl"
CASES: list[dict[str, Any]] = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines() if line.strip()]
# What each check reads from a record; every key of `expect` must be one of these.
# upstream's errors that are answers (valid: false, with this reason) rather than refusals
ANSWERS = {"no_yaku": "no yaku", "hand_not_winning": "not a winning shape"}
KNOWN = {"han", "fu", "n_yaku", "yaku", "yaku_has", "han_not", "cost", "win", "error", "fu_parts", "reading", "divisions", "computes"}


@cache
def _rules(options: str):
    # pao is mjtools' own rule (mahjong has none); off, as in tests/test_riichi_diff.py
    return load("riichi", dict(json.loads(options), pao=False))


def record(case: dict[str, Any]) -> dict[str, Any]:
    """mjtools' answer: a score record, a score-table payment, or {"refused": message}."""
    rs = _rules(json.dumps(case.get("options", {}), sort_keys=True))
    try:
        ctx = build_context(normalize(dict(case["args"]), "score"), rs)
        if "table" in case:
            basic, _ = limit_of(case["table"]["han"], case["table"]["fu"], _params(rs))
            payments, pot = pay_amounts(basic, rs, ctx)
            return {"valid": True, "payments": payments, "pot": pot, "points": sum(payments.values()) + pot, "fans": []}
        explain = any(k in case["expect"] for k in ("reading", "divisions"))
        return score(parse_hand(case["hand"]), rs, ctx, case["hand"], explain=explain)
    except MjError as e:
        return {"refused": str(e)}


def cost(case: dict[str, Any], rec: dict[str, Any]) -> dict[str, int]:
    """mahjong's cost fields from our payments: `main` is the discarder's payment (ron) or the
    dealer's (a non-dealer's tsumo; each payer's on a dealer's), `additional` a non-dealer
    payer's, the bonuses the honba and the sticks."""
    args, pay = case["args"], rec["payments"]
    honba = args.get("honba", 0)
    if args.get("tsumo"):
        dealer = args.get("seat", "E") == "E"
        other = next(s for s in pay if s != "E")
        main = pay[other if dealer else "E"] - 100 * honba
        additional = pay[other] - 100 * honba
        bonus = (100 * honba, 100 * honba)
    else:
        main, additional, bonus = max(pay.values()) - 300 * honba, 0, (300 * honba, 0)
    out = {"main": main, "additional": additional, "main_bonus": bonus[0], "additional_bonus": bonus[1], "kyoutaku_bonus": rec["pot"], "total": rec["points"]}
    out["main+additional"] = main + additional  # (the Aotenjou tests assert this sum)
    return out


def mahjong_yaku_count(rec: dict[str, Any]) -> int:
    # mahjong lists each dragon pung as its own yaku (Haku, Hatsu, Chun); we count them as one fan
    return sum(f["count"] if f["id"] == "dragon_pung" else 1 for f in rec["fans"])


def problems(case: dict[str, Any], rec: dict[str, Any]) -> list[str]:
    exp = case["expect"]
    if exp.get("computes"):
        return [rec["refused"]] if "refused" in rec else []
    if "error" in exp:
        # upstream's named error: no yaku or not a winning hand is an answer here (valid:
        # false); flags that cannot go together are refused, as on the command line
        want = ANSWERS.get(exp["error"])
        if want is None:
            return [] if "refused" in rec else [f"not refused ({exp['error']})"]
        return [] if "refused" not in rec and not rec["valid"] and rec["reason"] == want else [f"{rec.get('refused') or rec.get('reason')}, expected {want!r}"]
    if exp.get("win") is False:
        # upstream asserts only that there is an error
        return [] if "refused" in rec or not rec["valid"] else [f"a win: {rec['han']} han {rec['fu']} fu {[f['id'] for f in rec['fans']]}"]
    if "refused" in rec:
        return [rec["refused"]]
    out = []
    if "divisions" not in exp and not rec["valid"]:
        return [f"not a win: {rec.get('reason')}"]
    for k in ("han", "fu"):
        if k in exp and rec[k] != exp[k]:
            out.append(f"{k} {rec[k]}, expected {exp[k]}")
    if "han_not" in exp and rec["han"] == exp["han_not"]:
        out.append(f"han {rec['han']}, expected anything else")
    if "n_yaku" in exp and mahjong_yaku_count(rec) != exp["n_yaku"]:
        out.append(f"{[f['id'] for f in rec['fans']]}: expected {exp['n_yaku']} yaku")
    ids = sorted(f["id"] for f in rec["fans"])
    if "yaku" in exp and ids != sorted(exp["yaku"]):
        out.append(f"yaku {ids}, expected {sorted(exp['yaku'])}")
    if "yaku_has" in exp and not set(exp["yaku_has"]) <= set(ids):
        out.append(f"yaku {ids}, expected among them {exp['yaku_has']}")
    if "cost" in exp:
        got = cost(case, rec)
        out += [f"cost {k} {got[k]}, expected {v}" for k, v in exp["cost"].items() if got[k] != v]
    if "fu_parts" in exp:
        # upstream's closed-ron base of 30 is our base 20 plus the 10 of a concealed ron
        parts = sorted(p["fu"] for p in rec["fu_breakdown"] if p["reason"] not in ("base", "concealed ron"))
        if parts != sorted(exp["fu_parts"]):
            out.append(f"fu parts {rec['fu_breakdown']}, expected {exp['fu_parts']} besides the base")
    if "reading" in exp:
        want = exp["reading"]
        readings = [r for r in rec["explain"]["readings"] if r["wait"] == want["wait"]]
        if not readings or any(r.get("fu") != want["fu"] for r in readings):
            out.append(f"readings {[(r['wait'], r.get('fu')) for r in rec['explain']['readings']]}, expected a {want['wait']} wait at {want['fu']} fu")
    if "divisions" in exp:
        got = sorted({tuple(sorted(b.strip("()[]") for b in r["decomposition"])) for r in rec["explain"]["readings"]})
        want_d = sorted(tuple(sorted(d)) for d in exp["divisions"])
        if got != want_d:
            out.append(f"decompositions {got}, expected {want_d}")
    return out


def test_the_file_is_well_formed():
    ids = [c["id"] for c in CASES]
    assert len(ids) == len(set(ids))
    for c in CASES:
        assert ("hand" in c) != ("table" in c), c["id"]
        assert c["expect"] and set(c["expect"]) <= KNOWN, c["id"]
        assert c["source"].startswith("MahjongRepository/mahjong tests_"), c["id"]
    by_file = {}
    for c in CASES:
        by_file[c["id"].split(":")[0]] = by_file.get(c["id"].split(":")[0], 0) + 1
    assert set(by_file) == {"yaku", "yakuman", "fu", "scores", "hand_dividing", "hand_response_error", "aotenjou"}


@pytest.mark.parametrize("group", sorted({c["id"].split(":")[0] for c in CASES}))
def test_upstream_cases_agree(group):
    failures = []
    for case in (c for c in CASES if c["id"].startswith(group + ":")):
        bad = problems(case, record(case))
        if bad:
            failures.append(f"{case['id']} {case.get('hand', case.get('table'))} {case['args']} {case.get('options', {})}: " + "; ".join(bad))
    assert not failures, f"{len(failures)} differ:\n" + "\n".join(failures)


def test_the_checks_can_fail():
    """Each kind of expectation catches a wrong value (a check that always passes proves nothing)."""
    changed = 0
    for case in CASES:
        exp = case["expect"]
        for key in ("han", "fu", "n_yaku"):
            if key in exp:
                bad = copy.deepcopy(case)
                bad["expect"][key] += 1
                assert problems(bad, record(bad)), (case["id"], key)
                changed += 1
        if "cost" in exp:
            bad = copy.deepcopy(case)
            k = next(iter(exp["cost"]))
            bad["expect"]["cost"][k] += 100  # (a total, a payment: a step of 100 is always a change)
            assert problems(bad, record(bad)), case["id"]
        if exp.get("win") is False or "error" in exp:
            # a valid record where upstream has an error: the check must notice it
            rec = {"valid": True, "han": 1, "fu": 30, "fans": []}
            assert problems(case, rec), case["id"]
    assert changed > 300


def test_upstream_configs_that_mjtools_refuses():
    """Older versions of upstream's tests (before 2.x) scored flag combinations that cannot
    occur, which mahjong 2.1.0 or mjtools refuses: a replacement-tile win by ron with no kong,
    robbing a kong of a tile the hand holds two more of. The current tests use possible
    hands (ported above); these stay refused."""
    rs = _rules("{}")
    for hand, args in (("234456m66p12344s+4s", {"kong_bloom": True, "seat": "S"}), ("234456m66p12344s+4s", {"robbing_kong": True, "seat": "S"})):
        with pytest.raises(MjError):
            score(parse_hand(hand), rs, build_context(normalize(dict(args), "score"), rs), hand)


def test_aotenjou_off_keeps_the_limits():
    """The same hands with aotenjou off score as usual: a yakuman alone, its limit."""
    case = next(c for c in CASES if c["id"] == "aotenjou:daisangen")
    plain = dict(case, options={k: v for k, v in case.get("options", {}).items() if k != "aotenjou"})
    rec = record(plain)
    assert (rec["han"], rec["limit"], [f["id"] for f in rec["fans"]]) == (13, "yakuman", ["big_three_dragons"])
    assert record(case)["limit"] is None
