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
    # Riichi's pao counts a concealed kong among the sets already made (sets.concealed_kongs);
    # it can never be the set someone fed.
    closed_too = sets.get("concealed_kongs", False)
    shown = [m for m in hand.melds if (m.is_open or (closed_too and m.is_kong)) and _meld_qualifies(m, sets)]
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
    if not ctx.tsumo and "feed_on_ron" in rule:
        feed = rule["feed_on_ron"]  # riichi pao: the feeder pays all of a self-draw, half of a ron
    kinds = rule.get("feed_kinds")
    if feed != "none" and len(shown) > need and not shown[need].concealed and (not kinds or shown[need].kind in kinds):
        m = shown[need]
        if m.source is None:
            if rule.get("unknown_source", "error") == "ignore":
                if not out:
                    del steps[mark:]
                return out
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


def first_liable(rs: Ruleset, ctx: WinContext, hand: Hand, ev: Evaluation, steps: Steps) -> tuple[str, Mapping[str, Any], dict[str, str]] | None:
    """(rule id, rule, seat -> full|half) of the first liability rule that makes someone liable."""
    melds = len(hand.melds)
    for rid, rule in rs.section("settlement").get("liability", {}).items():
        # (fewer melds than the rule's shown sets: nobody liable, without evaluating its pattern)
        if not rule.get("enabled", True) or melds < rule.get("shown", 0) or not _applies(rule, ev):
            continue
        liable = liable_seats(rid, rule, ctx, hand, ev, steps)
        if liable:
            return rid, rule, liable
    return None


def apply_liability(normal: dict[str, float], rs: Ruleset, ctx: WinContext, hand: Hand, ev: Evaluation, steps: Steps = NO_STEPS) -> tuple[dict[str, float], str | None]:
    """The hand payments after the first liability rule that applies (else unchanged); the
    explain steps go to `steps`."""
    found = first_liable(rs, ctx, hand, ev, steps)
    if found is not None:
        rid, _, liable = found
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


def riichi_liability(payments: Mapping[str, float], rs: Ruleset, ctx: WinContext, hand: Hand, ev: Evaluation, steps: Steps = NO_STEPS) -> tuple[dict[str, float], str | None, str | None]:
    """Pao for a model that settles itself (riichi): (payments, rule id, liable seat).

    The rule's `scope` says what the liable player answers for: the whole hand, or (`fan`)
    only the share of the hand its yakuman makes among the hand's yakuman (riichi.wiki
    Sekinin barai, "multiple yakuman"). `honba: liable` moves every honba payment onto him;
    `usual` leaves it with the usual payers. Full: he pays that share alone; half: he pays
    half of it and the usual payers the rest."""
    found = first_liable(rs, ctx, hand, ev, steps)
    if found is not None:
        rid, rule, liable = found
        seat, part = next(iter(liable.items()))
        if not ctx.tsumo and seat == ctx.from_seat:
            part = "full"  # the liable player dealt in himself: he pays it all
        honba = _honba_parts(rs, ctx, payments) if rule.get("honba", "usual") == "liable" else {}
        base = {s: a - honba.get(s, 0) for s, a in payments.items()}
        share = _fan_share(rule, ev) if rule.get("scope", "hand") == "fan" else 1.0
        moved = sum(base.values()) * share
        taken = moved if part == "full" else moved / 2
        out = {s: a * (1 - share) if part == "full" else a - a * share / 2 for s, a in base.items()}
        out[seat] = out.get(seat, 0) + taken + sum(honba.values())
        if steps:
            steps.msg("liability.pays_all" if part == "full" else "liability.pays_half", seat=seat, total=num(taken), half=num(taken))
        return {s: num(a) for s, a in out.items()}, rid, seat
    return dict(payments), None, None


def _honba_parts(rs: Ruleset, ctx: WinContext, payments: Mapping[str, float]) -> dict[str, float]:
    """What each payer's amount holds for honba (riichi's settlement.riichi counters)."""
    if not ctx.honba:
        return {}
    st = rs.section("settlement").get("riichi", {})
    if ctx.tsumo:
        each = st.get("honba_tsumo", 100) * ctx.honba
        return {s: each for s, a in payments.items() if a}
    return {ctx.from_seat: st.get("honba_ron", 300) * ctx.honba}


def _fan_share(rule: Mapping[str, Any], ev: Evaluation) -> float:
    """The rule's fan's part of the hand's yakuman (by count of yakuman)."""
    total = sum(a.value * a.count for a in ev.fans if a.limit == "yakuman")
    mine = sum(a.value * a.count for a in ev.fans if a.id == rule.get("fan"))
    return mine / total if total and mine else 1.0
