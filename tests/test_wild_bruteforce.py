"""Wildcards against brute force: every substitution of kinds for up to three wildcards.

Per variant, hands are generated with a fixed number of wildcards (0-3, a quarter each),
random, near-complete and ready, some with melds. Shanten must equal the least natural
shanten over the substitutions; waits the union of the natural waits; effective tiles the
draws that lower that least shanten; a complete hand's decompositions (as blocks of kinds)
the union of the natural decompositions of the complete substitutions.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from wildref import brute_shanten, brute_waits, melds_of, natural_forms, natural_spec, substitutions, wild_hand
from wildvariants import VARIANTS, shipped, shipped_draw

from mjtools.analysis.decompose import FORMS, decompositions
from mjtools.analysis.shanten import _add, effective, shanten_of_state, state_of
from mjtools.analysis.shapes import ShapeSpec
from mjtools.analysis.waits import waits_of
from mjtools.tiles.hand import Hand
from mjtools.tiles.kinds import Tile, kinds_str


def _draw(name: str, rng: random.Random):
    if name in VARIANTS:
        return VARIANTS[name].draw(rng)
    return shipped_draw(name, rng)


def _hands(name: str, n: int, seed: int):
    rng = random.Random(seed)
    for i in range(n):
        spec, copies, turned = _draw(name, rng)
        w = i % 4
        size = spec.hand_size + (i // 4) % 2
        melds = 1 if i % 8 == 5 and spec.hand_size == 13 else 0
        kind = ("random", "near", "ready", "complete")[(i // 8) % 4]
        if kind == "ready":
            size = spec.hand_size
        yield spec, copies, wild_hand(rng, spec, w, size - 3 * melds, kind, melds)


def projection(blocks) -> tuple:
    """A reading as the multiset of its blocks' (shape, kinds): wildcards placed, melds kept."""
    return tuple(sorted((b.shape, b.kinds) for b in blocks))


def brute_readings(hand: Hand, spec: ShapeSpec) -> set[tuple]:
    """Union over substitutions of the natural readings of the substituted hand."""
    st = state_of(hand, spec)
    m = melds_of(st)
    natural = ShapeSpec(**{**spec.__dict__, "wild_kinds": frozenset(), "stand_ins": (), "_groups": ()})
    stand = dict(spec.stand_ins)
    base = [stand.get(t.kind, t.kind) for t in hand.hand_tiles() if t.kind not in spec.wild_kinds]
    faces = [t.kind for t in hand.hand_tiles() if t.kind in spec.wild_kinds]
    out: set[tuple] = set()
    # A laid-down stand-in plays the kind it stands in for, as in the hand.
    melds = tuple(m.replace(tiles=tuple(Tile(stand.get(t.kind, t.kind), t.red) for t in m.tiles)) for m in hand.melds)
    for form in spec.forms:
        one = ShapeSpec(**{**natural.__dict__, "forms": (form,), "_groups": ()})
        subs = [tuple(stand.get(k, k) for k in faces)] if form in spec.face_value_forms else substitutions(st.counts, st.wild, spec, m)
        # completeness prefilter without requirements: readings are listed whatever they meet
        nspec = natural_spec(ShapeSpec(**{**spec.__dict__, "pair_258": False, "max_suits": None, "min_tiles_one_suit": None, "all_three_suits": False, "_groups": ()}), (form,))
        for sub in subs:
            counts = list(st.counts) if form not in spec.face_value_forms else [0] * 34
            for k in (base if form in spec.face_value_forms else []) + list(sub):
                counts[k] += 1
            if max(counts) <= 4 and natural_forms(counts, m, nspec, None)[form] != -1:
                continue  # not complete: no natural reading (the tables decide it fast)
            tiles = tuple(Tile(k) for k in sorted(base + list(sub)))
            h = Hand(tiles, melds)
            for blocks in FORMS[form](h, one):
                if not spec.wild_in_pair and form == "standard":
                    pair = next(b for b in blocks if b.shape == "pair")
                    if st.counts[pair.kinds[0]] < 2:
                        continue
                out.add(projection(blocks))
    return out


def check(name: str, n: int, seed: int, readings_wild: int = 3) -> Counter:
    """Run n hands; complete hands with at most `readings_wild` wildcards also compare readings."""
    seen: Counter = Counter()
    for spec, copies, hand in _hands(name, n, seed):
        st = state_of(hand, spec)
        label = f"{name}: {hand} wild={kinds_str(spec.wild_kinds)}"
        got, _ = shanten_of_state(st, spec)
        want = brute_shanten(st, spec)
        assert got == want, f"{label}: shanten {got}, brute force {want}"
        seen[f"w{st.wild}"] += 1
        if hand.size == spec.hand_size:
            got_w = waits_of(st, spec, copies)
            want_w = brute_waits(st, spec, copies, None, hand)
            assert got_w == want_w, f"{label}: waits {kinds_str(got_w)}, brute force {kinds_str(want_w)}"
            seen["ready"] += bool(want_w)
            if st.wild <= 2 and seen["hands"] % 3 == 0:
                got_e = effective(st, spec, copies)
                want_e = []
                for k in sorted(set(spec.kinds) | set(spec.wild_kinds) | {p for p, _ in spec.stand_ins}):
                    if st.held[k] >= copies[k]:
                        continue
                    _add(st, k, spec, 1)
                    if brute_shanten(st, spec) < want:
                        want_e.append(k)
                    _add(st, k, spec, -1)
                assert got_e == want_e, f"{label}: effective {kinds_str(got_e)}, brute force {kinds_str(want_e)}"
                seen["effective"] += 1
        elif got == -1 and st.wild <= readings_wild:
            free = Hand(hand.concealed + (hand.last,), hand.melds)
            got_d = {projection(d.blocks) for d in decompositions(free, spec)}
            want_d = brute_readings(free, spec)
            assert got_d == want_d, f"{label}: readings differ: only ours {sorted(got_d - want_d)[:3]}, only brute force {sorted(want_d - got_d)[:3]}"
            seen["complete"] += 1
        seen["hands"] += 1
    return seen


CASES = shipped() + sorted(v for v in VARIANTS if v not in shipped())  # the files once shipped


@pytest.mark.parametrize("name", CASES)
def test_bruteforce_200(name):
    seen = check(name, 200, 7, readings_wild=2)
    assert seen["hands"] == 200 and seen["w3"] == 50
    assert seen["complete"] >= 5 and seen["ready"] >= 5, seen  # the sample reaches the interesting cases


@pytest.mark.slow
@pytest.mark.parametrize("name", CASES)
def test_bruteforce_2000(name):
    seen = check(name, 2000, 70)
    assert seen["hands"] == 2000
