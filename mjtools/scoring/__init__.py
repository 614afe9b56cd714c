"""score: is this a legal win, which fans apply, what is it worth, who pays whom.

notation -> Hand -> decompositions -> fans (pattern registry) -> score model -> settlement.
Where several decompositions exist the highest points win, then fan_total, then the model's
own tie-breaks (riichi: real yakuman over counted, han, fu), as `mahjong` 2.1.0 does.

May import rules, patterns, analysis and tiles; never batch, sim, explain or cli.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any

from mjtools.analysis.blocks import KONG, PUNG, Decomposition
from mjtools.analysis.decompose import decompositions
from mjtools.analysis.wildcards import copies_in_play, dora_kinds, stand_ins, wild_kinds
from mjtools.patterns.ctx import Ctx
from mjtools.patterns.features import hand_features
from mjtools.rules.model import Ruleset
from mjtools.rules.validate import aside_reason, check_context, check_hand
from mjtools.scoring.fans import evaluate_fans, plan_for
from mjtools.scoring.result import Evaluation, HandValue
from mjtools.scoring.score_plan import ScorePlan, score_plan
from mjtools.scoring.settlement import settle
from mjtools.scoring.validity import held_reason, points_reason, shape_reason, value_reason
from mjtools.tiles.context import WinContext
from mjtools.tiles.hand import Hand

_NO_WILD: frozenset[int] = frozenset()
_RECORD, _FULL = attrgetter("record"), attrgetter("full")  # an awarded fan's record entry (--names all: full)


def _num(x: float | None) -> float | int | None:
    if x is None or type(x) is int:
        return x
    return int(x) if float(x).is_integer() else round(x, 4)


def robbed_as_self_draw(rs: Ruleset, ctx: WinContext) -> WinContext:
    """抢杠当自摸 (win.robbing_kong_as_self_draw): robbing a kong scores and pays as a self-draw."""
    if score_plan(rs).robbing_as_tsumo and ctx.has("robbing_kong") and not ctx.tsumo:
        return ctx.replace(tsumo=True)
    return ctx


def evaluations(hand: Hand, rs: Ruleset, ctx: WinContext, lang: str = "en", wild: frozenset[int] | None = None) -> list[tuple[Evaluation, HandValue | None]]:
    """Every reading of the hand with its fans and value (value None when not a legal win)."""
    return _evaluations(hand, rs, robbed_as_self_draw(rs, ctx), lang, wild, score_plan(rs))


def _evaluations(hand: Hand, rs: Ruleset, ctx: WinContext, lang: str, wild: frozenset[int] | None, sp: ScorePlan, once: bool = False) -> list[tuple[Evaluation, HandValue | None]]:
    """`once` (a record without --explain): of readings that differ only in where the winning
    tile sits and that the rule file values alike (ScorePlan.placement), only the first (which
    wins their tie anyway); and no fan tried that a sure fan of the reading excludes (their
    `excluded` lists are then short of those fans)."""
    if wild is None:
        wild = wild_kinds(rs, ctx) if sp.wildcards or ctx.wild else _NO_WILD
    if wild:
        spec = rs.shape_spec(wild, stand_ins(rs, wild))
        wild_held = sum(1 for t in hand.hand_tiles() if t.kind in wild)
    else:
        spec = rs.base_spec
        wild_held = 0
    dora = dora_kinds(rs, ctx.indicators.get("dora", ())) if sp.dora and ctx.indicators else ()
    ura = dora_kinds(rs, ctx.ura) if ctx.ura else ()
    model = sp.model
    options = rs.option_values
    plan = sp.fans
    bits = hand_features(hand, ctx, dora, ura, plan.uses)  # what every reading shares (fan gating)
    shape_checks = sp.shape_checks or ctx.void is not None
    points_check = sp.points_check
    out: list[tuple[Evaluation, HandValue | None]] = []
    readings = decompositions(hand, spec)
    if once and len(readings) > 1 and sp.placement is not None and not wild and ctx.void is None:
        readings = _placed_once(readings, sp.placement, ctx.tsumo)
    for d in readings:
        c = Ctx(hand, d, ctx, wild, dora, ura, options, {}, spec, bits)
        reason = shape_reason(c, rs) if shape_checks else None
        ev = evaluate_fans(c, rs, lang, plan, False, once)
        ev.reason = reason or value_reason(ev, rs, ctx, hand, wild_held)
        value = None if ev.reason else model(ev, rs, ctx, hand)
        if value is not None and points_check:
            # 起胡 in points (Luoshan: 100 by self-draw, 200 on a discard) is known only now.
            ev.reason = points_reason(value, rs, ctx)
            if ev.reason:
                value = None
        out.append((ev, value))
    return out


def _placed_once(readings: list[Decomposition], aspects: tuple[bool, bool], tsumo: bool) -> list[Decomposition]:
    """The readings less those that repeat an earlier one's blocks (the same tuple: the
    decomposer shares it between the places of the winning tile) and agree with it on what the
    fans read of the place: whether it completed the pair, a pung on a discard.

    The decomposer lists the places of one blocks tuple one after another, so only a run of
    readings with the same tuple is compared (no set of keys per hand), and only where a run
    has a second reading. (Were a tuple's readings ever apart, a repeat would only be kept and
    valued again: the first still wins the tie.)"""
    pair, pung = aspects
    pung = pung and not tsumo
    out = []
    run = None  # the blocks tuple of the current run
    head: Decomposition | None = None  # the run's first reading
    seen: list[int] | None = None  # the run's place keys, once it has a second reading
    for d in readings:
        i = d.win_block
        if i is None:
            out.append(d)
            continue
        blocks = d.blocks
        if blocks is not run or d.form != head.form:  # type: ignore[union-attr]
            run, head, seen = blocks, d, None
            out.append(d)
            continue
        # (what the fans read of the place, as two bits)
        b = blocks[i]
        key = (pair and d.wait == "pair") | (pung and (b.shape == PUNG or b.shape == KONG)) << 1
        if seen is None:
            b = blocks[head.win_block]  # type: ignore[union-attr,index]
            seen = [(pair and head.wait == "pair") | (pung and (b.shape == PUNG or b.shape == KONG)) << 1]  # type: ignore[union-attr]
        if key not in seen:
            seen.append(key)
            out.append(d)
    return out


def _rank(ev: Evaluation, value: HandValue | None, points: float) -> tuple:
    if value is None:
        # No legal win: the reading that comes closest (most fans) is the one reported.
        return (0, 0, sum(a.total for a in ev.fans), ())
    if value.tiebreak is not None:
        return (1, points) + value.tiebreak
    return (1, points, value.fan_total, value.rank)


def fan_names(rs: Ruleset, fid: str) -> dict[str, str]:
    """A fan's name in each output language (en, ja, zh)."""
    entry = plan_for(rs).by_id.get(fid)
    if entry is not None:
        return dict(entry.names3)
    return {lang: fid for lang in ("en", "ja", "zh")}


def score(hand: Hand, rs: Ruleset, ctx: WinContext, text: str = "", explain: bool = False, lang: str = "en", chickens: bool = True, names: bool = False) -> dict[str, Any]:
    """The score record of one win (CLI contract). `chickens=False`: a table case settles them.
    Each fan has its name in `lang`; `names=True` (`--names all`) adds `names`, its name in
    each output language."""
    try:
        sp = rs._score_plan  # type: ignore[attr-defined]  # (score_plan's, kept in the ruleset's dict: an attribute read costs less than rs.__dict__.get)
    except AttributeError:
        sp = score_plan(rs)
    if sp.robbing_as_tsumo:
        ctx = robbed_as_self_draw(rs, ctx)
    pre = sp.pre
    if pre is not None:
        # The model checks the context first and may answer a non-win event itself.
        answered = pre(hand, rs, ctx, text, lang)
        if answered is not None:
            if not explain:
                answered.pop("explain", None)
            if not names:
                for fan in answered["fans"]:
                    fan.pop("names", None)
            return answered
    if ctx.situations and ctx.situations.get("opening_win"):  # (ctx.has without its call)
        from mjtools.scoring.opening import opening_readings

        hand, ctx, readings = opening_readings(hand, rs, ctx, text, lang)
        rec: dict[str, Any] = {"hand": str(hand), "rules": rs.id}
        why = None
    else:
        wild = wild_kinds(rs, ctx) if sp.wildcards or ctx.wild else _NO_WILD
        apart = aside_reason(hand, rs) if sp.aside_rules else None
        dead = sp.dead
        hand = check_hand(hand, rs, text, wild=wild, need_last=True, sizes=sp.sizes, any_size=dead, copies=copies_in_play(rs, ctx) if sp.turned_copy else None)
        check_context(hand, rs, ctx, wild)
        rec = {"hand": str(hand), "rules": rs.id}
        why = apart or (dead_hand_reason(hand, rs) if dead else None)
        readings = [] if why else _evaluations(hand, rs, ctx, lang, wild, sp, once=not explain)
        if not readings and not why:
            why = held_reason(hand, rs, wild)
    if not readings:
        rec.update(valid=False, reason=why or "not a winning shape", fans=[], fan_total=0, base=None, limit=None, points=0, payments=sp.zero_payments(ctx.seat), pot=0, ledger=[])
        if explain:
            from mjtools.scoring.explain import no_reading

            rec["explain"] = no_reading(lang)
            if why:
                rec["explain"]["steps"] = [why]
        return rec
    if len(readings) == 1 and not explain:
        # One reading: nothing to rank.
        ev, value = readings[0]
        settled = None if value is None else settle(value, rs, ctx, hand, ev, chickens, False)  # (no steps shown)
    else:
        # What a payer owes for the hand decides; the settlement's total grows with it (shares,
        # dealer factors, birds) or does not depend on the reading (kongs, flowers, chickens),
        # and liability only moves amounts, so only the chosen reading is settled — unless the
        # settlement itself reads the fans (discarder surcharges) or explain shows every reading.
        every = explain or sp.surcharges
        ranked = []
        for ev, value in readings:
            if value is None:
                settled, points = None, 0
            elif every:
                settled = settle(value, rs, ctx, hand, ev, chickens, explain)
                points = settled.points
            else:
                settled, points = None, value.points
            ranked.append((_rank(ev, value, points), ev, value, settled))
        # max() keeps the first of equal keys: the first reading found wins a tie.
        chosen = max(range(len(ranked)), key=lambda i: ranked[i][0])
        _, ev, value, settled = ranked[chosen]
        if value is not None and settled is None:
            settled = settle(value, rs, ctx, hand, ev, chickens, False)  # (not every: no explain)
    rec["valid"] = value is not None
    rec["reason"] = ev.reason
    rec["fans"] = list(map(_FULL if names else _RECORD, ev.fans))
    if value is None:
        rec.update(fan_total=_num(sum(a.total for a in ev.fans)), base=None, limit=None, points=0, payments=sp.zero_payments(ctx.seat), pot=0, ledger=[])
    else:
        assert settled is not None
        # (_num inlined where the value is an int or None, as riichi's always are)
        x = value.fan_total
        rec["fan_total"] = x if type(x) is int else _num(x)
        x = value.base
        rec["base"] = x if x is None or type(x) is int else _num(x)
        rec["limit"] = value.limit
        rec.update(value.extra)
        payments = settled.payments  # (a fresh dict, amounts already whole where whole)
        pot = settled.pot
        paid = sum(payments.values())
        x = paid + pot
        rec["points"] = x if type(x) is int else _num(x)
        # (a sum from 0 stays an int only while every amount is one: no loop over them)
        rec["payments"] = payments if type(paid) is int else {s: _num(a) for s, a in payments.items()}
        rec["pot"] = pot if type(pot) is int else _num(pot)
        rec["ledger"] = settled.ledger
    if explain:
        from mjtools.scoring.explain import build

        rec["explain"] = build(ranked, chosen, rs, lang)
    return rec


def dead_hand_reason(hand: Hand, rs: Ruleset) -> str | None:
    """相公 (win.dead_hand): a hand of the wrong size cannot win."""
    need = rs.hand_size + 1
    if hand.size == need:
        return None
    which = "大相公, too many tiles" if hand.size > need else "小相公, too few tiles"
    return f"dead_hand: {hand.size} tiles where a win has {need} ({which})"


def best_value(hand: Hand, rs: Ruleset, ctx: WinContext) -> HandValue | None:
    """The highest per-payer hand value of a complete hand (查大叫), before settlement."""
    values = [v for _, v in evaluations(hand, rs, ctx) if v is not None]
    return max(values, key=lambda v: (v.points, v.fan_total), default=None)


def legal_win(hand: Hand, rs: Ruleset, ctx: WinContext) -> bool:
    """Whether the hand (with its last tile as the winning tile) is a legal win."""
    return any(value is not None for _, value in evaluations(hand, rs, ctx))
