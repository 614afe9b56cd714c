"""The forms beyond sets + pair, seven pairs and thirteen orphans, for `fastshape.Analyzer`:
将将和 (`all_258`, Changsha), 十三烂 (`thirteen_unrelated`, Nanchang), 全不靠 (`knitted`) and
组合龙 (`knitted_straight`, MCR: a knitted straight, one set and a pair, at most one meld).

将将和 is counted in closed form: its distance is the tiles of the hand that are not a 2, 5 or 8
(of the suits a requirement allows), and any 2, 5 or 8 lowers it while fewer are held than
the hand needs. 十三烂 and 全不靠 are counted by `analysis/forms.py` itself, memoised on which
kinds the hand holds (all they read), and a draw of a kind not yet held lowers them when the
memoised count of the hand with that tile does. 组合龙 is counted from the plain tables as
`forms.knitted_straight_distance` counts it, only where the fewest kinds a knitted straight
misses does not already put it above the distance asked about.
`tests/test_sim_fastshape.py` holds every answer to `shanten.py`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mjtools.analysis.forms import OTHER_FORMS, _one_set_spec, _plain_groups, knitted_straight_distance
from mjtools.analysis.irregular import KNITTED_MASKS, KNITTED_STRAIGHTS, held_number_kinds
from mjtools.analysis.shapes import KINDS_258
from mjtools.analysis.tables import INF, POW5, VECTORS, combine, table

if TYPE_CHECKING:
    from mjtools.sim.fastshape import Analyzer, Melds

MEMO_LIMIT = 1 << 18
_MASK_258 = sum(1 << k for k in KINDS_258)
_HELD = bytes([0] + [1] * 255)  # count -> held or not


_KS_ORDER: dict[int, tuple[int, ...]] = {}  # held number kinds (`held_number_kinds`) -> `_ks_order`


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
        # 组合龙 needs every number kind in the shapes and a 13-tile hand (else never reached);
        # the plain tables count it where no void suit or suit rule splits the groups
        self.knit_straight = "knitted_straight" in spec.forms
        self._ks_ok = spec.hand_size == 13 and all(k in spec.kinds for k in range(27))
        plain = _plain_groups(_one_set_spec(spec)) if self._ks_ok and an.void is None and spec.max_suits is None else None
        self._ks_plain = plain if plain and len(plain) == 4 else None
        self._ks_where = {k: (g, POW5[i]) for g, (_, kinds) in enumerate(plain) for i, k in enumerate(kinds)} if self._ks_plain else {}
        # (the analysis's own group keys serve where its groups are the same)
        self._ks_keys = self._ks_plain is not None and [lay[1] for lay in an.layout if lay is not None] == [kinds for _, kinds in self._ks_plain]
        self._ks_memo: dict[int, tuple[int, ...]] = {}  # (group keys, straight) -> rest keys, rest vectors, their combination
        # per plain group: (table id, ids, to-global, kinds), for the analysis's signature memos
        self._ks_tables: list[tuple[int, object, list[int], tuple[int, ...]]] = []
        if self._ks_plain:
            from mjtools.sim.fastsigs import _table_id

            for variant, kinds in self._ks_plain:
                ids, tg = table(variant)
                self._ks_tables.append((_table_id(ids, tg, len(kinds)), ids, tg, tuple(kinds)))
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
    def _ks_order(counts: list[int]) -> tuple[int, ...]:
        """Kinds missed << 3 | straight, for the six knitted straights, fewest missed first
        (remembered per held-or-not pattern of the number kinds: read only)."""
        held = held_number_kinds(counts)
        got = _KS_ORDER.get(held)
        if got is None:
            # (kinds missed << 3 | straight: ints sort as the pairs would, and a tuple of ints
            # leaves the cyclic GC nothing to walk)
            got = tuple(sorted([(9 - (held & mask).bit_count()) << 3 | si for si, mask in enumerate(KNITTED_MASKS)]))
            if len(_KS_ORDER) >= MEMO_LIMIT:
                _KS_ORDER.clear()
            _KS_ORDER[held] = got
        return got

    def _ks_floor(self, counts: list[int], m: Melds) -> int:
        """A lower bound of 组合龙's distance: the fewest kinds a knitted straight misses."""
        if m.n > 1 or not self._ks_ok:
            return INF
        held = held_number_kinds(counts)
        got = _KS_ORDER.get(held)
        if got is None:
            return 9 - max([(held & mask).bit_count() for mask in KNITTED_MASKS])
        return got[0] >> 3

    def _ks_rest(self, counts: list[int], keys: list[int], straight: tuple[int, ...]) -> tuple[list[int], list[int]]:
        """The group keys and vectors of the tiles beside a knitted straight (one of each of
        its held kinds taken out)."""
        rest = list(keys)
        where = self._ks_where
        for k in straight:
            if counts[k]:
                g, p = where[k]
                rest[g] -= p
        return rest, [tg[ids[rk]] for (_tid, ids, tg, _kinds), rk in zip(self._ks_tables, rest)]  # type: ignore[index]

    def _ks(self, counts: list[int], m: Melds, below: int = INF, at: list | None = None) -> int:
        """组合龙's distance (as `forms.knitted_straight_distance`) where it is below `below`
        (else some value at least `below`): per knitted straight, the kinds it misses plus the
        distance of the rest to 1 - melds sets and a pair, straights missing fewest first.
        With `at`, every straight reaching the least is appended as (straight, rest keys, rest
        vectors) (`_ks_gain`)."""
        if m.n > 1:
            return INF
        if self._ks_plain is None:
            return self._ks_slow(counts, m)
        col = 2 * (1 - m.n) + 1
        keys = self.an.keys(counts) if self._ks_keys else [sum(counts[k] * p for k, p in zip(kinds, POW5)) for _, kinds in self._ks_plain]
        best = INF
        for ms in self._ks_order(counts):
            missing, si = ms >> 3, ms & 7
            if missing > best or missing >= below or (at is None and missing == best):
                break
            straight = KNITTED_STRAIGHTS[si]
            # (the rest is read from the group keys alone: a straight's kind is held where
            # its digit is not 0; remembered per keys and straight, a hand is asked about
            # several times a decision)
            # (keys are below 5^9 < 2^21; an int key and a flat tuple of ints: nothing for the
            # cyclic GC to walk)
            mk = (((keys[0] << 21 | keys[1]) << 21 | keys[2]) << 21 | keys[3]) << 3 | si
            got = self._ks_memo.get(mk)
            if got is None:
                rest, vecs = self._ks_rest(counts, keys, straight)
                acc = vecs[0]
                for v in vecs[1:]:
                    acc = combine(acc, v)
                if len(self._ks_memo) >= MEMO_LIMIT:
                    self._ks_memo.clear()
                got = self._ks_memo[mk] = (*rest, *vecs, acc)
            d = missing + VECTORS[got[8]][col]
            if d < best:
                best = d
                if at is not None:
                    at.clear()
            if d == best and at is not None:
                at.append((straight, got[:4], got[4:8]))
        return best

    def _ks_slow(self, counts: list[int], m: Melds) -> int:
        if m.n > 1:
            return INF
        st = self.an._state(counts[:34], 0, m)
        return min((knitted_straight_distance(st, self.an.spec, gs) for gs in self.an._group_sets(m)), default=INF)

    def _ks_gain(self, counts: list[int], m: Melds, target: int) -> int:
        """The kinds whose draw lowers 组合龙's distance (`target`, the least): a draw lowers
        a straight's total by one at most (a kind it misses, or a tile of the rest), so it
        lowers the least exactly when it lowers a straight at the least: a kind that straight
        misses, or a draw lowering its rest's distance. A kind held four times has no copy
        left to draw."""
        plain = self._ks_plain
        if plain is None:
            return self._ks_gain_slow(counts, m, target)
        at: list[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]] = []
        if self._ks(counts, m, INF, at) != target:
            return 0
        col = 2 * (1 - m.n) + 1
        an = self.an
        gain = 0
        for straight, rest, vecs in at:
            for k in straight:
                if not counts[k]:
                    gain |= 1 << k
            # the rest's draws in group g lower its distance exactly where they lower the
            # combination of g's rest pattern with the other groups' vector: the analysis's
            # per-signature positions (`Analyzer._positions`); no copy is left of a kind held
            # four times
            rests = an._rests(vecs)  # (per group, the other groups' combined vector)
            for g, (tid, ids, tg, kinds) in enumerate(self._ks_tables):
                others = rests[g]
                sig = an._sigs.get(tid << 24 | rest[g])
                if sig is None:
                    sig = an._sig(tid, ids, tg, len(kinds), rest[g])
                pos = an._memo.get(sig << 40 | others << 4 | col)
                if pos is None:
                    pos = an._positions(sig, others, col)
                while pos:
                    bit = pos & -pos
                    k = kinds[bit.bit_length() - 1]
                    if counts[k] < 4:
                        gain |= 1 << k
                    pos ^= bit
        return gain

    def _ks_gain_slow(self, counts: list[int], m: Melds, target: int) -> int:
        gain = 0
        for k in self.kinds:
            if counts[k] >= 4:
                continue
            counts[k] += 1
            if self._ks_slow(counts, m) < target:
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
            d = min(d, self._ks(counts, m, min(d, below)))
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
            e = self._ks(counts, m, d + 1)
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
