"""From the engine's state to the scoring code: hands in notation, win contexts, table cases.

Every value comes from `mjtools.scoring.score` (one win) or a table case of
`mjtools.scoring.table.settle_table` (an exhaustive draw); nothing here computes points.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from mjtools.sim.config import RED
from mjtools.sim.state import code_str
from mjtools.tiles.context import WinContext
from mjtools.tiles.hand import Aside, Hand, Meld
from mjtools.tiles.kinds import Tile

if TYPE_CHECKING:
    from mjtools.sim.engine import HandEngine
    from mjtools.sim.state import MeldRec, Player

SUIT = "mps"
_TILES = [Tile(k) for k in range(50)]
_RED = {k: Tile(k, red=True) for k in (4, 13, 22)}


def tile(code: int) -> Tile:
    return _RED[code & 63] if code & RED else _TILES[code]


# per code: its tile, and its place in `Tile.sort_key` order (a red five just before the plain
# five), so that a hand is sorted and mapped in C
_TILE_OF = [tile(c) if c < 50 or (c & RED and c & 63 in _RED) else None for c in range(2 * RED)]
_RANK = [2 * (c & 63) + (0 if c & RED else 1) for c in range(2 * RED)]


def _sorted(codes: Sequence[int]) -> tuple[Tile, ...]:
    return tuple(map(_TILE_OF.__getitem__, sorted(codes, key=_RANK.__getitem__)))


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


def win_context(e: HandEngine, p: Player, tsumo: bool, discarder: str | None, situations: Mapping[str, int], sticks: int, honba: int | None = None) -> WinContext:
    indicators = {role: tuple(tile(c) for c in codes) for role, codes in e.indicators.items() if codes}
    ura = tuple(tile(c) for c in e.ura) if (p.riichi and e.ura) else ()
    active: tuple[str, ...] = ()
    if e.cfg.end != "first_win":  # 血战: who is still in (later_wins_paid_by decides who pays)
        active = tuple(q.seat for q in e.players if q is p or not q.out)
    return WinContext(
        tsumo=tsumo,
        seat=p.seat,
        round=e.round_wind,
        discarder=discarder,
        players=e.cfg.players,
        situations=MappingProxyType(dict(situations)),
        indicators=MappingProxyType(indicators),
        ura=ura,
        void=None if p.void is None else SUIT[p.void],
        sticks=sticks,
        honba=e.honba if honba is None else honba,
        birds=tuple(tile(c) for c in e.wall.birds(e.cfg.birds)) if e.cfg.birds else (),
        active=active,
    )


def score_win(e: HandEngine, p: Player, hand: Hand, ctx: WinContext) -> dict[str, Any] | None:
    """The score record of a win, or None when the hand is not a legal win."""
    from mjtools.scoring import score

    rec = score(hand, e.rs, ctx, chickens=not e.cfg.table_chickens)
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
    res = settle_table(case, e.rs, known_waits=None if e.wild else {p.seat: draw_waits(e, p) for p in e.players if not p.out})
    return list(res.get("ledger", [])), res


def draw_waits(e: HandEngine, p: Player) -> list[str]:
    """p's waits as the draw's table case finds them (`exhaustive._waits`: no void suit, the
    case names none), from the engine's analysis; for hands without wildcards only (the case
    names no indicator either)."""
    from mjtools.tiles.kinds import kind_str

    if p.void is None:  # the engine's own waits (remembered)
        return [kind_str(k) for k in e.waits(p)]
    an = e.analyzer(None)
    m = an.melds(p.meld_kinds(), sum(1 for x in p.melds if x.kind == "concealed_kong"))
    counts, wild = an.natural(p.counts)
    if an.shanten(counts, wild, m) != 0:
        return []
    return [kind_str(k) for k in an.waits(counts, wild, m, p.held())]


def table_extras(e: HandEngine, winners: Mapping[str, str], discarder: Player | None, kong_discard: bool) -> list[dict[str, Any]]:
    """The table-level entries of a win that a winner's score record leaves out, worked out by
    `mjtools.scoring.table`: 呼叫转移 on a 杠上炮, and every hand's chickens. `winners`: seat ->
    the winning hand in notation, nearest the discarder first."""
    from mjtools.scoring import table

    out: list[dict[str, Any]] = []
    ctx = context_options(e, tsumo=discarder is None)
    first = next(iter(winners))
    if discarder is not None and kong_discard and e.cfg.kong_transfer and discarder.last_kong is not None:
        # the transfer reads the discarder's most recent meld: list the kong just made last
        # (an added kong sits where its pung was called)
        melds = [m for m in discarder.melds if m is not discarder.last_kong] + [discarder.last_kong]
        h = hand_of(discarder)
        text = str(Hand(h.concealed, tuple(meld(m) for m in melds), h.aside, None))
        out += table._transfer(e.rs, {discarder.seat: text}, discarder.seat, first, ctx)
    if e.cfg.table_chickens:
        hands = {p.seat: winners.get(p.seat) or notation(p) for p in e.players}
        out += table._chickens(e.rs, hands, list(winners), ctx)
    return out


def context_options(e: HandEngine, tsumo: bool) -> dict[str, Any]:
    """Table-case options shared by everyone at the table (indicators, who is still in)."""
    opts: dict[str, Any] = {"tsumo": tsumo}
    ind = [f"{role}={code_str(c)}" for role, codes in e.indicators.items() for c in codes]
    if ind:
        opts["indicator"] = ind
    if any(p.out for p in e.players):
        opts["active"] = tuple(p.seat for p in e.players if not p.out)
    return opts
