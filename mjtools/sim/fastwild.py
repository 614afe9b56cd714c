"""Wildcards held with melds laid down, for `fastshape.Analyzer` (a mixin: it reads the
analyzer's spec, tables and memos): when the shape tables' distance is the general engine's,
and the improving kinds when it is, with capped searches (`ruletables`) for the rest."""

from __future__ import annotations

from collections.abc import Sequence

from mjtools.analysis.ruletables import capped_gain, capped_gid
from mjtools.analysis.shanten import _masked, distance, effective, standard_distance
from mjtools.analysis.tables import INF, POW5, VECTORS, ZERO, combine
from mjtools.analysis.tables import intern as tables_intern
from mjtools.sim.fastbase import MEMO_LIMIT, Melds


def _held_caps(counts: Sequence[int], kinds: tuple[int, ...], mc: Sequence[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A capped group's held counts and the copies its targets may hold (those the melds
    leave, or as many as held)."""
    return tuple(counts[k] for k in kinds), tuple(max(counts[k], 4 - mc[k]) for k in kinds)


class MeldedWildcards:
    """The wildcards-with-melds half of `fastshape.Analyzer`.

    The general engine counts a target position a wildcard may not fill (a copy of a melded
    kind beyond max(held, 4 - shown)) as drawn only: distance max(D, N + w) over targets, N
    those positions. The tables' least D is a lower bound, and the answer when a least-D
    target has N <= D - w. That holds when the copies every least-D target may hold beyond
    the caps add up to at most D - w (`_may_over_use`: some least-D target holds c + j copies
    of a kind exactly when j more copies lower D by j), or when the groups holding melded
    kinds, searched with those caps (`ruletables.capped_gid`), still reach D (N = 0; a
    hand-size hand misses at least w + 1 tiles, one more tile at least w). Otherwise the
    general engine counts.
    """

    def _capped(self, counts: list[int], m: Melds, keys: list[int] | None = None) -> int:
        """The standard distance over targets within the melded kinds' caps."""
        sets = self.spec.sets_needed - m.n
        if sets < 0:
            return INF
        col = 2 * sets + 1
        mc = m.counts
        best = INF
        if keys is None:
            keys = self.keys(counts)
        mk = (keys[0], keys[1], keys[2], keys[3], m)
        got = self._capped_memo.get(mk)
        if got is not None:
            return got
        for parts in self._readings(m):
            gids = [ZERO, ZERO, ZERO, ZERO]
            for g, tid, ids, tg, kinds in parts:
                if any(mc[k] for k in kinds):
                    variant, checks = self._meta[tid]
                    gid = capped_gid(variant, kinds, *_held_caps(counts, kinds, mc), sets)
                    gids[g] = _masked(gid, checks) if checks else gid
                else:
                    gids[g] = tg[ids[keys[g]]]
            d = VECTORS[combine(combine(gids[0], gids[1]), combine(gids[2], gids[3]))][col]
            if d < best:
                best = d
        if len(self._capped_memo) >= MEMO_LIMIT:
            self._capped_memo.clear()
        self._capped_memo[mk] = best
        return best

    def _capped_lowers(self, counts: list[int], m: Melds, d: int, keys: list[int] | None = None) -> tuple[int, int] | None:
        """(kinds covered, kinds whose one more copy lowers `_capped` from d to d - 1): covered
        are the kinds that in no reading sit in a group without melded kinds (a draw changes
        only capped groups, whose searches `capped_gain` answers for every draw at once). None
        when `_capped` is not d, or a capped group has entry checks or no `capped_gain`."""
        sets = self.spec.sets_needed - m.n
        if sets < 0:
            return None
        col = 2 * sets + 1
        mc = m.counts
        best = INF
        uncovered = lowers = 0
        if keys is None:
            keys = self.keys(counts)
        for parts in self._readings(m):
            gids = [ZERO, ZERO, ZERO, ZERO]
            gains: list[tuple[int, tuple[int, ...], tuple[int, ...], tuple[int, ...]]] = []
            for g, tid, ids, tg, kinds in parts:
                if any(mc[k] for k in kinds):
                    variant, checks = self._meta[tid]
                    got = None if checks else capped_gain(variant, kinds, *_held_caps(counts, kinds, mc), sets)
                    if got is None:
                        return None
                    gids[g] = tables_intern(got[0])
                    gains.append((g, kinds, got[0], got[1]))
                else:
                    gids[g] = tg[ids[keys[g]]]
                    for k in kinds:
                        uncovered |= 1 << k  # (its draw changes a table group: `_exact` asks)
            total = VECTORS[combine(combine(gids[0], gids[1]), combine(gids[2], gids[3]))][col]
            if total < best:
                best = total
            for g, kinds, vec, masks in gains:
                if total != d:
                    continue
                others = [gids[h] if h != g else ZERO for h in range(4)]
                rest = VECTORS[combine(combine(others[0], others[1]), combine(others[2], others[3]))]
                for e in range(min(2 * sets + 2, len(vec))):
                    v = vec[e]
                    if v < INF and v + rest[col - e] == d:
                        mask = masks[e]
                        for i, k in enumerate(kinds):
                            if mask >> i & 1:
                                lowers |= 1 << k
        return (~uncovered, lowers) if best == d else None

    def _exact(self, counts: list[int], m: Melds, d: int, gain: int = -1, wild: int = 0, keys: list[int] | None = None) -> bool:
        """Whether the tables' standard distance d is the general engine's for a hand holding
        `wild` wildcards (see above); `gain`: the kinds whose draw lowers d, if known; `keys`:
        the hand's group keys, if known."""
        if not self._may_over_use(counts, m, d, gain, wild, keys):
            return True
        return self._capped(counts, m, keys) == d

    def _may_over_use(self, counts: list[int], m: Melds, d: int, gain: int, wild: int, keys: list[int] | None = None) -> bool:
        """Whether some least-D target may hold more than d - wild copies of melded kinds
        beyond their caps (then max(D, N + w) may exceed D). A least-D target holding c + j
        copies of a kind held c times exists exactly when j more copies lower D by j; the
        most each kind is held beyond its cap, added up over the kinds, bounds every least-D
        target's N."""
        mc = m.counts
        room = d - wild  # the N a least-D target may have and still count D
        over = 0
        for k in m.kinds:
            if not gain >> k & 1:
                continue  # no least-D target adds a copy of k
            c = counts[k]
            cap = max(4 - mc[k], c)
            # (a target lacks at least j tiles to hold j more copies: none of distance d
            # holds more than c + d)
            if cap >= 4 or cap + 1 - c > d or k not in self.pos:
                continue
            if keys is None:
                keys = self.keys(counts)
            g, i = self.pos[k]
            j = cap + 1 - c  # the first copy beyond the cap, then one more while D falls
            while c + j <= 4 and j <= d:
                keys[g] += j * POW5[i]
                d2 = self._std_distance(keys, m)
                keys[g] -= j * POW5[i]
                if d2 != d - j:
                    break
                over += 1
                if over > room:
                    return True
                j += 1
        return False

    def _rich_std(self, counts: list[int], wild: int, m: Melds, d: int, gain: int = -1, keys: list[int] | None = None) -> int:
        """The standard distance of a hand holding wildcards and melds (d: the tables')."""
        if self._exact(counts, m, d, gain, wild, keys):
            return d
        return standard_distance(self._state(counts, wild, m), self.spec, self.void)

    def wild_helps(self, counts: list[int], wild: int, m: Melds, d: int, gain: int, keys: list[int] | None = None) -> bool:
        """Whether drawing a wildcard lowers a hand-size hand of distance d (exact): whether
        the hand with one more wildcard still counts d (its tables' distance), max(D, N + w + 1)
        = D for a least-D target (`_rich_std`). Without melds a wildcard always helps."""
        if not (self.meld_cap and m.n):
            return True
        return self._rich_std(counts, wild + 1, m, d, gain, keys) <= d

    def _rich_gain(self, counts: list[int], wild: int, m: Melds, d: int, gain: int, keys: list[int] | None = None) -> int:
        """The improving kinds of a hand whose distance is the tables' d (see `_exact`):
        a draw lowers it only if it lowers the tables' distance, and does when the hand after
        it is exact too. Wildcards always lower it (max(D, w + 1) = D)."""
        # A least-distance target of the hand with one more tile is one of this hand's too
        # (one tile lowers a target's distance by at most one): when those hold at most
        # d - 1 - wild copies beyond the caps, every draw that lowers the tables' distance is exact.
        if not self._may_over_use(counts, m, d, gain, wild + 1, keys):
            return gain
        # the capped distance falls by one on a draw exactly when a least-d capped target lacks
        # a copy of it (`capped_gain`): one search per group in place of one per draw
        lowers = self._capped_lowers(counts, m, d, keys)
        mc = m.counts
        out = 0
        g = gain
        while g:
            low = g & -g
            k = low.bit_length() - 1
            g ^= low
            counts[k] += 1
            if lowers is not None and (lowers[0] >> k & 1) and counts[k] <= 4 - mc[k]:  # (k's cap unchanged)
                exact = bool(lowers[1] >> k & 1) or not self._may_over_use(counts, m, d - 1, -1, wild)
            else:
                exact = self._exact(counts, m, d - 1, -1, wild)
            if exact:
                out |= low
            elif self._rich_std(counts, wild, m, d - 1) < d:
                out |= low
            counts[k] -= 1
        return out

    def _rich_effective(self, counts: list[int], wild: int, m: Melds, held: Sequence[int]) -> tuple[int, list[int]]:
        """`effective` through the general engine, for the hands `_exact` cannot settle."""
        hs = self._state(counts, wild, m, held)
        d = distance(hs, self.spec, self.void)
        return (INF if d >= INF else d - wild - 1), effective(hs, self.spec, self.copies, self.void)
