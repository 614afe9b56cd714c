"""The simulator's table-driven analysis (`sim/fastshape.py`, `fastforms.py`) against the
general engine (`analysis/shanten.py`, `waits.py`) for every shape rule the rule files use:
2-5-8 pair (with its exemptions, seven pairs and 将将和), 缺一门 (with and without a declared
void), 八枝, 不允许缺门, wildcards (stand-in tiles, melds laid down), honor chows (with 十三烂).

Hands come from the rule file's own spec (a wildcard drawn as the engine draws it), with 0-3
melds (pungs, chows, exposed and concealed kongs) and concealed tiles either uniform or a
complete hand with a few tiles changed. Per hand: shanten, effective tiles and waits of a
hand-size hand; on every tenth, the discard table of a hand-size + 1 hand. The fast suite
plays a sample, the slow suite 20,000 hands per rule (effective tiles and waits of one in
five, discard tables of one in 200: the general engine's side is what takes the time).
"""

from __future__ import annotations

import os
import random

import pytest

from mjtools.analysis.shanten import discard_table, effective, shanten_of_state, state_of
from mjtools.analysis.waits import waits_of
from mjtools.analysis.wildcards import copies_in_play, stand_ins, wild_kinds
from mjtools.rules import load
from mjtools.sim.fastshape import Analyzer
from mjtools.tiles.context import WinContext
from mjtools.tiles.hand import Hand, Meld
from mjtools.tiles.kinds import Tile, kind_str

# rule -> (rule file, options, declared void suits to try)
RULES = {
    "pair_258": ("changsha", {}, (None,)),
    "missing_suit": ("sichuan-xuezhan", {}, (None, 0, 2)),
    "eight_of_one_suit": ("hebei", {"eight_of_one_suit": True}, (None,)),
    "all_three_suits": ("shenyang", {}, (None,)),
    "wildcards": ("wuhan-hongzhong", {}, (None,)),
    "wildcard_stand_ins": ("wenzhou", {}, (None,)),
    "honor_chows": ("nanchang", {}, (None,)),
}
FAST_N = int(os.environ.get("SHAPE_RULES_N", "40"))


def _spec(rs, rng):
    """The spec and copies of one hand: a wildcard indicator turned at random, as in play."""
    indicators = {}
    if rs.section("wildcards").get("indicator"):
        indicators = {"wild": (Tile(rng.choice(sorted(rs.playable_kinds - rs.bonus_kinds))),)}
    ctx = WinContext(indicators=indicators)
    wild = wild_kinds(rs, ctx)
    return rs.shape_spec(wild, stand_ins(rs, wild)) if wild else rs.base_spec, copies_in_play(rs, ctx)


def _melds(rng, spec, left):
    out = []
    naturals = sorted(k for k in spec.kinds if k not in spec.wild_kinds)
    for _ in range(rng.choice((0, 0, 0, 1, 1, 2, 3))):
        for _attempt in range(20):
            r = rng.random()
            if r < 0.4:
                k = rng.choice([k for k in naturals if k < 27 and k % 9 <= 6 and k + 1 in spec.kinds and k + 2 in spec.kinds] or naturals)
                tiles, kind = ((k, k + 1, k + 2), "chow") if k < 27 and k % 9 <= 6 else ((k,) * 3, "pung")
            elif r < 0.8:
                k = rng.choice(naturals)
                tiles, kind = (k,) * 3, "pung"
            else:
                k = rng.choice(naturals)
                tiles, kind = (k,) * 4, rng.choice(("exposed_kong", "concealed_kong"))
            if all(left[t] >= tiles.count(t) for t in set(tiles)):
                for t in tiles:
                    left[t] -= 1
                out.append((tiles, kind))
                break
    return out


def _concealed(rng, spec, left, n):
    """n tiles: uniform, or a complete-looking hand with a few changed."""
    pool = [k for k in range(50) for _ in range(left[k])]
    if rng.random() < 0.5 or n < 3:
        return sorted(rng.sample(pool, n))
    out = []
    naturals = [k for k in sorted(spec.kinds) if left[k]]
    while len(out) + 3 <= n - 2:
        k = rng.choice(naturals)
        tiles = (k, k + 1, k + 2) if k < 27 and k % 9 <= 6 and rng.random() < 0.6 else (k, k, k)
        if all(left[t] >= tiles.count(t) for t in set(tiles)):
            for t in tiles:
                left[t] -= 1
            out += tiles
    while len(out) < n:
        k = rng.choice(naturals + sorted(spec.wild_kinds))
        if left[k]:
            left[k] -= 1
            out.append(k)
    for _ in range(rng.choice((1, 2, 3))):  # a few tiles changed for others still in the wall
        i = rng.randrange(len(out))
        rest = [k for k in range(50) if left[k]]
        k = rng.choice(rest)
        left[out[i]] += 1
        left[k] -= 1
        out[i] = k
    return sorted(out)


def _hand(rng, rs, spec, copies, extra):
    left = list(copies)
    melds = _melds(rng, spec, left)
    tiles = _concealed(rng, spec, left, spec.hand_size + extra - 3 * len(melds))
    ms = tuple(Meld(tuple(Tile(k) for k in t), kind, None if kind == "concealed_kong" else "N", kind == "concealed_kong") for t, kind in melds)
    return Hand(tuple(Tile(k) for k in tiles), ms), melds


def _agree(rule, n, seed, effective_every=1, tables_every=10):
    """n hands: shanten of every one; effective tiles and waits of every `effective_every`-th
    (and of every ready one among them); the discard table of every `tables_every`-th."""
    rid, options, voids = RULES[rule]
    rs = load(rid, options)
    rng = random.Random(f"{seed}-{rule}")
    analyzers = {}
    for i in range(n):
        spec, copies = _spec(rs, rng)
        void = voids[i % len(voids)]
        key = (spec, tuple(copies), void)
        an = analyzers.get(key) or analyzers.setdefault(key, Analyzer(spec, copies, void))
        hand, melds = _hand(rng, rs, spec, copies, 0)
        if void is not None and any(k < 27 and k // 9 == void for t, _ in melds for k in t):
            continue  # a declared void suit is never called
        st = state_of(hand, spec)
        m = an.melds([t for t, _ in melds], sum(kind == "concealed_kong" for _, kind in melds))
        counts, wild = an.natural(list(hand.concealed_counts()))
        held = list(hand.counts)
        want = shanten_of_state(st, spec, void)[0]
        sh, eff = an.effective(counts, wild, m, held)
        where = f"{rule} #{i} {hand} wild={sorted(spec.wild_kinds)} void={void}"
        assert sh == want, where
        assert an.shanten(counts, wild, m) == want, where
        if i % effective_every == 0:
            assert eff == effective(st, spec, copies, void), where
            waits = an.waits(counts, wild, m, held)
            if i % 10 == 0 or sh == 0:
                assert waits == waits_of(st, spec, copies, void), where
            else:
                assert waits == [], where
        if i % tables_every == 0 or os.environ.get("SHAPE_RULES_TABLES"):
            drawn, dmelds = _hand(rng, rs, spec, copies, 1)
            if void is not None and any(k < 27 and k // 9 == void for t, _ in dmelds for k in t):
                continue
            st2 = state_of(drawn, spec)
            m2 = an.melds([t for t, _ in dmelds], sum(kind == "concealed_kong" for _, kind in dmelds))
            unseen = [4] * 50
            rows = an.discard_rows(list(drawn.concealed_counts()), m2, list(drawn.counts), unseen)
            got = [{"tile": kind_str(r.kind), "shanten": r.shanten, "effective": [kind_str(e) for e in r.effective], "effective_count": r.live} for r in rows]
            allowed = {kind_str(r.kind) for r in rows}
            ref = [r for r in discard_table(st2, spec, copies, unseen, void) if r["tile"] in allowed]
            assert got == ref, f"{rule} #{i} {drawn}"


@pytest.mark.parametrize("rule", sorted(RULES))
def test_shape_rule_agrees_with_general_engine(rule):
    _agree(rule, FAST_N, 1)


@pytest.mark.slow
@pytest.mark.parametrize("rule", sorted(RULES))
def test_shape_rule_agrees_twenty_thousand_hands(rule):
    """Shanten of 20,000 hands per rule; effective tiles and waits of 4,000 of them (the
    general engine tries every kind, the slow part); discard tables of 100."""
    _agree(rule, 20_000, 2, effective_every=5, tables_every=200)
