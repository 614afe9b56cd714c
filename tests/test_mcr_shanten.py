"""Shanten and effective tiles under the Chinese Official rules against pymahjonggb's shanten
functions, per form: RegularShanten (four sets and a pair), SevenPairsShanten,
ThirteenOrphansShanten, HonorsAndKnittedTilesShanten (全不靠) and KnittedStraightShanten (组合龙
with a set and a pair), and MahjongShanten for the hand; on seeded concealed 13-tile hands, a
share of them near the knitted forms.

One difference, by design: pymahjonggb lists a kind among a form's useful tiles even when the
hand already holds all four of it; mjtools never counts a tile that cannot be drawn. Those
kinds are left out of pymahjonggb's lists before comparing.

Also: the waits worked out directly for the irregular forms (analysis/waits.py, used by the
fans that need the only wait) are the waits the distance of each form gives.
"""

from __future__ import annotations

import random

import MahjongGB
import pytest

from gen import FROM_GB, GB, mixed_hand, random_hand
from mcr_gen import KNIT_ORDERS, _knitted
from mjtools.analysis import waits
from mjtools.analysis.shanten import effective, shanten_of_state, state_of
from mjtools.rules import load
from mjtools.tiles.kinds import kinds_str
from mjtools.tiles.notation import parse_hand

PER_FORM = {
    "standard": MahjongGB.RegularShanten,
    "seven_pairs": MahjongGB.SevenPairsShanten,
    "thirteen_orphans": MahjongGB.ThirteenOrphansShanten,
    "knitted": MahjongGB.HonorsAndKnittedTilesShanten,
    "knitted_straight": MahjongGB.KnittedStraightShanten,
}


def _straight(rng: random.Random) -> list[int]:
    order = rng.choice(KNIT_ORDERS)
    return [9 * s + start + 3 * i for s, start in zip(order, (0, 1, 2)) for i in range(3)]


def hands(n: int, seed: str):
    """n concealed 13-tile hands: uniform, near a standard shape, near 全不靠, near 组合龙."""
    rng = random.Random(seed)
    made = 0
    while made < n:
        r = rng.random()
        if r < 0.5:
            h = mixed_hand(rng, 13)
        elif r < 0.75:
            h = _knitted(rng)
            for _ in range(rng.choice((1, 2, 3))):
                h[rng.randrange(14)] = rng.randrange(34)
            h.pop(rng.randrange(14))
        else:
            h = rng.sample(_straight(rng), rng.randint(6, 9))
            h += random_hand(rng, 13 - len(h))
        h = sorted(h)
        if len(h) == 13 and all(h.count(k) <= 4 for k in h):
            made += 1
            yield h


def compare(n: int, seed: str) -> None:
    rs = load("mcr")
    spec = rs.base_spec
    problems = []
    for h in hands(n, seed):
        text = kinds_str(h)
        gb_tiles = tuple(GB[k] for k in h)
        st = state_of(parse_hand(text), spec)
        shanten, forms = shanten_of_state(st, spec)
        if MahjongGB.MahjongShanten((), gb_tiles) != shanten:
            problems.append(f"{text}: shanten {shanten}, pymahjonggb {MahjongGB.MahjongShanten((), gb_tiles)}")
        for form, fn in PER_FORM.items():
            gb_shanten, useful = fn(gb_tiles)
            if forms[form] != gb_shanten:
                problems.append(f"{text}: {form} shanten {forms[form]}, pymahjonggb {gb_shanten}")
                continue
            one = waits._only_forms(spec, (form,))
            ours = sorted(effective(state_of(parse_hand(text), one), one, [4] * 50))
            theirs = sorted(FROM_GB[t] for t in useful if h.count(FROM_GB[t]) < 4)
            if ours != theirs:
                problems.append(f"{text}: {form} effective {kinds_str(ours)}, pymahjonggb {kinds_str(theirs)}")
    assert not problems, "\n".join(problems[:10]) + f"\n({len(problems)} differences)"


def test_shanten_matches_pymahjonggb():
    compare(400, "mcr-shanten")


@pytest.mark.slow
def test_shanten_matches_pymahjonggb_slow():
    compare(2500, "mcr-shanten-slow")


def _complete(form: str, rng: random.Random) -> list[int]:
    """A complete concealed hand of one irregular form."""
    from mcr_gen import standard_blocks

    if form == "knitted":
        return _knitted(rng)
    if form == "thirteen_orphans":
        th = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]
        return th + [rng.choice(th)]
    while True:
        extra = standard_blocks(rng, sets=1)
        h = _straight(rng) + [k for b in extra or () for k in b]
        if extra and all(h.count(k) <= 4 for k in h):
            return h


@pytest.mark.parametrize("form", ["knitted_straight", "knitted", "thirteen_orphans"])
def test_direct_waits_are_the_distance_waits(form):
    """The waits worked out directly for an irregular form are the kinds that complete it by its
    distance (a kind the hand holds four of aside, which the distance tables cannot try)."""
    rs = load("mcr")
    one = waits._only_forms(rs.base_spec, (form,))
    rng = random.Random(form)
    for _ in range(300):
        h = _complete(form, rng)
        h.pop(rng.randrange(14))
        counts = [h.count(k) for k in range(34)]
        st = state_of(parse_hand(kinds_str(sorted(h))), one)
        expected = set(waits.waits_of(st, one, [4] * 50))
        assert {k for k in waits._DIRECT[form](counts, 0) if counts[k] < 4} == expected, kinds_str(sorted(h))


def test_effective_takes_the_fast_part_only_when_exact():
    """`effective` on the MCR spec (the fast path for sets and a pair, seven pairs and thirteen
    orphans, the knitted forms by their bounds) equals trying every kind against `distance`."""
    from mjtools.analysis.shanten import _add, candidate_kinds, distance

    spec = load("mcr").base_spec
    for h in hands(300, "mcr-effective"):
        st = state_of(parse_hand(kinds_str(h)), spec)
        base = distance(st, spec)
        brute = []
        for k in candidate_kinds(spec):
            if st.held[k] >= 4:
                continue
            _add(st, k, spec, 1)
            if distance(st, spec) < base:
                brute.append(k)
            _add(st, k, spec, -1)
        assert effective(st, spec, [4] * 50) == brute, kinds_str(h)
