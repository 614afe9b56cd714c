"""Exact per-group distance vectors beyond the shipped tables (the general, slower path).

The shipped tables give, per group, how many tiles must be added to reach m sets and p pairs,
assuming every missing tile may come from a draw or a wildcard alike. Some wildcard rules
break that symmetry, so each missing position of a target is one of:

- *flexible*: a draw or a wildcard may fill it;
- *draw-only*: a wildcard may not fill it — a pair position under `in_pair: false`, or a copy
  that would make a wildcard the fifth of its kind counting the hand's melds (`fifth_copy`
  off). Draws stay ideal, as in every shanten count: they ignore copies seen in melds;
- *wild-only*: under `fifth_copy: true`, copies beyond max(4, held) exist only as wildcards.

For a target with D missing positions, N of them draw-only and E wild-only, a hand holding w
wildcards needs max(D - w, N) draws, and only if E <= w (`shanten.py` turns this into the
effective distance max(D, N + w)). A group's vector maps (sets, pairs) to the Pareto front of
(D, N, E) over its targets; fronts add up over groups.

Two searches fill the vectors: a DP over positions for groups whose sets are pungs and
consecutive chows (suits; honors without honor chows), and direct enumeration of targets for
small groups with arbitrary set shapes (Nanchang's honor chows; winds and dragons apart, since
no set spans both). The latter also builds the table-style vectors of honor-chow groups for
the fast path (`honor_chow_gid`).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations

from mjtools.analysis import tables
from mjtools.analysis.tables import INF, MAX_SETS, WIDTH

Entry = tuple[int, int, int]  # (D missing, N draw-only, E wild-only)
Front = tuple[Entry, ...]
Vec = dict[tuple[int, int], Front]  # (sets, pairs) -> Pareto front

WINDS = (27, 28, 29, 30)
DRAGONS = (31, 32, 33)


class Rules(tuple):
    """(draw_pair, meld_cap, fifth, wmax) — a hashable tuple for the caches."""

    __slots__ = ()

    def __new__(cls, draw_pair: bool = False, meld_cap: bool = False, fifth: bool = False, wmax: int = 0) -> Rules:
        return super().__new__(cls, (draw_pair, meld_cap, fifth, wmax))

    draw_pair = property(lambda self: self[0])
    meld_cap = property(lambda self: self[1])
    fifth = property(lambda self: self[2])
    wmax = property(lambda self: self[3])


PLAIN = Rules()


def _cost(need: int, c: int, meld: int, pair: bool, r: Rules) -> Entry | None:
    """(D, N, E) of one position that must hold `need` copies; None if impossible."""
    if need <= c:
        return (0, 0, 0)
    missing = need - c
    q = max(0, 2 - c) if pair and r.draw_pair else 0  # naturals fill the pair first
    if r.fifth:
        extra = max(0, need - max(4, c))
        if extra > r.wmax:
            return None
        return (missing, q, extra)
    if need > 4:
        return None
    cap = max(0, 4 - meld - c) if r.meld_cap else missing  # copies a wildcard may still be
    return (missing, missing - min(missing - q, cap), 0)


def _insert(front: list[Entry], e: Entry) -> None:
    for f in front:
        if f[0] <= e[0] and f[1] <= e[1] and f[2] <= e[2]:
            return
    front[:] = [f for f in front if not (e[0] <= f[0] and e[1] <= f[1] and e[2] <= f[2])]
    front.append(e)


def _plus(a: Entry, b: Entry) -> Entry:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


@lru_cache(maxsize=65536)
def position_vec(counts: tuple[int, ...], melds: tuple[int, ...], chows: bool, pair_ok: tuple[bool, ...], max_sets: int, r: Rules) -> Vec:
    """DP over the positions of a group (chows are consecutive positions)."""
    n = len(counts)
    # state (a, b, m, p): a chows started at i-1 and b at i-2 still need position i
    states: dict[tuple[int, int, int, int], list[Entry]] = {(0, 0, 0, 0): [(0, 0, 0)]}
    top = 4 + (r.wmax if r.fifth else 0)
    for i in range(n):
        c, meld = counts[i], melds[i]
        can_chow = chows and i <= n - 3
        cap = max(top, c)
        nxt = max(top, counts[i + 1]) if i + 1 < n else 0
        # (k new chows, t pungs, pair?, cost) per load a + b already on this position
        moves: dict[tuple[int, int, int], list[tuple[int, int, int, Entry]]] = {}
        new: dict[tuple[int, int, int, int], list[Entry]] = {}
        for (a, b, m, p), front in states.items():
            base = a + b
            opts = moves.get((base, m, p))
            if opts is None:
                opts = moves[(base, m, p)] = []
                for k in range(max_sets - m + 1 if can_chow else 1):
                    for t in range(max_sets - m - k + 1):
                        for pr in (0, 1) if pair_ok[i] and not p else (0,):
                            need = base + k + 3 * t + 2 * pr
                            if need <= cap:
                                cost = _cost(need, c, meld, bool(pr), r)
                                if cost is not None:
                                    opts.append((k, t, pr, cost))
            for k, t, pr, cost in opts:
                if k + a > nxt:
                    continue  # the next position could not hold the chows running into it
                slot = new.setdefault((k, a, m + k + t, p + pr), [])
                d0, n0, e0 = cost
                if len(front) == 1 and not slot:
                    e = front[0]
                    slot.append((e[0] + d0, e[1] + n0, e[2] + e0))
                    continue
                for e in front:
                    _insert(slot, (e[0] + d0, e[1] + n0, e[2] + e0))
        states = new
    out: Vec = {}
    for (a, b, m, p), front in states.items():
        if a == 0 and b == 0:
            out[(m, p)] = tuple(sorted(front))
    return out


@lru_cache(maxsize=65536)
def shapes_vec(counts: tuple[int, ...], melds: tuple[int, ...], shapes: tuple[tuple[int, ...], ...], pair_ok: tuple[bool, ...], max_sets: int, r: Rules) -> Vec:
    """Direct enumeration of every target (multiset of set shapes plus an optional pair)."""
    n = len(counts)
    top = [max(4 + (r.wmax if r.fifth else 0), c) for c in counts]
    acc: dict[tuple[int, int], list[Entry]] = {}
    need = [0] * n

    def record(m: int, pair_at: int | None) -> None:
        tot = (0, 0, 0)
        for i in range(n):
            cost = _cost(need[i] + (2 if i == pair_at else 0), counts[i], melds[i], i == pair_at, r)
            if cost is None:
                return
            tot = _plus(tot, cost)
        _insert(acc.setdefault((m, int(pair_at is not None)), []), tot)

    def rec(start: int, m: int) -> None:
        record(m, None)
        for i in range(n):
            if pair_ok[i] and need[i] + 2 <= top[i]:
                record(m, i)
        if m == max_sets:
            return
        for s in range(start, len(shapes)):
            shape = shapes[s]
            for i in shape:
                need[i] += 1
            if all(need[i] <= top[i] for i in shape):
                rec(s, m + 1)
            for i in shape:
                need[i] -= 1

    rec(0, 0)
    return {k: tuple(sorted(v)) for k, v in acc.items()}


def combine(x: Vec, y: Vec, max_sets: int, wmax: int) -> Vec:
    """Min-plus combination of two group vectors (sets and pairs add up; E stays <= wmax)."""
    out: dict[tuple[int, int], list[Entry]] = {}
    for (m1, p1), f1 in x.items():
        for (m2, p2), f2 in y.items():
            if m1 + m2 > max_sets or p1 + p2 > 1:
                continue
            slot = out.setdefault((m1 + m2, p1 + p2), [])
            for a in f1:
                for b in f2:
                    e = _plus(a, b)
                    if e[2] <= wmax:
                        _insert(slot, e)
    return {k: tuple(sorted(v)) for k, v in out.items()}


def from_table(gid: int) -> Vec:
    """A shipped-table vector as a plain Vec (no draw-only or wild-only positions)."""
    vec = tables.VECTORS[gid]
    return {divmod(i, 2): ((vec[i], 0, 0),) for i in range(WIDTH) if vec[i] < INF}


def honor_shapes(kinds: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Set shapes over the present honor kinds: pungs, any three different winds, 中发白."""
    pos = {k: i for i, k in enumerate(kinds)}
    shapes = [(i, i, i) for i in range(len(kinds))]
    winds = [pos[k] for k in WINDS if k in pos]
    shapes += [tuple(t) for t in combinations(winds, 3)]
    if all(k in pos for k in DRAGONS):
        shapes.append(tuple(pos[k] for k in DRAGONS))
    return tuple(shapes)


def honor_chow_vec(kinds: tuple[int, ...], counts: tuple[int, ...], melds: tuple[int, ...], pair: bool, max_sets: int, r: Rules) -> Vec:
    """Honor group with honor chows: winds and dragons searched apart, then combined."""
    parts = []
    for sub in (WINDS, DRAGONS):
        idx = [i for i, k in enumerate(kinds) if k in sub]
        if not idx:
            continue
        sk = tuple(kinds[i] for i in idx)
        parts.append(shapes_vec(tuple(counts[i] for i in idx), tuple(melds[i] for i in idx), honor_shapes(sk), (pair,) * len(idx), max_sets, r))
    acc: Vec = {(0, 0): ((0, 0, 0),)}
    for v in parts:
        acc = combine(acc, v, max_sets, r.wmax)
    return acc


_HONOR_GIDS: dict[tuple, int] = {}


def honor_chow_gid(kinds: tuple[int, ...], counts: tuple[int, ...], pair: bool) -> int:
    """A table-style vector id (see `tables.py`) for an honor group with honor chows."""
    key = (kinds, counts, pair)
    gid = _HONOR_GIDS.get(key)
    if gid is None:
        vec = honor_chow_vec(kinds, counts, (0,) * len(kinds), pair, MAX_SETS, PLAIN)
        flat = [INF] * WIDTH
        for (m, p), front in vec.items():
            flat[2 * m + p] = min(e[0] for e in front)
        gid = _HONOR_GIDS[key] = tables.intern(tuple(flat))
    return gid
