"""multiplicative: fan values are factors that stack (Tianjin 混儿吊 x2 ..., Wuhan openings x2).

points = stake x product(value ^ count). The stake is scoring.base, or category_base[category]
when a fan of that category applies (Wuhan: big wins start from a higher stake; big first).
cap_points is the per-payer ceiling (金顶). fan_total is the product of the factors.
streak_base raises the stake by that much for each dealer repeat (--streak N, 河北 底数增加).
"""

from __future__ import annotations

from mjtools.messages import Joined, Msg
from mjtools.rules.model import Ruleset
from mjtools.scoring.models import apply_cap_points, model, num
from mjtools.scoring.result import Evaluation, HandValue, Steps
from mjtools.tiles.context import WinContext
from mjtools.tiles.hand import Hand


@model("multiplicative")
def multiplicative(ev: Evaluation, rs: Ruleset, ctx: WinContext, hand: Hand, steps: Steps) -> HandValue:
    sc = rs.section("scoring")
    stake = sc.get("base", 1)
    cats = sc.get("category_base", {})
    for cat in ("big", "small"):
        if cat in cats and any(a.category == cat for a in ev.fans):
            stake = cats[cat]
            break
    stake += ctx.streak * sc.get("streak_base", 0)
    factor = 1.0
    for a in ev.fans:
        factor *= a.value**a.count
    if steps:
        parts = Joined([f"{a.id} {num(a.value)}" + (f"^{a.count}" if a.count != 1 else "") for a in ev.fans], " x ") if ev.fans else Msg("multiplicative.no_factor")
        steps.msg("multiplicative.stake", stake=num(stake), parts=parts, points=num(stake * factor))
    points, limit = apply_cap_points(stake * factor, sc, steps)
    return HandValue(num(factor), num(points), limit=limit, unit=sc.get("unit", "x"))
