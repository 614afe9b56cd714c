"""Kong money (刮风下雨): what each kong in a hand collects, from its melds and their sources.

settlement.kong_payments maps a kong kind to {from, amount}: `feeder` is the player named by
the meld's @SEAT (a kong on his discard), `each` every other player, `each_active` every other
player still in the hand (--active, 血战). Amounts are in units of scoring.base. 刮风 is an
exposed or added kong, 下雨 a concealed one.
"""

from __future__ import annotations

from typing import Any

from mjtools.errors import UsageError
from mjtools.rules.model import Ruleset
from mjtools.scoring.models import num
from mjtools.tiles.context import WinContext
from mjtools.tiles.hand import Hand, Meld

WORD = {"exposed_kong": "刮风, exposed", "added_kong": "刮风, added", "concealed_kong": "下雨, concealed"}


def kong_payers(m: Meld, seat: str, rs: Ruleset, ctx: WinContext, rule: Any) -> list[str]:
    """Who pays for the kong `m` of the player at `seat`."""
    how = rule["from"]
    if how == "feeder":
        if m.source is None:
            raise UsageError(f"kong money (settlement.kong_payments.{m.kind}) needs the feeder of the kong {m}: write it as {str(m)[:-1]}@SEAT)")
        if m.source == seat or m.source not in rs.seats:
            raise UsageError(f"the kong {m} of {seat} cannot be fed by {m.source}")
        return [m.source]
    others = [s for s in rs.seats if s != seat]
    if how == "each_active" and ctx.active:
        return [s for s in others if s in ctx.active]
    return others


def kong_entries(hand: Hand, seat: str, rs: Ruleset, ctx: WinContext) -> list[dict[str, Any]]:
    """One ledger entry per payer per kong of `hand` (the player at `seat`)."""
    kp = rs.section("settlement").get("kong_payments")
    if not kp:
        return []
    base = rs.section("scoring").get("base", 1)
    out: list[dict[str, Any]] = []
    for m in hand.melds:
        rule = kp.get(m.kind)
        if rule is None:
            continue
        amount = rule["amount"] * base
        for payer in kong_payers(m, seat, rs, ctx, rule):
            out.append({"from": payer, "to": seat, "amount": num(amount), "reason": f"kong {m} ({WORD[m.kind]})"})
    return out


def last_kong(hand: Hand) -> Meld | None:
    """The most recent meld if it is a kong (melds are in call order): the kong before 杠上炮."""
    if hand.melds and hand.melds[-1].is_kong:
        return hand.melds[-1]
    return None
