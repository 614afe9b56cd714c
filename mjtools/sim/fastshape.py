"""Incremental shape distances for the simulator, over the same shipped tables as `shanten.py`.

A bot weighs every discard and every draw after it, thousands of times per hand; `shanten.py`
recomputes each hand from scratch. `Analyzer` reads the same distance tables but keeps the
per-group pattern keys, so a one-tile change is one key update, and memoises per group which
draws lower a reading's distance given the other groups' combined vector. What it does not
handle incrementally (八枝 and all-three-suits splits, 十三烂, 全不靠) goes to `shanten.py`
itself. `tests/test_sim_fastshape.py` checks every answer against `shanten.py` and `waits.py`.

Counts are natural kinds 0-33 (wildcards removed and counted apart, stand-ins mapped), as in
`shanten.HandState`. Distances are raw: shanten = distance - wildcards - 1.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import compress
from operator import add

from mjtools.analysis.ruletables import capped_gain, capped_gid, group_table
from mjtools.analysis.shanten import (
    TERMINAL_HONOR,
    HandState,
    _allowed_group_sets,
    _alternatives,
    _masked,
    _split_masks,
    candidate_kinds,
    distance,
    effective,
    standard_distance,
)
from mjtools.analysis.shapes import ShapeSpec
from mjtools.analysis.tables import INF, POW5, VECTORS, ZERO, combine
from mjtools.analysis.tables import intern as tables_intern

MEMO_LIMIT = 2_000_000


def group_of(kind: int) -> int:
    return kind // 9 if kind < 27 else 3


@dataclass(frozen=True)
class Melds:
    """What the analysis needs to know about a hand's melds (changes only on a call)."""

    n: int = 0
    groups: frozenset[int] = frozenset()
    pungs_only: bool = True
    tiles: tuple[int, int, int, int] = (0, 0, 0, 0)
    counts: tuple[int, ...] = ()  # copies per natural kind (34) the melds show; () for none
    concealed: int = 0  # how many of them are concealed kongs
    kinds: frozenset[int] = frozenset()  # the natural kinds they show


NO_MELDS = Melds()


def melds_info(meld_kinds: Sequence[Sequence[int]], stand: dict[int, int] | None = None, concealed: int = 0) -> Melds:
    """Melds from the kinds each shows (a kong shows four); `stand`: stand-in tiles to the
    natural kind they play; `concealed`: how many are concealed kongs."""
    if not meld_kinds:
        return NO_MELDS
    stand = stand or {}
    groups: set[int] = set()
    per = [0, 0, 0, 0]
    counts = [0] * 34
    pungs_only = True
    for kinds in meld_kinds:
        ks = {stand.get(k, k) for k in kinds}
        if len(ks) != 1:
            pungs_only = False
        for k in kinds:
            k = stand.get(k, k)
            if k < 34:
                groups.add(group_of(k))
                per[group_of(k)] += 1
                counts[k] += 1
    return Melds(len(meld_kinds), frozenset(groups), pungs_only, (per[0], per[1], per[2], per[3]), tuple(counts), concealed, frozenset(k for k in range(34) if counts[k]))


@dataclass(slots=True)
class Row:
    """One discard: its kind, the shanten after it, the kinds that improve, their live count."""

    kind: int
    shanten: int
    effective: list[int]
    live: int


# Seven-pairs slots of a kind held n times: (pairs, singles), without and with quads as two pairs.
_SLOTS = (((0, 0), (0, 1), (1, 0), (1, 0), (1, 0)), ((0, 0), (0, 1), (1, 0), (1, 1), (2, 0)))



def _held_caps(counts: Sequence[int], kinds: tuple[int, ...], mc: Sequence[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A capped group's held counts and the copies its targets may hold (those the melds
    leave, or as many as held)."""
    return tuple(counts[k] for k in kinds), tuple(max(counts[k], 4 - mc[k]) for k in kinds)

# What depends only on group vectors (global ids, `analysis.tables.VECTORS`) and signatures
# (a group pattern's vector and its vectors after each one-tile draw) is shared by every
# analysis in the process: a variant's analyses per void suit and per plan meet the same patterns.
_MEMO: dict[int, int] = {}  # (signature << 40 | rest << 4 | column) -> position mask (`_positions`)
_DIST: dict[tuple[int, ...], int] = {}  # (four group vectors, column) -> distance
_FINAL: dict[int, int] = {}  # (rest << 24 | vector << 4 | column) -> distance (`fastrows`)
_REST_MEMO: dict[int, list[int]] = {}  # four group vectors -> `_rests`
_SIG_IDS: dict[tuple[int, ...], int] = {}  # signature -> its id
_SIG_LIST: list[tuple[int, ...]] = []  # id -> signature
_SIG_DRAWS: list[tuple[tuple[int, int], ...]] = []  # id -> (vector a draw makes, positions making it)
_SIG_LOW: list[tuple[int, ...] | None] = []  # id -> `_lowered`


def _lowered(v0: int, draws: dict[int, int]) -> tuple[int, ...] | None:
    """Per entry of a group's vector (v0), the positions whose draw lowers it by one; None
    if a draw lowers an entry by more, or makes an unreachable one reachable (then
    `_positions` weighs each draw's vector whole)."""
    base = VECTORS[v0]
    low = [0] * len(base)
    for v, where in draws.items():
        for x, (a, b) in enumerate(zip(base, VECTORS[v])):
            if b < a - 1 or (a >= INF > b):
                return None
            if b == a - 1:
                low[x] |= where
    return tuple(low)


class Analyzer:
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
        # a group whose kinds are consecutive turns position masks into kind masks by a shift
        self._shift = [lay[1][0] if lay is not None and lay[1] == tuple(range(lay[1][0], lay[1][0] + len(lay[1]))) else None for lay in self.layout]
        self._key_parts: list[tuple[int, int, int, dict[bytes, int], tuple[int, ...], tuple[int, ...]]] = [
            (g, (0, 9, 18, 27)[g], (9, 18, 27, 34)[g], {}, lay[1], POW5[: len(lay[1])]) for g, lay in enumerate(self.layout) if lay is not None
        ]
        self.plans: dict = {}  # plan -> its Analyzer (`plans.plan_analyzer`)
        self.symmetric: bool | None = None  # every kind plays alike (`fastrows.symmetric`)
        self._profiles: dict[tuple[int, ...], dict | None] = {}  # (`fastrows.rows_symmetric`)
        self._readings_cache: dict[Melds, list] = {}
        self._meta: dict[int, tuple[str, tuple | None]] = {}  # table id -> (variant, split checks)
        self._tids: dict[int, int] = {}  # id of a table's local -> global list -> a small table id
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
        self._sigs: dict[int, int] = {}  # (table id << 24 | pattern key) -> signature
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
        out = [0, 0, 0, 0]
        whole = bytes(counts[:34])  # (one conversion, sliced per group)
        for g, lo, hi, memo, kinds, pows in self._key_parts:
            raw = whole[lo:hi]
            key = memo.get(raw)
            if key is None:
                key = memo[raw] = sum([counts[k] * pw for k, pw in zip(kinds, pows)])
                if len(memo) > MEMO_LIMIT:
                    memo.clear()
            out[g] = key
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
                                tid = self._tids.setdefault(id(to_global), len(self._tids))
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
            t = (tg[ids[key]],) + tuple(tg[ids[key + POW5[i]]] if key // POW5[i] % 5 < 4 else -1 for i in range(n))
            got = self._sig_ids.get(t)
            if got is None:
                got = self._sig_ids[t] = len(self._sig_list)
                self._sig_list.append(t)
                # the distinct vectors a draw makes, each with the positions making it
                by: dict[int, int] = {}
                for i in range(1, len(t)):
                    if t[i] >= 0:
                        by[t[i]] = by.get(t[i], 0) | 1 << (i - 1)
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

    # -- seven pairs and thirteen orphans -------------------------------------------------------
    def _stats(self, counts: list[int]) -> list[int]:
        """[pairs m, p, s, z, singles m, p, s, z, orphan kinds held, orphan pairs]."""
        st = [0] * 10
        quads = self.spec.quads_as_pairs
        for g, start, end in ((0, 0, 9), (1, 9, 18), (2, 18, 27), (3, 27, 34)):
            part = counts[start:end]
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
        d = self._std_distance(self.keys(counts), m) if self.has_standard else INF
        if d < INF and wild and m.n and self.meld_cap:
            d = self._rich_std(counts, wild, m, d)
        if (self.seven or self.orphans) and not m.n and self._other_bound(counts) < d:
            d = min(d, self._other_distance(self._stats(counts), m))
        if self._forms is not None:
            d = min(d, self._forms.distance(counts, m, d))
        return d

    # -- wildcards with melds -------------------------------------------------------------------
    # The general engine counts a target position a wildcard may not fill (a copy of a melded
    # kind beyond max(held, 4 - shown)) as drawn only: distance max(D, N + w) over targets, N
    # those positions. The tables' least D is a lower bound; when a least-D target has N = 0
    # the answer is max(D, w) = D (a hand-size hand misses at least w + 1 tiles, one more tile
    # at least w). Such a target exists when no least-D target adds a melded kind (no melded
    # kind among the improving draws), or when the groups holding melded kinds, searched with
    # those caps (`ruletables.capped_gid`), still reach D. Otherwise the general engine counts.

    def _capped(self, counts: list[int], m: Melds) -> int:
        """The standard distance over targets within the melded kinds' caps."""
        sets = self.spec.sets_needed - m.n
        if sets < 0:
            return INF
        col = 2 * sets + 1
        mc = m.counts
        best = INF
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

    def _capped_lowers(self, counts: list[int], m: Melds, d: int) -> tuple[int, int] | None:
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

    def _exact(self, counts: list[int], m: Melds, d: int, gain: int = -1) -> bool:
        """Whether the tables' standard distance d is the general engine's (see above);
        `gain`: the kinds whose draw lowers d, if known."""
        if not self._may_over_use(counts, m, d, gain):
            return True
        return self._capped(counts, m) == d

    def _may_over_use(self, counts: list[int], m: Melds, d: int, gain: int) -> bool:
        """Whether some least-D target over-uses a melded kind k, i.e. needs r_k or more
        copies: some least-D target needs j more copies than held exactly when j more
        copies lower D by j."""
        mc = m.counts
        keys = None
        for k in m.kinds:
            if not gain >> k & 1:
                continue  # no least-D target adds a copy of k
            r = max(5 - mc[k], counts[k] + 1)
            if r > 4 or k not in self.pos:
                continue
            j = r - counts[k]
            if keys is None:
                keys = self.keys(counts)
            g, i = self.pos[k]
            keys[g] += j * POW5[i]
            d2 = self._std_distance(keys, m)
            keys[g] -= j * POW5[i]
            if d2 == d - j:
                return True
        return False

    def _rich_std(self, counts: list[int], wild: int, m: Melds, d: int, gain: int = -1) -> int:
        """The standard distance of a hand holding wildcards and melds (d: the tables')."""
        if self._exact(counts, m, d, gain):
            return d
        return standard_distance(self._state(counts, wild, m), self.spec, self.void)

    def _other_bound(self, counts: list[int]) -> int:
        """A cheap lower bound of the seven-pairs / orphans distance (each missing pair, or
        each missing terminal or honor, needs a tile)."""
        bound = INF
        if self.seven:  # (four of a kind may be two pairs)
            bound = 7 - (counts.count(2) + counts.count(3) + counts.count(4) * (1 + bool(self.spec.quads_as_pairs)))
        if self.orphans:
            bound = min(bound, 13 - min(13, sum(map(counts.__getitem__, TERMINAL_HONOR))))
        return bound

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
            if not self._exact(counts, m, d, gain):
                return self._rich_effective(counts, wild, m, held)
            gain = self._rich_gain(counts, wild, m, d, gain)
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

        return d - wild - 1, Physical(self, held).effective(gain, self.wild_helps(counts, wild, m, d, gain), -1)

    def wild_helps(self, counts: list[int], wild: int, m: Melds, d: int, gain: int) -> bool:
        """Whether drawing a wildcard lowers a hand-size hand of distance d (exact). It does,
        unless melds make the wildcard one that cannot be every copy a least-distance target
        needs: with none held yet, the hand is then counted with one (`_rich_std`); with some
        held, the distance is exact already and max(D, w + 1) = D."""
        if not (self.meld_cap and m.n) or wild:
            return True
        return self._rich_std(counts, 1, m, d, gain) <= d

    def _rich_gain(self, counts: list[int], wild: int, m: Melds, d: int, gain: int) -> int:
        """The improving kinds of a hand whose distance is the tables' d (see `_exact`):
        a draw lowers it only if it lowers the tables' distance, and does when the hand after
        it is exact too. Wildcards always lower it (max(D, w + 1) = D)."""
        # A least-distance target of the hand with one more tile is one of this hand's too
        # (one tile lowers a target's distance by at most one): when none of those over-uses a
        # melded kind, every draw that lowers the tables' distance is exact.
        if not self._may_over_use(counts, m, d, gain):
            return gain
        # the capped distance falls by one on a draw exactly when a least-d capped target lacks
        # a copy of it (`capped_gain`): one search per group in place of one per draw
        lowers = self._capped_lowers(counts, m, d)
        mc = m.counts
        out = 0
        g = gain
        while g:
            low = g & -g
            k = low.bit_length() - 1
            g ^= low
            counts[k] += 1
            if lowers is not None and (lowers[0] >> k & 1) and counts[k] <= 4 - mc[k]:  # (k's cap unchanged)
                exact = bool(lowers[1] >> k & 1) or not self._may_over_use(counts, m, d - 1, -1)
            else:
                exact = self._exact(counts, m, d - 1)
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
        fastrows = _FASTROWS[0] if _FASTROWS else _fastrows()
        if not m.n and (self.symmetric if self.symmetric is not None else fastrows.symmetric(self)):
            rows = fastrows.rows_symmetric(self, physical, held, unseen, kinds, only_best)
            if rows is not None:
                return rows
        rows = fastrows.rows_one_reading(self, physical, m, held, unseen, kinds, only_best)
        if rows is not None:
            return rows
        if not self.has_standard and self._forms is None and not self.wild and not self.stand and not self.slow and not m.n:
            return fastrows.other_rows(self, physical, held, unseen, kinds, only_best)
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


_FASTROWS: list = []  # [the fastrows module] (it imports this one: imported at first use)


def _fastrows():
    from mjtools.sim import fastrows

    _FASTROWS.append(fastrows)
    return fastrows


_TH = frozenset(TERMINAL_HONOR)
_GROUP_MASKS: dict[tuple[int, bytes], int] = {}  # (group start, raw counts) -> its share of `_count_masks`
_M34 = (1 << 34) - 1
_KINDS50 = range(50)
# the kinds of every 9-bit mask of a group (index: group << 9 | mask)
BITS9 = tuple(tuple(9 * g + i for i in range(9) if m >> i & 1) for g in range(4) for m in range(512))


def kinds_of_mask(mask: int) -> list[int]:
    """The natural kinds of a 34-bit mask, ascending."""
    return [*BITS9[mask & 511], *BITS9[512 | mask >> 9 & 511], *BITS9[1024 | mask >> 18 & 511], *BITS9[1536 | mask >> 27 & 127]]
