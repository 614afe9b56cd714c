"""The simple score models: flat, doubling, additive."""

from __future__ import annotations

from mjtools.context import WinContext
from mjtools.hand import Hand
from mjtools.messages import Joined, Msg
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
    return HandValue(_num(total), _num(points), base=None, unit=sc.get("unit", ""), steps=[Msg("flat.sum", base=f"{base:g}", total=f"{total:g}", points=f"{points:g}")])


@model("doubling")
def doubling(ev: Evaluation, rs: Ruleset, ctx: WinContext, hand: Hand) -> HandValue:
    """base x 2^fan; the fan count is capped unless a limit hand breaks the cap."""
    sc = rs.section("scoring")
    base = sc.get("base", 1)
    total = sum(a.total for a in ev.fans)
    cap = sc.get("cap")
    limit = None
    steps = [Msg("doubling.fans", fans=Joined([f"{a.id} {a.total:g}" for a in ev.fans], " + ") if ev.fans else Msg("word.none"), total=f"{total:g}")]
    limits = [a for a in ev.fans if a.limit]
    counted = total
    if limits:
        lv = sc.get("limit_value", cap)
        counted = max(a.value for a in limits) if lv is None else lv
        limit = limits[0].id
        steps.append(Msg("doubling.limit", fan=limit, counted=f"{counted:g}"))
    elif cap is not None and total > cap:
        counted = cap
        limit = "cap"
        steps.append(Msg("doubling.capped", cap=f"{cap:g}"))
    points = base * 2**counted
    steps.append(Msg("doubling.points", base=f"{base:g}", counted=f"{counted:g}", points=f"{points:g}"))
    return HandValue(_num(total), _num(points), base=None, limit=limit, unit=sc.get("unit", "番"), steps=steps)


@model("additive")
def additive(ev: Evaluation, rs: Ruleset, ctx: WinContext, hand: Hand) -> HandValue:
    """底 + 台 x unit."""
    sc = rs.section("scoring")
    base = sc.get("base", 0)
    per = sc.get("per_unit", 1)
    total = sum(a.total for a in ev.fans)
    points = base + total * per
    return HandValue(_num(total), _num(points), base=None, unit=sc.get("unit", "台"), steps=[Msg("additive.sum", base=f"{base:g}", total=f"{total:g}", per=f"{per:g}", points=f"{points:g}")])
