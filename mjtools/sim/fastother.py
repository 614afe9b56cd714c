"""Seven pairs and thirteen orphans for `fastshape.Analyzer` (a mixin: it reads the
analyzer's spec, memos and group sets): distances and improving kinds from per-group counts of
pairs and singles, so a one-tile change is a small update of ten numbers."""

from __future__ import annotations

from collections.abc import Sequence

from mjtools.analysis.shanten import TERMINAL_HONOR
from mjtools.analysis.tables import INF
from mjtools.sim.fastbase import MEMO_LIMIT, Melds, group_of

_TH = frozenset(TERMINAL_HONOR)
# Seven-pairs slots of a kind held n times: (pairs, singles), without and with quads as two pairs.
_SLOTS = (((0, 0), (0, 1), (1, 0), (1, 0), (1, 0)), ((0, 0), (0, 1), (1, 0), (1, 1), (2, 0)))
_GROUP_MASKS: dict[tuple[int, bytes], int] = {}  # (group start, raw counts) -> its share of `_count_masks`
_M34 = (1 << 34) - 1


class OtherForms:
    """The seven-pairs / orphans half of `fastshape.Analyzer`."""

    def _stats(self, counts: list[int]) -> list[int]:
        """[pairs m, p, s, z, singles m, p, s, z, orphan kinds held, orphan pairs]."""
        st = [0] * 10
        quads = self.spec.quads_as_pairs
        raw = bytes(counts[:34])  # (bytes.count: no compare per element)
        for g, start, end in ((0, 0, 9), (1, 9, 18), (2, 18, 27), (3, 27, 34)):
            part = raw[start:end]
            n2, n3, n4 = part.count(2), part.count(3), part.count(4)
            if quads:
                st[g] = n2 + n3 + 2 * n4
                st[4 + g] = part.count(1) + n3
            else:
                st[g] = n2 + n3 + n4
                st[4 + g] = part.count(1)
        if self.orphans:
            held = [counts[k] for k in TERMINAL_HONOR]
            st[8] = 13 - held.count(0)
            st[9] = 13 - held.count(0) - held.count(1)
        return st

    def _restat(self, st: list[int], c: int, k: int, sign: int) -> list[int]:
        """Stats after a kind held c times gains (1) or loses (-1) one."""
        out = list(st)
        g = group_of(k)
        a, b = self.slots[c], self.slots[c + sign]
        out[g] += b[0] - a[0]
        out[4 + g] += b[1] - a[1]
        if self.orphans and k in _TH:
            out[8] += (c + sign >= 1) - (c >= 1)
            out[9] += (c + sign >= 2) - (c >= 2)
        return out

    def _other_distance(self, st: Sequence[int], m: Melds) -> int:
        if m.n:
            return INF
        sk = tuple(st)  # (without melds the group sets are fixed: remembered per stats)
        got = self._other_memo.get(sk)
        if got is not None:
            return got
        best = INF
        sets = self._group_sets(m)
        if self.seven:
            for gs in sets:
                if len(gs) == 4:
                    p = st[0] + st[1] + st[2] + st[3]
                    s = st[4] + st[5] + st[6] + st[7]
                else:
                    p = sum(st[g] for g in gs)
                    s = sum(st[4 + g] for g in gs)
                pp = p if p < 7 else 7
                d = 14 - 2 * pp - min(s, 7 - pp)
                if d < best:
                    best = d
        if self.orphans and any(len(gs) == 4 for gs in sets):
            d = 14 - st[8] - (st[9] > 0)
            if d < best:
                best = d
        if len(self._other_memo) >= MEMO_LIMIT:
            self._other_memo.clear()
        self._other_memo[sk] = best
        return best

    @staticmethod
    def _count_masks(counts: Sequence[int]) -> int:
        """The kinds held 0, 1, 2, 3 and 4 times as one packed int: field c (bits 40c to
        40c + 33) is the mask of the natural kinds held c times (a stand-in with its natural
        kind may count more: in no field, as the forms read them)."""
        out = 0
        for lo, hi in ((0, 9), (9, 18), (18, 27), (27, 34)):
            raw = bytes(counts[lo:hi])
            got = _GROUP_MASKS.get((lo, raw))
            if got is None:
                got = 0
                for i, c in enumerate(raw):
                    if c <= 4:
                        got |= 1 << (40 * c + lo + i)
                if len(_GROUP_MASKS) < MEMO_LIMIT:
                    _GROUP_MASKS[(lo, raw)] = got
            out |= got
        return out

    def _other_gain(self, counts: Sequence[int], st: Sequence[int], m: Melds, target: int) -> int:
        """Mask of the natural kinds that lower seven pairs or thirteen orphans below `target`
        (their least distance)."""
        return self._other_gain_masks(self._count_masks(counts), st, m, target)

    def _other_gain_masks(self, cm: int, st: Sequence[int], m: Melds, target: int) -> int:
        """`_other_gain` from the hand's `_count_masks`."""
        return self._apply_parts(self._other_parts(st, m, target), cm)

    def _other_parts(self, st: Sequence[int], m: Melds, target: int) -> tuple[int, int, int, int]:
        """`_other_gain_parts`, remembered per (stats, target) without melds (the group sets
        are fixed then)."""
        if m.n:
            return self._other_gain_parts(st, m, target)
        mk = (*st, target)
        got = self._other_gain_memo.get(mk)
        if got is None:
            got = self._other_gain_memo[mk] = self._other_gain_parts(st, m, target)
        return got

    def _apply_parts(self, got: tuple[int, int, int, int], cm: int) -> int:
        """The kinds `_other_gain_parts` names, read off a hand's `_count_masks`."""
        pairs, news, th0, th1 = got
        c0, c1 = cm & _M34, cm >> 40 & _M34
        if self.spec.quads_as_pairs:
            return pairs & (c1 | cm >> 120 & _M34) | news & (c0 | cm >> 80 & _M34) | th0 & c0 | th1 & c1
        return pairs & c1 | news & c0 | th0 & c0 | th1 & c1

    def _other_gain_parts(self, st: Sequence[int], m: Melds, target: int) -> tuple[int, int, int, int]:
        """What `_other_gain_masks` reads of the count masks, from the stats alone: (kinds
        whose single (with quads: or triple) becoming a pair helps, kinds whose first (with
        quads: third) copy helps, orphan kinds helping when not held, when held once)."""
        pairs = news = th0 = th1 = 0
        sets = self._group_sets(m)
        if self.seven:
            for gs in sets:
                p = sum(st[g] for g in gs)
                s = sum(st[4 + g] for g in gs)
                pp = p if p < 7 else 7
                if 14 - 2 * pp - min(s, 7 - pp) != target:
                    continue
                kinds = self._kinds_mask_in(gs)
                # a single (or, with quads, a triple) becomes a pair while pairs are short; a new
                # kind (or, with quads, a third of a pair) helps while slots are short
                if p < 7:
                    pairs |= kinds
                if s < 7 - pp:
                    news |= kinds
        if self.orphans and any(len(gs) == 4 for gs in sets) and 14 - st[8] - (st[9] > 0) == target:
            th0 = self._th_mask
            th1 = 0 if st[9] else self._th_mask
        return pairs, news, th0, th1

    def _kinds_mask_in(self, groups: frozenset[int]) -> int:
        got = self._kinds_masks.get(groups)
        if got is None:
            got = self._kinds_masks[groups] = sum(1 << k for k in self._kinds_in(groups))
        return got

    def _kinds_in(self, groups: frozenset[int]) -> tuple[int, ...]:
        got = self._kinds_cache.get(groups)
        if got is None:
            got = self._kinds_cache[groups] = tuple(k for k in range(34) if k in self.kinds and group_of(k) in groups)
        return got

    def _other_bound(self, counts: list[int]) -> int:
        """A cheap lower bound of the seven-pairs / orphans distance (each missing pair, or
        each missing terminal or honor, needs a tile)."""
        bound = INF
        if self.seven:  # (four of a kind may be two pairs)
            raw = bytes(counts)  # (bytes.count: no compare per element)
            bound = 7 - (raw.count(2) + raw.count(3) + raw.count(4) * (1 + bool(self.spec.quads_as_pairs)))
        if self.orphans:
            bound = min(bound, 13 - min(13, sum(map(counts.__getitem__, TERMINAL_HONOR))))
        return bound
