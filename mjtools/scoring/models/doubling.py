"""doubling: base x 2^fan, the fan count capped (封顶 / 爆和) unless a limit hand breaks the cap.

Parameters (`scoring:`): base, cap (most fan counted; null none), limit_value (the fan a limit
hand counts; default its own value), half_step_above (半辣上: above it, two fan double), cap_points (most per payer), self_draw_bonus (none, fan,
base = 自摸加底, double), base_category (fans of that category add to the base, 上海 花), unit. A limit hand (a fan with `limit`) takes no other fan: the
others are dropped from the record, as Cantonese special hands "take no other faan".
"""

from __future__ import annotations

from mjtools.rules.model import Ruleset
from mjtools.scoring.models import apply_cap_points, fan_line, model, num, self_draw_adds
from mjtools.scoring.result import Evaluation, HandValue, Steps
from mjtools.tiles.context import WinContext
from mjtools.tiles.hand import Hand


@model("doubling")
def doubling(ev: Evaluation, rs: Ruleset, ctx: WinContext, hand: Hand, steps: Steps) -> HandValue:
    sc = rs.section("scoring")
    base = sc.get("base", 1)
    cap = sc.get("cap")
    if steps:
        steps.append(fan_line(ev.fans))
    cat = sc.get("base_category")
    if cat:
        # Fans of this category add to the base instead of the doubling (上海 花: (1 + 花) x 2^番).
        adds = sum(a.total for a in ev.fans if a.category == cat)
        if adds:
            steps.msg("doubling.base_added", base=num(base), added=num(adds), total=num(base + adds))
        base += adds
        counted_fans = [a for a in ev.fans if a.category != cat]
    else:
        counted_fans = ev.fans
    limits = [a for a in ev.fans if a.limit and a.limit != "yakuman"]
    limit = None
    if limits:
        # The strongest limit hand stands alone (its value, or the file's limit value).
        ev.fans = limits
        lv = sc.get("limit_value")
        counted = max(a.value for a in limits) if lv is None else lv
        total = counted
        limit = limits[0].id
        steps.msg("doubling.limit", fan=limit, counted=num(counted))
    else:
        total = sum(a.total for a in counted_fans)
        counted = total
        if cap is not None and total > cap:
            counted = cap
            limit = "cap"
            steps.msg("doubling.capped", cap=num(cap))
    step = sc.get("half_step_above")
    if step is not None and counted > step:
        # 半辣上: above `step` fan, two fan double the points; an odd one more adds half.
        extra = counted - step
        points = base * 2**step * 2 ** (extra // 2) * (1.5 if extra % 2 else 1)
        if steps:
            steps.msg("doubling.half_step", base=num(base), step=num(step), pairs=extra // 2, half=" x 1.5" if extra % 2 else "", counted=num(counted), points=num(points))
    else:
        points = base * 2**counted
        if steps:
            steps.msg("doubling.points", base=num(base), counted=num(counted), points=num(points))
    points, adds = self_draw_adds(sc, ctx, base, points, steps)
    points, capped = apply_cap_points(points, sc, steps)
    return HandValue(num(total), num(points), limit=limit or capped, unit=sc.get("unit", "番"), adds=adds)
