"""Shared pieces of the simulator's incremental analysis (`fastshape.Analyzer` and the
modules beside it): what a hand's melds tell the analysis, a discard row, and kind masks."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

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


# the kinds of every 9-bit mask of a group (index: group << 9 | mask)
BITS9 = tuple(tuple(9 * g + i for i in range(9) if m >> i & 1) for g in range(4) for m in range(512))


def kinds_of_mask(mask: int) -> list[int]:
    """The natural kinds of a 34-bit mask, ascending."""
    return [*BITS9[mask & 511], *BITS9[512 | mask >> 9 & 511], *BITS9[1024 | mask >> 18 & 511], *BITS9[1536 | mask >> 27 & 127]]
