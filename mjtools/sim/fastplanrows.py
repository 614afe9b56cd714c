"""`Analyzer.discard_rows` for the plans' analyses that `fastrows.rows_one_reading` does not
read group by group: seven pairs and / or thirteen orphans alone (`other_rows`, counted from
the hand's pairs and singles), and pungs-only shapes where every kind plays alike
(`rows_symmetric`, worked out once per profile of counts)."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import compress
from operator import ge

from mjtools.analysis.tables import INF
from mjtools.sim.fastrows import _TH, less_one, rows_one_reading
from mjtools.sim.fastshape import NO_MELDS, Analyzer, Row, kinds_of_mask


def other_rows(an: Analyzer, physical: Sequence[int], held: Sequence[int], unseen: Sequence[int], kinds: list[int], only_best: bool) -> list[Row]:
    """`discard_rows` of a spec of seven pairs and / or thirteen orphans alone (a plan's):
    counted from the hand's pairs and singles, a discard changing one kind's (its stats and
    count masks follow from the hand's)."""
    counts = list(physical[:34])
    st14 = an._stats(counts)
    after, by = [], {}  # (a discard's stats change only by its (count, group, terminal / honor))
    for k in kinds:
        c = counts[k]
        bk = (c, k // 9 if k < 27 else 3, k in _TH)
        got = by.get(bk)
        if got is None:
            st = an._restat(st14, c, k, -1)
            got = by[bk] = (an._other_distance(st, NO_MELDS), st)
        after.append((k, got[0], got[1]))
    if only_best:
        least = min(a[1] for a in after)
        after = [a for a in after if a[1] == least]
    copies = an.copies
    full = over = 0  # kinds all held (no draw of them), and all held even after a discard of one
    if max(held[:34]) >= an.fewest:
        for x in range(34):
            if held[x] >= copies[x]:
                full |= 1 << x
                if held[x] > copies[x]:
                    over |= 1 << x
    cm14 = an._count_masks(counts)
    rows = []
    for k, d, st in after:
        if d >= INF:
            rows.append((INF, 0, k, Row(k, INF, [], 0)))
            continue
        bit = 1 << k
        gain = an._other_gain_masks(less_one(cm14, counts[k], k), st, NO_MELDS, d) & ~((full & ~bit) | (over & bit))
        eff = kinds_of_mask(gain)
        live = sum(map(unseen.__getitem__, eff))
        rows.append((d - 1, -live, k, Row(k, d - 1, eff, live)))
    rows.sort()  # (shanten, most live, kind: kinds differ, so no two keys tie)
    return [r[3] for r in rows]


# -- pungs-only shapes: every kind plays alike ---------------------------------------------------


def symmetric(an: Analyzer) -> bool:
    """Whether the analysis treats every natural kind alike (sets are pungs only, no rule
    names a kind or a suit, no wildcard): then a hand's discard rows follow from how many kinds
    it holds once, twice, ... (`rows_symmetric`)."""
    got = an.symmetric
    if got is None:
        s = an.spec
        got = an.symmetric = (
            not s.chows and not s.honor_chows and not s.pair_258 and s.max_suits is None and not an.split
            and not an.wild and not an.stand and not s.face_value_forms and not an.slow and an._forms is None
            and not an.orphans and an.void is None and an.has_standard and all(k in s.kinds for k in range(34))
            and len(set(an.copies[:34])) == 1
        )  # fmt: skip
    return got


def rows_symmetric(an: Analyzer, physical: Sequence[int], held: Sequence[int], unseen: Sequence[int], kinds: list[int], only_best: bool) -> list[Row] | None:
    """`discard_rows` of a concealed hand (no melds) under a `symmetric` analysis: per count a
    kind is held (1-4), the shanten after discarding one of it and, per count a kind is held
    after that discard (0-3), whether drawing it lowers the shanten. Worked out once per
    profile of counts on a hand laid out in order, by `rows_one_reading` itself; a profile whose
    answers are not alike over kinds of one count (none is known) goes the general way."""
    if any(physical[34:]):
        return None
    prof = [0, 0, 0, 0, 0]
    by = [0, 0, 0, 0, 0]  # per count held: the kinds held so often, as a mask
    for x, c in enumerate(physical[:34]):
        prof[c] += 1
        by[c] |= 1 << x
    key = tuple(prof)
    if key not in an._profiles:
        an._profiles[key] = _profile_rows(an, prof)
    per = an._profiles[key]
    if per is None:
        return None
    # kinds whose every copy is held (no draw of them) but the discarded one
    full = 0 if max(held[:34]) < an.fewest else sum(1 << x for x in compress(range(34), map(ge, held, an.copies)))
    least = min([per[physical[k]][0] for k in kinds], default=INF)
    rows = []
    for k in kinds:
        c = physical[k]
        sh, helps = per[c]
        if only_best and sh != least:
            continue
        if sh >= INF:
            rows.append((INF, 0, k, Row(k, INF, [], 0)))
            continue
        bit = 1 << k
        mask = 0
        for j in range(4):
            if helps >> j & 1:
                mask |= (by[j] & ~bit) | (bit if j == c - 1 else 0)
        eff = kinds_of_mask(mask & (~full | bit))
        rows.append(Row(k, sh, eff, sum(map(unseen.__getitem__, eff))))
    rows.sort(key=lambda r: (r.shanten, -r.live, r.kind))
    return rows


def _profile_rows(an: Analyzer, prof: list[int]) -> dict[int, tuple[int, int]] | None:
    """Per count held, (shanten after discarding a kind held that often, the counts after it
    at which a draw helps as a bit mask), from the hand with this profile laid out in order;
    None where kinds of one count do not all answer alike."""
    counts = [0] * 50
    k = 0
    for c in (4, 3, 2, 1):
        for _ in range(prof[c]):
            counts[k] = c
            k += 1
    rows = rows_one_reading(an, counts, NO_MELDS, counts, [1] * 50, [x for x in range(34) if counts[x]], False)
    if rows is None:
        return None
    per: dict[int, tuple[int, int]] = {}
    for r in rows:
        helps = 0
        for x in r.effective:
            helps |= 1 << (counts[x] - (x == r.kind))
        # alike over kinds: every kind held so often after the discard (and not all four)
        # helps, or none does; and every discard of a kind held so often leaves one shanten
        alike = all((helps >> (counts[x] - (x == r.kind)) & 1) == (x in r.effective) for x in range(34) if counts[x] - (x == r.kind) < 4)
        old = per.get(counts[r.kind])
        if not alike or (old is not None and old != (r.shanten, helps)):
            return None
        per[counts[r.kind]] = (r.shanten, helps)
    return per
