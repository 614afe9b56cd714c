"""The fan plan's shortcuts agree with the patterns they skip.

A pattern declared `exact` (patterns.EXACT) is counted 1 without a call on every reading
without wildcards whose feature bits hold what it needs; here every such fan is also called on
seeded random wins of the shipped rule files, and must return 1 there. A record without
--explain skips readings that differ only in where the winning tile sits (patterns.PLACEMENT)
and fans a sure fan excludes (Plan.sure): it must equal the record --explain gives, which
evaluates every reading and every fan."""

from __future__ import annotations

import random

import pytest
from riichi_cases import random_case

import mjtools.scoring as scoring
from gen import winning_case
from mcr_gen import mcr_case
from mjtools.errors import MjError
from mjtools.patterns.features import ALL_FEATURES
from mjtools.rules import load
from mjtools.rules.hand_options import build_context, normalize
from mjtools.scoring import score
from mjtools.scoring.fans import is_exact, plan_for
from mjtools.tiles.notation import parse_hand

RULES = ("mcr", "riichi", "guangdong-cantonese", "taiwan-16", "sichuan-xuezhan", "base-chinese", "hangzhou", "shanghai-baida", "zhuanzhuan", "ema")


def _cases(rid: str, rng: random.Random, n: int):
    for _ in range(n):
        if rid == "mcr":
            text, opts, _ = mcr_case(rng)
            yield text, opts
        elif rid == "riichi":
            opts = random_case(rng).json_case()
            yield opts.pop("hand"), opts
        else:
            got = winning_case(rng, sets=5 if rid == "taiwan-16" else 4, flowers=rng.random() < 0.5, two_suits=rng.random() < 0.3)
            if got is not None:
                yield got


@pytest.mark.parametrize("rid", RULES)
def test_exact_fans_hold_where_their_bits_do(rid: str, monkeypatch: pytest.MonkeyPatch) -> None:
    rs = load(rid)
    plan = plan_for(rs)
    exact = [e for e in (*plan.entries, *plan.opening) if e.exact]
    exact_alts = [e for e in (*plan.entries, *plan.opening) if e.exact_alts]
    checked = [0]
    original = scoring.evaluate_fans

    def checking(ctx, rs_, lang="en", plan_=None, opening=False, prune=False):
        f = ctx.features
        if f != ALL_FEATURES:
            for e in exact:
                if e.needs & f == e.needs:
                    # (a fan that counts no instances reads only that it is nonzero)
                    n = e.fn(ctx)
                    assert n == 1 or (n > 1 and not e.instance), f"{rid}: {e.id} is declared exact but is {n} on {ctx.hand} ({ctx.d})"
                    checked[0] += 1
            for e in exact_alts:  # an any_of with an exact alternative whose bits hold: nonzero
                if any(a & f == a for a in e.exact_alts):
                    assert e.fn(ctx) >= 1, f"{rid}: {e.id}'s alternative is declared exact but it is 0 on {ctx.hand} ({ctx.d})"
                    checked[0] += 1
        return original(ctx, rs_, lang, plan_, opening, prune)

    monkeypatch.setattr(scoring, "evaluate_fans", checking)
    rng = random.Random(f"gates:{rid}")
    for text, opts in _cases(rid, rng, 300):
        try:
            ctx = build_context(normalize(opts, "score"), rs)
            score(parse_hand(text), rs, ctx, text)
        except MjError:
            continue
    if rid in ("mcr", "riichi", "guangdong-cantonese"):  # (wildcard variants skip the shortcut)
        assert checked[0] > 100


def test_exact_declarations() -> None:
    """Which specs count as exact: parameters the declaration accepts, suit-count conditions."""
    assert is_exact("self_draw") and is_exact({"id": "concealed_hand", "ron_only": True})
    assert not is_exact({"id": "all_simples", "open_allowed": False})
    assert is_exact({"suits": {"min": 2, "max": 2}}) and is_exact({"suits": {"min": 1}, "honors": False})
    assert not is_exact({"suits": {"min": 1}, "honors": True}) and not is_exact("pure_straight")
    mcr = plan_for(load("mcr"))
    assert [e.id for e in mcr.entries if e.exact_alts] == ["all_chows"]  # 平和's all_chows, no honors
    assert not is_exact({"id": "all_chows", "two_sided_wait": True}) and is_exact({"id": "all_chows", "no_honors": True})
    # 双暗刻 (concealed_pungs, min 2) counts its pungs: exact only for a fan that counts no instances
    assert not is_exact({"id": "concealed_pungs", "min": 2}) and is_exact({"id": "concealed_pungs", "min": 2}, False)
    assert not is_exact({"id": "concealed_pungs", "min": 1}, False) and "concealed_pungs_2" in {e.id for e in mcr.entries if e.exact}
    assert {e.id for e in mcr.entries if e.exact} >= {"chicken_hand", "self_draw", "concealed_self_draw", "concealed_hand", "missing_suit", "no_honors", "full_flush", "seven_pairs", "all_pungs", "all_simples", "melded_kong", "concealed_kong", "two_melded_kongs", "two_concealed_kongs", "concealed_and_melded_kong"}


@pytest.mark.parametrize("rid", RULES)
def test_shortcuts_give_the_record_of_every_reading(rid: str) -> None:
    rs = load(rid)
    rng = random.Random(f"shortcuts:{rid}")
    compared = 0
    for text, opts in _cases(rid, rng, 300):
        try:
            ctx = build_context(normalize(opts, "score"), rs)
            hand = parse_hand(text)
            quick = score(hand, rs, ctx, text)
        except MjError:
            continue
        full = score(hand, rs, ctx, text, explain=True)
        full.pop("explain")
        assert quick == full, f"{rid}: {text} {opts}"
        compared += 1
    assert compared > 40  # (some variants refuse many generic wins: chows, suits)


def test_placement_declarations() -> None:
    """What the plans read of the winning tile's place: MCR only whether a concealed pung was
    completed by a discard (its pair fans need every set laid down); riichi's fu read it all."""
    from mjtools.scoring.score_plan import score_plan

    assert score_plan(load("mcr")).placement == (False, True)
    assert score_plan(load("riichi")).placement is None
    assert "seven_pairs" in {e.id for e in plan_for(load("mcr")).every if e.bit & plan_for(load("mcr")).sure}


@pytest.mark.parametrize("rid", ("mcr", "riichi"))
def test_held_in_tables_hold_their_patterns(rid: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A pattern declared held in a table (patterns.HELD_IN: pure_straight in combos.relations)
    is skipped where that table lacks it: wherever it occurs, the table holds its id."""
    from mjtools.patterns import HELD_IN, registry

    reg = registry()
    checked = [0]
    original = scoring.evaluate_fans

    def checking(ctx, rs_, lang="en", plan_=None, opening=False, prune=False):
        for pid, table in HELD_IN.items():
            if reg[pid](ctx):
                assert pid in table(ctx), f"{rid}: {pid} occurs on {ctx.hand} ({ctx.d}) but its table lacks it"
                checked[0] += 1
        return original(ctx, rs_, lang, plan_, opening, prune)

    monkeypatch.setattr(scoring, "evaluate_fans", checking)
    rs = load(rid)
    rng = random.Random(f"held:{rid}")
    for text, opts in _cases(rid, rng, 400):
        try:
            score(parse_hand(text), rs, build_context(normalize(opts, "score"), rs), text)
        except MjError:
            continue
    assert checked[0] > 20
    # MCR reads relations for its set combinations, so the plan filters these by it; riichi
    # reads no table and calls them.
    assert plan_for(load("mcr")).by_id["pure_straight"].table is not None
    assert plan_for(load("riichi")).by_id["pure_straight"].table is None


def test_nested_alternatives_get_their_hand_bits() -> None:
    """An any_of tries an alternative only where the reading has its bits, so a plan works out
    the hand bits of alternatives nested at any depth (here `four`, which no other fan needs)."""
    from mjtools.patterns.features import BIT
    from mjtools.scoring.fan_spec import compile_spec, nested_needs

    spec = {"all_of": ["self_draw", {"any_of": ["four_in_hand", "seven_pairs"]}]}
    assert nested_needs(spec) & BIT["four"]
    assert not compile_spec(spec)[1] & BIT["four"]  # (the all_of itself cannot need it)
