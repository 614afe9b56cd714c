"""flat: a fixed stake plus the fans' values (house defaults, variants without a published table)."""

from __future__ import annotations

from mjtools.context import WinContext
from mjtools.hand import Hand
from mjtools.messages import Msg
from mjtools.rules.model import Ruleset
from mjtools.scoring.models import apply_cap_points, fan_line, model, num
from mjtools.scoring.result import Evaluation, HandValue


@model("flat")
def flat(ev: Evaluation, rs: Ruleset, ctx: WinContext, hand: Hand) -> HandValue:
    """points = scoring.stake (default scoring.base) + the sum of the fans (each payer)."""
    sc = rs.section("scoring")
    base = sc.get("stake", sc.get("base", 1))
    total = sum(a.total for a in ev.fans)
    steps = [fan_line(ev.fans)]
    points, limit = apply_cap_points(base + total, sc, steps)
    steps.insert(1, Msg("flat.sum", base=num(base), total=num(total), points=num(base + total)))
    return HandValue(num(total), num(points), limit=limit, unit=sc.get("unit", ""), steps=steps)
