"""additive: 底 + 台 x per_unit (Taiwan 16-tile).

Parameters: base (底), per_unit (one 台), cap_points, self_draw_bonus, unit. The dealer's 台
and 连庄 / 拉庄 are not fans: the settlement adds them, as ledger entries, only to payments
between the dealer and another player.
"""

from __future__ import annotations

from mjtools.rules.model import Ruleset
from mjtools.scoring.models import apply_cap_points, fan_line, model, num, self_draw_adds
from mjtools.scoring.result import Evaluation, HandValue, Steps
from mjtools.tiles.context import WinContext
from mjtools.tiles.hand import Hand


@model("additive")
def additive(ev: Evaluation, rs: Ruleset, ctx: WinContext, hand: Hand, steps: Steps) -> HandValue:
    sc = rs.section("scoring")
    base = sc.get("base", 0)
    per = sc.get("per_unit", 1)
    total = sum(a.total for a in ev.fans)
    if steps:
        steps.append(fan_line(ev.fans))
        steps.msg("additive.sum", base=num(base), total=num(total), per=num(per), points=num(base + total * per))
    points, adds = self_draw_adds(sc, ctx, base, base + total * per, steps)
    points, limit = apply_cap_points(points, sc, steps)
    return HandValue(num(total), num(points), limit=limit, unit=sc.get("unit", "台"), adds=adds)
