"""flat: a fixed stake plus the fans' values (house defaults, variants without a published table)."""

from __future__ import annotations

from mjtools.rules.model import Ruleset
from mjtools.scoring.models import apply_cap_points, fan_line, model, num
from mjtools.scoring.result import Evaluation, HandValue, Steps
from mjtools.tiles.context import WinContext
from mjtools.tiles.hand import Hand


@model("flat", reads_placement=False)
def flat(ev: Evaluation, rs: Ruleset, ctx: WinContext, hand: Hand, steps: Steps) -> HandValue:
    """points = scoring.stake (default scoring.base) + the sum of the fans (each payer)."""
    sc = rs.section("scoring")
    base = sc.get("stake", sc.get("base", 1))
    total = sum([a.value * a.count for a in ev.fans])  # (Awarded.total inlined: once per reading)
    if steps:
        steps.append(fan_line(ev.fans))
        steps.msg("flat.sum", base=num(base), total=num(total), points=num(base + total))
    points, limit = apply_cap_points(base + total, sc, steps)
    return HandValue(num(total), num(points), limit=limit, unit=sc.get("unit", ""))
