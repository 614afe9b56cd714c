"""Wildcards against an independent search (a DP over all 34 kinds, not the tables).

- Four or more wildcards, where substituting every multiset is out of reach: shanten per
  variant against `wildref.search_shanten`.
- The restricted options (`in_pair: false`, `fifth_copy: true`, melds holding copies of the
  wildcards' kinds) at any number of wildcards, shanten and waits.
- Properties: a wildcard never raises shanten, whether added or put in place of a tile.
"""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs
from wildref import melds_of, search_shanten, wild_hand
from wildvariants import VARIANTS, shipped, shipped_draw

from mjtools.analysis.shanten import HandState, shanten_of_state, state_of
from mjtools.analysis.shapes import ShapeSpec
from mjtools.analysis.waits import waits_of
from mjtools.tiles.kinds import kinds_str

CASES = shipped() + sorted(v for v in VARIANTS if v not in shipped())  # the files once shipped


def _draw(name: str, rng: random.Random):
    return VARIANTS[name].draw(rng) if name in VARIANTS else shipped_draw(name, rng)


def check_many_wilds(name: str, n: int, seed: int, waits_every: int = 0) -> Counter:
    rng = random.Random(seed)
    seen: Counter = Counter()
    for i in range(n):
        spec, copies, _ = _draw(name, rng)
        available = 4 * len(spec.wild_kinds) - (1 if copies[min(spec.wild_kinds)] == 3 else 0)
        w = 4 + i % max(1, min(5, available - 3))
        size = spec.hand_size + i % 2
        kind = ("random", "near", "ready", "complete")[i % 4]
        if kind == "ready":
            size = spec.hand_size
        hand = wild_hand(rng, spec, min(w, available), size, kind)
        st = state_of(hand, spec)
        got, _ = shanten_of_state(st, spec)
        # the engine's answer only bounds the search (exact at or below it): a wrong answer
        # either way still shows as a difference
        want = search_shanten(st.counts, st.wild, spec, melds_of(st), bound=got)
        assert got == want, f"{name}: {hand} wild={kinds_str(spec.wild_kinds)}: shanten {got}, search {want}"
        seen[f"w{st.wild}"] += 1
        seen[f"s{got}"] += 1
        if waits_every and hand.size == spec.hand_size and i % waits_every == 0:
            _check_waits(st, spec, copies, f"{name}: {hand}")
            seen["waits"] += 1
    return seen


def _check_waits(st: HandState, spec: ShapeSpec, copies: list[int], label: str) -> None:
    got = waits_of(st, spec, copies)
    want = []
    stand = dict(spec.stand_ins)
    for k in sorted(set(spec.kinds) | set(spec.wild_kinds) | {p for p, _ in spec.stand_ins}):
        if st.held[k] >= copies[k]:
            continue
        counts = list(st.counts)
        w = st.wild
        if k in spec.wild_kinds:
            w += 1
        else:
            counts[stand.get(k, k)] += 1
        if search_shanten(counts, w, spec, melds_of(st), bound=-1) == -1:
            want.append(k)
    assert got == want, f"{label}: waits {kinds_str(got)}, search {kinds_str(want)}"


@pytest.mark.parametrize("name", CASES)
def test_many_wildcards_fast(name):
    seen = check_many_wilds(name, 24, 11, waits_every=12)
    assert seen["s-1"] and seen["waits"], seen  # complete hands and a waits check were reached


@pytest.mark.slow
@pytest.mark.parametrize("name", CASES)
def test_many_wildcards_500(name):
    seen = check_many_wilds(name, 500, 12, waits_every=25)
    assert sum(v for k, v in seen.items() if re.fullmatch(r"w\d+", k)) == 500


# -- restricted wildcard options --------------------------------------------------------------

RESTRICTED = {
    "no_wild_pair": ShapeSpec(forms=("standard",), wild_kinds=frozenset({4, 31}), wild_in_pair=False),
    "fifth_copy": ShapeSpec(forms=("standard",), wild_kinds=frozenset({4, 31}), wild_fifth_copy=True),
    "no_wild_pair_fifth": ShapeSpec(forms=("standard", "seven_pairs"), wild_kinds=frozenset({13}), wild_in_pair=False, wild_fifth_copy=True),
    "melds_258": ShapeSpec(forms=("standard",), wild_kinds=frozenset({22}), pair_258=True, pair_258_exempt=("all_pungs",)),
}


def check_restricted(name: str, n: int, seed: int) -> Counter:
    spec = RESTRICTED[name]
    rng = random.Random(seed)
    copies = [4] * 50
    seen: Counter = Counter()
    for i in range(n):
        melds = (i // 3) % 3
        w = i % 7
        size = 13 + i % 2
        kind = ("near", "ready", "complete")[i % 3]
        if kind == "ready":
            size = 13
        hand = wild_hand(rng, spec, min(w, 4 * len(spec.wild_kinds)), size - 3 * melds, kind, melds)
        st = state_of(hand, spec)
        got, _ = shanten_of_state(st, spec)
        want = search_shanten(st.counts, st.wild, spec, melds_of(st), bound=got)
        assert got == want, f"{name}: {hand}: shanten {got}, search {want}"
        seen[f"s{got}"] += 1
        if hand.size == 13 and got == 0 and i % 2 == 0:
            _check_waits(st, spec, copies, f"{name}: {hand}")
            seen["waits"] += 1
    return seen


@pytest.mark.parametrize("name", sorted(RESTRICTED))
def test_restricted_options(name):
    seen = check_restricted(name, 30, 21)
    assert seen["s-1"] and seen["waits"], seen


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(RESTRICTED))
def test_restricted_options_500(name):
    check_restricted(name, 500, 22)


# -- properties -----------------------------------------------------------------------------------

SPECS = [
    ShapeSpec(forms=("standard", "seven_pairs", "thirteen_orphans"), wild_kinds=frozenset({31})),
    ShapeSpec(forms=("standard", "thirteen_unrelated"), wild_kinds=frozenset({4, 5}), honor_chows=True),
    ShapeSpec(forms=("standard",), wild_kinds=frozenset({31}), pair_258=True, max_suits=2),
    RESTRICTED["no_wild_pair"],
    RESTRICTED["fifth_copy"],
]


@hs.composite
def thirteen(draw):
    spec = draw(hs.sampled_from(SPECS))
    natural = sorted(spec.kinds - spec.wild_kinds)
    w = draw(hs.integers(0, 5))
    kinds = draw(hs.lists(hs.sampled_from(natural), min_size=13 - w, max_size=13 - w))
    counts = [0] * 34
    for k in kinds:
        counts[k] += 1
    if max(counts) > 4:
        counts = [min(c, 4) for c in counts]
        w += 13 - w - sum(counts)  # the clipped tiles become wildcards
    return spec, counts, w


def _state(counts: list[int], w: int) -> HandState:
    return HandState(list(counts), w, 0, frozenset(), True, (0, 0, 0, 0), list(counts) + [0] * 16, frozenset(), 0, [0] * 34, [0] * 50)


@settings(max_examples=150, deadline=None)
@given(thirteen())
def test_a_wildcard_never_raises_shanten(case):
    spec, counts, w = case
    before, _ = shanten_of_state(_state(counts, w), spec)
    added, _ = shanten_of_state(_state(counts, w + 1), spec)  # drawn: a 14-tile hand
    assert added <= before
    for k in range(34):
        if counts[k]:
            swapped = list(counts)
            swapped[k] -= 1
            replaced, _ = shanten_of_state(_state(swapped, w + 1), spec)
            assert replaced <= before, (kinds_str([j for j in range(34) for _ in range(counts[j])]), w, k)
