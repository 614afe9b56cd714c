"""The canonical formatter of the hand notation (`../shared/notation.md`): what `str()` of a
tile list, a meld, a group set aside or a hand prints, and the text a record carries. The
parser (notation.py) re-exports these names and asks `format_meld` / `format_aside` whether a
piece was written canonically."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mjtools.tiles.kinds import SUIT_OFFSET, suit_of

if TYPE_CHECKING:
    from mjtools.tiles.hand import Aside, Hand, Meld

_SUIT_CH = tuple(suit_of(k) for k in range(50))
_DIGIT = tuple(str(k - SUIT_OFFSET[suit_of(k)] + 1) for k in range(50))


def format_tiles(tiles) -> str:
    """Compact notation of tiles in the given order: consecutive tiles of a suit share its letter."""
    out: list[str] = []
    run = ""
    suit = ""
    for t in tiles:
        k = t.kind
        s = _SUIT_CH[k]
        d = "0" if t.red else _DIGIT[k]
        if run and (s != suit or (d == "0" and run[-1] == "1")):
            out.append(run + suit)
            run = ""
        suit = s
        run += d
    if run:
        out.append(run + suit)
    return "".join(out)


_MELD_TEXT: dict[int, tuple[Meld, str]] = {}  # id(meld) -> (meld, text): parsed melds are shared


def format_meld(m: Meld) -> str:
    got = _MELD_TEXT.get(id(m))
    if got is not None and got[0] is m:
        return got[1]
    text = _format_meld(m)
    if len(_MELD_TEXT) > 4096:
        _MELD_TEXT.clear()
    _MELD_TEXT[id(m)] = (m, text)  # holds the meld, so its id is not reused while kept
    return text


def _format_meld(m: Meld) -> str:
    if m.wild:
        parts, suit = [], ""
        body: list[str] = []
        for i, t in enumerate(m.tiles):
            if body and t.suit != suit:
                parts.append("".join(body) + suit)
                body = []
            suit = t.suit
            body.append(("x" if i in m.wild else "") + t.digit)
        parts.append("".join(body) + suit)
        inner = "".join(parts)
    else:
        inner = format_tiles(m.tiles)
    if m.physical:
        inner += "=" + format_tiles(m.physical)
    if m.concealed:
        return f"[{inner}]"
    if m.source:
        inner += "@" + m.source
    if m.tag:
        inner += "/" + m.tag
    return f"({inner})"


_ASIDE_TEXT: dict[int, tuple[Aside, str]] = {}  # id(group) -> (group, text), as _MELD_TEXT


def format_aside(a: Aside) -> str:
    # Parsed groups are shared values (flowers recur from hand to hand): each is written once.
    got = _ASIDE_TEXT.get(id(a))
    if got is not None and got[0] is a:
        return got[1]
    text = "{" + (f"{a.tag}=" if a.tag else "") + format_tiles(a.tiles) + "}"
    if len(_ASIDE_TEXT) > 4096:
        _ASIDE_TEXT.clear()
    _ASIDE_TEXT[id(a)] = (a, text)  # holds the group, so its id is not reused while kept
    return text


def format_hand(hand: Hand) -> str:
    if hand._text:
        return hand._text
    text = hand._ctext or format_tiles(hand.concealed)
    if hand.melds:
        text += "".join([format_meld(m) for m in hand.melds])
    if hand.aside:
        text += "".join([format_aside(a) for a in hand.aside])
    last = hand.last
    if last is not None:
        k = last.kind
        text += "+" + ("0" if last.red else _DIGIT[k]) + _SUIT_CH[k]
    return text
