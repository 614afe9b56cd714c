"""category: small and big wins with fixed values (Changsha 小胡 / 大胡).

A fan with `category: big` is a big pattern worth its value in big units; big units add up
(two big patterns = 2 units). Per payer: big_each x units (big_tsumo_each on a self-draw, if
given) when any big fan applies; else small_ron from the discarder or small_tsumo from each.
Other fans (category small, bonus) only name the hand. The dealer's +1 is settlement.dealer.add.
"""

from __future__ import annotations

from mjtools.context import WinContext
from mjtools.hand import Hand
from mjtools.messages import Msg
from mjtools.rules.model import Ruleset
from mjtools.scoring.models import apply_cap_points, model, num
from mjtools.scoring.result import Evaluation, HandValue


@model("category")
def category(ev: Evaluation, rs: Ruleset, ctx: WinContext, hand: Hand) -> HandValue:
    sc = rs.section("scoring")
    big = [a for a in ev.fans if a.category == "big"]
    units = sum(a.total for a in big)
    if big:
        each = sc.get("big_tsumo_each", sc.get("big_each", 6)) if ctx.tsumo else sc.get("big_each", 6)
        points = each * units
        steps = [Msg("category.big", fans=" + ".join(f"{a.id} {num(a.total)}" for a in big), units=num(units), each=num(each), points=num(points))]
        total = units
    else:
        points = sc.get("small_tsumo", 2) if ctx.tsumo else sc.get("small_ron", 1)
        steps = [Msg("category.small", how=Msg("category.small_tsumo" if ctx.tsumo else "settle.discard"), points=num(points))]
        total = 0
    points, limit = apply_cap_points(points, sc, steps)
    return HandValue(num(total), num(points), limit=limit, unit=sc.get("unit", "分"), steps=steps)
