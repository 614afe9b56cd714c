"""起手胡: a dealt hand scored against the rule file's opening wins (`play.opening_wins`).

`score --situation opening_win` reads HAND as the tiles just dealt (13, the dealer 14; no
melds; the `+` tile is optional). The fans listed in play.opening_wins are evaluated on those
tiles alone (a reading of single tiles, form `opening`); the hand is valid when any applies,
and it is paid as a self-draw by every other player through the ordinary score model and
settlement (dealer additions and birds included). A simulator declares the same fans after
the deal and plays on.
"""

from __future__ import annotations

from mjtools.analysis.blocks import SINGLE, Block, Decomposition
from mjtools.analysis.wildcards import stand_ins, wild_kinds
from mjtools.errors import IllegalHandError, UsageError
from mjtools.patterns.ctx import Ctx
from mjtools.rules.model import Ruleset
from mjtools.rules.validate import check_hand
from mjtools.scoring.fans import evaluate_fans
from mjtools.scoring.models import get as get_model
from mjtools.scoring.result import Evaluation, HandValue
from mjtools.tiles.context import WinContext
from mjtools.tiles.hand import Hand

SITUATION = "opening_win"


def dealt_size(rs: Ruleset, seat: str) -> int:
    """Tiles a seat holds right after the deal (the dealer takes dealer_extra more)."""
    extra = rs.section("hand").get("dealer_extra", 0) if seat == "E" else 0
    return rs.hand_size + extra


def opening_readings(hand: Hand, rs: Ruleset, ctx: WinContext, text: str, lang: str = "en") -> tuple[Hand, WinContext, list[tuple[Evaluation, HandValue | None]]]:
    """(the checked hand, the context as a self-draw, its one reading with its value)."""
    openers = rs.section("play").get("opening_wins", ())
    if not openers:
        raise UsageError(f"--situation {SITUATION}: {rs.id} has no opening wins (play.opening_wins)")
    if ctx.discarder is not None:
        raise UsageError(f"--situation {SITUATION}: an opening win is paid by every other player; --from does not apply")
    wild = wild_kinds(rs, ctx)
    size = dealt_size(rs, ctx.seat)
    hand = check_hand(hand, rs, text, wild=wild, any_size=True)
    if hand.size != size:
        who = "the dealer" if ctx.seat == "E" else f"seat {ctx.seat}"
        raise IllegalHandError(f"--situation {SITUATION}: {who} is dealt {size} tiles; the hand has {hand.size}")
    if hand.melds:
        raise IllegalHandError(f"an opening win is shown from the dealt hand, before any call; {hand} has melds")
    ctx = ctx.replace(tsumo=True)
    stand = dict(stand_ins(rs, wild)) if wild else {}
    blocks = tuple(Block(SINGLE, (), free=1) if t.kind in wild else Block(SINGLE, (stand.get(t.kind, t.kind),)) for t in hand.hand_tiles())
    spec = rs.shape_spec(wild, stand_ins(rs, wild)) if wild else rs.base_spec
    c = Ctx(hand, Decomposition("opening", blocks), ctx, wild, (), (), dict(rs.option_values), {}, spec)
    ev = evaluate_fans(c, rs, lang, opening=True)
    value = None
    if ev.fans:
        value = get_model(rs.section("scoring")["model"])(ev, rs, ctx, hand)
    else:
        ev.reason = f"{SITUATION}: the dealt hand holds no opening win ({', '.join(openers)})"
    return hand, ctx, [(ev, value)]
