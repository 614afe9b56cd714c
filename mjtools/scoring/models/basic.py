"""The simple score models: flat, doubling, additive."""

from __future__ import annotations

from mjtools.context import WinContext
from mjtools.hand import Hand
from mjtools.rules.model import Ruleset
from mjtools.scoring.models import model
from mjtools.scoring.result import Evaluation, HandValue


def _num(x: float) -> float | int:
    return int(x) if float(x).is_integer() else x


@model("flat")
def flat(ev: Evaluation, rs: Ruleset, ctx: WinContext, hand: Hand) -> HandValue:
    """A fixed stake per win plus the fans' values added (house defaults)."""
    sc = rs.section("scoring")
    base = sc.get("base", 1)
    total = sum(a.total for a in ev.fans)
    points = base + total
    return HandValue(_num(total), _num(points), base=None, unit=sc.get("unit", ""), steps=[f"{base:g} + fans {total:g} = {points:g}"])


@model("doubling")
def doubling(ev: Evaluation, rs: Ruleset, ctx: WinContext, hand: Hand) -> HandValue:
    """base x 2^fan; the fan count is capped unless a limit hand breaks the cap."""
    sc = rs.section("scoring")
    base = sc.get("base", 1)
    total = sum(a.total for a in ev.fans)
    cap = sc.get("cap")
    limit = None
    steps = [f"fans: {' + '.join(f'{a.id} {a.total:g}' for a in ev.fans) or 'none'} = {total:g}"]
    limits = [a for a in ev.fans if a.limit]
    counted = total
    if limits:
        lv = sc.get("limit_value", cap)
        counted = max(a.value for a in limits) if lv is None else lv
        limit = limits[0].id
        steps.append(f"limit hand {limit}: counts {counted:g}")
    elif cap is not None and total > cap:
        counted = cap
        limit = "cap"
        steps.append(f"capped at {cap:g}")
    points = base * 2**counted
    steps.append(f"{base:g} x 2^{counted:g} = {points:g}")
    return HandValue(_num(total), _num(points), base=None, limit=limit, unit=sc.get("unit", "番"), steps=steps)


@model("additive")
def additive(ev: Evaluation, rs: Ruleset, ctx: WinContext, hand: Hand) -> HandValue:
    """底 + 台 x unit."""
    sc = rs.section("scoring")
    base = sc.get("base", 0)
    per = sc.get("per_unit", 1)
    total = sum(a.total for a in ev.fans)
    points = base + total * per
    return HandValue(_num(total), _num(points), base=None, unit=sc.get("unit", "台"), steps=[f"{base:g} + {total:g} x {per:g} = {points:g}"])
