"""What `score` reads from a ruleset, read once per ruleset.

Scoring a hand asks the same questions of the rule file every time: which model, does it
have a pre-score hook, can a kong be robbed as a self-draw, are there wildcards, dora
indicators, tiles kept apart, dead hands, shape requirements, a points minimum, discarder
surcharges. A `ScorePlan` answers them once, so the common path (a riichi or Chinese hand
without any of those) is a few attribute reads; it lives on the ruleset (as the fan plan
does), and `Ruleset.with_options` makes a new ruleset, so options never go stale.
"""

from __future__ import annotations

from typing import Any

from mjtools.rules.model import Ruleset
from mjtools.scoring.fans import Plan, plan_for
from mjtools.scoring.models import PLACEMENT_FREE, Model, PreScore, get_pre_score
from mjtools.scoring.models import get as get_model
from mjtools.scoring.settlement import plan as settlement_plan
from mjtools.scoring.validity import checks_for


class ScorePlan:
    __slots__ = ("fans", "model", "pre", "robbing_as_tsumo", "dead", "aside_rules", "wildcards", "dora", "turned_copy", "surcharges", "sizes", "shape_checks", "points_check", "no_payments", "placement")

    def __init__(self, rs: Ruleset) -> None:
        name = rs.section("scoring")["model"]
        self.fans: Plan = plan_for(rs)
        self.model: Model = get_model(name)
        self.pre: PreScore | None = get_pre_score(name)
        win = rs.section("win")
        self.robbing_as_tsumo = bool(win.get("robbing_kong_as_self_draw"))
        self.dead = bool(win.get("dead_hand", False))
        self.aside_rules = bool(rs.section("tiles").get("aside_in_hand"))
        wc = rs.section("wildcards")
        self.wildcards = bool(wc)
        self.dora = "dora" in rs.section("indicators")
        self.turned_copy = bool((wc.get("indicator") or {}).get("turned_copy_excluded"))
        self.surcharges = settlement_plan(rs).surcharges
        self.sizes = (rs.hand_size + 1,)
        checks = checks_for(rs)
        self.shape_checks = checks.shape_any  # shape_reason can only object with these (or a --void)
        self.points_check = any(x is not None for x in checks.minimum_points[:2])
        # Readings that differ only in where the winning tile sits are worth the same when
        # neither the model nor the shape checks read it and the fans agree on what they read
        # of it (Plan.placement): then only the first of them needs evaluating, unless every
        # reading is shown (--explain). None: every reading is evaluated; else (the pair
        # matters, a pung completed by a discard matters).
        aspects = self.fans.placement
        free = name in PLACEMENT_FREE and not self.shape_checks and not self.wildcards and "any" not in aspects
        self.placement = ("pair" in aspects, "pung" in aspects) if free else None
        # The payments of a hand that is no win: every other seat pays 0 (a fresh dict per record).
        self.no_payments: dict[str, tuple[str, ...]] = {w: tuple(s for s in rs.seats if s != w) for w in rs.seats}

    def zero_payments(self, seat: str) -> dict[str, Any]:
        return dict.fromkeys(self.no_payments.get(seat, ()), 0)


def score_plan(rs: Ruleset) -> ScorePlan:
    """The ruleset's ScorePlan, built on first use and kept on the ruleset."""
    got = rs.__dict__.get("_score_plan")
    if got is None:
        got = rs.__dict__["_score_plan"] = ScorePlan(rs)
    return got
