"""From the engine's state to the scoring code: hands in notation, win contexts, table cases.

Every value comes from `mjtools.scoring.score` (one win) or a table case of
`mjtools.scoring.table.settle_table` (an exhaustive draw); nothing here computes points.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from mjtools.context import WinContext
from mjtools.errors import MjError
from mjtools.hand import Aside, Hand, Meld
from mjtools.sim.config import RED
from mjtools.tiles import Tile

if TYPE_CHECKING:
    from mjtools.sim.engine import HandEngine
    from mjtools.sim.state import MeldRec, Player

SUIT = "mps"
_TILES = [Tile(k) for k in range(50)]
_RED = {k: Tile(k, red=True) for k in (4, 13, 22)}


def tile(code: int) -> Tile:
    return _RED[code & 63] if code & RED else _TILES[code]


def _sorted(codes: Sequence[int]) -> tuple[Tile, ...]:
    return tuple(sorted((tile(c) for c in codes), key=Tile.sort_key))


def meld(m: MeldRec) -> Meld:
    tiles = _sorted(m.tiles)
    if m.kind == "concealed_kong":
        return Meld(tiles, "concealed_kong", None, True)
    if m.kind == "added_kong":
        return Meld(tiles, "added_kong", m.source, False, "added")
    return Meld(tiles, m.kind, m.source)


def hand_of(p: Player, last: int | None = None, extra: int | None = None) -> Hand:
    """The player's hand in notation terms; `last` (a code in the hand) becomes the + tile,
    `extra` (a code not in the hand: a claimed discard) is added as the + tile."""
    codes = list(p.hand)
    plus = None
    if last is not None:
        codes.remove(last)
        plus = tile(last)
    if extra is not None:
        plus = tile(extra)
    aside: list[Aside] = []
    if p.flowers:
        aside.append(Aside(_sorted(p.flowers)))
    if p.kita:
        aside.append(Aside(_sorted(p.kita), "kita"))
    return Hand(_sorted(codes), tuple(meld(m) for m in p.melds), tuple(aside), plus)


def win_context(e: HandEngine, p: Player, tsumo: bool, discarder: str | None, situations: Mapping[str, int], sticks: int) -> WinContext:
    indicators = {role: tuple(tile(c) for c in codes) for role, codes in e.indicators.items() if codes}
    ura = tuple(tile(c) for c in e.ura) if (p.riichi and e.ura) else ()
    active: tuple[str, ...] = ()
    if e.cfg.end != "first_win":
        paid_by_all = e.rs.section("settlement").get("later_wins_paid_by") == "all"
        active = tuple(q.seat for q in e.players if q is not p and (paid_by_all or not q.out))
    return WinContext(
        tsumo=tsumo,
        seat=p.seat,
        round="E",
        discarder=discarder,
        players=e.cfg.players,
        situations=MappingProxyType(dict(situations)),
        indicators=MappingProxyType(indicators),
        ura=ura,
        void=None if p.void is None else SUIT[p.void],
        sticks=sticks,
        birds=tuple(tile(c) for c in e.birds),
        active=active,
    )


def score_win(e: HandEngine, p: Player, hand: Hand, ctx: WinContext) -> dict[str, Any] | None:
    """The score record of a win, or None when the hand is not a legal win."""
    from mjtools.scoring import score

    try:
        rec = score(hand, e.rs, ctx)
    except MjError:
        return None
    return rec if rec.get("valid") else None


def notation(p: Player) -> str:
    return str(hand_of(p))


def settle_draw(e: HandEngine) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The exhaustive-draw table case: every seat's hand, and under 血战 the seats still in
    the hand as `active`. Returns (ledger, the table record)."""
    from mjtools.scoring.table import settle_table

    case: dict[str, Any] = {"table": {p.seat: notation(p) for p in e.players}, "event": "draw"}
    if any(p.out for p in e.players):
        case["active"] = "".join(p.seat for p in e.players if not p.out)
    res = settle_table(case, e.rs)
    return list(res.get("ledger", [])), res
