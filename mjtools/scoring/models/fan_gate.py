"""fan_gate: fans only decide whether the hand may win (Hainan: 番 is a prerequisite).

The gate itself is `win.minimum` (fan, fan_ron): a hand below it is not a legal win. The
value is a fixed stake per payer: the first `scoring.stakes` entry whose `when` pattern holds
(e.g. 推倒胡 1, 明摸 4, 明打 8); dealer doubling is settlement.dealer.multiplier.
"""

from __future__ import annotations

from mjtools.patterns import evaluate
from mjtools.rules.model import Ruleset, pick
from mjtools.scoring.models import apply_cap_points, fan_line, model, num
from mjtools.scoring.result import Evaluation, HandValue, Steps
from mjtools.tiles.context import WinContext
from mjtools.tiles.hand import Hand


@model("fan_gate")
def fan_gate(ev: Evaluation, rs: Ruleset, ctx: WinContext, hand: Hand, steps: Steps) -> HandValue:
    sc = rs.section("scoring")
    total = sum(a.total for a in ev.fans)
    if steps:
        steps.msg("fan_gate.fans", line=fan_line(ev.fans))
    for i, stake in enumerate(sc.get("stakes", ())):
        when = stake.get("when")
        if when is None or (ev.pctx is not None and evaluate(when, ev.pctx)):
            name = pick(stake.get("names")) or f"stake {i + 1}"
            points = stake["amount"]
            steps.msg("fan_gate.stake", name=name, points=num(points))
            break
    else:
        points = sc.get("base", 1)
        steps.msg("fan_gate.base", points=num(points))
    points, limit = apply_cap_points(points, sc, steps)
    return HandValue(num(total), num(points), limit=limit, unit=sc.get("unit", "番"))
