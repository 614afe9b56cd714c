"""The fast analysis path: exact shanten, effective tiles and waits for the common shape spec.

The general engine (`shanten.py`, `waits.py`) handles every prerequisite and wildcard by
enumerating alternatives, and finds effective tiles and waits by adding each of the 34 kinds
and recomputing the distance. For the common spec (no wildcards, no shape requirements, forms
among standard / seven pairs / thirteen orphans) this module gives identical answers with far
less work:

- per-group *pattern entries* are memoised by the raw count bytes of the group, so a hand's
  four table lookups cost four dict lookups;
- the standard distance combines the groups pairwise through the memoised min-plus
  combination in `tables.py`, then reads the (M sets, 1 pair) entry as min(a[j] + b[2M+1-j]);
- effective tiles: adding a tile changes only its own group's vector, and by at most 1 in each
  entry, so a draw lowers the distance exactly when it improves its group at a split that is
  optimal for the whole hand. Each pattern carries per-(sets, pair) *improver masks*; the
  optimal splits come from leave-one-out combinations of the other groups;
- waits of a ready hand: a hand is complete exactly when every group is exactly its own sets
  and pair, so the standard waits are the *completer mask* of the one group that receives the
  tile, provided every other group is already complete (no distance arithmetic at all).

`engine_for(spec)` returns None for a spec this path does not cover; callers then use the
general path. `tests/test_fast_diff.py` checks both paths and `mahjong` 2.1.0 against each other.
Kind sets are 34-bit masks (bit k = kind k) so that groups and forms combine with `|`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import add, mul
from typing import TYPE_CHECKING

from mjtools.analysis import tables
from mjtools.analysis.shapes import RIICHI, ShapeSpec
from mjtools.analysis.tables import INF, MAX_SETS, POW5, VECTORS, WIDTH

if TYPE_CHECKING:
    from mjtools.analysis.state import HandState

TERMINAL_HONOR = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
FAST_FORMS = frozenset({"standard", "seven_pairs", "thirteen_orphans"})
GROUP_RANGES = ((0, 9), (9, 18), (18, 27), (27, 34))
# A memo past this size is dropped rather than grown: a long batch of random hands touches
# several hundred thousand suit patterns and each entry holds a few tuples.
MEMO_LIMIT = 1 << 18

# A pattern entry, memoised per group by the raw count bytes of the group's range:
GID, VEC, TILES, DONE, COMP, PACK, PAIR, GSH = range(8)
#   GID/VEC  the distance vector (global id, tuple); GSH is GID << 20 (half a pair key);
#   TILES    tiles of the group's kinds;
#   DONE     the group is exactly its own sets and pair (by its tile count);
#   COMP     kinds that make it exactly so when added (the group's share of the waits;
#            bit i = the group's kind lo + i), -1 until first needed;
#   PACK     counts for the other forms, one byte each so that groups add up in one sum:
#            seven-pairs full slots (a pair), half slots (a single), terminal/honor kinds
#            present, terminal/honor kinds paired (see `unpack`);
#   PAIR     1 if the group's tile count calls for a pair (n = 2 mod 3).
Entry = tuple


def unpack(pack: int) -> tuple[int, int, int, int]:
    """(full slots, half slots, terminal/honor kinds, paired terminal/honor kinds)."""
    return pack & 255, pack >> 8 & 255, pack >> 16 & 255, pack >> 24


_SHARED: dict[tuple, tuple[dict, dict]] = {}


class _Group:
    """One group (m, p, s or z) of a layout: its table and the memo of its patterns."""

    __slots__ = ("lo", "hi", "offsets", "kinds", "ids", "to_global", "memo", "imp", "quads", "th")

    def __init__(self, index: int, family: str, kinds: tuple[int, ...], quads: bool):
        self.lo, self.hi = GROUP_RANGES[index]
        self.kinds = kinds
        self.offsets = tuple(k - self.lo for k in kinds)
        self.ids, self.to_global = tables.table(family)
        self.quads = quads
        self.th = tuple(range(7)) if index == 3 else (0, 8)
        # Groups with the same table, kinds and rules share their memos (m, p and s usually):
        # a third of the entries, and a working set that stays in cache. Masks in entries are
        # therefore relative to the group (bit i = kind lo + i) and shifted where used.
        key = (family, self.offsets, quads, self.th)
        self.memo: dict[bytes, Entry]
        self.imp: dict[bytes, tuple[int, ...]]
        self.memo, self.imp = _SHARED.setdefault(key, ({}, {}))

    def _counts(self, raw: bytes) -> list[int]:
        if len(raw) != self.hi - self.lo or max(raw) > 4:
            raise ValueError("a hand is 34 counts (m, p, s, z) of 0-4 copies")
        return [raw[o] for o in self.offsets]

    def _vec(self, key: int) -> int:
        return self.to_global[self.ids[key]]

    def entry(self, raw: bytes) -> Entry:
        """Compute (and memoise) the entry of a group pattern given as raw count bytes."""
        cs = self._counts(raw)
        key = sum(map(mul, cs, POW5))
        gid = self._vec(key)
        vec = VECTORS[gid]
        n = sum(cs)
        done = n % 3 != 1 and n // 3 <= MAX_SETS and vec[2 * (n // 3) + (n % 3 == 2)] == 0
        # COMP is filled in on first use (`completers`): shanten alone never needs it.
        comp = -1 if (n + 1) % 3 != 1 and (n + 1) // 3 <= MAX_SETS else 0
        # (counts are 0-4: `_counts` checked them)
        n1, n3 = raw.count(1), raw.count(3)
        if self.quads:  # four of a kind is two pairs, three a pair and a single
            two = raw.count(2) + n3 + 2 * raw.count(4)
            one = n1 + n3
        else:
            two = len(raw) - raw.count(0) - n1
            one = n1
        th = [raw[i] for i in self.th]
        thk = len(th) - th.count(0)
        thp = thk - th.count(1)
        e = (gid, vec, n, done, comp, two | one << 8 | thk << 16 | thp << 24, int(n % 3 == 2), gid << 20)
        if len(self.memo) >= MEMO_LIMIT:
            self.memo.clear()
        self.memo[raw] = e
        return e

    def completers(self, raw: bytes) -> int:
        """Kinds whose addition makes this group exactly its own sets and pair (bit i = the
        group's kind lo + i)."""
        e = self.memo.get(raw) or self.entry(raw)
        if e[COMP] >= 0:
            return e[COMP]
        cs = self._counts(raw)
        key = sum(map(mul, cs, POW5))
        n1 = e[TILES] + 1
        j = 2 * (n1 // 3) + (n1 % 3 == 2)
        comp = 0
        for i, c in enumerate(cs):
            if c < 4 and VECTORS[self._vec(key + POW5[i])][j] == 0:
                comp |= 1 << self.offsets[i]
        self.memo[raw] = e[:COMP] + (comp,) + e[COMP + 1 :]
        return comp

    def improvers(self, raw: bytes) -> tuple[int, ...]:
        """Per (sets, pair) entry j: the kinds whose addition lowers entry j of this pattern
        (bit i = the group's kind lo + i)."""
        got = self.imp.get(raw)
        if got is None:
            cs = self._counts(raw)
            key = sum(c * POW5[i] for i, c in enumerate(cs))
            vec = VECTORS[self._vec(key)]
            masks = [0] * WIDTH
            for i, c in enumerate(cs):
                if c < 4:
                    after = VECTORS[self._vec(key + POW5[i])]
                    bit = 1 << self.offsets[i]
                    for j in range(WIDTH):
                        if after[j] < vec[j]:
                            masks[j] |= bit
            got = tuple(masks)
            if len(self.imp) >= MEMO_LIMIT:
                self.imp.clear()
            self.imp[raw] = got
        return got


_ABSENT: Entry = (tables.ZERO, VECTORS[tables.ZERO], 0, True, 0, 0, 0, tables.ZERO << 20)


class _AbsentMemo(dict):
    """The memo of a group the tile set lacks: every pattern is the empty group."""

    def get(self, key, default=None):  # type: ignore[override]
        return _ABSENT


class _Absent:
    lo, hi = 0, 0
    memo = _AbsentMemo()

    def entry(self, raw: bytes) -> Entry:
        return _ABSENT


_MASK_KINDS: dict[int, tuple[int, ...]] = {}


def kinds_of(mask: int) -> tuple[int, ...]:
    """The kinds of a 34-bit mask, ascending (memoised: the same masks recur constantly)."""
    got = _MASK_KINDS.get(mask)
    if got is None:
        got = tuple(k for k in range(mask.bit_length()) if mask >> k & 1)
        if len(_MASK_KINDS) < MEMO_LIMIT:
            _MASK_KINDS[mask] = got
    return got


def mask_of(kinds) -> int:
    m = 0
    for k in kinds:
        m |= 1 << k
    return m


_PAIRS: dict[int, int] = {}  # (gid a << 20 | gid b) -> gid of their min-plus combination
_FINAL: dict[int, int] = {}  # (gid a << 23 | gid b << 3 | sets) -> standard distance


def _comb(a: int, b: int) -> int:
    got = _PAIRS.get(a << 20 | b)
    if got is None:
        got = tables.combine(a, b)
        if a < 1 << 20 and b < 1 << 20:  # (keys stay unique; far more ids than ever occur)
            _PAIRS[a << 20 | b] = got
    return got


def _final(a: int, b: int, m: int) -> int:
    """min over splits of sets and the pair between two combined halves (M sets, 1 pair)."""
    va, vb = VECTORS[a], VECTORS[b]
    d = min(map(add, va[: 2 * m + 2], vb[2 * m + 1 :: -1]))
    d = d if d < INF else INF
    if len(_FINAL) >= MEMO_LIMIT:
        _FINAL.clear()
    if a < 1 << 20 and b < 1 << 20:
        _FINAL[a << 23 | b << 3 | m] = d
    return d


class Engine:
    """The fast path for one ShapeSpec. Inputs are 34 concealed counts and the number of melds."""

    def __init__(self, spec: ShapeSpec):
        self.spec = spec
        self.sets = spec.sets_needed
        layout = spec.group_layout()
        # (a spec without chows, an all-pungs plan, reads the pungs-only suit table)
        fams = [None if g is None else "suit_pungs" if g[0] == "suit" and not spec.chows else g[0] for g in layout]
        self.groups: list = [_Absent() if g is None else _Group(i, f, g[1], spec.quads_as_pairs) for i, (g, f) in enumerate(zip(layout, fams))]
        present = [g is not None for g in layout]
        self.std = "standard" in spec.forms
        self.sp = "seven_pairs" in spec.forms and spec.hand_size == 13
        self.ko = "thirteen_orphans" in spec.forms and spec.hand_size == 13 and all(present)
        self.quads = spec.quads_as_pairs
        self.sp_mask = sum(((1 << hi) - (1 << lo)) for (lo, hi), p in zip(GROUP_RANGES, present) if p)
        self.kinds_mask = mask_of(spec.kinds)
        self.gets = tuple(g.memo.get for g in self.groups)  # (memos are cleared, never replaced)
        self._others: dict[int, int] = {}  # summed PACK -> least of the other forms' distances
        self._ready: dict[int, int] = {}  # summed PACK -> 1 seven pairs ready | 2 orphans ready
        self.shanten = self._make_shanten()

    # -- per-form distances ---------------------------------------------------------------------

    def entries(self, b: bytes) -> tuple[Entry, Entry, Entry, Entry]:
        g0, g1, g2, g3 = self.groups
        r0, r1, r2, r3 = b[0:9], b[9:18], b[18:27], b[27:34]
        return (
            g0.memo.get(r0) or g0.entry(r0),
            g1.memo.get(r1) or g1.entry(r1),
            g2.memo.get(r2) or g2.entry(r2),
            g3.memo.get(r3) or g3.entry(r3),
        )

    def others(self, pack: int) -> tuple[int, int]:
        """(seven pairs, thirteen orphans) distances from the summed PACK of a concealed hand."""
        two, one, thk, thp = unpack(pack)
        sp = ko = INF
        if self.sp:
            full = min(two, 7)
            sp = 14 - 2 * full - min(one, 7 - full)
        if self.ko:
            ko = 14 - thk - (thp > 0)
        return sp, ko

    def _other(self, pack: int) -> int:
        d = self._others[pack] = min(self.others(pack))
        return d

    def all_distances(self, es, melds: int) -> tuple[int, int, int]:
        """(standard, seven pairs, thirteen orphans) distances; INF for a form that is out."""
        e0, e1, e2, e3 = es
        m = self.sets - melds
        if self.std and m >= 0:
            a = _PAIRS.get(e0[7] | e1[0]) or _comb(e0[0], e1[0])
            b = _PAIRS.get(e2[7] | e3[0]) or _comb(e2[0], e3[0])
            std = _FINAL.get(a << 23 | b << 3 | m)
            if std is None:
                std = _final(a, b, m)
        else:
            std = INF
        if melds:
            return std, INF, INF
        return (std, *self.others(e0[5] + e1[5] + e2[5] + e3[5]))

    def distances(self, counts: Sequence[int], melds: int = 0) -> tuple[int, int, int]:
        return self.all_distances(self.entries(bytes(counts)), melds)

    def distance(self, counts: Sequence[int], melds: int = 0) -> int:
        return min(self.all_distances(self.entries(bytes(counts)), melds))

    def _make_shanten(self) -> Callable[..., int]:
        """`shanten(counts, melds=0)`: shanten over the allowed forms (-1 complete, 0 ready),
        INF if no form can complete. `all_distances` inlined, with everything it reads bound in
        the closure: this is the call the batch and the benchmarks make."""
        get0, get1, get2, get3 = self.gets
        ent0, ent1, ent2, ent3 = (g.entry for g in self.groups)
        pair, final, other = _PAIRS.get, _FINAL.get, self._others.get
        sets, std = self.sets, self.std

        def shanten(counts: Sequence[int], melds: int = 0) -> int:
            b = bytes(counts)
            r0, r1, r2, r3 = b[0:9], b[9:18], b[18:27], b[27:34]
            e0 = get0(r0) or ent0(r0)
            e1 = get1(r1) or ent1(r1)
            e2 = get2(r2) or ent2(r2)
            e3 = get3(r3) or ent3(r3)
            d = INF
            if std and melds <= sets:
                m = sets - melds
                a = pair(e0[7] | e1[0]) or _comb(e0[0], e1[0])
                c = pair(e2[7] | e3[0]) or _comb(e2[0], e3[0])
                d = final(a << 23 | c << 3 | m)
                if d is None:
                    d = _final(a, c, m)
            if not melds:
                pack = e0[5] + e1[5] + e2[5] + e3[5]
                o = other(pack)
                if o is None:
                    o = self._other(pack)
                if o < d:
                    d = o
            return d - 1 if d < INF else INF

        return shanten

    def forms(self, counts: Sequence[int], melds: int = 0) -> tuple[int, dict[str, int | None]]:
        """Like `shanten.shanten_of_state`: (shanten, per-form shanten in spec order)."""
        std, sp, ko = self.all_distances(self.entries(bytes(counts)), melds)
        by = {"standard": std, "seven_pairs": sp, "thirteen_orphans": ko}
        out = {f: (None if by[f] >= INF else by[f] - 1) for f in self.spec.forms}
        values = [v for v in out.values() if v is not None]
        return (min(values) if values else INF), out

    # -- effective tiles ----------------------------------------------------------------------

    def effective_mask(self, counts: Sequence[int], melds: int = 0, drawable: int | None = None) -> tuple[int, int]:
        """(distance, mask of kinds whose draw lowers it). `drawable` defaults to the spec's kinds."""
        d, mask = self.analyse(counts, melds, drawable)
        return min(d), mask

    def analyse(self, counts: Sequence[int], melds: int = 0, drawable: int | None = None) -> tuple[tuple[int, int, int], int]:
        """((standard, seven pairs, orphans) distances, mask of kinds whose draw lowers the least)."""
        b = bytes(counts)
        es = self.entries(b)
        d = std, sp, ko = self.all_distances(es, melds)
        base = min(d)
        if base >= INF:
            return d, 0
        mask = 0
        if std == base:
            mask |= self._std_improvers(b, es, melds, base)
        if sp == base:
            mask |= self._sp_improvers(counts, es)
        if ko == base:
            mask |= self._ko_improvers(counts, es)
        return d, mask & (self.kinds_mask if drawable is None else drawable)

    def _std_improvers(self, b: bytes, es, melds: int, d: int) -> int:
        top = 2 * (self.sets - melds) + 1
        g0, g1, g2, g3 = es[0][0], es[1][0], es[2][0], es[3][0]
        lo, hi = _comb(g0, g1), _comb(g2, g3)
        rest = (_comb(g1, hi), _comb(g0, hi), _comb(lo, g3), _comb(lo, g2))  # the other three groups
        mask = 0
        for e, r, grp in zip(es, rest, self.groups):
            if e is _ABSENT:
                continue
            v, rv = e[1], VECTORS[r]
            imp = None
            for j in range(top + 1):
                if v[j] + rv[top - j] == d:
                    if imp is None:
                        raw = b[grp.lo : grp.hi]
                        imp = grp.imp.get(raw) or grp.improvers(raw)
                    mask |= imp[j] << grp.lo
        return mask

    def _sp_improvers(self, counts: Sequence[int], es) -> int:
        # Raising a half slot to a full one helps while fewer than 7 slots are full; opening a
        # new half slot helps while fewer than 7 slots are open at all.
        two, one, _, _ = unpack(sum(e[5] for e in es))
        grow = two < 7
        new = two + one < 7
        if not (grow or new):
            return 0
        want = (new, grow, new and self.quads, grow and self.quads, False)
        mask = 0
        for k, c in enumerate(counts):
            if want[c]:
                mask |= 1 << k
        return mask & self.sp_mask

    def _ko_improvers(self, counts: Sequence[int], es) -> int:
        pair = unpack(sum(e[5] for e in es))[3] > 0
        mask = 0
        for k in TERMINAL_HONOR:
            c = counts[k]
            if c == 0 or (c == 1 and not pair):
                mask |= 1 << k
        return mask

    # -- waits ----------------------------------------------------------------------------------

    def waits_mask(self, counts: Sequence[int], melds: int = 0, drawable: int | None = None) -> int:
        """Kinds that complete the hand (any allowed form)."""
        b = bytes(counts)
        get0, get1, get2, get3 = self.gets
        g0, g1, g2, g3 = self.groups
        r0, r1, r2, r3 = b[0:9], b[9:18], b[18:27], b[27:34]
        e0 = get0(r0) or g0.entry(r0)
        e1 = get1(r1) or g1.entry(r1)
        e2 = get2(r2) or g2.entry(r2)
        e3 = get3(r3) or g3.entry(r3)
        m = self.sets - melds
        if e0[2] + e1[2] + e2[2] + e3[2] != 3 * m + 1 or m < 0:
            return self._waits_slow(counts, melds, self.kinds_mask if drawable is None else drawable)
        mask = 0
        if self.std:
            # Complete means every group is exactly its own sets and pair. With the right tile
            # count at most one group may be open, and it takes the tile; if none is, any may
            # take it (a shanpon: two pairs, one becomes a set). Exactly one pair at the end.
            pairs = e0[6] + e1[6] + e2[6] + e3[6]
            open_ = (not e0[3]) + (not e1[3]) + (not e2[3]) + (not e3[3])
            if open_ == 1:
                e, g, r = (e0, g0, r0) if not e0[3] else (e1, g1, r1) if not e1[3] else (e2, g2, r2) if not e2[3] else (e3, g3, r3)
                if e[4] and pairs - e[6] + (e[2] % 3 == 1) == 1:
                    mask = (e[4] if e[4] > 0 else g.completers(r)) << g.lo
            elif not open_:
                for e, g, r in ((e0, g0, r0), (e1, g1, r1), (e2, g2, r2), (e3, g3, r3)):
                    if e[4] and pairs - e[6] + (e[2] % 3 == 1) == 1:
                        mask |= (e[4] if e[4] > 0 else g.completers(r)) << g.lo
        if not melds:
            pack = e0[5] + e1[5] + e2[5] + e3[5]
            ready = self._ready.get(pack)
            if ready is None:
                sp, ko = self.others(pack)
                ready = self._ready[pack] = (sp == 1) | (ko == 1) << 1
            if ready:
                es = (e0, e1, e2, e3)
                if ready & 1:
                    mask |= self._sp_improvers(counts, es)
                if ready & 2:
                    mask |= self._ko_improvers(counts, es)
        return mask & (self.kinds_mask if drawable is None else drawable)

    def _waits_slow(self, counts: Sequence[int], melds: int, allowed: int) -> int:
        """Waits of a hand whose size does not match a complete hand: try every kind."""
        c = list(counts)
        mask = 0
        for k in kinds_of(allowed):
            if c[k] >= 4:
                continue
            c[k] += 1
            if self.distance(c, melds) <= 0:
                mask |= 1 << k
            c[k] -= 1
        return mask


_ENGINES: dict[ShapeSpec, Engine | None] = {}


def supported(spec: ShapeSpec) -> bool:
    """Whether the fast path covers a spec (else the general path answers)."""
    layout = spec.group_layout()
    return (
        not spec.wild_kinds
        and not spec.stand_ins
        and not spec.pair_258
        and spec.max_suits is None
        and spec.min_tiles_one_suit is None
        and not spec.all_three_suits
        and not spec.honor_chows
        and set(spec.forms) <= FAST_FORMS
        and 0 <= spec.sets_needed <= MAX_SETS
        and all(g is None or g[0] == "suit" or len(g[1]) <= 7 for g in layout)
    )


def engine_for(spec: ShapeSpec) -> Engine | None:
    """The engine of a spec, chosen once per spec; None if the general path must answer."""
    try:
        return _ENGINES[spec]
    except KeyError:
        eng = _ENGINES[spec] = Engine(spec) if supported(spec) else None
        return eng


# -- the public counts API (the benchmarks and library users call these) ------------------------


def shanten(counts: Sequence[int], spec: ShapeSpec = RIICHI, melds: int = 0) -> int:
    """Shanten of 34 concealed counts (the form `mahjong`'s Shanten.calculate_shanten takes).

    -1 complete, 0 ready; `melds` exposed melds reduce the sets needed. Raises ValueError for
    a spec the fast path does not cover (use `shanten.shanten_of_state`)."""
    eng = _LAST[1] if _LAST[0] is spec else _need(spec)
    if len(counts) != 34:
        raise ValueError("a hand is 34 counts (m, p, s, z)")
    return eng.shanten(counts, melds)


def waits(counts: Sequence[int], spec: ShapeSpec = RIICHI, melds: int = 0) -> list[int]:
    """Kinds that complete 34 concealed counts (a kind already held four times is out)."""
    eng = _LAST[1] if _LAST[0] is spec else _need(spec)
    if len(counts) != 34:
        raise ValueError("a hand is 34 counts (m, p, s, z)")
    return list(kinds_of(eng.waits_mask(counts, melds)))


def effective(counts: Sequence[int], spec: ShapeSpec = RIICHI, melds: int = 0) -> list[int]:
    """Kinds whose draw lowers the shanten of 34 concealed counts."""
    eng = _LAST[1] if _LAST[0] is spec else _need(spec)
    if len(counts) != 34:
        raise ValueError("a hand is 34 counts (m, p, s, z)")
    return list(kinds_of(eng.effective_mask(counts, melds)[1]))


# The last spec used and its engine: hashing a ShapeSpec hashes all its fields, which costs
# more than a whole shanten, so the public functions compare identity first.
_LAST: list = [None, None]


def _need(spec: ShapeSpec) -> Engine:
    eng = engine_for(spec)
    if eng is None:
        raise ValueError("this shape spec needs the general engine (wildcards or shape requirements)")
    _LAST[:] = [spec, eng]
    return eng


# -- HandState adapters: the same signatures as the general path, None when not covered ---------


def _engine(st: HandState, spec: ShapeSpec, void: int | None, copies: Sequence[int] | None = None) -> Engine | None:
    if void is not None or st.wild or (copies is not None and max(copies[:34]) > 4):
        return None
    return engine_for(spec)


def drawable(eng: Engine, held: Sequence[int], copies: Sequence[int]) -> int:
    """The spec's kinds of which a copy is left to draw (`held` counts melds and set-aside)."""
    mask = eng.kinds_mask
    for k in kinds_of(mask):
        if held[k] >= copies[k]:
            mask &= ~(1 << k)
    return mask


def shanten_of_state(st: HandState, spec: ShapeSpec, void: int | None = None) -> tuple[int, dict[str, int | None]] | None:
    eng = _engine(st, spec, void)
    return None if eng is None else eng.forms(st.counts, st.melds)


def effective_of_state(st: HandState, spec: ShapeSpec, copies: Sequence[int], void: int | None = None) -> list[int] | None:
    eng = _engine(st, spec, void, copies)
    if eng is None:
        return None
    return list(kinds_of(eng.effective_mask(st.counts, st.melds, drawable(eng, st.held, copies))[1]))


def waits_of_state(st: HandState, spec: ShapeSpec, copies: Sequence[int], void: int | None = None) -> list[int] | None:
    eng = _engine(st, spec, void, copies)
    if eng is None:
        return None
    return list(kinds_of(eng.waits_mask(st.counts, st.melds, drawable(eng, st.held, copies))))


def discard_table(st: HandState, spec: ShapeSpec, copies: Sequence[int], unseen: Sequence[int], void: int | None = None, discardable: Callable[[int], bool] | None = None) -> list[dict] | None:
    """`shanten.discard_table` for the fast path (same rows, same order)."""
    from mjtools.tiles.kinds import kind_str

    eng = _engine(st, spec, void, copies)
    if eng is None:
        return None
    counts = list(st.counts)
    draw0 = drawable(eng, st.held, copies)
    rows = []
    for k in range(34):
        if not counts[k] or (discardable is not None and not discardable(k)):
            continue
        counts[k] -= 1
        # The discarded copy is no longer held: it may be drawn again if copies allow.
        draw = draw0 | (1 << k) if st.held[k] - 1 < copies[k] and eng.kinds_mask >> k & 1 else draw0
        s, _ = eng.forms(counts, st.melds)
        _, mask = eng.effective_mask(counts, st.melds, draw)
        counts[k] += 1
        eff = kinds_of(mask)
        rows.append({"tile": kind_str(k), "kind": k, "shanten": s, "effective": [kind_str(e) for e in eff], "effective_count": sum(unseen[e] for e in eff)})
    rows.sort(key=lambda r: (r["shanten"], -r["effective_count"], r["kind"]))
    for r in rows:
        del r["kind"]
    return rows
