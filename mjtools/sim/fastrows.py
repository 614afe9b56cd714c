"""`Analyzer.discard_rows` for the common case: one reading of the standard form (no
requirement splits it), no wildcards. A discard changes one group's vector, and the draws that
help every other group depend only on that new vector, so discards giving the same vector
share them; draws are kept as bit masks of kinds (bit k = kind k)."""

from __future__ import annotations

from collections.abc import Sequence
from operator import add

from mjtools.analysis import tables
from mjtools.analysis.tables import INF, POW5, VECTORS, ZERO, combine
from mjtools.sim.fastshape import MEMO_LIMIT, Analyzer, Melds, Row


def rows_one_reading(an: Analyzer, physical: Sequence[int], m: Melds, held: Sequence[int], unseen: Sequence[int], kinds: list[int], only_best: bool) -> list[Row] | None:
    """`discard_rows` where the standard form has one reading: a discard changes one group's
    vector, and the draws that help every other group depend only on that new vector, so
    discards giving the same vector share them. Wildcards are counted apart (a wildcard let
    go changes no vector, one wildcard fewer) and stand-in tiles as the kind they play; hands
    holding wildcards and melds, which the tables alone do not settle (`Analyzer.rich`), go
    the general way."""
    if an.slow or not an.has_standard or an._forms is not None:
        return None
    wilds, stand = an.wild, an.stand
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
    for g, tid, ids, tg, gk in readings[0]:
        gids[g] = tg[ids[keys[g]]]
        where[g] = (tid, ids, tg, gk)
    pos = an.pos
    rests = _rests(an, gids)
    # the distance after a discard in group g is entry `col` of (the other groups' combined
    # vector) + (g's new vector): one min over the splits, remembered per (rest, new vector)
    fin = an._final
    after = []
    seen: dict[int, int] = {}  # (new vector << 2 | group) -> distance
    # a kind outside the shapes (a plan's other suits), or a wildcard, is in no group: its
    # discard changes no vector, as if it left some group unchanged
    outside = (next(iter(where), 0), -1)
    for k in kinds:
        if k in wilds:
            n, w_left = -1, wild - 1
            g, i = outside
        else:
            n, w_left = stand.get(k, k), wild
            g, i = pos.get(n, outside)
        w = where.get(g)
        ng = gids[g] if w is None or i < 0 else w[2][w[1][keys[g] - POW5[i]]]
        d = seen.get(ng << 2 | g)
        if d is None:
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
        after.append((k, d, g, ng, n, w_left))
    # Seven pairs / orphans: removing a tile never lowers their distance, so they matter
    # only for discards whose standard distance is at least the 14-tile hand's.
    st14 = None
    if (an.seven or an.orphans) and not m.n and not (only_best and an._other_bound(counts) - wild > min(a[1] - a[5] for a in after)):
        st14 = an._stats(counts)
    o14 = an._other_distance(st14, m) if st14 is not None else INF
    other: dict[int, int] = {}
    if o14 < INF and not (only_best and o14 - wild > min(a[1] - a[5] for a in after)):
        for k, d, _g, _ng, n, _w in after:
            if o14 <= d:
                other[k] = o14 if n < 0 else an._other_distance(an._restat(st14, counts[n], n, -1), m)  # type: ignore[arg-type]
    if only_best:  # (least shanten: distance less the wildcards left)
        if other:
            least = min(min(a[1], other.get(a[0], INF)) - a[5] for a in after)
            after = [a for a in after if min(a[1], other.get(a[0], INF)) - a[5] == least]
        else:
            least = min(a[1] - a[5] for a in after)
            after = [a for a in after if a[1] - a[5] == least]
    shared: dict[int, int] = {}  # (new vector << 2 | group) -> draws helping the others
    rows = []
    copies = an.copies
    memo, cmemo = an._memo, tables._COMBINED
    sigs = an._sigs
    sig14 = {}
    for g, w in where.items():
        sig = sigs.get(w[0] << 24 | keys[g])
        sig14[g] = sig if sig is not None else an._sig(w[0], w[1], w[2], len(w[3]), keys[g])
    pairs: dict[tuple[int, int], int] = {}
    kind_mask = an._kind_mask
    shifts = an._shift
    cm14 = None  # the hand's `_count_masks`, when seven pairs / orphans are weighed
    mapped = bool(wilds or stand)
    for k, d, g, ng, n, w_left in after:
        o = other.get(k, INF)
        if o <= d:
            if cm14 is None:
                cm14 = an._count_masks(counts)
            if n >= 0:  # (the discarded kind held once fewer)
                c, bit = counts[n], 1 << n
                cm = list(cm14)
                cm[c] ^= bit
                cm[c - 1] |= bit
                ogain = an._other_gain_masks(cm, an._restat(st14, c, n, -1), m, o)  # type: ignore[arg-type]
            else:
                ogain = an._other_gain_masks(cm14, st14, m, o)  # type: ignore[arg-type]
        if o < d:
            gain, d = ogain, o
        else:
            gain = shared.get(ng << 2 | g)
            if gain is None:
                gain = 0
                for g2 in where:
                    if g2 != g:
                        ab = _REMAIN[g][g2]  # the two groups besides g and g2
                        pc = pairs.get(ab)
                        if pc is None:
                            pc = pairs[ab] = combine(gids[ab[0]], gids[ab[1]])
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
            w = where.get(g)
            if w is not None:
                tid, ids, tg, gk = w
                i = pos.get(n, outside)[1] if n >= 0 else -1
                key = keys[g] - (POW5[i] if i >= 0 else 0)
                sig = sigs.get(tid << 24 | key)
                if sig is None:
                    sig = an._sig(tid, ids, tg, len(gk), key)
                got = memo.get(sig << 40 | rests[g] << 4 | col)
                if got is None:
                    got = an._positions(sig, rests[g], col)
                if got:
                    gain |= got << shifts[g] if shifts[g] is not None else kind_mask(g, got)
            if o == d:
                gain |= ogain
        if d >= INF:
            rows.append(Row(k, INF, [], 0))
            continue
        if mapped:  # physical kinds: wildcards (`wild_helps`), stand-ins as the kind they play
            if wilds and m.n and an.meld_cap and n >= 0:
                counts[n] -= 1
                helps = an.wild_helps(counts, w_left, m, d, gain)
                counts[n] += 1
            else:
                helps = an.wild_helps(counts, w_left, m, d, gain)
            eff = [c for c in an.candidates if held[c] - (c == k) < copies[c] and ((c in wilds and helps) or (c not in wilds and gain >> stand.get(c, c) & 1))]
            live = sum(unseen[c] for c in eff)
        else:
            eff = []
            live = 0
            for lo in (0, 9, 18, 27):
                chunk = (gain >> lo) & 511
                if chunk:
                    for off in _BITS9[chunk]:
                        x = lo + off
                        if held[x] < copies[x] or x == k:  # (the discarded kind is no longer all held)
                            eff.append(x)
                            live += unseen[x]
        rows.append(Row(k, d - w_left - 1, eff, live))
    rows.sort(key=lambda r: (r.shanten, -r.live, r.kind))
    return rows


def _rests(an: Analyzer, gids: list[int]) -> list[int]:
    """`Analyzer._rests`, remembered per hand's four group vectors."""
    mk = gids[0] << 60 | gids[1] << 40 | gids[2] << 20 | gids[3]
    got = an._rest_memo.get(mk)
    if got is None:
        got = an._rests(gids)
        if max(gids) < 1 << 20:
            if len(an._rest_memo) >= MEMO_LIMIT:
                an._rest_memo.clear()
            an._rest_memo[mk] = got
    return got


# the set bits of every 9-bit mask (a group of kinds)
_BITS9 = tuple(tuple(i for i in range(9) if m >> i & 1) for m in range(512))


# the two groups besides a pair of groups
_REMAIN = [[tuple(x for x in range(4) if x not in (g, h)) for h in range(4)] for g in range(4)]
