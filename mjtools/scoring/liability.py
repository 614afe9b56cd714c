"""包牌 liability: a player who fed a dangerous hand pays for the others (settlement.liability).

A rule applies when the winner scores its `fan` (or matches its `pattern`) and had shown at
least `shown` qualifying exposed sets. The exposed melds are read in call order (the order of
the notation), so "the set that made it four" is the (shown + 1)th qualifying meld, and its
`@SEAT` names who fed it. Cantonese examples (seed 003):

    清一色 with three shown sets: whoever deals in pays the whole hand (deal_in: full);
    the player who fed the fourth shown set pays half (feed: half).
    大三元 with two dragon pungs shown: the discarder of the third dragon pays all if it wins
    (deal_in: full, deal_in_completes), half if it is ponged (feed: half).

Amounts: T = the whole hand (what every payer would pay). full: the liable player pays T.
half: he pays T/2 and every usual payer pays half his usual amount. A full and a half
liability on different players split T in two halves.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mjtools.errors import UsageError
from mjtools.messages import Msg
from mjtools.patterns import evaluate
from mjtools.rules.model import Ruleset
from mjtools.scoring.models import num
from mjtools.scoring.result import NO_STEPS, Evaluation, Steps
from mjtools.tiles.context import WinContext
from mjtools.tiles.hand import CHOW, Hand, Meld

_TILES = {
    "any": lambda k: True,
    "dragons": lambda k: 31 <= k <= 33,
    "winds": lambda k: 27 <= k <= 30,
    "honors": lambda k: k >= 27,
    "numbers": lambda k: k < 27,
}


def _shape(kinds: tuple[int, ...], is_chow: bool) -> str:
    return "chow" if is_chow else "kong" if len(kinds) == 4 else "pung"


def _qualifies(shape: str, first: int, sets: Mapping[str, Any]) -> bool:
    kinds = sets.get("kinds")
    if kinds and shape not in kinds:
        return False
    return _TILES[sets.get("tiles", "any")](first)


def _meld_qualifies(m: Meld, sets: Mapping[str, Any]) -> bool:
    return _qualifies(_shape(m.kinds, m.kind == CHOW), min(m.kinds), sets)


def _applies(rule: Mapping[str, Any], ev: Evaluation) -> bool:
    if "fan" in rule and rule["fan"] not in {a.id for a in ev.fans}:
        return False
    if "pattern" in rule and not (ev.pctx is not None and evaluate(rule["pattern"], ev.pctx)):
        return False
    return "fan" in rule or "pattern" in rule


def liable_seats(rid: str, rule: Mapping[str, Any], ctx: WinContext, hand: Hand, ev: Evaluation, steps: Steps = NO_STEPS) -> dict[str, str]:
    """seat -> full|half under one rule; the explain steps go to `steps`."""
    sets = rule.get("sets", {})
    shown = [m for m in hand.melds if m.is_open and _meld_qualifies(m, sets)]
    need = rule["shown"]
    if len(shown) < need:
        return {}
    same = rule.get("same_source", "none")
    if same != "none":
        # 三吃承包: `need` qualifying melds all called from one player make him liable.
        by_seat: dict[str, int] = {}
        for m in shown:
            if m.source is None:
                raise UsageError(f"包牌 {rid} (settlement.liability.{rid}) needs to know who fed the meld {m}: write it as {str(m)[:-1]}@SEAT)")
            by_seat[m.source] = by_seat.get(m.source, 0) + 1
        seat = next((s for s, n in by_seat.items() if n >= need and s != ctx.seat), None)
        if seat is None:
            return {}
        if steps:
            steps.msg("liability.same_source", seat=seat, meld=", ".join(str(m) for m in shown if m.source == seat), need=need, part=Msg(f"liability.{same}"))
        return {seat: same}
    out: dict[str, str] = {}
    mark = len(steps)  # the steps of a rule that makes nobody liable are dropped
    if steps:
        steps.msg("liability.shown", rule=rid, n=len(shown), sets=", ".join(str(m) for m in shown))
    deal_in = rule.get("deal_in", "none")
    # A robbed kong scored as a self-draw (抢杠当自摸) was still dealt in by the kong's player.
    if (not ctx.tsumo or ctx.has("robbing_kong")) and deal_in != "none":
        ok = True
        if rule.get("deal_in_completes"):
            d = ev.decomposition
            b = None if d.win_block is None else d.blocks[d.win_block]
            ok = b is not None and b.meld is None and b.is_set and _qualifies(b.shape, b.first, sets)
        if ok:
            out[ctx.from_seat] = deal_in
            if steps:
                steps.msg("liability.dealt_in", seat=ctx.from_seat, part=Msg(f"liability.{deal_in}"))
    feed = rule.get("feed", "none")
    if feed != "none" and len(shown) > need:
        m = shown[need]
        if m.source is None:
            raise UsageError(f"包牌 {rid} (settlement.liability.{rid}) needs to know who fed the meld {m}: write it as {str(m)[:-1]}@SEAT)")
        if m.source == ctx.seat:
            raise UsageError(f"包牌 {rid}: the meld {m} cannot come from the winner himself")
        if out.get(m.source) != "full":
            out[m.source] = feed
        if steps:
            steps.msg("liability.fed", seat=m.source, meld=str(m), need=need, part=Msg(f"liability.{feed}"))
    if not out:
        del steps[mark:]
    return out


def apply_liability(normal: dict[str, float], rs: Ruleset, ctx: WinContext, hand: Hand, ev: Evaluation, steps: Steps = NO_STEPS) -> tuple[dict[str, float], str | None]:
    """The hand payments after the first liability rule that applies (else unchanged); the
    explain steps go to `steps`."""
    rules = rs.section("settlement").get("liability", {})
    for rid, rule in rules.items():
        if not rule.get("enabled", True) or not _applies(rule, ev):
            continue
        liable = liable_seats(rid, rule, ctx, hand, ev, steps)
        if not liable:
            continue
        total = sum(normal.values())
        out = {s: 0.0 for s in normal}
        full = [s for s, k in liable.items() if k == "full"]
        half = [s for s, k in liable.items() if k == "half"]
        if full and half:
            for s in full + half:
                out[s] = out.get(s, 0) + total / 2
            if steps:
                steps.msg("liability.split", total=num(total), shares=", ".join(f"{s} {num(total / 2)}" for s in full + half))
        elif full:
            out[full[0]] = total
            steps.msg("liability.pays_all", seat=full[0], total=num(total))
        else:
            for s, a in normal.items():
                out[s] = a / 2
            out[half[0]] = out.get(half[0], 0) + total / 2
            steps.msg("liability.pays_half", seat=half[0], half=num(total / 2))
        return out, rid
    return normal, None
