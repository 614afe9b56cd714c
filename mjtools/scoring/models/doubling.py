"""doubling: base x 2^fan, the fan count capped (封顶 / 爆和) unless a limit hand breaks the cap.

Parameters (`scoring:`): base, cap (most fan counted; null none), limit_value (the fan a limit
hand counts; default its own value), cap_points (most per payer), self_draw_bonus (none, fan,
base = 自摸加底, double), unit. A limit hand (a fan with `limit`) takes no other fan: the
others are dropped from the record, as Cantonese special hands "take no other faan".
"""

from __future__ import annotations

from mjtools.context import WinContext
from mjtools.hand import Hand
from mjtools.messages import Msg
from mjtools.rules.model import Ruleset
from mjtools.scoring.models import apply_cap_points, fan_line, model, num, self_draw_adds
from mjtools.scoring.result import Evaluation, HandValue


@model("doubling")
def doubling(ev: Evaluation, rs: Ruleset, ctx: WinContext, hand: Hand) -> HandValue:
    sc = rs.section("scoring")
    base = sc.get("base", 1)
    cap = sc.get("cap")
    steps = [fan_line(ev.fans)]
    limits = [a for a in ev.fans if a.limit and a.limit != "yakuman"]
    limit = None
    if limits:
        # The strongest limit hand stands alone (its value, or the file's limit value).
        ev.fans[:] = limits
        lv = sc.get("limit_value")
        counted = max(a.value for a in limits) if lv is None else lv
        total = counted
        limit = limits[0].id
        steps.append(Msg("doubling.limit", fan=limit, counted=num(counted)))
    else:
        total = sum(a.total for a in ev.fans)
        counted = total
        if cap is not None and total > cap:
            counted = cap
            limit = "cap"
            steps.append(Msg("doubling.capped", cap=num(cap)))
    points = base * 2**counted
    steps.append(Msg("doubling.points", base=num(base), counted=num(counted), points=num(points)))
    points, adds = self_draw_adds(sc, ctx, base, points, steps)
    points, capped = apply_cap_points(points, sc, steps)
    return HandValue(num(total), num(points), limit=limit or capped, unit=sc.get("unit", "番"), steps=steps, adds=adds)
