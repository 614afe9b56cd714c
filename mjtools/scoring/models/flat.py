"""flat: a fixed stake plus the fans' values (house defaults, variants without a published table)."""

from __future__ import annotations

from typing import Any

from mjtools.rules.model import Ruleset
from mjtools.scoring.models import apply_cap_points, fan_line, model, num
from mjtools.scoring.result import NO_STEPS, Evaluation, HandValue, Steps, plain_value
from mjtools.tiles.context import WinContext
from mjtools.tiles.hand import Hand


def _plan(rs: Ruleset) -> tuple[Any, Any, bool, Any]:
    """What the model reads of the rule file, once per ruleset (kept on it, as the fan plan is):
    the scoring section, the stake, whether a cap is set, the unit."""
    got = rs.__dict__.get("_flat_plan")
    if got is None:
        sc = rs.section("scoring")
        got = rs.__dict__["_flat_plan"] = (sc, sc.get("stake", sc.get("base", 1)), sc.get("cap_points") is not None, sc.get("unit", ""))
    return got


@model("flat", reads_placement=False)
def flat(ev: Evaluation, rs: Ruleset, ctx: WinContext, hand: Hand, steps: Steps) -> HandValue:
    """points = scoring.stake (default scoring.base) + the sum of the fans (each payer)."""
    try:
        sc, base, capped, unit = rs._flat_plan  # type: ignore[attr-defined]  # (an attribute read: no call, no rs.__dict__ lookup)
    except AttributeError:
        sc, base, capped, unit = _plan(rs)
    # The fans stage's sum where it gave one (Evaluation.total: this model keeps ev.fans as
    # they came), else a plain loop (for a few fans it costs less than sum() and map()).
    total = ev.total
    if total is None:
        total = 0
        for a in ev.fans:
            total += a.amount
    if steps is not NO_STEPS:  # (recording: the test without a call of _NoSteps.__bool__)
        steps.append(fan_line(ev.fans))
        steps.msg("flat.sum", base=num(base), total=num(total), points=num(base + total))
    points = base + total
    limit = None
    if capped:  # (apply_cap_points only where a cap is set: it changes nothing otherwise)
        points, limit = apply_cap_points(points, sc, steps)
    # (num inlined where the amount is an int, as most are; plain_value: HandValue without its
    # class call)
    return plain_value(total if type(total) is int else num(total), points if type(points) is int else num(points), limit, unit)
