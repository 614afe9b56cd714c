"""The pieces a reading of a hand is made of: `Block` (a set, a pair or a single tile, with the
kinds its wildcards stand for), `Decomposition` (a form and its blocks, and where the winning
tile sits), and the hand as counts that `decompose.py` searches.
"""

from __future__ import annotations

from collections.abc import Iterator

from mjtools.analysis.shapes import ShapeSpec
from mjtools.tiles.hand import Hand, Meld

CHOW, PUNG, KONG, PAIR, SINGLE = "chow", "pung", "kong", "pair", "single"
FREE_SET = "set"  # compact placeholder for three wildcards forming any set
TERMINAL_HONOR = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
WINDS, DRAGONS = (27, 28, 29, 30), (31, 32, 33)
PAIR_FORMS = ("standard", "knitted_straight")  # forms with one pair (the eye) beside their sets


# Blocks and decompositions are immutable by convention; they are not frozen because a frozen
# value pays an object.__setattr__ call per field on construction, and scoring builds several
# per hand. They compare and hash by value (for use in sets). Plain classes rather than
# dataclasses: compiling dataclass-generated methods cost every call start-up time.
class Block:
    __slots__ = ("shape", "kinds", "concealed", "meld", "wilds", "free")
    __match_args__ = __slots__
    shape: str  # chow, pung, kong, pair, single (set: compact placeholder)
    kinds: tuple[int, ...]  # the kinds it represents (sorted)
    concealed: bool  # in the hand or a concealed kong
    meld: Meld | None  # the meld it is, if laid down
    wilds: tuple[int, ...]  # the kinds wildcards stand for in it
    free: int  # wildcards with no kind fixed (compact placeholders only)

    def __init__(self, shape: str, kinds: tuple[int, ...], concealed: bool = True, meld: Meld | None = None, wilds: tuple[int, ...] = (), free: int = 0) -> None:
        self.shape = shape
        self.kinds = kinds
        self.concealed = concealed
        self.meld = meld
        self.wilds = wilds
        self.free = free

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not Block:
            return NotImplemented
        return (self.shape, self.kinds, self.concealed, self.meld, self.wilds, self.free) == (other.shape, other.kinds, other.concealed, other.meld, other.wilds, other.free)  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash((self.shape, self.kinds, self.concealed, self.meld, self.wilds, self.free))

    def __repr__(self) -> str:
        return f"Block(shape={self.shape!r}, kinds={self.kinds!r}, concealed={self.concealed!r}, meld={self.meld!r}, wilds={self.wilds!r}, free={self.free!r})"

    @property
    def wild(self) -> int:
        return len(self.wilds) + self.free

    @property
    def natural(self) -> tuple[int, ...]:
        """The kinds held as natural tiles."""
        rest = list(self.kinds)
        for k in self.wilds:
            rest.remove(k)
        return tuple(rest)

    @property
    def first(self) -> int:
        return self.kinds[0]

    @property
    def is_set(self) -> bool:
        return self.shape in (CHOW, PUNG, KONG)

    @property
    def is_pung_like(self) -> bool:
        return self.shape in (PUNG, KONG)

    def __str__(self) -> str:
        from mjtools.tiles.kinds import kinds_str

        text = kinds_str(self.kinds) if self.kinds else "*" * self.free
        return text if self.concealed and self.meld is None else f"({text})" if self.meld is None or not self.meld.concealed else f"[{text}]"


class Decomposition:
    __slots__ = ("form", "blocks", "win_block", "wait")
    __match_args__ = __slots__
    form: str
    blocks: tuple[Block, ...]
    win_block: int | None  # index of the block the winning tile completed
    wait: str | None  # two_sided, closed, edge, pair, pung, single, thirteen, honor_chow

    def __init__(self, form: str, blocks: tuple[Block, ...], win_block: int | None = None, wait: str | None = None) -> None:
        self.form = form
        self.blocks = blocks
        self.win_block = win_block
        self.wait = wait

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not Decomposition:
            return NotImplemented
        return (self.form, self.blocks, self.win_block, self.wait) == (other.form, other.blocks, other.win_block, other.wait)  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash((self.form, self.blocks, self.win_block, self.wait))

    def __repr__(self) -> str:
        return f"Decomposition(form={self.form!r}, blocks={self.blocks!r}, win_block={self.win_block!r}, wait={self.wait!r})"

    @property
    def sets(self) -> tuple[Block, ...]:
        return tuple(b for b in self.blocks if b.is_set)

    @property
    def pair(self) -> Block | None:
        pairs = [b for b in self.blocks if b.shape == PAIR]
        return pairs[0] if len(pairs) == 1 and self.form in PAIR_FORMS else None

    @property
    def pairs(self) -> tuple[Block, ...]:
        return tuple(b for b in self.blocks if b.shape == PAIR)

    def kinds(self) -> Iterator[int]:
        for b in self.blocks:
            yield from b.kinds

    def __str__(self) -> str:
        return " ".join(str(b) for b in self.blocks)


def is_honor_chow(kinds: tuple[int, ...]) -> bool:
    ks = set(kinds)
    return len(kinds) == 3 and len(ks) == 3 and (ks <= set(WINDS) or ks == set(DRAGONS))


NO_STAND: dict[int, int] = {}
_MELD_SHAPE = {"chow": CHOW, "pung": PUNG, "exposed_kong": KONG, "added_kong": KONG, "concealed_kong": KONG}


def meld_block(m: Meld, stand: dict[int, int], spec: ShapeSpec) -> Block:
    shape = _MELD_SHAPE.get(m.kind)
    if shape is not None and not stand and not m.wild:
        # The common case: a plain chow, pung or kong (the parser sorts meld tiles). An honor
        # chow meld keeps its declared kind "chow" on either path.
        return Block(shape, tuple([t.kind for t in m.tiles]), m.concealed, m)
    kinds = tuple(sorted(stand.get(k, k) for k in m.kinds))
    if len(kinds) == 4 and len(set(kinds)) == 1:
        shape = KONG
    elif len(kinds) == 3 and len(set(kinds)) == 1:
        shape = PUNG
    elif len(kinds) == 3 and kinds[0] < 27 and kinds[0] // 9 == kinds[2] // 9 and kinds == (kinds[0], kinds[0] + 1, kinds[0] + 2):
        shape = CHOW
    elif spec.honor_chows and is_honor_chow(kinds):
        shape = CHOW
    else:
        shape = m.kind  # a variant-declared meld kind (亮牌 ...)
    wilds = tuple(sorted(stand.get(m.tiles[i].kind, m.tiles[i].kind) for i in m.wild))
    return Block(shape, kinds, concealed=m.concealed, meld=m, wilds=wilds)


# -- the hand as counts ---------------------------------------------------------------------------


def hand_counts(hand: Hand, spec: ShapeSpec, face: bool) -> tuple[list[int], int] | None:
    """(natural counts per kind, wildcards); None if a tile cannot be part of any shape."""
    stand = dict(spec.stand_ins)
    counts = [0] * 34
    wild = 0
    for t in hand.hand_tiles():
        if t.kind in spec.wild_kinds and not face:
            wild += 1
            continue
        k = stand.get(t.kind, t.kind)
        if k >= 34 or k not in spec.kinds:
            return None
        counts[k] += 1
    return counts, wild


def meld_copies(hand: Hand, spec: ShapeSpec) -> list[int]:
    stand = dict(spec.stand_ins)
    out = [0] * 34
    for m in hand.melds:
        for k in m.kinds:
            k = stand.get(k, k)
            if k < 34:
                out[k] += 1
    return out


def caps_ok(blocks: list[Block], melds: list[int], spec: ShapeSpec) -> bool:
    """No wildcard stands for a fifth copy of a kind (melds counted) unless `fifth_copy`."""
    if spec.wild_fifth_copy:
        return True
    wild_at = {k for b in blocks for k in b.wilds}
    if not wild_at:
        return True
    for k in wild_at:  # (a kind or two: counted where they are, no Counter of every kind)
        if sum(b.kinds.count(k) for b in blocks) + melds[k] > 4:
            return False
    return True
