"""Incremental shape distances for the simulator, over the same shipped tables as `shanten.py`.

A bot weighs every discard and every draw after it, thousands of times per hand; `shanten.py`
recomputes each hand from scratch. `Analyzer` reads the same distance tables but keeps the
per-group pattern keys, so a one-tile change is one key update, and memoises per group which
draws lower a reading's distance given the other groups' combined vector. What it does not
handle incrementally (八枝 and all-three-suits splits, 十三烂, 全不靠) goes to `shanten.py`
itself. Seven pairs and thirteen orphans (`fastother.py`) and wildcards held with melds
(`fastwild.py`) are mixins of `Analyzer`; `fastbase.py` holds what they share.
`tests/test_sim_fastshape.py` checks every answer against `shanten.py` and `waits.py`.

Counts are natural kinds 0-33 (wildcards removed and counted apart, stand-ins mapped), as in
`shanten.HandState`. Distances are raw: shanten = distance - wildcards - 1.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import compress
from operator import add, mul

from mjtools.analysis.ruletables import group_table
from mjtools.analysis.shanten import (
    TERMINAL_HONOR,
    HandState,
    _allowed_group_sets,
    _alternatives,
    _split_masks,
    candidate_kinds,
    distance,
    effective,
)
from mjtools.analysis.shapes import ShapeSpec
from mjtools.analysis.tables import INF, POW5, VECTORS, ZERO, combine
from mjtools.sim.fastbase import MEMO_LIMIT, NO_MELDS, Melds, Row, group_of, kinds_of_mask, melds_info
from mjtools.sim.fastother import _SLOTS, OtherForms
from mjtools.sim.fastsigs import (  # (the memos every analysis shares, and group signatures)
    _DIST,
    _FINAL,
    _KEY_MEMOS,
    _MEMO,
    _POSITION_BITS,
    _REST_MEMO,
    _SIG_DRAWS,
    _SIG_IDS,
    _SIG_LIST,
    _SIG_LOW,
    _SIGS,
    _lowered,
    _table_id,
)
from mjtools.sim.fastwild import MeldedWildcards

WHOLE_KEYS_LIMIT = 1 << 15  # hands whose group keys an analysis keeps

__all__ = ["MEMO_LIMIT", "NO_MELDS", "Analyzer", "Melds", "Row", "group_of", "kinds_of_mask", "melds_info"]

class Analyzer(OtherForms, MeldedWildcards):
    """Distances, effective tiles and waits for one shape spec (and declared void suit)."""

    def __init__(self, spec: ShapeSpec, copies: Sequence[int], void: int | None = None):
        self.spec = spec
        self.copies = list(copies)
        self.fewest = min(self.copies[:34])  # (a hand holding fewer of every kind holds no kind all out)
        self.void = void
        self.layout = spec.group_layout()
        self.stand = dict(spec.stand_ins)
        self.wild = spec.wild_kinds
        self._wild_list = sorted(k for k in spec.wild_kinds if k < 50)
        self._stand_moves = [(k, to) for k, to in sorted(self.stand.items()) if k < 34 and k not in spec.wild_kinds]
        self.kinds = spec.kinds
        self.candidates = candidate_kinds(spec)
        self.forms = spec.forms
        self.has_standard = "standard" in spec.forms
        self.seven = "seven_pairs" in spec.forms and spec.hand_size == 13
        self.orphans = "thirteen_orphans" in spec.forms and spec.hand_size == 13
        self.split = spec.min_tiles_one_suit is not None or spec.all_three_suits
        # forms beyond sets + pair, seven pairs and orphans: counted by `fastforms.py`
        self.exotic = tuple(f for f in spec.forms if f not in ("standard", "seven_pairs", "thirteen_orphans"))
        # wildcard rules the tables cannot express for every hand (groupdp.py): a wildcard that
        # may not sit in the pair, or may be a fifth copy, sends every call to shanten.py; a
        # wildcard may not be a copy beyond the four that melds leave: hands holding wildcards
        # and melds go to shanten.py for the standard form (`_rich`)
        self.slow = bool(spec.face_value_forms) or (bool(spec.wild_kinds) and (not spec.wild_in_pair or spec.wild_fifth_copy))
        self.meld_cap = bool(spec.wild_kinds)
        self._forms = None
        if self.exotic:
            from mjtools.sim.fastforms import OtherForms

            self._forms = OtherForms(self)
        # The analysis engine's own fast path (mjtools.fast) answers the specs it covers (no
        # requirement, wildcard or declared void) faster than the incremental code below.
        from mjtools.analysis import fast

        self.fast = fast.engine_for(spec) if void is None and max(self.copies[:34]) <= 4 else None
        self.kinds_mask = sum(1 << k for k in spec.kinds if k < 34)
        self.slots = _SLOTS[bool(spec.quads_as_pairs)]
        # natural kind -> (group, position in the group's table key)
        self.pos: dict[int, tuple[int, int]] = {}
        for g, lay in enumerate(self.layout):
            if lay is not None:
                for i, k in enumerate(lay[1]):
                    self.pos[k] = (g, i)
        # per kind 0-49: (group, position, the position's step in the group's key), None outside
        self._steps = [(self.pos[k][0], self.pos[k][1], POW5[self.pos[k][1]]) if k in self.pos else None for k in range(50)]
        # a group whose kinds are consecutive turns position masks into kind masks by a shift
        self._shift = [lay[1][0] if lay is not None and lay[1] == tuple(range(lay[1][0], lay[1][0] + len(lay[1]))) else None for lay in self.layout]
        self._key_parts: list[tuple[int, int, int, dict[bytes, int], tuple[int, ...], tuple[int, ...]]] = [
            (g, (0, 9, 18, 27)[g], (9, 18, 27, 34)[g], _KEY_MEMOS.setdefault(((0, 9, 18, 27)[g], (9, 18, 27, 34)[g], lay[1]), {}), lay[1], POW5[: len(lay[1])])
            for g, lay in enumerate(self.layout)
            if lay is not None
        ]
        self._whole_keys: dict[bytes, tuple[int, ...]] = {}  # a hand's counts -> its group keys
        self.plans: dict = {}  # plan -> its Analyzer (`plans.plan_analyzer`)
        self.symmetric: bool | None = None  # every kind plays alike (`fastplanrows.symmetric`)
        self._profiles: dict[tuple[int, ...], dict | None] = {}  # (`fastplanrows.rows_symmetric`)
        self._readings_cache: dict[Melds, list] = {}
        self._meta: dict[int, tuple[str, tuple | None]] = {}  # table id -> (variant, split checks)
        self._capped_memo: dict[tuple, int] = {}  # (group keys, melds) -> `_capped`
        self._sets: dict[Melds, list[frozenset[int]]] = {}
        # memos keyed by global vector ids and signatures alone: shared (`_MEMO` ...)
        self._memo, self._dist, self._final, self._rest_memo = _MEMO, _DIST, _FINAL, _REST_MEMO
        self._last: tuple[Melds, list] | None = None
        self._last_sets: tuple[Melds, list] | None = None
        self._kinds_cache: dict[frozenset[int], tuple[int, ...]] = {}
        self._kinds_masks: dict[frozenset[int], int] = {}
        self._other_memo: dict[tuple[int, ...], int] = {}  # stats -> `_other_distance` (no melds)
        self._other_gain_memo: dict[tuple[int, ...], tuple[int, int, int, int]] = {}  # (stats, target) -> `_other_gain_parts`
        self._th_mask = sum(1 << k for k in TERMINAL_HONOR if k in spec.kinds)
        self._sigs: dict[int, int] = _SIGS  # (table id << 24 | pattern key) -> signature: shared
        self._sig_ids, self._sig_list, self._sig_draws = _SIG_IDS, _SIG_LIST, _SIG_DRAWS

    # -- conversions ----------------------------------------------------------------------------
    def natural(self, physical: Sequence[int]) -> tuple[list[int], int]:
        """(natural counts 0-33, wildcards) from physical concealed counts per kind (50)."""
        counts = list(physical[:34])
        if not self.wild and not self.stand:
            return counts, 0
        # wildcards out and counted, stand-ins moved to the kind they play (kinds from 34 on
        # that are neither are in no hand's shapes)
        wild = 0
        for k in self._wild_list:
            n = physical[k]
            if n:
                wild += n
                if k < 34:
                    counts[k] = 0
        for k, to in self._stand_moves:
            n = physical[k]
            if n:
                counts[k] -= n
                counts[to] += n
        return counts, wild

    def keys(self, counts: list[int]) -> list[int]:
        """The table key of each group (m, p, s, z), memoised on the group's raw counts (one
        bytes() and one dict lookup instead of nine multiplications)."""
        whole = bytes(counts[:34])  # (one conversion, sliced per group)
        got = self._whole_keys.get(whole)  # (a hand is asked about several times a decision)
        if got is not None:
            return list(got)
        out = [0, 0, 0, 0]
        for g, lo, hi, memo, kinds, pows in self._key_parts:
            raw = whole[lo:hi]
            key = memo.get(raw)
            if key is None:
                key = memo[raw] = sum(map(mul, map(counts.__getitem__, kinds), pows))
                if len(memo) > MEMO_LIMIT:
                    memo.clear()
            out[g] = key
        if len(self._whole_keys) >= WHOLE_KEYS_LIMIT:
            self._whole_keys.clear()
        self._whole_keys[whole] = tuple(out)
        return out

    def _state(self, counts: list[int], wild: int, m: Melds, held: Sequence[int] | None = None) -> HandState:
        mc = list(m.counts) if m.counts else [0] * 34
        return HandState(list(counts), wild, m.n, m.groups, m.pungs_only, m.tiles, list(held) if held is not None else [0] * 50, m.kinds, m.concealed, mc)

    def melds(self, meld_kinds: Sequence[Sequence[int]], concealed: int = 0) -> Melds:
        """`melds_info` with this spec's stand-in tiles."""
        return melds_info(meld_kinds, self.stand, concealed)

    def _group_sets(self, m: Melds) -> list[frozenset[int]]:
        last = self._last_sets
        if last is not None and last[0] is m:
            return last[1]
        got = self._sets.get(m)
        if got is None:
            got = self._sets[m] = _allowed_group_sets(self.spec, self._state([0] * 34, 0, m), self.void)
        self._last_sets = (m, got)
        return got

    # -- the standard form ----------------------------------------------------------------------
    def _readings(self, m: Melds) -> list[list[tuple[int, int, object, list[int], tuple[int, ...]]]]:
        """Per way of meeting the requirements: [(group, table id, ids, to-global, kinds)]."""
        last = self._last
        if last is not None and last[0] is m:
            return last[1]
        got = self._readings_cache.get(m)
        if got is None:
            got = []
            st = self._state([0] * 34, 0, m)
            for allowed in self._group_sets(m):
                for variant, only in _alternatives(self.spec, st):
                    if only is not None and not m.groups <= only:
                        continue
                    groups = allowed if only is None else allowed & only
                    for way in self._ways(st):
                        parts = []
                        for g in range(4):
                            if g in groups and variant[g] is not None:
                                ids, to_global = group_table(variant[g], self.layout[g][1], way[g])
                                tid = _table_id(ids, to_global, len(self.layout[g][1]))
                                parts.append((g, tid, ids, to_global, self.layout[g][1]))
                                self._meta[tid] = (variant[g], way[g])
                        got.append(parts)
            self._readings_cache[m] = got
        self._last = (m, got)
        return got

    def _ways(self, st: HandState) -> list:
        """Per-group entry checks of each way to meet 八枝 / 不允许缺门 (one way of no checks
        without them)."""
        if not self.split:
            return [(None, None, None, None)]
        return [tuple(w) for w in _split_masks(st, self.spec)]

    def _std_distance(self, keys: Sequence[int], m: Melds) -> int:
        sets = self.spec.sets_needed - m.n
        if sets < 0:
            return INF
        col = 2 * sets + 1
        best = INF
        memo = self._dist
        for parts in self._readings(m):
            gids = [ZERO, ZERO, ZERO, ZERO, col]
            for g, _t, ids, tg, _k in parts:
                gids[g] = tg[ids[keys[g]]]
            mk = tuple(gids)
            d = memo.get(mk)
            if d is None:
                d = memo[mk] = VECTORS[combine(combine(gids[0], gids[1]), combine(gids[2], gids[3]))][col]
            if d < best:
                best = d
        return best

    def _sig(self, tid: int, ids, tg, n: int, key: int) -> int:
        """An id for what a group pattern can become: its vector and the vector after each
        one-tile draw. Patterns with the same signature gain from the same draws."""
        pk = tid << 24 | key
        got = self._sigs.get(pk)
        if got is None:
            t = (tg[ids[key]], *[tg[ids[key + p]] if key // p % 5 < 4 else -1 for p in POW5[:n]])
            got = self._sig_ids.get(t)
            if got is None:
                got = self._sig_ids[t] = len(self._sig_list)
                self._sig_list.append(t)
                # the distinct vectors a draw makes, each with the positions making it
                by: dict[int, int] = {}
                for v, bit in zip(t[1:], _POSITION_BITS):
                    if v >= 0:
                        by[v] = by.get(v, 0) | bit
                self._sig_draws.append(tuple(by.items()))
                _SIG_LOW.append(_lowered(t[0], by))
            if len(self._sigs) > MEMO_LIMIT:
                self._sigs.clear()
            self._sigs[pk] = got
        return got

    def _positions(self, sig: int, rest: int, col: int) -> int:
        """Positions of a group (by signature, as a bit mask) whose draw lowers the reading's
        distance, given the other groups' combined vector `rest`; memoised on (signature,
        rest, column)."""
        mk = sig << 40 | rest << 4 | col
        got = self._memo.get(mk)
        if got is not None:
            return got
        # entry `col` of the combination alone (min over the splits of sets and the pair), not
        # the whole combined vector: most (rest, vector) pairs here are met once
        r = VECTORS[rest][: col + 1]
        low = _SIG_LOW[sig]
        gain = 0
        if low is not None:
            # a draw lowers each entry of the group's vector by one at most, so the distance
            # falls (by one) exactly when a split reaching it uses an entry the draw lowers
            sums = list(map(add, r, VECTORS[self._sig_list[sig][0]][col::-1]))
            base = min(sums)
            if base <= INF:
                j = -1
                for _ in range(sums.count(base)):
                    j = sums.index(base, j + 1)
                    gain |= low[col - j]
        else:
            base = min(min(map(add, r, VECTORS[self._sig_list[sig][0]][col::-1])), INF)
            # positions, not kinds: m, p and s share one table and memo; each vector a draw
            # makes weighed once (below the clamped base is below INF: no clamping needed)
            for v, where in self._sig_draws[sig]:
                if min(map(add, r, VECTORS[v][col::-1])) < base:
                    gain |= where
        self._memo[mk] = gain
        return gain

    def _gain_at(self, tid: int, ids, tg, gk: tuple[int, ...], key: int, rest: int, col: int) -> int:
        sig = self._sigs.get(tid << 24 | key)
        if sig is None:
            sig = self._sig(tid, ids, tg, len(gk), key)
        got = self._memo.get(sig << 40 | rest << 4 | col)
        return got if got is not None else self._positions(sig, rest, col)

    def _rests(self, gids: Sequence[int]) -> list[int]:
        """For each group, the combination of the other three groups' vectors (remembered per
        four vectors; read only)."""
        a, b, c, d = gids[0], gids[1], gids[2], gids[3]
        mk = a << 60 | b << 40 | c << 20 | d
        got = self._rest_memo.get(mk)
        if got is None:
            ab, cd = combine(a, b), combine(c, d)
            got = [combine(b, cd), combine(a, cd), combine(ab, d), combine(ab, c)]
            if max(gids) < 1 << 20:
                if len(self._rest_memo) >= MEMO_LIMIT:
                    self._rest_memo.clear()
                self._rest_memo[mk] = got
        return got

    def _kind_mask(self, g: int, pmask: int) -> int:
        """A group's position mask as a mask of kinds (bit k = kind k)."""
        shift = self._shift[g]
        if shift is not None:
            return pmask << shift
        out = 0
        kinds = self.layout[g][1]
        while pmask:
            low = pmask & -pmask
            out |= 1 << kinds[low.bit_length() - 1]
            pmask ^= low
        return out

    def _std_gain(self, keys: Sequence[int], counts: Sequence[int], m: Melds) -> tuple[int, int]:
        """(standard distance, mask of the natural kinds whose draw lowers it)."""
        sets = self.spec.sets_needed - m.n
        if sets < 0:
            return INF, 0
        col = 2 * sets + 1
        best = INF
        gain = 0
        for parts in self._readings(m):
            gids = [ZERO, ZERO, ZERO, ZERO]
            for g, _t, ids, tg, _k in parts:
                gids[g] = tg[ids[keys[g]]]
            rests = self._rests(gids)
            base = VECTORS[combine(rests[0], gids[0])][col]
            if base > best or base >= INF:
                continue
            if base < best:
                best = base
                gain = 0
            for g, tid, ids, tg, kinds in parts:
                gain |= self._kind_mask(g, self._gain_at(tid, ids, tg, kinds, keys[g], rests[g], col))
        return best, gain

    # -- public ---------------------------------------------------------------------------------
    def rich(self, wild: int, m: Melds) -> bool:
        """Whether a wildcard rule may make this hand's standard distance differ from the
        tables': wildcards held with melds laid down (a wildcard may not be a copy beyond
        those the melds leave: `groupdp.py`), or a rule the tables never express (`slow`)."""
        return self.slow or (self.meld_cap and wild > 0 and m.n > 0)

    def distance(self, counts: list[int], m: Melds = NO_MELDS, wild: int = 0) -> int:
        """The least distance over the forms (shanten = distance - wildcards - 1)."""
        if self.fast is not None:
            sh = self.fast.shanten(counts, m.n)
            return sh + 1 if sh < INF else INF
        if self.slow:
            return distance(self._state(counts, wild, m), self.spec, self.void)
        keys = self.keys(counts) if self.has_standard else None
        d = self._std_distance(keys, m) if keys is not None else INF
        if d < INF and wild and m.n and self.meld_cap:
            d = self._rich_std(counts, wild, m, d, -1, keys)
        if (self.seven or self.orphans) and not m.n and self._other_bound(counts) < d:
            d = min(d, self._other_distance(self._stats(counts), m))
        if self._forms is not None:
            d = min(d, self._forms.distance(counts, m, d))
        return d

    def shanten(self, counts: list[int], wild: int, m: Melds = NO_MELDS) -> int:
        d = self.distance(counts, m, wild)
        return INF if d >= INF else d - wild - 1

    def effective(self, counts: list[int], wild: int, m: Melds, held: Sequence[int], keys: list[int] | None = None, floor: int = 0) -> tuple[int, list[int]]:
        """(shanten, kinds whose draw lowers it) for a hand of hand-size tiles; kinds whose
        every copy is already held (`held`: physical, melds included) are left out. `floor`:
        a known lower bound of the seven-pairs / orphans distance (skips them when above)."""
        if self.fast is not None:
            d, mask = self.fast.effective_mask(counts, m.n, self._drawable(held))
            return (d - 1 if d < INF else INF), ([k for k in range(34) if mask >> k & 1] if d < INF else [])
        if self.slow:
            hs = self._state(counts, wild, m, held)
            d = distance(hs, self.spec, self.void)
            return (INF if d >= INF else d - wild - 1), effective(hs, self.spec, self.copies, self.void)
        if keys is None:
            keys = self.keys(counts)
        d, gain = self._std_gain(keys, counts, m) if self.has_standard else (INF, 0)
        if d < INF and wild and m.n and self.meld_cap:
            if not self._exact(counts, m, d, gain, wild, keys):
                return self._rich_effective(counts, wild, m, held)
            gain = self._rich_gain(counts, wild, m, d, gain, keys)
        if (self.seven or self.orphans) and not m.n and floor <= d:
            st = self._stats(counts)
            d2 = self._other_distance(st, m)
            if d2 < d:
                d, gain = d2, self._other_gain(counts, st, m, d2)
            elif d2 == d < INF:
                gain |= self._other_gain(counts, st, m, d2)
        if self._forms is not None:
            d, gain = self._forms.merge(counts, m, d, gain)
        if d >= INF:
            return INF, []
        if not self.wild and not self.stand:
            return d - wild - 1, [k for k in kinds_of_mask(gain) if held[k] < self.copies[k]]
        from mjtools.sim.fastrows import Physical  # (wildcards, stand-ins: physical kinds)

        return d - wild - 1, Physical(self, held).effective(gain, self.wild_helps(counts, wild, m, d, gain, keys), -1)

    def _drawable(self, held: Sequence[int]) -> int:
        mask = self.kinds_mask
        if max(held[:34]) < self.fewest:  # (no kind held as often as it has copies)
            return mask
        copies = self.copies
        for k in range(34):
            if held[k] >= copies[k]:
                mask &= ~(1 << k)
        return mask

    def waits(self, counts: list[int], wild: int, m: Melds, held: Sequence[int]) -> list[int]:
        """Kinds that complete a hand of hand-size tiles (as `waits.waits_of`)."""
        if self.fast is not None:
            if self.fast.shanten(counts, m.n) != 0:
                return []
            return kinds_of_mask(self.fast.waits_mask(counts, m.n, self._drawable(held)))
        sh, eff = self.effective(counts, wild, m, held)
        return eff if sh == 0 else []

    def discard_shanten(self, physical: Sequence[int], m: Melds, kinds: Sequence[int]) -> dict[int, int]:
        """Shanten after discarding one of each given physical kind (from hand-size + 1 tiles)."""
        counts, wild = self.natural(physical)
        res: dict[int, int] = {}
        if self.fast is not None:
            sh = self.fast.shanten
            for k in kinds:
                counts[k] -= 1
                res[k] = sh(counts, m.n)
                counts[k] += 1
            return res
        if self.rich(wild, m) or self._forms is not None:
            for k in kinds:
                if k in self.wild:
                    res[k] = self.shanten(counts, wild - 1, m)
                else:
                    n = self.stand.get(k, k)
                    counts[n] -= 1
                    res[k] = self.shanten(counts, wild, m)
                    counts[n] += 1
            return res
        keys = self.keys(counts)
        st = self._stats(counts) if (self.seven or self.orphans) and not m.n else None
        # removing a tile never lowers a distance: the other forms matter only where the
        # hand's own other-form distance is below the standard distance after the discard
        floor = self._other_distance(st, m) if st is not None else INF
        for k in kinds:
            if k in self.wild:
                d = self._std_distance(keys, m) if self.has_standard else INF
                d = min(d, floor)
                res[k] = INF if d >= INF else d - wild
                continue
            n = self.stand.get(k, k)
            # A kind outside the shapes (Wuhan's 红中) is in no group key: dropping it changes none.
            g, i = self.pos.get(n, (0, -1))
            step = POW5[i] if i >= 0 else 0
            keys[g] -= step
            d = self._std_distance(keys, m) if self.has_standard else INF
            keys[g] += step
            if st is not None and floor < d:
                d = min(d, self._other_distance(self._restat(st, counts[n], n, -1), m))
            res[k] = INF if d >= INF else d - wild - 1
        return res

    def discard_rows(
        self,
        physical: Sequence[int],
        m: Melds,
        held: Sequence[int],
        unseen: Sequence[int],
        discardable: Callable[[int], bool] | None = None,
        only_best: bool = False,
    ) -> list[Row]:
        """Every distinct discard of a hand of hand-size + 1 tiles, best first (as
        `shanten.discard_table`: shanten, then live effective count, then kind). With
        `only_best`, only the discards of least shanten are listed."""
        kinds = list(compress(_KINDS50, physical) if discardable is None else filter(discardable, compress(_KINDS50, physical)))
        # mjtools.fast answers one hand at a time; over the discards of one hand the shared
        # per-group work below is faster (measured on the efficient bot's decisions)
        fastrows, planrows = _FASTROWS if _FASTROWS else _fastrows()
        if not m.n and (self.symmetric if self.symmetric is not None else planrows.symmetric(self)):
            rows = planrows.rows_symmetric(self, physical, held, unseen, kinds, only_best)
            if rows is not None:
                return rows
        rows = fastrows.rows_one_reading(self, physical, m, held, unseen, kinds, only_best)
        if rows is not None:
            return rows
        if not self.has_standard and self._forms is None and not self.wild and not self.stand and not self.slow and not m.n:
            return planrows.other_rows(self, physical, held, unseen, kinds, only_best)
        if only_best:
            kinds = fastrows.least_discards(self, physical, m, kinds)[1]
        counts, wild = self.natural(physical)
        fast = not self.slow and not self.rich(wild, m)
        keys = self.keys(counts) if fast else None
        floor = self._other_distance(self._stats(counts), m) if fast and (self.seven or self.orphans) and not m.n else INF
        rows = []
        held = list(held)
        for k in kinds:
            held[k] -= 1
            if k in self.wild:
                s2, eff = self.effective(counts, wild - 1, m, held, keys, floor)
            else:
                n = self.stand.get(k, k)
                k2 = None
                if fast:
                    k2 = list(keys)  # type: ignore[arg-type]
                    if n in self.pos:  # a kind outside the shapes is in no group key
                        g, i = self.pos[n]
                        k2[g] -= POW5[i]
                counts[n] -= 1
                s2, eff = self.effective(counts, wild, m, held, k2, floor)
                counts[n] += 1
            held[k] += 1
            rows.append(Row(k, s2, eff, sum(unseen[e] for e in eff)))
        rows.sort(key=lambda r: (r.shanten, -r.live, r.kind))
        return rows


_FASTROWS: list = []  # [the fastrows and fastplanrows modules] (they import this one: imported at first use)


def _fastrows() -> list:
    from mjtools.sim import fastplanrows, fastrows

    _FASTROWS[:] = [fastrows, fastplanrows]
    return _FASTROWS


_KINDS50 = range(50)
