"""The hand notation (`../shared/notation.md`): a strict parser and the canonical formatter.

    HAND  := GROUP* ["+" TILE]
    GROUP := TILES | "(" MELD ")" | "[" TILES "]" | "{" [TAG "="] TILES "}"
    MELD  := TILES ["=" TILES] ["@" SEAT] ["/" KIND]

Shell-safe spellings: `.555z@W` is `(555z@W)`, `:1111m` is `[1111m]`; such a meld runs to the
next `.`, `:`, `+`, `{` or space. Errors are `NotationError`s carrying the position.
"""

from __future__ import annotations

import re
from operator import attrgetter

from mjtools.errors import CopiesError, NotationError
from mjtools.tiles.formatting import format_aside, format_hand, format_meld, format_tiles
from mjtools.tiles.hand import ADDED_KONG, CHOW, CONCEALED_KONG, EXPOSED_KONG, PUNG, Aside, Hand, Meld
from mjtools.tiles.kinds import NUM_KINDS, SUIT_OFFSET, SUIT_SIZE, SUITS, Tile, suit_of

# The formatter lives beside the parser (formatting.py); its names are re-exported here, where
# callers have always found them.
__all__ = ["canonical", "format_aside", "format_hand", "format_meld", "format_tiles", "parse_hand", "parse_tile", "parse_tiles"]

SEATS = "ESWN"
_KIND = attrgetter("kind")
# The longest hand worth writing (16 tiles in four kongs with sources, wildcards and physical
# tiles, flowers and spaces) is well under 200 characters; anything longer is refused before
# it is read, with its length, so that no text can make a parse or its error slow.
MAX_HAND_CHARS = 256
MAX_TILES_CHARS = 1024  # a bare list of tiles (--visible and friends): the whole wall fits
_OPEN = {"(": ")", "[": "]", "{": "}"}
_SHELL_END = ".:+{ \t"
# A run of digits closed by its suit letter: most of any hand is a few of these. Tiles are
# immutable, so one shared instance per (digit, suit) serves every hand.
_RUN = re.compile(r"([0-9]+)([mpszfj])")
_SHARED: dict[str, dict[str, Tile]] = {
    suit: {str(n): Tile(SUIT_OFFSET[suit] + n - 1) for n in range(1, SUIT_SIZE[suit] + 1)} for suit in SUITS
}
for _suit in "mps":
    _SHARED[_suit]["0"] = Tile(SUIT_OFFSET[_suit] + 4, red=True)
_RUNS: dict[str, tuple[Tile, ...]] = {}  # run text -> its tiles (runs repeat from hand to hand)
_MELDS: dict[str, Meld] = {}  # bracketed meld text -> the Meld it reads as
_ASIDES: dict[str, Aside] = {}  # '{...}' text -> the Aside it reads as


_RUN_ORDER = {d: i for i, d in enumerate("1234056789")}  # a red five sorts just before the plain one
_CANON_RUNS: dict[str, bool] = {}  # run text -> written in canonical order


def _canonical(segment: str) -> bool:
    """Whether concealed tiles were written as format_tiles writes them: runs of digits in
    canonical order, each suit once, the suits in order (anything else: formatted anew)."""
    prev = -1
    pos = 0
    match = _RUN.match
    while pos < len(segment):
        m = match(segment, pos)
        if m is None:
            return False
        run = m.group()
        ok = _CANON_RUNS.get(run)
        if ok is None:
            digits = m.group(1)  # ([0-9]+: every digit has an order)
            ok = "".join(sorted(digits, key=_RUN_ORDER.__getitem__)) == digits
            _keep(_CANON_RUNS, run, ok)
        offset = SUIT_OFFSET[m.group(2)]
        if not ok or offset <= prev:
            return False
        prev = offset
        pos = m.end()
    return prev >= 0


def _run_tiles(digits: str, suit: str) -> tuple[Tile, ...] | None:
    """The tiles of a well-formed run ('123' 'm'), or None to let the scanner report the error."""
    if "10" in digits:
        return None
    try:
        got = tuple(map(_SHARED[suit].__getitem__, digits))
    except KeyError:  # a digit the suit does not have
        return None
    _keep(_RUNS, digits + suit, got)
    return got


def _keep(cache: dict, key: str, value: object) -> None:
    """Remember what a piece of text reads as; the caches are emptied when they grow large."""
    if len(cache) > 4096:
        cache.clear()
    cache[key] = value


class _Scanner:
    def __init__(self, text: str):
        self.text = text
        self.i = 0

    def error(self, message: str, pos: int | None = None, length: int = 1) -> NotationError:
        return NotationError(message, self.text, self.i if pos is None else pos, length)

    def peek(self) -> str:
        return self.text[self.i] if self.i < len(self.text) else ""

    def tiles(self, stop: str, allow_wild: bool = False) -> tuple[list[Tile], list[int]]:
        """Runs of digits each closed by a suit letter, up to a character in `stop` (or end).

        Returns the tiles and the indices of those marked `x` (wildcard positions)."""
        text, out, wild = self.text, [], []
        # Fast path: well-formed runs of plain digits. Anything else (a wildcard mark, a
        # space, an error to report with its position) is left to the loop below.
        match = _RUN.match
        while (m := match(text, self.i)) is not None:
            got = _RUNS.get(m.group())
            if got is None and (got := _run_tiles(m.group(1), m.group(2))) is None:
                break
            out.extend(got)
            self.i = m.end()
        digits: list[tuple[str, int, bool]] = []
        while self.i < len(text) and text[self.i] not in stop:
            c = text[self.i]
            if c.isdigit():
                digits.append((c, self.i, False))
                self.i += 1
            elif c == "x" and allow_wild:
                if self.i + 1 >= len(text) or not text[self.i + 1].isdigit():
                    raise self.error("'x' must be followed by a digit")
                digits.append((text[self.i + 1], self.i, True))
                self.i += 2
            elif c in SUIT_OFFSET:
                if not digits:
                    raise self.error(f"suit letter {c!r} has no digits before it")
                for n, (d, pos, is_wild) in enumerate(digits):
                    out.append(_tile(self, d, c, pos, digits[n - 1][0] if n else ""))
                    if is_wild:
                        wild.append(len(out) - 1)
                digits = []
                self.i += 1
            elif c.isspace():
                if digits:
                    raise self.error("digits without a suit letter", digits[0][1], self.i - digits[0][1])
                self.i += 1
            else:
                raise self.error(f"unexpected character {c!r}")
        if digits:
            raise self.error("digits without a suit letter", digits[0][1], self.i - digits[0][1])
        return out, wild


def _tile(sc: _Scanner, d: str, suit: str, pos: int, prev: str) -> Tile:
    n = int(d)
    if n == 0:
        if suit not in "mps":
            raise sc.error(f"0 (a red five) exists only in m, p and s, not {suit!r}", pos)
        if prev == "1":
            raise sc.error("'10' is not a tile number (write a red five apart: 1m0m)", pos - 1, 2)
        return _SHARED[suit]["0"]
    if n > SUIT_SIZE[suit]:
        raise sc.error(f"{n}{suit} is not a tile ({suit} runs 1-{SUIT_SIZE[suit]})", pos)
    return _SHARED[suit][str(n)]  # str(n): a digit of another script (１) reads as its value


def _check_length(text: str, limit: int, what: str) -> None:
    if len(text) > limit:
        raise NotationError(f"{what} is {len(text)} characters long (at most {limit})")


def parse_tiles(text: str) -> tuple[Tile, ...]:
    """Parse a bare run of tiles ('123m44z'); used for --visible, --indicator and friends."""
    _check_length(text, MAX_TILES_CHARS, "a tile list")
    sc = _Scanner(text)
    tiles, _ = sc.tiles("")
    return tuple(tiles)


def parse_tile(text: str) -> Tile:
    tiles = parse_tiles(text.strip())
    if len(tiles) != 1:
        raise NotationError("expected exactly one tile", text, 0, max(1, len(text)))
    return tiles[0]


def _meld(sc: _Scanner, start: int, close: str, concealed: bool) -> Meld:
    stop = close + "=@/" if close else "=@/" + _SHELL_END
    tiles, wild = sc.tiles(stop, allow_wild=not concealed)
    physical: list[Tile] = []
    source = tag = None
    if sc.peek() == "=":
        sc.i += 1
        physical, _ = sc.tiles(close + "@/" if close else "@/" + _SHELL_END)
        if len(physical) != len(wild):
            raise sc.error(f"{len(physical)} physical tiles given for {len(wild)} wildcard positions", start)
    if sc.peek() == "@":
        sc.i += 1
        seat = sc.peek()
        if seat not in SEATS or not seat:
            raise sc.error("a meld source is one of E, S, W, N")
        source = seat
        sc.i += 1
    if sc.peek() == "/":
        sc.i += 1
        j = sc.i
        while sc.i < len(sc.text) and (sc.text[sc.i].isalnum() or sc.text[sc.i] == "_"):
            sc.i += 1
        tag = sc.text[j : sc.i]
        if not tag:
            raise sc.error("a meld kind follows '/' (e.g. /added)")
    if close:
        if sc.peek() != close:
            if sc.i >= len(sc.text):
                raise sc.error(f"unclosed {'[' if concealed else '('}", start)
            raise sc.error(f"expected {close!r}")
        sc.i += 1
    elif sc.i < len(sc.text) and sc.text[sc.i] not in _SHELL_END:
        raise sc.error(f"unexpected character {sc.peek()!r}")
    length = sc.i - start
    if len(tiles) < 3:
        raise sc.error("a meld has at least 3 tiles", start, length)
    kinds = [t.kind for t in tiles]
    same = len(set(kinds)) == 1
    if concealed:
        if len(tiles) != 4 or not same:
            raise sc.error("a concealed kong is four of a kind", start, length)
        kind = CONCEALED_KONG
    elif tag == "added":
        if len(tiles) != 4 or not same:
            raise sc.error("an added kong is four of a kind", start, length)
        kind = ADDED_KONG
    elif tag:
        kind = tag
    elif same and len(tiles) == 3:
        kind = PUNG
    elif same and len(tiles) == 4:
        kind = EXPOSED_KONG
    elif (
        len(tiles) == 3
        and kinds[0] < 27
        and sorted(kinds) == list(range(min(kinds), min(kinds) + 3))
        and suit_of(min(kinds)) == suit_of(max(kinds))
    ):
        kind = CHOW
    else:
        kind = "irregular"
    if wild:
        # Keep wildcard positions attached to their tiles while sorting.
        order = sorted(range(len(tiles)), key=lambda i: tiles[i].sort_key())
        new_wild = tuple(sorted(order.index(w) for w in wild))
        shown = tuple(tiles[i] for i in order)
    else:
        new_wild = ()
        shown = tuple(sorted(tiles, key=Tile.sort_key))
    return Meld(
        tiles=shown,
        kind=kind,
        source=source,
        concealed=concealed,
        tag=tag if kind not in (ADDED_KONG,) else "added",
        wild=new_wild,
        physical=tuple(physical),
    )


# The shape most hands are written in (every machine-written one): one stretch of concealed
# runs, bracketed melds, at most one group set aside ({15f}: flowers on most Chinese Official
# hands), then +TILE at the end, with no space, loose flower or wildcard mark. Such a hand is
# read from its pieces (runs, melds and groups read before, the + tile) without the scanner;
# anything else, or a piece not read before, goes through the scanner, which also reports
# every error.
_PLAIN_HAND = re.compile(r"((?:[0-9]+[mpsz])+)((?:\([^()\[\]{}]*\)|\[[^()\[\]{}]*\])*)(\{[^()\[\]{}]*\})?\+([0-9][mpsz])")
_BRACKETED = re.compile(r"\([^()\[\]{}]*\)|\[[^()\[\]{}]*\]")


# The plain path counts tiles without a loop over them: a piece's counts are one integer with
# a byte per kind (kind k at bit 8k), so a hand's counts are the sum of its pieces' integers,
# unpacked by to_bytes. A kind cannot reach 256 copies: a hand is at most MAX_HAND_CHARS (256)
# characters, a suit letter and "+X" included.
_RUN_TEXT = re.compile(r"[0-9]+[mpsz]")
# run text -> (its tiles, its suit's offset, its digits in canonical order, packed counts, reds)
_PLAIN_RUNS: dict[str, tuple[tuple[Tile, ...], int, bool, int, int]] = {}
# bracketed meld text -> (the Meld, packed counts of its physical tiles, reds, written as
# format_meld writes it)
_PLAIN_MELDS: dict[str, tuple[Meld, int, int, bool]] = {}
# '{...}' text -> (the Aside, packed counts, reds, written as format_aside writes it)
_PLAIN_ASIDES: dict[str, tuple[Aside, int, int, bool]] = {}
# "+X" tile text -> (the tile, packed count, red)
_PLAIN_LAST: dict[str, tuple[Tile, int, int]] = {d + s: (t, 1 << 8 * t.kind, t.red) for s, row in _SHARED.items() if s in "mpsz" for d, t in row.items()}
_UP_TO_FOUR = bytes(range(5))
_PLAIN_KEEP = 32768  # distinct runs met (a batch of 20,000 random hands holds about 9,000)


# suit -> digit -> the packed count of one tile of that digit
_DIGIT_PACKED = {s: {d: 1 << 8 * t.kind for d, t in row.items()} for s, row in _SHARED.items()}


def _packed(tiles) -> tuple[int, int]:
    packed = reds = 0
    for t in tiles:
        packed += 1 << 8 * t.kind
        reds += t.red
    return packed, reds


def _plain_run(text: str) -> tuple[tuple[Tile, ...], int, bool, int, int] | None:
    digits, suit = text[:-1], text[-1]
    if "10" in digits:
        return None
    try:
        tiles = tuple(map(_SHARED[suit].__getitem__, digits))
    except KeyError:  # a digit the suit does not have
        return None
    reds = digits.count("0")
    ordered = "".join(sorted(digits, key=_RUN_ORDER.__getitem__) if reds else sorted(digits)) == digits
    got = (tiles, SUIT_OFFSET[suit], ordered, sum(map(_DIGIT_PACKED[suit].__getitem__, digits)), reds)
    if len(_PLAIN_RUNS) > _PLAIN_KEEP:
        _PLAIN_RUNS.clear()
    _PLAIN_RUNS[text] = got
    return got


def _plain_meld(key: str) -> tuple[Meld, int, int, bool] | None:
    meld = _MELDS.get(key)
    if meld is None:
        # A meld not met before is read on its own (what the scanner would make of it in the
        # hand: it reads a bracketed meld up to its closing bracket); one it refuses sends the
        # whole hand to the scanner, which reports the error where it is in the hand.
        sc = _Scanner(key)
        sc.i = 1
        try:
            meld = _meld(sc, 0, key[-1], key[0] == "[")
        except NotationError:
            return None
        if sc.i != len(key):  # pragma: no cover - the pattern ends a meld at its bracket
            return None
        _keep(_MELDS, key, meld)
    got = (meld, *_packed(meld.physical_tiles() if meld.wild else meld.tiles), format_meld(meld) == key)
    _keep(_PLAIN_MELDS, key, got)
    return got


def _plain_aside(key: str) -> tuple[Aside, int, int, bool] | None:
    """A group set aside that the scanner has read before: (the Aside, packed counts of its
    tiles, reds, written as format_aside writes it: the hand's text is kept only then)."""
    group = _ASIDES.get(key)
    if group is None:
        return None
    got = (group, *_packed(group.tiles), format_aside(group) == key)
    _keep(_PLAIN_ASIDES, key, got)
    return got


def _plain_hand(text: str) -> Hand | None:
    """The hand `text` reads as when it has the plain shape above (None: not this shape, or a
    piece the scanner has not read before)."""
    got = _PLAIN_HAND.fullmatch(text)
    if got is None:
        return None
    segment, bracketed, aside_text, last_text = got.groups()
    aside: tuple[Aside, ...] = ()
    canon = canon_melds = True
    packed = reds = 0
    if aside_text:  # flowers set aside count as tiles held
        kept = _PLAIN_ASIDES.get(aside_text) or _plain_aside(aside_text)
        if kept is None:
            return None
        aside = (kept[0],)
        packed, reds, canon_melds = kept[1], kept[2], kept[3]
    concealed: list[Tile] = []
    # The runs cover the segment end to end (the pattern above); whether it is written in
    # canonical order (what _canonical says) is worked out in the same pass. The concealed
    # tiles' packed counts apart (Hand._cpacked), then added to the hand's.
    prev = -1
    cpacked = 0
    for run in _RUN_TEXT.findall(segment):
        piece = _PLAIN_RUNS.get(run) or _plain_run(run)
        if piece is None:
            return None
        tiles, offset, ordered, p, r = piece
        concealed += tiles
        cpacked += p
        reds += r
        if not ordered or offset <= prev:
            canon = False
        prev = offset
    packed += cpacked
    melds: list[Meld] = []
    if bracketed:
        for key in _BRACKETED.findall(bracketed):
            entry = _PLAIN_MELDS.get(key) or _plain_meld(key)
            if entry is None:
                return None
            melds.append(entry[0])
            packed += entry[1]
            reds += entry[2]
            if not entry[3]:
                canon_melds = False
    entry = _PLAIN_LAST.get(last_text)
    if entry is None:
        return None
    last = entry[0]
    packed += entry[1]
    packed_bytes = packed.to_bytes(NUM_KINDS, "little")
    counts = tuple(packed_bytes)
    if canon:
        # Written as format_hand writes it, melds too: the text is the hand's notation.
        hand = Hand(tuple(concealed), tuple(melds), aside, last, counts, reds + entry[2], segment, text if canon_melds else "", packed, cpacked)
    else:
        hand = Hand(tuple(sorted(concealed, key=_KIND if "0" not in text else Tile.sort_key)), tuple(melds), aside, last, counts, reds + entry[2], _packed=packed, _cpacked=cpacked)
    if packed_bytes.translate(None, _UP_TO_FOUR):  # a kind of more than four copies
        _check_copies(hand, text)
    return hand


def parse_hand(text: str | list[str] | tuple[str, ...]) -> Hand:
    """Parse a hand in notation. Several command-line words are joined with spaces."""
    if not isinstance(text, str):
        text = " ".join(text)
    _check_length(text, MAX_HAND_CHARS, "a hand")
    plain = _plain_hand(text)
    if plain is not None:
        return plain
    sc = _Scanner(text)
    concealed: list[Tile] = []
    segments = 0  # stretches of concealed tiles, and the last one
    segment = ""
    melds: list[Meld] = []
    aside: list[Aside] = []
    last: Tile | None = None
    n = len(text)
    while sc.i < n:
        c = text[sc.i]
        start = sc.i
        if c.isspace():
            sc.i += 1
        elif c == "(" or c == "[":
            # A meld is a value: the same bracketed text always reads as the same Meld, and
            # hands share a small vocabulary of them, so each text is parsed once.
            close = ")" if c == "(" else "]"
            key = text[start : text.find(close, start) + 1]  # "" when unclosed: parsed (and refused) below
            got = _MELDS.get(key)
            if got is None:
                sc.i += 1
                got = _meld(sc, start, close, c == "[")
                if key and sc.i == start + len(key):
                    _keep(_MELDS, key, got)
            else:
                sc.i = start + len(key)
            melds.append(got)
        elif c == ".":
            sc.i += 1
            melds.append(_meld(sc, start, "", False))
        elif c == ":":
            sc.i += 1
            melds.append(_meld(sc, start, "", True))
        elif c == "{" and (got_aside := _ASIDES.get(key := text[start : text.find("}", start) + 1])) is not None:
            aside.append(got_aside)  # a group read before (flowers recur: {15f})
            sc.i = start + len(key)
        elif c == "{":
            sc.i += 1
            j = sc.i
            tag = None
            while sc.i < n and (text[sc.i].isalpha() or text[sc.i] == "_"):  # a tag (stood, kita) ends at '='; tiles start with a digit
                sc.i += 1
            if sc.peek() == "=" and sc.i > j:
                tag = text[j : sc.i]
                sc.i += 1
            else:
                sc.i = j
            tiles, _ = sc.tiles("}")
            if sc.peek() != "}":
                raise sc.error("unclosed '{'", start)
            sc.i += 1
            if not tiles:
                raise sc.error("empty '{}' group", start, sc.i - start)
            got_aside = Aside(tuple(sorted(tiles, key=Tile.sort_key)), tag)
            _keep(_ASIDES, text[start : sc.i], got_aside)
            aside.append(got_aside)
        elif c == "+":
            sc.i += 1
            while sc.i < n and text[sc.i].isspace():
                sc.i += 1
            j = sc.i
            tiles, _ = sc.tiles("+([{.:)]}")
            if len(tiles) != 1:
                raise sc.error("'+' is followed by exactly one tile", j if j < n else start, max(1, sc.i - j))
            rest = text[sc.i :].strip()
            if rest:
                raise sc.error("nothing may follow the '+' tile", sc.i + (len(text[sc.i :]) - len(text[sc.i :].lstrip())))
            last = tiles[0]
        elif c in ")]}":
            raise sc.error(f"unmatched {c!r}")
        elif c.isdigit() or c in SUITS or c.isalpha():
            tiles, _ = sc.tiles("([{.:+)]}" + " \t")
            concealed.extend(tiles)
            segments += 1
            segment = text[start : sc.i]
        else:
            raise sc.error(f"unexpected character {c!r}")
    flowers = [t for t in concealed if t.kind >= 34 and t.suit == "f"] if "f" in text else None
    if flowers:
        concealed = [t for t in concealed if not (t.kind >= 34 and t.suit == "f")]
        aside.insert(0, Aside(tuple(sorted(flowers, key=Tile.sort_key)), None))
    if segments == 1 and not flowers and _canonical(segment):
        # Written canonically (most machine-written hands): already in order, and the text as
        # written is the canonical one, so the record's hand text is not formatted again.
        hand = Hand(tuple(concealed), tuple(melds), tuple(aside), last, _ctext=segment)
    else:
        # Without a red five (written 0) tiles of a kind are alike: the kind alone orders them.
        hand = Hand(tuple(sorted(concealed, key=_KIND if "0" not in text else Tile.sort_key)), tuple(melds), tuple(aside), last)
    _check_copies(hand, text)
    return hand


def _check_copies(hand: Hand, text: str) -> None:
    counts = hand.counts
    if max(counts) <= 4:
        return
    for kind, c in enumerate(counts):
        if c > 4:
            tile = Tile(kind)
            raise CopiesError(f"{c} copies of {tile} (at most 4 exist)", text, _find_kind(text, kind))


def _find_kind(text: str, kind: int) -> int | None:
    """Position of the last occurrence of a kind's digit in `text` (for the caret): the last
    such digit of a run (digits and `x`) closed by the kind's suit letter. One pass."""
    suit = suit_of(kind)
    digit = str(kind - SUIT_OFFSET[suit] + 1)
    red = "0" if digit == "5" and suit in "mps" else digit
    found = None
    in_run = None  # the last position of the digit in the current run
    for i, ch in enumerate(text):
        if ch == digit or ch == red:
            in_run = i
        elif ch.isdigit() or ch == "x":
            continue
        else:
            if ch == suit and in_run is not None:
                found = in_run
            in_run = None
    return found



def canonical(text: str) -> str:
    return format_hand(parse_hand(text))
