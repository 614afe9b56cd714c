"""The `winning` field of `wait`: is the completed hand a legal win by ron and by tsumo."""

from __future__ import annotations

from mjtools.rules.model import Ruleset
from mjtools.tiles.context import WinContext
from mjtools.tiles.hand import Hand
from mjtools.tiles.kinds import Tile


def winning_flags(hand: Hand, kind: int, rs: Ruleset, ctx: WinContext, ways: tuple[str, ...] = ("ron", "tsumo")) -> dict[str, bool]:
    """Per way of winning in `ways` ("ron", "tsumo"): whether the hand completed by `kind` wins."""
    legal_win = _LEGAL_WIN[0] if _LEGAL_WIN else _legal_win()
    done = hand.with_last(Tile(kind))
    return {way: legal_win(done, rs, ctx.replace(tsumo=way == "tsumo")) for way in ways}


_LEGAL_WIN: list = []


def _legal_win():
    # Imported once, not per call (an import statement runs the import machinery every time).
    from mjtools.scoring import legal_win

    _LEGAL_WIN.append(legal_win)
    return legal_win
