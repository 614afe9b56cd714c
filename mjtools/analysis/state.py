"""HandState: a hand reduced to the counts that both analysis paths read (`fast.py` for the
common shape spec, `shanten.py` and `waits.py` for every other). Kept apart from `shanten.py`
so that a command the fast path answers does not load the general engine."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mjtools.tiles.frozen import Fields

if TYPE_CHECKING:
    from mjtools.analysis.shapes import ShapeSpec
    from mjtools.tiles.hand import Hand


class HandState(Fields):
    """A hand reduced to what analysis needs. Mutable, compared by value (fields in order).

    Written out by hand rather than as a dataclass: compiling the generated methods was a
    measurable part of every command's start-up."""

    __match_args__ = ("counts", "wild", "melds", "meld_groups", "meld_pungs_only", "meld_tiles", "held", "meld_kinds", "concealed_kongs", "meld_counts", "wild_held")
    FIELDS = __match_args__  # compared by value (Fields), and unhashable: it is mutable

    def __init__(
        self,
        counts: list[int],  # natural concealed tiles per kind (34), last tile included
        wild: int,  # wildcards among the concealed tiles
        melds: int,  # exposed melds and concealed kongs
        meld_groups: frozenset[int],  # groups 0-3 (m p s z) that melds use
        meld_pungs_only: bool,  # every meld is a pung or kong (for all-pungs shapes)
        meld_tiles: tuple[int, int, int, int],  # tiles in melds per group (kongs count 4)
        held: list[int],  # physical copies held per kind (50), melds and set-aside included
        meld_kinds: frozenset[int] = frozenset(),  # the (natural) kinds the melds hold
        concealed_kongs: int = 0,  # melds that are concealed kongs
        meld_counts: list[int] | None = None,  # copies per kind (34) the melds represent
        wild_held: list[int] | None = None,  # concealed wildcards per physical kind (50)
    ) -> None:
        self.counts = counts
        self.wild = wild
        self.melds = melds
        self.meld_groups = meld_groups
        self.meld_pungs_only = meld_pungs_only
        self.meld_tiles = meld_tiles
        self.held = held
        self.meld_kinds = meld_kinds
        self.concealed_kongs = concealed_kongs
        self.meld_counts: list[int] = [] if meld_counts is None else meld_counts
        self.wild_held: list[int] = [] if wild_held is None else wild_held

    @property
    def tiles(self) -> int:
        return sum(self.counts) + self.wild + 3 * self.melds


def state_of(hand: Hand, spec: ShapeSpec) -> HandState:
    counts = [0] * 34
    wild = 0
    wild_held = [0] * 50
    wilds, stand = spec.wild_kinds, dict(spec.stand_ins)
    for t in hand.hand_tiles():
        k = t.kind
        if k in wilds:
            wild += 1
            wild_held[k] += 1
        elif k < 34:
            counts[stand.get(k, k)] += 1
        elif k >= 42:  # a joker tile the variant did not declare wild: not playable
            raise ValueError(f"{t} is not a tile of this variant")
    groups = set()
    pungs_only = True
    per_group = [0, 0, 0, 0]
    meld_counts = [0] * 34
    for m in hand.melds:
        ks = {stand.get(k, k) for k in m.kinds}
        for k in ks:
            if k < 34:
                groups.add(k // 9 if k < 27 else 3)
        if len(ks) != 1:
            pungs_only = False
        for k in m.kinds:
            k = stand.get(k, k)
            if k < 34:
                per_group[k // 9 if k < 27 else 3] += 1
                meld_counts[k] += 1
    kinds = frozenset(stand.get(k, k) for m in hand.melds for k in m.kinds)
    hidden = sum(1 for m in hand.melds if m.concealed)
    return HandState(counts, wild, len(hand.melds), frozenset(groups), pungs_only, tuple(per_group), list(hand.counts), kinds, hidden, meld_counts, wild_held)
