"""The forms beyond sets + pair, seven pairs and thirteen orphans, for `fastshape.Analyzer`:
将将和 (`all_258`, Changsha), 十三烂 (`thirteen_unrelated`, Nanchang), 全不靠 (`knitted`) and
组合龙 (`knitted_straight`, MCR: a knitted straight, one set and a pair, at most one meld).

将将和 is counted in closed form: its distance is the tiles of the hand that are not a 2, 5 or 8
(of the suits a requirement allows), and any 2, 5 or 8 lowers it while fewer are held than
the hand needs. The other two are counted by `analysis/forms.py` itself, memoised on which
kinds the hand holds (all they read), and a draw of a kind not yet held lowers them when the
memoised count of the hand with that tile does. 组合龙 is counted by `analysis/forms.py` too,
memoised per hand (its set and pair read the counts), where the fewest kinds a knitted
straight misses does not already put it above the distance asked about.
`tests/test_sim_fastshape.py` holds every answer to `shanten.py`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mjtools.analysis.forms import OTHER_FORMS, _knit_best, knitted_straight_distance
from mjtools.analysis.shapes import KINDS_258
from mjtools.analysis.tables import INF

if TYPE_CHECKING:
    from mjtools.sim.fastshape import Analyzer, Melds

MEMO_LIMIT = 1 << 18
_MASK_258 = sum(1 << k for k in KINDS_258)
_HELD = bytes([0] + [1] * 255)  # count -> held or not


class OtherForms:
    """Distances and improving draws of a spec's other forms (those of `EXOTIC`)."""

    def __init__(self, an: Analyzer):
        self.an = an
        spec = an.spec
        self.all_258 = "all_258" in spec.forms
        self.counted = tuple(OTHER_FORMS[f] for f in spec.forms if f in ("thirteen_unrelated", "knitted"))
        self.size = spec.hand_size + 1
        self.kinds = tuple(k for k in sorted(spec.kinds) if k < 34)
        self._memo: dict[bytes, int] = {}
        self.knit_straight = "knitted_straight" in spec.forms
        self._ks_memo: dict[tuple[bytes, Melds], int] = {}
        self._kinds_258: dict[frozenset[int], tuple[int, ...]] = {}  # group set -> its 2, 5 and 8s

    # -- 将将和 ---------------------------------------------------------------------------------
    def _258(self, counts: list[int], m: Melds) -> tuple[int, int]:
        """(distance, mask of the kinds that lower it)."""
        if not m.pungs_only or not m.kinds <= KINDS_258:
            return INF, 0
        need = self.size - 3 * m.n
        best, gain = INF, 0
        for gs in self.an._group_sets(m):
            if not m.groups <= gs:
                continue
            suits = [g for g in (0, 1, 2) if g in gs]
            if need < 0 or 12 * len(suits) < self.size:
                continue
            ks = self._kinds_258.get(gs)
            if ks is None:
                ks = self._kinds_258[gs] = tuple(k for k in sorted(KINDS_258) if k // 9 in gs)
            kept = sum(map(counts.__getitem__, ks))
            d = need - min(kept, need)
            mask = 0
            if kept < need:
                for g in suits:
                    mask |= _MASK_258 & (511 << (9 * g))
            if d < best:
                best, gain = d, mask
            elif d == best:
                gain |= mask
        return best, gain

    # -- 十三烂 / 全不靠 -------------------------------------------------------------------------
    def _counted(self, counts: list[int], m: Melds) -> int:
        if m.n or not self.counted:
            return INF
        # both forms read only which kinds are held (every tile of the target is a different
        # kind): remembered per held-or-not pattern
        raw = bytes(counts).translate(_HELD)
        got = self._memo.get(raw)
        if got is None:
            st = self.an._state(counts, 0, m)
            sets = self.an._group_sets(m)
            got = min((fn(st, self.an.spec, gs) for fn in self.counted for gs in sets), default=INF)
            if len(self._memo) >= MEMO_LIMIT:
                self._memo.clear()
            self._memo[raw] = got
        return got

    @staticmethod
    def _counted_floor(counts: list[int]) -> int:
        """A lower bound of the counted forms' distance: their fourteen tiles are all different
        kinds, so a held tile beyond the first of its kind is never kept."""
        return 14 - (len(counts) - counts.count(0))

    # -- 组合龙 ----------------------------------------------------------------------------------
    @staticmethod
    def _ks_floor(counts: list[int], m: Melds) -> int:
        """A lower bound of 组合龙's distance: the fewest kinds a knitted straight misses."""
        return INF if m.n > 1 else 9 - _knit_best(counts)

    def _ks(self, counts: list[int], m: Melds) -> int:
        """组合龙's distance (`forms.knitted_straight_distance`, least over the group sets)."""
        if m.n > 1:
            return INF
        key = (bytes(counts[:34]), m)
        got = self._ks_memo.get(key)
        if got is None:
            st = self.an._state(counts[:34], 0, m)
            got = min((knitted_straight_distance(st, self.an.spec, gs) for gs in self.an._group_sets(m)), default=INF)
            if len(self._ks_memo) >= MEMO_LIMIT:
                self._ks_memo.clear()
            self._ks_memo[key] = got
        return got

    def _ks_gain(self, counts: list[int], m: Melds, target: int) -> int:
        """The kinds whose draw lowers 组合龙's distance below `target` (a kind held four
        times has no copy left to draw)."""
        gain = 0
        for k in self.kinds:
            if counts[k] >= 4:
                continue
            counts[k] += 1
            if self._ks(counts, m) < target:
                gain |= 1 << k
            counts[k] -= 1
        return gain

    def distance(self, counts: list[int], m: Melds, below: int = INF) -> int:
        """The least distance of these forms where it is below `below`; otherwise some value
        at least `below` (the caller keeps the least of both)."""
        d = self._counted(counts, m) if self._counted_floor(counts) < below else INF
        if self.all_258:
            d = min(d, self._258(counts, m)[0])
        if self.knit_straight and self._ks_floor(counts, m) < min(d, below):
            d = min(d, self._ks(counts, m))
        return d

    def merge(self, counts: list[int], m: Melds, d: int, gain: int) -> tuple[int, int]:
        """The least of distance d (with its improving kinds `gain`) and these forms'."""
        if self.all_258:
            e, mask = self._258(counts, m)
            if e < d:
                d, gain = e, mask
            elif e == d < INF:
                gain |= mask
        if self.knit_straight and self._ks_floor(counts, m) <= d:
            e = self._ks(counts, m)
            if e < d:
                d, gain = e, self._ks_gain(counts, m, e)
            elif e == d < INF:
                gain |= self._ks_gain(counts, m, e)
        if self._counted_floor(counts) > d:
            return d, gain  # (neither lower nor equal)
        e = self._counted(counts, m)
        if e < d:
            d, gain = e, self._counted_gain(counts, m, e)
        elif e == d < INF:
            gain |= self._counted_gain(counts, m, e)
        return d, gain

    def _counted_gain(self, counts: list[int], m: Melds, target: int) -> int:
        gain = 0
        for k in self.kinds:
            if counts[k]:  # (a kind held already changes no held-or-not pattern)
                continue
            counts[k] += 1
            if self._counted(counts, m) < target:
                gain |= 1 << k
            counts[k] -= 1
        return gain
