"""doubling: base x 2^fan, the fan count capped (封顶 / 爆和) unless a limit hand breaks the cap.

Parameters (`scoring:`): base, cap (most fan counted; null none), limit_value (the fan a limit
hand counts; default its own value), half_step_above (半辣上: above it, two fan double), cap_points (most per payer), self_draw_bonus (none, fan,
base = 自摸加底, double), base_category (fans of that category add to the base, 上海 花), unit. A limit hand (a fan with `limit`) takes no other fan: the
others are dropped from the record, as Cantonese special hands "take no other faan".
"""

from __future__ import annotations

from typing import Any

from mjtools.rules.model import Ruleset
from mjtools.scoring.models import apply_cap_points, fan_line, model, num, self_draw_adds
from mjtools.scoring.result import Evaluation, HandValue, Steps
from mjtools.tiles.context import WinContext
from mjtools.tiles.hand import Hand


def _plan(rs: Ruleset) -> tuple[Any, Any, Any, Any, Any, Any, bool, bool, str]:
    """What the model reads of the rule file, once per ruleset (kept on it, as flat's is): the
    scoring section, base, cap, base_category, limit_value, half_step_above, whether a
    self-draw adds anything, whether a per-payer cap is set, the unit."""
    got = rs.__dict__.get("_doubling_plan")
    if got is None:
        sc = rs.section("scoring")
        bonus = sc.get("self_draw_bonus", "none") not in ("none", "fan", None)
        got = (sc, sc.get("base", 1), sc.get("cap"), sc.get("base_category"), sc.get("limit_value"), sc.get("half_step_above"), bonus, sc.get("cap_points") is not None, sc.get("unit", "番"))
        rs.__dict__["_doubling_plan"] = got
    return got


@model("doubling")
def doubling(ev: Evaluation, rs: Ruleset, ctx: WinContext, hand: Hand, steps: Steps) -> HandValue:
    sc, base, cap, cat, lv, step, bonus, capped, unit = _plan(rs)
    if steps:
        steps.append(fan_line(ev.fans))
    if cat:
        # Fans of this category add to the base instead of the doubling (上海 花: (1 + 花) x 2^番).
        added = sum(a.total for a in ev.fans if a.category == cat)
        if added:
            steps.msg("doubling.base_added", base=num(base), added=num(added), total=num(base + added))
        base += added
        counted_fans = [a for a in ev.fans if a.category != cat]
    else:
        counted_fans = ev.fans
    limits = [a for a in ev.fans if a.limit and a.limit != "yakuman"]
    limit = None
    if limits:
        # The strongest limit hand stands alone (its value, or the file's limit value).
        ev.fans = limits
        counted = max(a.value for a in limits) if lv is None else lv
        total = counted
        limit = limits[0].id
        steps.msg("doubling.limit", fan=limit, counted=num(counted))
    else:
        total = sum([a.value * a.count for a in counted_fans])  # (Awarded.total inlined)
        counted = total
        if cap is not None and total > cap:
            counted = cap
            limit = "cap"
            steps.msg("doubling.capped", cap=num(cap))
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
    adds: list[tuple[str, float]] = []
    if bonus and ctx.tsumo:  # (self_draw_adds and the per-payer cap only where they can change something)
        points, adds = self_draw_adds(sc, ctx, base, points, steps)
    if capped:
        points, over = apply_cap_points(points, sc, steps)
        limit = limit or over
    return HandValue(total if type(total) is int else num(total), points if type(points) is int else num(points), limit=limit, unit=unit, adds=adds)
