"""Hand and Meld value types: frozen, hashable, `str` is the canonical notation."""

from __future__ import annotations

from collections.abc import Iterator

from mjtools.tiles.frozen import Frozen
from mjtools.tiles.kinds import NUM_KINDS, Tile

# notation.py imports this module, so it is imported on first use and kept (a `from ... import`
# inside a method runs the import machinery, and raises and clears an AttributeError, on
# every call: str(hand) is on every score record's path).
_NOTATION: list = []


def _notation():
    if not _NOTATION:
        from mjtools.tiles import notation

        _NOTATION.append(notation)
    return _NOTATION[0]

# Meld kinds the parser derives from the brackets and the tiles.
CHOW, PUNG, EXPOSED_KONG, ADDED_KONG, CONCEALED_KONG = (
    "chow",
    "pung",
    "exposed_kong",
    "added_kong",
    "concealed_kong",
)
KONG_KINDS = (EXPOSED_KONG, ADDED_KONG, CONCEALED_KONG)
# Meld._fcode's fields (four bits each: counts up to 15 melds): kongs shown, kongs concealed,
# melds that break concealment; then wildcard melds from bit 12.
MELD_KONG_OPEN, MELD_KONG_HIDDEN, MELD_OPEN, MELD_WILD = 1, 1 << 4, 1 << 8, 1 << 12


class Meld(Frozen):
    """A set laid down: `(123m)`, `(555z@W)`, `(5555z@W/added)`, `[1111m]`, `(55x5z)`.

    `tiles` are what the meld shows (a wildcard position shows the tile it stands for);
    `wild` holds the indices of positions filled by a wildcard and `physical` the physical
    wildcard tiles at those positions when the notation gives them (`=TILES`).

    A frozen value type like Aside below (equality and hashing over the seven fields, pickling),
    written out by hand: compiling dataclass-generated methods cost start-up time.
    """

    __slots__ = ("tiles", "kind", "source", "concealed", "tag", "wild", "physical", "_kinds", "_fcode")
    __match_args__ = ("tiles", "kind", "source", "concealed", "tag", "wild", "physical")
    tiles: tuple[Tile, ...]
    kind: str
    source: str | None
    concealed: bool
    tag: str | None
    wild: tuple[int, ...]
    physical: tuple[Tile, ...]
    # The kinds of `tiles`, made on first use (validation and the patterns ask for them many
    # times a hand, and parsed melds are shared between hands). Not compared, not an argument.
    _kinds: tuple[int, ...]
    # What the hand's feature bits read of the meld, as a sum over the melds (`MELD_KONG_OPEN`
    # ...): a kong shown or concealed, a meld that breaks concealment, a wildcard in it. Set
    # once (parsed melds are shared between hands): one attribute per meld then, not four.
    _fcode: int

    def __init__(self, tiles: tuple[Tile, ...], kind: str, source: str | None = None, concealed: bool = False, tag: str | None = None, wild: tuple[int, ...] = (), physical: tuple[Tile, ...] = ()) -> None:
        sa = object.__setattr__
        sa(self, "tiles", tiles)
        sa(self, "kind", kind)
        sa(self, "source", source)
        sa(self, "concealed", concealed)
        sa(self, "tag", tag)
        sa(self, "wild", wild)
        sa(self, "physical", physical)
        sa(self, "_kinds", ())
        sa(self, "_fcode", (MELD_KONG_HIDDEN if concealed else MELD_KONG_OPEN) * self.is_kong + (0 if concealed else MELD_OPEN) + (MELD_WILD if wild else 0))

    def _key(self) -> tuple:
        return (self.tiles, self.kind, self.source, self.concealed, self.tag, self.wild, self.physical)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not Meld:
            return NotImplemented
        return self._key() == other._key()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash(self._key())

    def __reduce__(self) -> tuple[type[Meld], tuple]:
        return (Meld, self._key())

    def replace(self, **changes: object) -> Meld:
        """A copy with these fields changed."""
        return Meld(**{**dict(zip(self.__match_args__, self._key())), **changes})  # type: ignore[arg-type]

    @property
    def kinds(self) -> tuple[int, ...]:
        got = self._kinds
        if not got:
            got = tuple([t.kind for t in self.tiles])
            object.__setattr__(self, "_kinds", got)
        return got

    @property
    def is_kong(self) -> bool:
        return self.kind in KONG_KINDS or (len(self.tiles) == 4 and len(set(self.kinds)) == 1)

    @property
    def is_open(self) -> bool:
        """Whether the meld breaks concealment (every meld but a concealed kong)."""
        return not self.concealed

    def physical_tiles(self) -> Iterator[Tile]:
        """The physical tiles of the meld: wild positions yield their physical tile if known."""
        phys = iter(self.physical)
        for i, t in enumerate(self.tiles):
            if i in self.wild:
                p = next(phys, None)
                if p is not None:
                    yield p
            else:
                yield t

    def __str__(self) -> str:
        return _notation().format_meld(self)

    def __repr__(self) -> str:
        return f"Meld.parse({str(self)!r})"

    @classmethod
    def parse(cls, text: str) -> Meld:
        from mjtools.tiles.notation import parse_hand

        hand = parse_hand(text)
        if len(hand.melds) != 1 or hand.concealed or hand.aside or hand.last:
            from mjtools.errors import NotationError

            raise NotationError("expected exactly one meld", text, 0)
        return hand.melds[0]


class Aside(Frozen):
    """Tiles set aside: flowers `{15f}`, kita `{kita=44z}`, stood tiles `{stood=...}`.

    A frozen value type (equality, hashing, repr, pickling as a frozen dataclass would give
    them), written out by hand: compiling dataclass-generated methods cost start-up time."""

    __slots__ = ("tiles", "tag", "natural")
    __match_args__ = ("tiles", "tag")
    tiles: tuple[Tile, ...]
    tag: str | None
    # Whether a tile of the 34 kinds is among them (riichi's Norths; flowers are not): set once,
    # as parsed groups are shared between hands. Not compared, not an argument.
    natural: bool

    def __init__(self, tiles: tuple[Tile, ...], tag: str | None = None) -> None:
        object.__setattr__(self, "tiles", tiles)
        object.__setattr__(self, "tag", tag)
        object.__setattr__(self, "natural", any(t.kind < 34 for t in tiles))

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.tiles, self.tag) == (other.tiles, other.tag)  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash((self.tiles, self.tag))

    def __repr__(self) -> str:
        return f"Aside(tiles={self.tiles!r}, tag={self.tag!r})"

    def __reduce__(self) -> tuple[type[Aside], tuple[tuple[Tile, ...], str | None]]:
        return (Aside, (self.tiles, self.tag))

    def __str__(self) -> str:
        return _notation().format_aside(self)


class _HandFields:
    """Hand's fields (see Hand), writable while Hand.__new__ fills them."""

    __slots__ = ("concealed", "melds", "aside", "last", "counts", "reds", "_ctext", "_text", "_packed", "_cpacked")


_new = object.__new__


class Hand(_HandFields, Frozen):
    """A hand in notation: concealed tiles, melds in call order, set-aside groups, last tile.

    `last` is the `+X` tile: the winning tile for `score`, the tile just drawn otherwise.

    A frozen value type like Aside (equality and hashing over the four fields, pickling),
    written out by hand: compiling dataclass-generated methods cost start-up time. `counts`
    (physical copies held of each kind: concealed, last, melds, set aside) and `reds` (red
    fives held or shown) are derived, plain attributes read on every scored hand (a caller
    that has them may pass them as `_counts` and `_reds`; `_packed` is the counts as one
    integer with a byte per kind, -1 until packed_counts() or the parser gives it; `_cpacked`
    the same of the concealed tiles alone, -1 until concealed_packed() or the parser gives it), `_ctext` is the concealed
    tiles' canonical notation when the parser read them written canonically ("" when not
    known: format_hand writes it), `_text` the same for the whole hand; none of the four is
    compared.
    """

    __slots__ = ()  # (_HandFields' slots)
    __match_args__ = ("concealed", "melds", "aside", "last")
    concealed: tuple[Tile, ...]
    melds: tuple[Meld, ...]
    aside: tuple[Aside, ...]
    last: Tile | None
    counts: tuple[int, ...]
    reds: int
    _ctext: str
    _text: str
    _packed: int
    _cpacked: int

    def __new__(cls, concealed: tuple[Tile, ...] = (), melds: tuple[Meld, ...] = (), aside: tuple[Aside, ...] = (), last: Tile | None = None, _counts: tuple[int, ...] = (), _reds: int = -1, _ctext: str = "", _text: str = "", _packed: int = -1, _cpacked: int = -1) -> Hand:
        # Every parsed hand is made here: the fields are stored on a _HandFields (plain slot
        # stores) and the value then given its read-only class, at a fifth of the cost of ten
        # object.__setattr__ calls (each a call through a slot wrapper).
        self = _new(_HandFields)
        self.concealed = concealed
        self.melds = melds
        self.aside = aside
        self.last = last
        self._ctext = _ctext
        self._text = _text
        self._packed = _packed
        self._cpacked = _cpacked
        if not _counts:
            counts = [0] * NUM_KINDS
            reds = 0
            # The loops are written out (not all_tiles()): every parsed hand passes here.
            for t in concealed:
                counts[t.kind] += 1
                reds += t.red
            if last is not None:
                counts[last.kind] += 1
                reds += last.red
            for m in melds:
                for t in m.physical_tiles() if m.wild else m.tiles:
                    counts[t.kind] += 1
                    reds += t.red
            for a in aside:
                for t in a.tiles:
                    counts[t.kind] += 1
                    reds += t.red
            self.counts = tuple(counts)
            self.reds = reds
        else:
            self.counts = _counts
            self.reds = _reds
        self.__class__ = cls
        if _reds < 0 and _counts:  # (counts given without the red fives: read off the tiles)
            object.__setattr__(self, "reds", sum(t.red for t in self.all_tiles()))  # type: ignore[attr-defined]
        return self  # type: ignore[return-value]

    def _key(self) -> tuple:
        return (self.concealed, self.melds, self.aside, self.last)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not Hand:
            return NotImplemented
        return self._key() == other._key()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash(self._key())

    def __reduce__(self) -> tuple[type[Hand], tuple]:
        return (Hand, (*self._key(), self.counts, self.reds, self._ctext, self._text))

    @classmethod
    def parse(cls, text: str) -> Hand:
        from mjtools.tiles.notation import parse_hand

        return parse_hand(text)

    def __str__(self) -> str:
        # (A parsed hand written canonically keeps its text: no call into the formatter.)
        return self._text or _notation().format_hand(self)

    def __repr__(self) -> str:
        return f"Hand.parse({str(self)!r})"

    # -- tile views ---------------------------------------------------------------------------

    def hand_tiles(self) -> tuple[Tile, ...]:
        """Concealed tiles plus the last tile: the tiles a shape is searched in."""
        return self.concealed + ((self.last,) if self.last is not None else ())

    def meld_tiles(self) -> Iterator[Tile]:
        for m in self.melds:
            yield from m.physical_tiles()

    def all_tiles(self) -> Iterator[Tile]:
        """Every physical tile the hand holds or shows (set-aside tiles included)."""
        yield from self.concealed
        if self.last is not None:
            yield self.last
        yield from self.meld_tiles()
        for a in self.aside:
            yield from a.tiles

    def concealed_counts(self, include_last: bool = True) -> list[int]:
        counts = [0] * NUM_KINDS
        for t in self.concealed:
            counts[t.kind] += 1
        if include_last and self.last is not None:
            counts[self.last.kind] += 1
        return counts

    @property
    def size(self) -> int:
        """Tiles toward the hand size: concealed + last + 3 per meld (kongs count 3)."""
        return len(self.concealed) + (self.last is not None) + 3 * len(self.melds)

    @property
    def is_concealed(self) -> bool:
        """No meld breaks concealment (concealed kongs allowed)."""
        for m in self.melds:  # (is_open is `not concealed`; a plain loop: once per scored hand)
            if not m.concealed:
                return False
        return True

    @property
    def open_melds(self) -> tuple[Meld, ...]:
        return tuple(m for m in self.melds if m.is_open)

    def aside_tiles(self, tag: str | None = None) -> tuple[Tile, ...]:
        return tuple(t for a in self.aside if a.tag == tag for t in a.tiles)

    def with_last(self, tile: Tile | None) -> Hand:
        """The same hand with `tile` as its last tile (the old last tile joins the concealed)."""
        concealed = self.concealed
        if self.last is not None:
            concealed = tuple(sorted(concealed + (self.last,), key=Tile.sort_key))
        return Hand(concealed, self.melds, self.aside, tile)

    def without_last(self) -> Hand:
        return Hand(self.concealed, self.melds, self.aside, None)

    def discard(self, tile: Tile) -> Hand:
        """The hand after discarding one copy of `tile` (the last tile first; a plain five
        may take a red one when no plain one is held)."""
        pool = list(self.hand_tiles())
        for match in (lambda t: t == tile, lambda t: t.kind == tile.kind):
            for i in range(len(pool) - 1, -1, -1):
                if match(pool[i]):
                    del pool[i]
                    return Hand(tuple(sorted(pool, key=Tile.sort_key)), self.melds, self.aside, None)
        raise ValueError(f"{tile} is not in the hand")


def packed_counts(hand: Hand) -> int:
    """The hand's counts as one integer, a byte per kind (kind k at bit 8k): "holds none of
    these kinds" or "four of some kind" are then one AND. The parser gives it (it sums its
    pieces' packed counts); otherwise worked out on first use and kept."""
    got = hand._packed
    if got < 0:
        got = 0
        for k, n in enumerate(hand.counts):  # (not bytes(): a count may exceed 255 here)
            if n:
                got += n << 8 * k
        object.__setattr__(hand, "_packed", got)
    return got


def held_counts(hand: Hand) -> list[int] | None:
    """The copies of each of the 34 kinds among the concealed tiles and the last one, from
    `hand.counts` where it holds nothing else (no melds, nothing of those kinds set aside:
    flowers set aside are bonus kinds); None where the caller must count the tiles."""
    if hand.melds:
        return None
    for a in hand.aside:
        if a.natural:  # (tiles of the 34 kinds among them; flowers alone are not)
            return None
    return list(hand.counts[:34])


_ONE = tuple(1 << 8 * k for k in range(NUM_KINDS))  # one tile of kind k, packed


def concealed_packed(hand: Hand) -> int:
    """The concealed tiles (not the last one) as packed counts, a byte per kind (every kind:
    concealed bonus tiles included). The parser gives it (it sums the concealed runs' packed
    counts apart); otherwise counted on first use and kept."""
    got = hand._cpacked
    if got < 0:
        got = 0
        one = _ONE
        for t in hand.concealed:
            got += one[t.kind]
        object.__setattr__(hand, "_cpacked", got)
    return got
