"""category: small and big wins with fixed values (Changsha 小胡 / 大胡).

A fan with `category: big` is a big pattern worth its value in big units; big units add up
(two big patterns = 2 units). Per payer: big_each x units (big_tsumo_each on a self-draw, if
given) when any big fan applies. Otherwise the hand is a small win: small_ron from the
discarder or small_tsumo from each, times its small units — with `small_units: add` the values
of its small fans add up (two opening wins are two small wins), with `one` it is one unit.
A hand with no small fan of positive value is one unit. Bonus fans only name the hand. The
dealer's +1 is settlement.dealer.add. `scoring.tiers` names a big win by its units (大和 /
超大和 / 最大和); the record's `tier` is the id of the highest tier reached.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mjtools.messages import Msg
from mjtools.rules.model import Ruleset, pick
from mjtools.scoring.models import apply_cap_points, model, num
from mjtools.scoring.result import Evaluation, HandValue, Steps
from mjtools.tiles.context import WinContext
from mjtools.tiles.hand import Hand


def tier_of(tiers: Mapping[str, Mapping[str, Any]], units: float) -> str | None:
    """The id of the highest tier whose min_units the big units reach (None below all)."""
    best: tuple[float, str] | None = None
    for tid, spec in tiers.items():
        need = spec["min_units"]
        if units >= need and (best is None or need > best[0]):
            best = (need, tid)
    return None if best is None else best[1]


@model("category")
def category(ev: Evaluation, rs: Ruleset, ctx: WinContext, hand: Hand, steps: Steps) -> HandValue:
    sc = rs.section("scoring")
    big = [a for a in ev.fans if a.category == "big"]
    units = sum(a.total for a in big)
    extra: dict[str, Any] = {}
    if big:
        each = sc.get("big_tsumo_each", sc.get("big_each", 6)) if ctx.tsumo else sc.get("big_each", 6)
        points = each * units
        if steps:
            steps.msg("category.big", fans=" + ".join(f"{a.id} {num(a.total)}" for a in big), units=num(units), each=num(each), points=num(points))
        total = units
        tiers = sc.get("tiers", {})
        if tiers:
            tid = tier_of(tiers, units)
            extra["tier"] = tid
            if tid is not None:
                names = tiers[tid].get("names")
                if steps:
                    steps.msg("category.tier", units=num(units), tier=tid, name=pick(names, "en") or tid, name_zh=pick(names, "zh") or tid)
    else:
        small = [a for a in ev.fans if a.category == "small" and a.total > 0]
        total = sum(a.total for a in small) or 1
        if sc.get("small_units", "add") == "one":
            total = 1
        one = sc.get("small_tsumo", 2) if ctx.tsumo else sc.get("small_ron", 1)
        points = one * total
        if steps:
            how = Msg("category.small_tsumo" if ctx.tsumo else "settle.discard")
            if total == 1:
                steps.msg("category.small", how=how, points=num(points))
            else:
                steps.msg("category.small_units", how=how, fans=" + ".join(f"{a.id} {num(a.total)}" for a in small), units=num(total), one=num(one), points=num(points))
        if sc.get("tiers"):
            extra["tier"] = None
    points, limit = apply_cap_points(points, sc, steps)
    return HandValue(num(total), num(points), limit=limit, unit=sc.get("unit", "分"), extra=extra)
