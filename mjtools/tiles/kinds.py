"""Tile kinds and the Tile value type.

A *kind* is an int: 0-8 characters (m), 9-17 dots (p), 18-26 bamboo (s), 27-33 honors (z:
East South West North White Green Red), 34-41 flowers (f), 42-49 joker tiles (j). Engines work
on kinds and count arrays; `Tile` adds the red-five flag for display and dora counting.
"""

from __future__ import annotations

from collections.abc import Iterable

from mjtools.tiles.frozen import Frozen

SUITS = "mpszfj"
SUIT_OFFSET = {"m": 0, "p": 9, "s": 18, "z": 27, "f": 34, "j": 42}
SUIT_SIZE = {"m": 9, "p": 9, "s": 9, "z": 7, "f": 8, "j": 8}
NUM_KINDS = 50
NUM_PLAYABLE = 34  # m, p, s, z: the kinds that form sets

EAST, SOUTH, WEST, NORTH, WHITE, GREEN, RED = range(27, 34)
WINDS = (EAST, SOUTH, WEST, NORTH)
DRAGONS = (WHITE, GREEN, RED)
HONORS = tuple(range(27, 34))
TERMINALS = (0, 8, 9, 17, 18, 26)
TERMINALS_AND_HONORS = TERMINALS + HONORS
SEATS = "ESWN"
SEAT_WIND = {"E": EAST, "S": SOUTH, "W": WEST, "N": NORTH}

_HONOR_EN = ("East", "South", "West", "North", "White", "Green", "Red")
_HONOR_ZH = ("东", "南", "西", "北", "白", "发", "中")
_SUIT_ZH = {"m": "万", "p": "筒", "s": "条"}
_FLOWER_ZH = ("春", "夏", "秋", "冬", "梅", "兰", "竹", "菊")
_NUM_ZH = "一二三四五六七八九"

# Unicode Mahjong Tiles block: U+1F000..U+1F02B.
_GLYPH_HONOR = ("\U0001F000", "\U0001F001", "\U0001F002", "\U0001F003", "\U0001F006", "\U0001F005", "\U0001F004")


def suit_of(kind: int) -> str:
    if kind < 9:
        return "m"
    if kind < 18:
        return "p"
    if kind < 27:
        return "s"
    if kind < 34:
        return "z"
    if kind < 42:
        return "f"
    return "j"


def number_of(kind: int) -> int:
    """1-based number within the suit (1-9 for m/p/s, 1-7 for z, 1-8 for f/j)."""
    return kind - SUIT_OFFSET[suit_of(kind)] + 1


def kind_of(number: int, suit: str) -> int:
    return SUIT_OFFSET[suit] + number - 1


def is_suited(kind: int) -> bool:
    return kind < 27


def is_honor(kind: int) -> bool:
    return 27 <= kind < 34


def is_terminal(kind: int) -> bool:
    return kind < 27 and kind % 9 in (0, 8)


def is_terminal_or_honor(kind: int) -> bool:
    return 27 <= kind < 34 or (kind < 27 and kind % 9 in (0, 8))


def is_bonus_kind(kind: int) -> bool:
    return kind >= 34


def kind_str(kind: int) -> str:
    """'5m', '1z', '3f' — the notation of a kind (never a red five)."""
    return f"{number_of(kind)}{suit_of(kind)}"


def kinds_str(kinds: Iterable[int]) -> str:
    """Compact notation of several kinds in canonical order: [0, 1, 2, 27] -> '123m1z'."""
    out: list[str] = []
    digits: list[str] = []
    last = ""
    for k in sorted(kinds):
        s = suit_of(k)
        if s != last and digits:
            out.append("".join(digits) + last)
            digits = []
        last = s
        digits.append(str(number_of(k)))
    if digits:
        out.append("".join(digits) + last)
    return "".join(out)


def parse_kind(text: str) -> int:
    """'5m' -> 4. Accepts a red five ('0m') as its kind. Raises ValueError on anything else."""
    if len(text) != 2 or not text[0].isdigit() or text[1] not in SUIT_OFFSET:
        raise ValueError(f"not a tile: {text!r}")
    n, s = int(text[0]), text[1]
    if n == 0 and s in "mps":
        n = 5
    if not 1 <= n <= SUIT_SIZE[s]:
        raise ValueError(f"not a tile: {text!r}")
    return kind_of(n, s)


def kind_name(kind: int, lang: str = "en") -> str:
    s, n = suit_of(kind), number_of(kind)
    if lang == "zh":
        if s in _SUIT_ZH:
            return _NUM_ZH[n - 1] + _SUIT_ZH[s]
        if s == "z":
            return _HONOR_ZH[n - 1]
        if s == "f":
            return _FLOWER_ZH[n - 1]
        return f"鬼{n}"
    if s == "z":
        return _HONOR_EN[n - 1]
    return kind_str(kind)


def kind_glyph(kind: int, red: bool = False) -> str:
    s, n = suit_of(kind), number_of(kind)
    if s == "z":
        return _GLYPH_HONOR[n - 1]
    if s == "m":
        return chr(0x1F007 + n - 1)
    if s == "s":
        return chr(0x1F010 + n - 1)
    if s == "p":
        return chr(0x1F019 + n - 1)
    if s == "f":
        return chr(0x1F026 + n - 1) if n <= 4 else chr(0x1F022 + n - 5)
    return "\U0001F02A"  # joker


class Tile(Frozen):
    """One physical tile: a kind, and whether it is a red five. `str` is the notation.

    A frozen value type (equality, hashing, pickling as a frozen dataclass would give them),
    written out by hand: compiling dataclass-generated methods cost start-up time."""

    __slots__ = ("kind", "red")
    __match_args__ = ("kind", "red")
    kind: int
    red: bool

    def __init__(self, kind: int, red: bool = False) -> None:
        if not 0 <= kind < NUM_KINDS:
            raise ValueError(f"tile kind out of range: {kind}")
        if red and (kind >= 27 or kind % 9 != 4):
            raise ValueError("only a five of m, p or s can be red")
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "red", red)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not Tile:
            return NotImplemented
        return self.kind == other.kind and self.red == other.red  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash((self.kind, self.red))

    def __reduce__(self) -> tuple[type[Tile], tuple[int, bool]]:
        return (Tile, (self.kind, self.red))

    @classmethod
    def parse(cls, text: str) -> Tile:
        kind = parse_kind(text)
        return cls(kind, red=text[0] == "0")

    @property
    def suit(self) -> str:
        return suit_of(self.kind)

    @property
    def number(self) -> int:
        return number_of(self.kind)

    @property
    def digit(self) -> str:
        return "0" if self.red else str(self.number)

    def sort_key(self) -> tuple[int, int]:
        # Canonical order puts a red five just before the plain five.
        return (self.kind, 0 if self.red else 1)

    def __str__(self) -> str:
        return f"{self.digit}{self.suit}"

    def __repr__(self) -> str:
        return f"Tile.parse({str(self)!r})"
