"""Distances of the forms other than sets + pair: seven pairs, thirteen orphans, 十三烂, 全不靠,
将将和 and 组合龙 (a knitted straight with one set and a pair).

Each function returns D, the least number of target positions the hand's natural tiles leave
unfilled (wildcards and draws fill them), or INF when the form cannot be completed at all.
None of these forms allows melds, and none needs a fifth copy of a kind, so `fifth_copy` and
the meld-copy limits of `groupdp.py` never apply; `in_pair` concerns the standard form's pair
only (the pairs of seven pairs are the whole hand, not its eye).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import permutations
from typing import TYPE_CHECKING

from mjtools.analysis import tables
from mjtools.analysis.tables import INF

if TYPE_CHECKING:
    from mjtools.analysis.shapes import ShapeSpec
    from mjtools.analysis.state import HandState

TERMINAL_HONOR = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
KNIT = (0b001001001, 0b010010010, 0b100100100)  # 147, 258, 369
GROUP_START = (0, 9, 18, 27)


def group_of(kind: int) -> int:
    return kind // 9 if kind < 27 else 3


@lru_cache(maxsize=256)
def _usable(kinds: frozenset[int], groups: frozenset[int]) -> tuple[int, ...]:
    return tuple(k for k in sorted(kinds) if group_of(k) in groups)


def seven_pairs_distance(st: HandState, spec: ShapeSpec, groups: frozenset[int]) -> int:
    if st.melds or spec.hand_size != 13:
        return INF
    kinds = _usable(spec.kinds, groups)
    if len(kinds) * (2 if spec.quads_as_pairs else 1) < 7:
        return INF
    counts = st.counts
    # A pair needs its own kind (two of one kind with quads_as_pairs); kinds beyond those
    # held are free, so the best seven slots decide.
    if spec.quads_as_pairs:
        slots = [min(counts[k], 2) for k in kinds if counts[k]] + [min(counts[k] - 2, 2) for k in kinds if counts[k] > 2]
    else:
        slots = [min(counts[k], 2) for k in kinds if counts[k]]
    slots.sort(reverse=True)
    return 14 - sum(slots[:7])


def thirteen_orphans_distance(st: HandState, spec: ShapeSpec, groups: frozenset[int]) -> int:
    if st.melds or spec.hand_size != 13 or not {0, 1, 2, 3} <= groups or not set(TERMINAL_HONOR) <= spec.kinds:
        return INF
    kinds = sum(1 for k in TERMINAL_HONOR if st.counts[k])
    pair = any(st.counts[k] >= 2 for k in TERMINAL_HONOR)
    return 14 - kinds - pair


@lru_cache(maxsize=1)
def _spread_best() -> tuple[tuple[int, int, int, int], ...]:
    """Per 9-bit mask: for t = 0..3, the most held kinds a valid t-subset can keep (-1: none).

    A valid subset of a suit has its members at least 3 apart (十三烂); at most three fit."""
    valid = [sub for sub in range(512) if _spread_ok(sub)]
    out = []
    for mask in range(512):
        best = [-1, -1, -1, -1]
        for sub in valid:
            t = bin(sub).count("1")
            best[t] = max(best[t], bin(sub & mask).count("1"))
        out.append(tuple(best))
    return tuple(out)


def _spread_ok(sub: int) -> bool:
    bits = [i for i in range(9) if sub >> i & 1]
    return all(b - a >= 3 for a, b in zip(bits, bits[1:]))


def _mask(counts: list[int], g: int) -> int:
    """The kinds of suit g held, as a 9-bit mask (remembered per held-or-not pattern)."""
    s = GROUP_START[g]
    raw = bytes(counts[s : s + 9]).translate(_HELD)
    m = _MASKS.get(raw)
    if m is None:
        m = _MASKS[raw] = sum(1 << i for i, c in enumerate(raw) if c)
    return m


_HELD = bytes([0] + [1] * 255)  # a count -> held or not
_MASKS: dict[bytes, int] = {}  # (at most 2^9 patterns)


@lru_cache(maxsize=256)
def _layout(kinds: frozenset[int], groups: frozenset[int]) -> tuple[tuple[bool, bool, bool], tuple[int, ...]]:
    """(which suits are complete and allowed, the allowed honor kinds)."""
    suits = tuple(g in groups and all(k in kinds for k in range(9 * g, 9 * g + 9)) for g in range(3))
    honors = tuple(k for k in range(27, 34) if k in kinds) if 3 in groups else ()
    return suits, honors  # type: ignore[return-value]


def thirteen_unrelated_distance(st: HandState, spec: ShapeSpec, groups: frozenset[int]) -> int:
    """十三烂: fourteen tiles, suited ones at least 3 apart within a suit, honors all different.

    The target takes t_g tiles from each suit (0-3, a valid spread) and the rest from distinct
    honors; it keeps as many held tiles as it can. Not every kept subset extends to three
    (3-7 does not), hence the per-size table."""
    if st.melds or spec.hand_size != 13:
        return INF
    best = _spread_best()
    suits, honors = _layout(spec.kinds, groups)
    counts = st.counts
    rows = [best[_mask(counts, g)] if suits[g] else (0, -1, -1, -1) for g in range(3)]
    kept = _unrelated_kept(rows[0], rows[1], rows[2], sum(1 for k in honors if counts[k]), len(honors))
    return INF if kept < 0 else 14 - kept


@lru_cache(maxsize=4096)
def _unrelated_kept(row0: tuple[int, ...], row1: tuple[int, ...], row2: tuple[int, ...], held_honors: int, n_honors: int) -> int:
    """十三烂: the most held tiles a target keeps, from each suit's best per tile count
    (`_spread_best` rows) and the honors; -1 if no target fits."""
    rows = (row0, row1, row2)
    kept = -1
    for a in range(4):
        ka = rows[0][a]
        if ka < 0:
            continue
        for b in range(4):
            kb = rows[1][b]
            if kb < 0:
                continue
            for c in range(4):
                kc = rows[2][c]
                z = 14 - a - b - c
                if kc >= 0 and 0 <= z <= n_honors:
                    kept = max(kept, ka + kb + kc + min(z, held_honors))
    return kept


def knitted_distance(st: HandState, spec: ShapeSpec, groups: frozenset[int]) -> int:
    """全不靠: fourteen different tiles from 147/258/369 spread over the three suits + honors."""
    if st.melds or spec.hand_size != 13:
        return INF
    honors = _knit_honors(spec.kinds, groups)
    if honors is None:
        return INF
    counts = st.counts
    held = _knit_held()
    a, b, c = held[_mask(counts, 0)], held[_mask(counts, 1)], held[_mask(counts, 2)]
    suited = max(a[i] + b[j] + c[k] for i, j, k in _PERMS3)
    kept = suited + sum(1 for k in honors if counts[k])
    return 14 - min(kept, 14)


_PERMS3 = tuple(permutations(range(3)))  # which of 147 / 258 / 369 each suit takes


@lru_cache(maxsize=1)
def _knit_held() -> tuple[tuple[int, int, int], ...]:
    """Per 9-bit mask of a suit's held kinds: how many of them 147, 258 and 369 keep."""
    return tuple(tuple(bin(mask & knit).count("1") for knit in KNIT) for mask in range(512))


@lru_cache(maxsize=256)
def _knit_honors(kinds: frozenset[int], groups: frozenset[int]) -> tuple[int, ...] | None:
    """The honor kinds a 全不靠 may take, or None when the form cannot be made (a suit not in
    play or not complete, too few honors to reach fourteen)."""
    if not {0, 1, 2} <= groups or not all(k in kinds for k in range(27)):
        return None
    honors = tuple(k for k in range(27, 34) if k in kinds) if 3 in groups else ()
    return None if 9 + len(honors) < 14 else honors


def all_258_distance(st: HandState, spec: ShapeSpec, groups: frozenset[int]) -> int:
    """将将和: every tile a 2, 5 or 8 in any arrangement; melds only pungs or kongs of them.
    Wildcards may be any 2, 5 or 8, so the distance is the tiles that are not."""
    from mjtools.analysis.shapes import KINDS_258

    if not st.meld_pungs_only or not st.meld_kinds <= KINDS_258 or not st.meld_groups <= groups:
        return INF
    need = spec.hand_size + 1 - 3 * st.melds
    suits = sum(1 for g in (0, 1, 2) if g in groups)
    if need < 0 or 12 * suits < spec.hand_size + 1:
        return INF
    kept = sum(st.counts[k] for k in KINDS_258 if k // 9 in groups)
    return need - min(kept, need)


_KNIT_SPECS: dict[int, tuple[ShapeSpec, ShapeSpec]] = {}


def _one_set_spec(spec: ShapeSpec) -> ShapeSpec:
    """The spec of the part of a 组合龙 hand beside the knitted straight: one set and a pair."""
    got = _KNIT_SPECS.get(id(spec))
    if got is None or got[0] is not spec:

        got = _KNIT_SPECS[id(spec)] = (spec, spec.replace(hand_size=4, forms=("standard",), wild_kinds=frozenset()))
    return got[1]


def knitted_straight_distance(st: HandState, spec: ShapeSpec, groups: frozenset[int]) -> int:
    """组合龙 + a set + a pair (at most one meld): for each of the six knitted straights, its
    positions the hand leaves empty plus the standard distance of the other tiles to one set
    (none with a meld) and a pair. A held tile of the straight is best kept in it: moved to the
    set or the pair it saves at most the one position it leaves empty."""
    from mjtools.analysis.irregular import KNITTED_STRAIGHTS
    from mjtools.analysis.shanten import standard_distance
    from mjtools.analysis.state import HandState

    if st.melds > 1 or spec.hand_size != 13 or not {0, 1, 2} <= groups or not all(k in spec.kinds for k in range(27)):
        return INF
    sub = _one_set_spec(spec)
    plain = _plain_groups(sub)
    counts = st.counts
    # The straights the hand is nearest first: the rest costs at least nothing, so a straight
    # missing as many as the best total found cannot improve on it.
    ranked = sorted(zip(_missing(counts), KNITTED_STRAIGHTS))
    best = INF
    keys = None
    col = 2 * (1 - st.melds) + 1
    for missing, straight in ranked:
        if missing >= best:
            break
        if plain is not None:
            # Plain tables (no wildcard, 2-5-8 pair or suit rules): the rest's distance to
            # 1 - melds sets and a pair straight from the per-group vectors. A group's key is
            # its counts in base 5: taking one of each held kind of the straight out of the
            # hand's keys gives the rest's.
            if keys is None:
                keys = [sum(counts[k] * p for k, p in zip(kinds, tables.POW5)) for _, kinds in plain]
                where = {k: (g, tables.POW5[i]) for g, (_, kinds) in enumerate(plain) for i, k in enumerate(kinds)}
            rest_keys = list(keys)
            for k in straight:
                if counts[k]:
                    g, p = where[k]
                    rest_keys[g] -= p
            acc = tables.vector(plain[0][0], rest_keys[0])
            for (variant, _), key in zip(plain[1:], rest_keys[1:]):
                acc = tables.combine(acc, tables.vector(variant, key))
            d = tables.VECTORS[acc][col]
        else:
            rest = list(counts)
            for k in straight:
                if rest[k]:
                    rest[k] -= 1
            part = HandState(rest, 0, st.melds, st.meld_groups, st.meld_pungs_only, st.meld_tiles, st.held, st.meld_kinds, st.concealed_kongs, st.meld_counts)
            d = standard_distance(part, sub)
        best = min(best, missing + d)
    return best


def _missing(counts: list[int]) -> list[int]:
    """For each knitted straight (irregular.KNITTED_STRAIGHTS order), the kinds of it the hand
    does not hold: per suit and residue (147 / 258 / 369) the kinds missing, summed."""
    gaps = [[(not counts[9 * g + r]) + (not counts[9 * g + r + 3]) + (not counts[9 * g + r + 6]) for r in range(3)] for g in range(3)]
    return [gaps[0][a] + gaps[1][b] + gaps[2][c] for a, b, c in _ORDERS]


def _knit_best(c: list[int]) -> int:
    """The most kinds of one knitted straight the counts hold."""
    h0 = [(c[b] > 0) + (c[b + 3] > 0) + (c[b + 6] > 0) for b in (0, 1, 2)]
    h1 = [(c[b] > 0) + (c[b + 3] > 0) + (c[b + 6] > 0) for b in (9, 10, 11)]
    h2 = [(c[b] > 0) + (c[b + 3] > 0) + (c[b + 6] > 0) for b in (18, 19, 20)]
    return max(h0[a] + h1[b] + h2[d] for a, b, d in _ORDERS)


def _knit_best_of(st: HandState, memo: dict) -> int:
    got = memo.get("knit")
    if got is None:
        got = memo["knit"] = _knit_best(st.counts)
    return got


def knitted_straight_bound(st: HandState, memo: dict) -> int:
    """A lower bound of knitted_straight_distance: the fewest kinds a knitted straight misses."""
    if st.melds > 1:
        return INF
    return 9 - _knit_best_of(st, memo)


def knitted_bound(st: HandState, memo: dict) -> int:
    """A lower bound of knitted_distance: fourteen less the kinds of one knitted straight and
    the different honors held."""
    if st.melds:
        return INF
    return 14 - min(14, _knit_best_of(st, memo) + 7 - st.counts[27:34].count(0))


def _distinct_bound(st: HandState, memo: dict) -> int:
    """A lower bound of a form of fourteen different kinds: the kinds not held are missing."""
    return INF if st.melds else max(0, st.counts.count(0) - 20)


_ORDERS = tuple(permutations((0, 1, 2)))  # the residue per suit, in KNITTED_STRAIGHTS order


_PLAIN_GROUPS: dict[int, tuple[ShapeSpec, tuple[tuple[str, tuple[int, ...]], ...] | None]] = {}


def _plain_groups(spec: ShapeSpec) -> tuple[tuple[str, tuple[int, ...]], ...] | None:
    """(table variant, kinds) per group of a spec whose standard distance is the plain table
    combination; None when the spec needs the general path."""
    got = _PLAIN_GROUPS.get(id(spec))
    if got is None or got[0] is not spec:
        plain = None
        if not (spec.wild_kinds or spec.stand_ins or spec.pair_258 or spec.max_suits is not None or spec.min_tiles_one_suit is not None or spec.all_three_suits or spec.honor_chows):
            plain = tuple(lay for lay in spec.group_layout() if lay is not None)
        got = _PLAIN_GROUPS[id(spec)] = (spec, plain)
    return got[1]


# Cheap lower bounds of a form's distance, (state, a memo shared by the bounds of one call) -> int
# (shanten.distance skips a form whose bound cannot beat the forms already measured).
BOUNDS = {
    "knitted_straight": knitted_straight_bound,
    # 全不靠 and 十三烂 keep one tile of each kind: at least the kinds not held are missing.
    "knitted": knitted_bound,
    "thirteen_unrelated": _distinct_bound,
}

OTHER_FORMS = {
    "seven_pairs": seven_pairs_distance,
    "thirteen_orphans": thirteen_orphans_distance,
    "thirteen_unrelated": thirteen_unrelated_distance,
    "knitted": knitted_distance,
    "all_258": all_258_distance,
    "knitted_straight": knitted_straight_distance,
}
