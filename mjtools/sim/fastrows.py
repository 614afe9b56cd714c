"""`Analyzer.discard_rows` for the common case: one reading of the standard form (no
requirement splits it), no wildcards. A discard changes one group's vector, and the draws that
help every other group depend only on that new vector, so discards giving the same vector
share them; draws are kept as bit masks of kinds (bit k = kind k)."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import compress
from operator import add, ge
from weakref import WeakKeyDictionary

from mjtools.analysis import tables
from mjtools.analysis.tables import INF, POW5, VECTORS, ZERO, combine
from mjtools.sim.fastshape import MEMO_LIMIT, Analyzer, Melds, Row, kinds_of_mask


def rows_one_reading(an: Analyzer, physical: Sequence[int], m: Melds, held: Sequence[int], unseen: Sequence[int], kinds: list[int], only_best: bool) -> list[Row] | None:
    """`discard_rows` where the standard form has one reading: a discard changes one group's
    vector, and the draws that help every other group depend only on that new vector, so
    discards giving the same vector share them. Wildcards are counted apart (a wildcard let
    go changes no vector, one wildcard fewer) and stand-in tiles as the kind they play; hands
    holding wildcards and melds, which the tables alone do not settle (`Analyzer.rich`), go
    the general way."""
    if an.slow or not an.has_standard:
        return None
    wilds, stand = an.wild, an.stand
    forms = an._forms  # (the forms beyond sets + pair, seven pairs and orphans: checked below)
    if forms is not None and (wilds or stand):
        return None
    if wilds or stand:
        counts, wild = an.natural(physical)
        if wild and m.n and an.meld_cap:
            return None
    else:
        counts, wild = list(physical[:34]), 0
    readings = an._readings(m)
    sets = an.spec.sets_needed - m.n
    if len(readings) != 1 or sets < 0:
        return None
    col = 2 * sets + 1
    keys = an.keys(counts)
    gids = [ZERO, ZERO, ZERO, ZERO]
    where = {}
    at: list[tuple | None] = [None, None, None, None]  # (`where` by group, for the per-kind loops)
    for g, tid, ids, tg, gk in readings[0]:
        gids[g] = tg[ids[keys[g]]]
        where[g] = at[g] = (tid, ids, tg, gk)
    pos = an.pos
    rests = an._rests(gids)
    # the distance after a discard in group g is entry `col` of (the other groups' combined
    # vector) + (g's new vector): one min over the splits, remembered per (rest, new vector);
    # a kind outside the shapes (a plan's other suits), a wildcard, or a kind of a group no
    # reading uses changes no vector (the hand's own distance)
    fin = an._final
    seen: dict[int, int] = {}  # (new vector << 2 | group) -> distance

    def distance(ng: int, g: int) -> int:
        """The distance once g's vector is ng, remembered in `seen` (and per ruleset in
        `fin`); both loops below call it on a miss only."""
        r = rests[g]
        fk = r << 24 | ng << 4 | col if ng < 1 << 20 else -1  # (ids stay far below)
        d = fin.get(fk)
        if d is None:
            d = min(min(map(add, VECTORS[r][: col + 1], VECTORS[ng][col::-1])), INF)
            if len(fin) >= MEMO_LIMIT:
                fin.clear()
            if fk >= 0:
                fin[fk] = d
        seen[ng << 2 | g] = d
        return d
    outside = (next(iter(where), 0), -1)
    after = []
    if wilds or stand:
        for k in kinds:
            if k in wilds:
                n, w_left = -1, wild - 1
                g, i = outside
            else:
                n, w_left = stand.get(k, k), wild
                g, i = pos.get(n, outside)
            w = where.get(g)
            if w is None or i < 0:
                ng, i = gids[g], -1
            else:
                ng = w[2][w[1][keys[g] - POW5[i]]]
            d = seen.get(ng << 2 | g)
            if d is None:
                d = distance(ng, g)
            after.append((k, d, g, ng, n, w_left, i))  # (i: the position in g, -1 if none)
        low = min([a[1] - a[5] for a in after]) if after else INF  # (least standard distance less wildcards left)
    else:
        # no wildcard or stand-in: each kind is its own natural kind, no wildcard is left
        # (the loop above less what they need)
        low = INF
        steps = an._steps
        for k in kinds:
            p = steps[k]
            if p is None:  # (a kind outside the shapes)
                g, i = outside
                ng = gids[g]
            else:
                g, i, step = p
                w = at[g]
                if w is None:
                    ng, i = gids[g], -1
                else:
                    ng = w[2][w[1][keys[g] - step]]
            d = seen.get(ng << 2 | g)
            if d is None:
                d = distance(ng, g)
            if d < low:
                low = d
            after.append((k, d, g, ng, k, 0, i))
    # Seven pairs / orphans: removing a tile never lowers their distance, so they matter
    # only for discards whose standard distance is at least the 14-tile hand's.
    st14 = None
    if (an.seven or an.orphans) and not m.n and not (only_best and an._other_bound(counts) - wild > low):
        st14 = an._stats(counts)
    o14 = an._other_distance(st14, m) if st14 is not None else INF
    other: dict[int, int] = {}
    restat: dict[tuple[int, int], list[int]] = {}  # (count, kind) -> stats after its discard
    bucket: dict[int, tuple] = {}  # kind -> its (count, group, terminal / honor)
    if o14 < INF and not (only_best and o14 - wild > low):
        by: dict[tuple, int] = {}  # the stats change only by (count, group, terminal / honor)
        sets = an._group_sets(m)
        one = sets[0] if len(sets) == 1 else None  # (one set of groups: the distance in closed form)
        if one is not None:  # (pairs and singles of the set's groups)
            seven, orphans, slots = an.seven, an.orphans and len(one) == 4, an.slots
            p14, s14 = sum(st14[g] for g in one), sum(st14[4 + g] for g in one)  # type: ignore[index]
        for k, d, _g, _ng, n, _w, _i in after:
            if o14 <= d:
                if n < 0:
                    other[k] = o14
                    continue
                c = counts[n]
                bk = bucket[k] = (c, n // 9 if n < 27 else 3, n in _TH)
                o = by.get(bk)
                if o is None:
                    if one is None:
                        st = restat[c, n] = an._restat(st14, c, n, -1)  # type: ignore[arg-type]
                        o = an._other_distance(st, m)
                    else:  # (`_other_distance` of `_restat`: one kind fewer changes a group's pairs and singles)
                        o = INF
                        if seven:
                            p, q = p14, s14
                            if bk[1] in one:
                                (p0, q0), (p1, q1) = slots[c], slots[c - 1]
                                p, q = p + p1 - p0, q + q1 - q0
                            pp = p if p < 7 else 7
                            o = 14 - 2 * pp - min(q, 7 - pp)
                        if orphans:
                            o = min(o, 14 - st14[8] + (bk[2] and c == 1) - (st14[9] - (bk[2] and c == 2) > 0))  # type: ignore[index]
                    by[bk] = o
                other[k] = o
    knit = None  # kind -> 组合龙's distance after its discard, where it reaches the row's
    if forms is not None:
        knit = forms_above(forms, counts, m, after, other)
        if knit is None:
            return None
    if only_best:  # (least shanten: distance less the wildcards left)
        if knit:
            least = min(min(a[1], other.get(a[0], INF), knit.get(a[0], INF)) - a[5] for a in after)
            after = [a for a in after if min(a[1], other.get(a[0], INF), knit.get(a[0], INF)) - a[5] == least]
        elif other:
            least = min(min(a[1], other.get(a[0], INF)) - a[5] for a in after)
            after = [a for a in after if min(a[1], other.get(a[0], INF)) - a[5] == least]
        elif wild:
            after = [a for a in after if a[1] - a[5] == low]
        else:
            after = [a for a in after if a[1] == low]
    shared: dict[int, int] = {}  # (new vector << 2 | group) -> draws helping the others
    rows: list[tuple[int, int, int, Row]] = []
    copies = an.copies
    memo = an._memo
    sigs = an._sigs
    sig14 = {}
    for g, w in where.items():
        sig = sigs.get(w[0] << 24 | keys[g])
        sig14[g] = sig if sig is not None else an._sig(w[0], w[1], w[2], len(w[3]), keys[g])
    pairs: dict[tuple[int, int], int] = {}
    wk = tuple(where)
    others = _OTHERS.get(wk)
    if others is None:  # (per group: the other groups read, each with the two besides both)
        others = _OTHERS[wk] = {g: [(g2, _REMAIN[g][g2]) for g2 in where if g2 != g] for g in range(4)}
    cmemo = tables._COMBINED
    kind_mask = an._kind_mask
    shifts = an._shift
    cm14 = None  # the hand's `_count_masks`, when seven pairs / orphans are weighed
    mapped = bool(wilds or stand)
    phys = None  # (mapped: the candidates as masks of physical kinds)
    # kinds whose every copy is held (no draw of them): seldom any
    full = 0 if mapped or max(held[:34]) < an.fewest else sum(1 << x for x in compress(range(34), map(ge, held, copies)))
    parts: dict[tuple, tuple[int, int, int, int]] = {}  # bucket -> `_other_gain_parts` (the stats alike)

    def cross_gain(ng: int, g: int) -> int:
        """The draws that help the groups other than g once g's vector is ng, remembered in
        `shared` (both loops below call it on a miss only)."""
        gain = 0
        for g2, ab in others[g]:  # (ab: the two groups besides g and g2)
            pc = pairs.get(ab)
            if pc is None:
                x, y = gids[ab[0]], gids[ab[1]]
                pc = cmemo.get(x << 20 | y if x <= y else y << 20 | x)
                if pc is None:
                    pc = combine(x, y)
                pairs[ab] = pc
            rest = cmemo.get((ng << 20) | pc if ng <= pc else (pc << 20) | ng)
            if rest is None:
                rest = combine(ng, pc)
            sig = sig14[g2]
            got = memo.get(sig << 40 | rest << 4 | col)
            if got is None:
                got = an._positions(sig, rest, col)
            if got:
                gain |= got << shifts[g2] if shifts[g2] is not None else kind_mask(g2, got)
        shared[ng << 2 | g] = gain
        return gain
    if not other and not knit and not mapped:
        # the common case (no seven pairs / orphans or 组合龙 at the rows' distance, no
        # wildcard or stand-in): the loop below less what those need
        for k, d, g, ng, _n, _w, i in after:
            gain = shared.get(ng << 2 | g)
            if gain is None:
                gain = cross_gain(ng, g)
            w = at[g]
            if w is not None:
                if i < 0:  # (no vector changed: the hand's own draws in g)
                    sig = sig14[g]
                else:
                    key = keys[g] - POW5[i]
                    sig = sigs.get(w[0] << 24 | key)
                    if sig is None:
                        sig = an._sig(w[0], w[1], w[2], len(w[3]), key)
                got = memo.get(sig << 40 | rests[g] << 4 | col)
                if got is None:
                    got = an._positions(sig, rests[g], col)
                if got:
                    gain |= got << shifts[g] if shifts[g] is not None else kind_mask(g, got)
            if d >= INF:
                rows.append((INF, 0, k, Row(k, INF, [], 0)))
                continue
            if full:
                gain &= ~full | 1 << k  # (the discarded kind is no longer all held)
            eff = kinds_of_mask(gain)
            live = sum(map(unseen.__getitem__, eff))
            rows.append((d - 1, -live, k, Row(k, d - 1, eff, live)))
        rows.sort()
        return [r[3] for r in rows]
    for k, d, g, ng, n, w_left, i in after:
        o = other.get(k, INF)
        ogain = 0
        if o <= d and o < INF:  # (none's distance finite: the row is out of reach, no draws read)
            if cm14 is None:
                cm14 = an._count_masks(counts)
            if n >= 0:  # (the discarded kind held once fewer)
                c = counts[n]
                bk = bucket[k]
                got = parts.get(bk)
                if got is None:
                    st = restat.get((c, n))
                    if st is None:
                        st = an._restat(st14, c, n, -1)  # type: ignore[arg-type]
                    got = parts[bk] = an._other_parts(st, m, o)
                ogain = an._apply_parts(got, less_one(cm14, c, n))
            else:
                ogain = an._other_gain_masks(cm14, st14, m, o)  # type: ignore[arg-type]
        if o < d:
            gain, d = ogain, o
        else:
            gain = shared.get(ng << 2 | g)
            if gain is None:
                gain = cross_gain(ng, g)
            if g in where:
                if i < 0:  # (no vector changed: the hand's own draws in g)
                    sig = sig14[g]
                else:
                    w = where[g]
                    key = keys[g] - POW5[i]
                    sig = sigs.get(w[0] << 24 | key)
                    if sig is None:
                        sig = an._sig(w[0], w[1], w[2], len(w[3]), key)
                got = memo.get(sig << 40 | rests[g] << 4 | col)
                if got is None:
                    got = an._positions(sig, rests[g], col)
                if got:
                    gain |= got << shifts[g] if shifts[g] is not None else kind_mask(g, got)
            if o == d:
                gain |= ogain
        if knit and k in knit:  # 组合龙 at or below the other forms after this discard
            e = knit[k]
            if e <= d:
                counts[n] -= 1
                kg = forms._ks_gain(counts, m, e)  # type: ignore[union-attr]
                counts[n] += 1
                gain, d = (kg, e) if e < d else (gain | kg, d)
        if d >= INF:
            rows.append((INF, 0, k, Row(k, INF, [], 0)))
            continue
        if mapped:  # physical kinds: wildcards (`wild_helps`), stand-ins as the kind they play
            if wilds and m.n and an.meld_cap and n >= 0:
                counts[n] -= 1
                helps = an.wild_helps(counts, w_left, m, d, gain)
                counts[n] += 1
            else:
                helps = an.wild_helps(counts, w_left, m, d, gain)
            if phys is None:
                phys = Physical(an, held)
            eff = phys.effective(gain, helps, k)
            live = sum(map(unseen.__getitem__, eff))
        else:
            if full:
                gain &= ~full | 1 << k  # (the discarded kind is no longer all held)
            eff = kinds_of_mask(gain)
            live = sum(map(unseen.__getitem__, eff))
        rows.append((d - w_left - 1, -live, k, Row(k, d - w_left - 1, eff, live)))
    rows.sort()  # (shanten, most live, kind: kinds differ, so no two keys tie)
    return [r[3] for r in rows]


def forms_above(forms, counts: list[int], m: Melds, after: list[tuple], other: dict[int, int]) -> dict[int, int] | None:
    """Where the other forms (将将和, 十三烂, 全不靠, 组合龙: `fastforms.OtherForms`) change no
    row or only through 组合龙, the discards whose 组合龙 distance is at most their row's
    distance, with that distance (the caller merges them as `OtherForms.merge` would); None
    where 将将和, 十三烂 or 全不靠 reach a row (then the general way: no wildcards here, each
    after-entry's n is the kind itself). No discard lowers these forms: 十三烂 / 全不靠 keep the
    most held kinds a target can (fewer kinds held keep no more; a kind held twice is still
    held after one goes), 将将和 the 2, 5 and 8s held and 组合龙 the straight's kinds, its set
    and its pair (a distance never falls with a tile fewer), so the hand's own distances
    bound every discard's from below, and a discard is looked at alone only where they do
    not settle it."""
    counted = forms._counted(counts, m) if forms.counted else INF
    e258 = forms._258(counts, m)[0] if forms.all_258 else INF
    ks = INF
    if forms.knit_straight and after:  # (counted where its cheap bound reaches some row)
        top = max(min(a[1], other.get(a[0], INF)) for a in after)
        if forms._ks_floor(counts, m) <= top:
            ks = forms._ks(counts, m, top + 1)
    knit: dict[int, int] = {}
    for k, d, _g, _ng, n, _w, _i in after:
        o = other.get(k, INF)
        t = d if d < o else o
        if t >= INF:
            return None  # (a discard out of reach: the general way settles it)
        if counted <= t:
            if counts[n] >= 2:
                return None  # (the kinds held stay as they are)
            counts[n] -= 1
            e = forms._counted(counts, m)
            counts[n] += 1
            if e <= t:
                return None
        if e258 <= t:
            counts[n] -= 1
            e = forms._258(counts, m)[0]
            counts[n] += 1
            if e <= t:
                return None
        if ks <= t:
            counts[n] -= 1
            e = forms._ks(counts, m, t + 1)
            counts[n] += 1
            if e <= t:
                knit[k] = e
    return knit


_PHYSICAL: WeakKeyDictionary[Analyzer, tuple[int, tuple[tuple[int, int], ...], int, bool]] = WeakKeyDictionary()


class Physical:
    """The improving physical kinds of a row when wildcards or stand-ins are in play, from
    masks: a candidate that is neither counts when its own kind helps, a stand-in when the
    kind it plays does, a wildcard when a wildcard helps; kinds whose every copy is held
    (but for the discarded one) are out. Ascending, as `Analyzer.candidates`."""

    __slots__ = ("plain", "stands", "wild", "full", "over")

    def __init__(self, an: Analyzer, held: Sequence[int]):
        got = _PHYSICAL.get(an)
        if got is None:
            wilds, stand = an.wild, an.stand
            plain = sum(1 << c for c in an.candidates if c not in wilds and c not in stand)
            stands = tuple((c, stand[c]) for c in an.candidates if c not in wilds and c in stand)
            wild = sum(1 << c for c in an.candidates if c in wilds)
            got = _PHYSICAL[an] = (plain, stands, wild, any(c >= 34 for c in an.candidates))
        self.plain, self.stands, self.wild = got[0], got[1], got[2]
        self.full = self.over = 0
        if max(held[:34]) < an.fewest and not got[3]:
            return  # (no kind can be all held)
        copies = an.copies
        for c in an.candidates:
            if held[c] >= copies[c]:
                self.full |= 1 << c
                if held[c] - 1 >= copies[c]:
                    self.over |= 1 << c

    def effective(self, gain: int, helps: bool, k: int) -> list[int]:
        """The improving candidates, ascending, after discarding kind k (-1: none)."""
        mask = gain & self.plain
        for c, n in self.stands:
            if gain >> n & 1:
                mask |= 1 << c
        if helps:
            mask |= self.wild
        if self.full:
            bit = 1 << k if k >= 0 else 0
            mask &= ~((self.full & ~bit) | (self.over & bit))
        out = kinds_of_mask(mask)
        high = mask >> 34
        while high:
            low = high & -high
            out.append(33 + low.bit_length())
            high ^= low
        return out


def less_one(cm: int, c: int, n: int) -> int:
    """`Analyzer._count_masks` of a hand after one of kind n, held c times, goes."""
    if c <= 4:
        return cm ^ (1 << (40 * c + n) | 1 << (40 * c - 40 + n))
    return cm | 1 << (40 * c - 40 + n) if c == 5 else cm


_TH = frozenset((0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33))


# the two groups besides a pair of groups
_REMAIN = [[tuple(x for x in range(4) if x not in (g, h)) for h in range(4)] for g in range(4)]
_OTHERS: dict[tuple[int, ...], dict[int, list[tuple[int, tuple[int, ...]]]]] = {}  # groups read -> `others`


def least_discards(an: Analyzer, physical: Sequence[int], m: Melds, kinds: Sequence[int]) -> tuple[int, list[int]]:
    """The least shanten after discarding one of each given physical kind (from hand-size + 1
    tiles) and the kinds that reach it, in the given order: `Analyzer.discard_shanten`'s
    least and where it is reached. When wildcards and melds send each discard to the general
    engine (`Analyzer.rich`), the tables' distance bounds each discard's from below (the
    general engine only adds the targets a wildcard cannot fill): the discards are counted
    from the lowest bound up, and none whose bound is above the least found."""
    counts, wild = an.natural(physical)
    if an.fast is not None or an.slow or an._forms is not None or not an.has_standard or not an.rich(wild, m):
        sh = an.discard_shanten(physical, m, kinds)
        least = min(sh.values(), default=INF)
        return least, [k for k in kinds if sh[k] == least]
    keys = an.keys(counts)
    bounds = []
    for k in kinds:
        if k in an.wild:
            d, w = an._std_distance(keys, m), wild - 1
        else:
            g, i = an.pos.get(an.stand.get(k, k), (0, -1))  # (a kind outside the shapes: no key)
            step = POW5[i] if i >= 0 else 0
            keys[g] -= step
            d, w = an._std_distance(keys, m), wild
            keys[g] += step
        bounds.append(INF if d >= INF else d - w - 1)
    least = INF
    exact: dict[int, int] = {}
    for j in sorted(range(len(kinds)), key=bounds.__getitem__):
        if bounds[j] > least:
            break
        k = kinds[j]
        if k in an.wild:
            sh = an.shanten(counts, wild - 1, m)
        else:
            n = an.stand.get(k, k)
            counts[n] -= 1
            sh = an.shanten(counts, wild, m)
            counts[n] += 1
        exact[j] = sh
        if sh < least:
            least = sh
    return least, [k for j, k in enumerate(kinds) if exact.get(j) == least]
