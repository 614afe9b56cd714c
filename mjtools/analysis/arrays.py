"""Vectorised shanten and effective tiles over many hands at once (needs numpy: `pip install
mjtools[fast]`).

The same method as `fast.py`, one numpy operation per table column instead of one Python
operation per hand: group keys by a dot product, distance vectors by gathering from the shipped
tables, the min-plus combination column by column, and effective tiles from the improvement of
each group's vector at the splits that are optimal for the whole hand. Arrays of distance
vectors are laid out (12, N) so that each column is contiguous.

    >>> import numpy as np
    >>> from mjtools.analysis.arrays import shanten_array
    >>> shanten_array(np.array([[1,1,1, 0,0,0, 0,0,0] * 3 + [2, 2, 0, 0, 0, 0, 0]]))
    array([0], dtype=int16)

Results equal `fast.shanten` / `shanten.shanten_of_state` (tests/test_arrays.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from mjtools.analysis import fast, tables
from mjtools.analysis.shapes import RIICHI, ShapeSpec
from mjtools.analysis.tables import INF, MAX_SETS

TH = np.array(fast.TERMINAL_HONOR)
_TABLES: dict[str, tuple[np.ndarray, np.ndarray]] = {}


def _table(family: str) -> tuple[np.ndarray, np.ndarray]:
    """(pattern key -> local id, (12, local ids) distances) for a table family."""
    got = _TABLES.get(family)
    if got is None:
        ids, to_global = tables.table(family)
        vecs = np.array([tables.VECTORS[g] for g in to_global], dtype=np.int16)
        got = _TABLES[family] = (np.asarray(ids, dtype=np.uint16), np.ascontiguousarray(vecs.T))
    return got


def _combine(a: np.ndarray, b: np.ndarray, sets: int, cap: int) -> np.ndarray:
    """Min-plus combination of every row of `a` with every row of `b`: (len a * len b, width)."""
    width = 2 * sets + 2
    out = np.full((a.shape[0], b.shape[0], width), cap, dtype=np.int16)
    for m1 in range(sets + 1):
        for m2 in range(sets + 1 - m1):
            for p1 in range(2):
                for p2 in range(2 - p1):
                    o = 2 * (m1 + m2) + p1 + p2
                    np.minimum(out[:, :, o], a[:, None, 2 * m1 + p1] + b[None, :, 2 * m2 + p2], out=out[:, :, o])
    return np.minimum(out, cap).reshape(-1, width)


class _Plan:
    """Lookup tables for one engine and one number of sets M.

    Distance vectors cut to the columns of at most M sets and capped at 3M+3 are exact for the
    (M sets, 1 pair) answer (a feasible answer is at most 3M+2) and take few distinct values:
    a few hundred per table family, under two hundred per pair of groups. So the pairwise
    combinations (groups 0+1 and 2+3) and the final min over splits become small 2-D tables,
    and a hand's standard distance is a handful of gathers."""

    def __init__(self, families: list[tuple[np.ndarray, np.ndarray] | None], zero: np.ndarray, sets: int):
        self.sets = sets
        self.cap = cap = 3 * sets + 3
        width = 2 * sets + 2
        self.maps: list[np.ndarray | None] = []  # local vector id -> row of `uniq`
        uniq: list[np.ndarray] = []
        seen: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        for fam in families:
            if fam is None:
                self.maps.append(None)
                uniq.append(np.minimum(zero[None, :width], cap))
                continue
            got = seen.get(id(fam[1]))
            if got is None:
                rows, inverse = np.unique(np.minimum(fam[1].T[:, :width], cap), axis=0, return_inverse=True)
                got = seen[id(fam[1])] = (rows, inverse.reshape(-1).astype(np.int32))
            uniq.append(got[0])
            self.maps.append(got[1])
        self.pairs = []
        halves = []
        for a, b in ((0, 1), (2, 3)):
            rows, inverse = np.unique(_combine(uniq[a], uniq[b], sets, cap), axis=0, return_inverse=True)
            self.pairs.append(inverse.reshape(len(uniq[a]), len(uniq[b])).astype(np.int32))
            halves.append(rows)
        lo, hi = halves
        final = np.full((len(lo), len(hi)), cap, dtype=np.int16)
        for j in range(width):
            np.minimum(final, lo[:, None, j] + hi[None, :, width - 1 - j], out=final)
        self.final = np.where(final >= cap, INF, final).astype(np.int16)
        # Flat copies for `take`: index a * width + b.
        self.p0, self.n0 = self.pairs[0].ravel(), self.pairs[0].shape[1]
        self.p1, self.n1 = self.pairs[1].ravel(), self.pairs[1].shape[1]
        self.fin, self.nh = self.final.ravel(), self.final.shape[1]


@dataclass
class Analysis:
    """Per hand: distances per form (INF when out), shanten, and effective kinds (N, 34)."""

    standard: np.ndarray
    seven_pairs: np.ndarray
    thirteen_orphans: np.ndarray
    shanten: np.ndarray
    effective: np.ndarray | None


class ArrayEngine:
    """The vectorised fast path for one ShapeSpec (only specs that `fast.supported` covers)."""

    def __init__(self, spec: ShapeSpec):
        if not fast.supported(spec):
            raise ValueError("this shape spec needs the general engine (wildcards or shape requirements)")
        eng = fast.engine_for(spec)
        assert eng is not None
        self.spec = spec
        self.sets = spec.sets_needed
        self.std, self.sp, self.ko, self.quads = eng.std, eng.sp, eng.ko, eng.quads
        self.families: list[tuple[np.ndarray, np.ndarray] | None] = []
        self.group_kinds: list[tuple[int, ...]] = []
        weights = np.zeros((34, 4), dtype=np.float32)
        for g, lay in enumerate(spec.group_layout()):
            self.families.append(None if lay is None else _table(lay[0]))
            self.group_kinds.append(() if lay is None else lay[1])
            for i, k in enumerate(self.group_kinds[-1]):
                weights[k, g] = 5**i
        # Keys by one matrix product: exact in float32 (5**9 < 2**24), and BLAS is fast.
        self.weights = weights
        self.sp_cols = np.array([k for k in range(34) if eng.sp_mask >> k & 1])
        self.sp_all = len(self.sp_cols) == 34
        self.kinds = np.zeros(34, dtype=bool)
        self.kinds[sorted(spec.kinds)] = True
        self.zero = np.array(tables.VECTORS[tables.ZERO], dtype=np.int16)
        self._plans: dict[int, _Plan] = {}

    def plan(self, sets: int) -> _Plan:
        got = self._plans.get(sets)
        if got is None:
            got = self._plans[sets] = _Plan(self.families, self.zero, sets)
        return got

    def analyse(self, counts: np.ndarray, melds: int = 0, effective: bool = True, drawable: np.ndarray | None = None) -> Analysis:
        """Analyse N hands of 34 concealed counts (an (N, 34) integer array) with `melds` melds.

        `drawable` (N, 34) or (34,) bool limits the effective kinds (default: the spec's kinds).
        Work is done kind-major ((34, N): one contiguous row per kind) with flat `take`s, which
        numpy does several times faster than 2-D fancy indexing."""
        c = np.asarray(counts)
        if c.ndim != 2 or c.shape[1] != 34:
            raise ValueError("counts is an (N, 34) array")
        if c.size and (c.min() < 0 or c.max() > 4):
            raise ValueError("counts are 0-4 copies of each kind")
        c = c.astype(np.uint8, copy=False)
        ct = np.ascontiguousarray(c.T)
        n = c.shape[0]
        m = self.sets - melds
        inf = np.full(n, INF, dtype=np.int16)
        std = inf
        if self.std and 0 <= m <= MAX_SETS:
            plan = self.plan(m)
            keys = (c @ self.weights).astype(np.int32).T.copy()
            us = [np.zeros(n, dtype=np.int32) if mp is None else mp.take(fam[0].take(keys[g])) for g, (fam, mp) in enumerate(zip(self.families, plan.maps))]
            lo = plan.p0.take(us[0] * plan.n0 + us[1])
            hi = plan.p1.take(us[2] * plan.n1 + us[3])
            std = plan.fin.take(lo * plan.nh + hi)
        sp = inf
        ko = inf
        two = one = None
        if not melds and self.sp:
            cs = ct if self.sp_all else ct[self.sp_cols]
            two = (cs >= 2).sum(0, dtype=np.int16)
            one = (cs == 1).sum(0, dtype=np.int16)
            if self.quads:
                two += (cs == 4).sum(0, dtype=np.int16)
                one += (cs == 3).sum(0, dtype=np.int16)
            full = np.minimum(two, 7)
            sp = 14 - 2 * full - np.minimum(one, 7 - full)
        th = ct[TH]
        if not melds and self.ko:
            ko = (14 - (th > 0).sum(0, dtype=np.int16) - (th >= 2).any(0)).astype(np.int16)
        base = np.minimum(np.minimum(std, sp), ko)
        shanten = np.where(base < INF, base - 1, INF).astype(np.int16)
        eff = None
        if effective:
            eff = np.zeros((34, n), dtype=bool)
            if std is not inf:
                self._std_effective(eff, ct, keys, us, lo, hi, std, plan)
                eff &= std == base
            if two is not None and one is not None:
                self._sp_effective(eff, ct, two, one, sp == base)
            if ko is not inf:
                eff[TH] |= ((th == 0) | ((th == 1) & ~(th >= 2).any(0))) & (ko == base)
            eff &= (self.kinds if drawable is None else np.asarray(drawable)).T.reshape(34, -1)
            eff &= base < INF
            eff = eff.T
        return Analysis(std, sp, ko, shanten, eff)

    def _std_effective(self, eff, ct, keys, us, lo, hi, std, plan: _Plan) -> None:
        """A draw helps the standard form when the hand's standard distance drops with it: the
        drawn kind changes one group's vector, so one pair lookup and one final lookup tell
        (exact, since a draw lowers a distance by at most one)."""
        lo_row = lo * plan.nh
        left0, left1 = us[0] * plan.n0, us[2] * plan.n1
        for g, (fam, mp) in enumerate(zip(self.families, plan.maps)):
            if fam is None or mp is None:
                continue
            ids, key = fam[0], keys[g]
            for i, k in enumerate(self.group_kinds[g]):
                room = ct[k] < 4
                u = mp.take(ids.take(key + room * np.int32(5**i)))
                if g == 0:
                    d = plan.fin.take(plan.p0.take(u * plan.n0 + us[1]) * plan.nh + hi)
                elif g == 1:
                    d = plan.fin.take(plan.p0.take(left0 + u) * plan.nh + hi)
                elif g == 2:
                    d = plan.fin.take(lo_row + plan.p1.take(u * plan.n1 + us[3]))
                else:
                    d = plan.fin.take(lo_row + plan.p1.take(left1 + u))
                np.less(d, std, out=eff[k])
                eff[k] &= room

    def _sp_effective(self, eff, ct, two, one, on) -> None:
        # As in fast.py: a single becoming a pair helps while fewer than 7 pairs are held; a new
        # kind helps while fewer than 7 kinds are (quads_as_pairs: a pair may grow a second).
        grow = (two < 7) & on
        new = (two + one < 7) & on
        part = ((ct == 0) & new) | ((ct == 1) & grow)
        if self.quads:
            part |= ((ct == 2) & new) | ((ct == 3) & grow)
        if not self.sp_all:
            keep = np.zeros((34, 1), dtype=bool)
            keep[self.sp_cols] = True
            part &= keep
        eff |= part


_ENGINES: dict[int, tuple[ShapeSpec, ArrayEngine]] = {}


def engine_for(spec: ShapeSpec) -> ArrayEngine:
    got = _ENGINES.get(id(spec))
    if got is None or got[0] is not spec:
        got = _ENGINES[id(spec)] = (spec, ArrayEngine(spec))
    return got[1]


def shanten_array(counts: np.ndarray | Sequence[Sequence[int]], spec: ShapeSpec = RIICHI, melds: int = 0) -> np.ndarray:
    """Shanten of each of N hands given as an (N, 34) array of concealed counts (99: impossible)."""
    return engine_for(spec).analyse(np.asarray(counts), melds, effective=False).shanten


def effective_array(counts: np.ndarray | Sequence[Sequence[int]], spec: ShapeSpec = RIICHI, melds: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """(shanten (N,), effective kinds (N, 34) bool) of N hands of concealed counts."""
    a = engine_for(spec).analyse(np.asarray(counts), melds)
    assert a.effective is not None
    return a.shanten, a.effective
