"""Evaluate a rule file's fans on one decomposition: patterns, values, exclusions, fallbacks."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mjtools.patterns import evaluate
from mjtools.patterns.ctx import Ctx
from mjtools.rules.model import Ruleset, pick
from mjtools.scoring.result import Awarded, Evaluation


def fan_value(fan: Mapping[str, Any], concealed: bool) -> float | None:
    v = fan["value"]
    if isinstance(v, Mapping):
        got = v.get("closed") if concealed else v.get("open", v.get("closed"))
        return got
    return v


def evaluate_fans(ctx: Ctx, rs: Ruleset, lang: str = "en", opening: bool = False) -> Evaluation:
    """The fans of one reading. Opening-win fans (play.opening_wins) count only when `opening`
    (a dealt hand scored with --situation opening_win), and then alone."""
    unit_default = rs.section("scoring").get("unit", "")
    found: list[Awarded] = []
    specs = rs.fans
    openers = set(rs.section("play").get("opening_wins", ()))
    for fid, fan in specs.items():
        if (fid in openers) != opening:
            continue
        n = evaluate(fan["pattern"], ctx)
        if not n:
            continue
        value = fan_value(fan, ctx.concealed_hand)
        if value is None:
            continue
        count = n if fan.get("per") == "instance" else 1
        if fan.get("max_count"):
            count = min(count, fan["max_count"])
        ctx.awarded[fid] = count
        found.append(
            Awarded(
                id=fid,
                value=value,
                count=count,
                unit=fan.get("unit", unit_default),
                limit=fan.get("limit", False),
                yaku=fan.get("yaku", True),
                category=fan.get("category"),
                name=pick(fan.get("names"), lang) or fid,
            )
        )
    # Exclusions: stronger fans (limits first, then by value, then file order) remove weaker ones.
    order = {f.id: i for i, f in enumerate(found)}
    ranked = sorted(found, key=lambda a: (not a.limit, -a.total, order[a.id]))
    removed: dict[str, str] = {}
    for a in ranked:
        if a.id in removed:
            continue
        for ex in specs[a.id].get("excludes", ()):
            if ex in order and ex not in removed:
                removed[ex] = a.id
    kept = [a for a in found if a.id not in removed]
    # A fallback fan (basic win, chicken hand) counts only when no other non-bonus fan does.
    if any(not specs[a.id].get("fallback") and a.category not in ("bonus",) for a in kept):
        for a in kept:
            if specs[a.id].get("fallback"):
                removed[a.id] = "another fan"
        kept = [a for a in kept if a.id not in removed]
    excluded = [(fid, by) for fid, by in removed.items()]
    return Evaluation(ctx.d, kept, excluded, pctx=ctx)
