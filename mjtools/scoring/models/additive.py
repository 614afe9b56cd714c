"""additive: 底 + 台 x per_unit (Taiwan 16-tile).

Parameters: base (底), per_unit (one 台), cap_points, self_draw_bonus, unit. The dealer's 台
and 连庄 / 拉庄 are not fans: the settlement adds them, as ledger entries, only to payments
between the dealer and another player.
"""

from __future__ import annotations

from typing import Any

from mjtools.rules.model import Ruleset
from mjtools.scoring.models import apply_cap_points, fan_line, model, num, self_draw_adds
from mjtools.scoring.result import Evaluation, HandValue, Steps
from mjtools.tiles.context import WinContext
from mjtools.tiles.hand import Hand


def _plan(rs: Ruleset) -> tuple[Any, Any, Any, bool, bool, str]:
    """What the model reads of the rule file, once per ruleset (kept on it, as flat's is): the
    scoring section, 底, one 台, whether a self-draw adds anything, whether a cap is set, the unit."""
    got = rs.__dict__.get("_additive_plan")
    if got is None:
        sc = rs.section("scoring")
        bonus = sc.get("self_draw_bonus", "none") not in ("none", "fan", None)
        got = rs.__dict__["_additive_plan"] = (sc, sc.get("base", 0), sc.get("per_unit", 1), bonus, sc.get("cap_points") is not None, sc.get("unit", "台"))
    return got


@model("additive")
def additive(ev: Evaluation, rs: Ruleset, ctx: WinContext, hand: Hand, steps: Steps) -> HandValue:
    sc, base, per, bonus, capped, unit = _plan(rs)
    total = sum([a.value * a.count for a in ev.fans])  # (Awarded.total inlined)
    points = base + total * per
    if steps:
        steps.append(fan_line(ev.fans))
        steps.msg("additive.sum", base=num(base), total=num(total), per=num(per), points=num(points))
    adds: list[tuple[str, float]] = []
    if bonus and ctx.tsumo:  # (self_draw_adds and the cap only where they can change something)
        points, adds = self_draw_adds(sc, ctx, base, points, steps)
    limit = None
    if capped:
        points, limit = apply_cap_points(points, sc, steps)
    return HandValue(total if type(total) is int else num(total), points if type(points) is int else num(points), limit=limit, unit=unit, adds=adds)
