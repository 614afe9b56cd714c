"""Is a reading of a hand a legal win? Shape-level and value-level prerequisites."""

from __future__ import annotations

from functools import lru_cache

from mjtools.context import WinContext
from mjtools.patterns.ctx import Ctx
from mjtools.rules.model import Ruleset
from mjtools.scoring.result import Evaluation
from mjtools.tiles import parse_kind


def shape_reason(ctx: Ctx, rs: Ruleset) -> str | None:
    """Requirements that depend only on the decomposition."""
    req = rs.requirements
    win = rs.section("win")
    if not req and ctx.win.void is None and "forbid" not in win:
        return None
    suits = ctx.suits
    if "missing_suit" in req and len(suits) > 2:
        return "missing_suit: the hand holds all three suits (缺一门)"
    if ctx.win.void is not None:
        g = "mps".index(ctx.win.void)
        if g in suits:
            return f"missing_suit: the hand holds the declared void suit {ctx.win.void}"
    if "pair_258" in req and ctx.standard:
        p = ctx.pair
        exempt = win.get("pair_258_exempt", ())
        is_258 = p is not None and p.first < 27 and p.first % 9 in (1, 4, 7)
        if not is_258 and not _exempt_from_258(ctx, rs, exempt):
            return "pair_258: the pair is not a 2, 5 or 8"
    if "min_tiles_one_suit" in req:
        need = win.get("min_tiles_one_suit") or 0
        if need and max((sum(1 for k in ctx.kinds if k < 27 and k // 9 == g) for g in range(3)), default=0) < need:
            return f"min_tiles_one_suit: fewer than {need} tiles of one suit (八枝)"
    if "all_three_suits_required" in req and len(suits) < 3:
        return "all_three_suits_required: a suit is missing (不允许缺门)"
    if "terminal_required" in req:
        from mjtools.patterns.suits import terminal_present

        if not terminal_present(ctx, dragon_pung_counts=bool(win.get("terminal_or_dragon_pung"))):
            return "terminal_required: no 1 or 9 in the hand (必须有幺九)"
    if "pung_required" in req and not ctx.pungs:
        return "pung_required: no pung or kong in the hand"
    return forbid_reason(ctx, rs)


def _exempt_from_258(ctx: Ctx, rs: Ruleset, exempt) -> bool:
    """win.pair_258_exempt: the shapes all_pungs / full_flush, or a fan of the file whose
    pattern holds for this reading (Changsha: every big win, 杠上开花 included)."""
    from mjtools.patterns import evaluate
    from mjtools.patterns.shapes import all_pungs
    from mjtools.patterns.suits import full_flush

    shapes = {"all_pungs": all_pungs, "full_flush": full_flush}
    fans = rs.fans
    for ex in exempt:
        if ex in fans:
            if evaluate(fans[ex]["pattern"], ctx):
                return True
        elif ex in shapes and shapes[ex](ctx):
            return True
    return False


def forbid_reason(ctx: Ctx, rs: Ruleset) -> str | None:
    """win.forbid: hands that may not win (their pattern holds for this reading)."""
    from mjtools.patterns import evaluate
    from mjtools.rules.model import pick

    for fid, rule in rs.section("win").get("forbid", {}).items():
        if rule.get("enabled", True) and evaluate(rule["pattern"], ctx):
            return f"{fid}: " + (pick(rule.get("names")) or "this hand may not win")
    return None


_SHAPE_KEYS = frozenset({"forms", "seven_pairs_quads", "require", "pair_258_exempt", "min_tiles_one_suit", "terminal_or_dragon_pung"})


@lru_cache(maxsize=256)
def _only_yaku(rs: Ruleset) -> bool:
    """Whether the variant's only value-level requirement is at least one yaku (riichi): then
    value_reason needs no more than that check."""
    win = rs.section("win")
    return (
        set(win) - _SHAPE_KEYS <= {"minimum"}
        and set(win.get("minimum", {})) <= {"yaku"}
        and rs.section("calls").get("exposed_kong_from_left") is not False
        and not rs.section("calls").get("chi_left_only")
    )


def value_reason(ev: Evaluation, rs: Ruleset, ctx: WinContext, hand, wild_held: int) -> str | None:
    """Requirements on the fans and the circumstances of the win."""
    if _only_yaku(rs):
        if rs.section("win").get("minimum", {}).get("yaku"):
            for a in ev.fans:
                if a.yaku:
                    return None
            return "no yaku"
        return None
    win = rs.section("win")
    ids = {a.id for a in ev.fans}
    minimum = win.get("minimum", {})
    if minimum.get("yaku") and not any(a.yaku for a in ev.fans):
        return "no yaku"
    skip = set(minimum.get("exclude_fans", ()))
    fan_sum = sum(a.total for a in ev.fans if a.id not in skip and a.yaku)
    need = minimum.get("fan")
    if not ctx.tsumo and minimum.get("fan_ron") is not None:
        need = max(need or 0, minimum["fan_ron"])
    if need and fan_sum < need and not any(a.limit for a in ev.fans):
        return f"minimum_fan: {fan_sum:g} below the minimum of {need:g}"
    if win.get("must_open"):
        open_by = set(win.get("open_by", ("chi", "pon", "exposed_kong", "added_kong")))
        kinds = {"chow": "chi", "pung": "pon", "exposed_kong": "exposed_kong", "added_kong": "added_kong"}
        if not any(kinds.get(m.kind) in open_by for m in hand.melds):
            return "must_open: the hand was never opened (开口)"
    if not ctx.tsumo:
        if ctx.has("passed_win") and rs.section("play").get("furiten") == "pass_lock":
            return "pass_lock: a win passed up since the winner's last draw blocks wins on discards (过手胡 / 漏和)"
        if win.get("self_draw_only"):
            return "self_draw_only: this variant wins only by self-draw"
        unless = win.get("self_draw_only_unless")
        if unless and not ids & set(unless):
            return "self_draw_only: a discard win needs " + ", ".join(unless)
        only = win.get("self_draw_only_for")
        if only and ids and ids <= set(only):
            return "self_draw_only: " + ", ".join(sorted(ids)) + " must be self-drawn"
    why = call_reason(rs, ctx, hand)
    if why:
        return why
    no_win = win.get("no_win_holding", ())
    if no_win:
        # A tile that is wild this hand is no longer the tile that blocks a win (钻 on 白板).
        wild = ev.pctx.wild_kinds if ev.pctx is not None else frozenset()
        held = {t.kind for t in hand.hand_tiles()} - wild
        for t in no_win:
            if parse_kind(t) in held:
                return f"no_win_holding: {t} is still in the hand"
    cap = win.get("max_wild_for_basic")
    if cap is not None and wild_held > cap and ids <= {"basic_win"}:
        return f"max_wild_for_basic: a basic win may hold at most {cap} wildcards"
    if win.get("ready_declaration") and not (ctx.has("riichi") or ctx.has("double_riichi")):
        return "ready_declaration: the winner did not declare ready (报听)"
    return None


def points_reason(value, rs: Ruleset, ctx: WinContext) -> str | None:
    """起胡 in points: win.minimum.points_tsumo / points_ron against the per-payer value."""
    minimum = rs.section("win").get("minimum", {})
    need = minimum.get("points_tsumo" if ctx.tsumo else "points_ron")
    got = value.unrounded if minimum.get("points_before_rounding") and value.unrounded is not None else value.points
    if need is not None and got < need:
        how = "a self-draw" if ctx.tsumo else "a discard win"
        return f"minimum_points: {got:g} below the {need:g} that {how} needs (起胡)"
    return None


def call_reason(rs: Ruleset, ctx: WinContext, hand) -> str | None:
    """Calls the variant forbids, read from the melds' sources and their order (Taiwan, seed 003)."""
    if not hand.melds:
        return None
    calls = rs.section("calls")
    seats = rs.seats
    left = seats[(seats.index(ctx.seat) - 1) % len(seats)]
    if calls.get("chi_left_only"):
        for m in hand.melds:
            if m.kind == "chow" and m.source is not None and m.source != left:
                return f"chi_left_only: the chow {m} was called from {m.source}, not from the left player {left}"
    if calls.get("exposed_kong_from_left") is False:
        for m in hand.melds:
            if m.kind == "exposed_kong" and m.source == left:
                return f"exposed_kong_from_left: the kong {m} was called on the left player's discard (不得顺杠)"
    if rs.section("win").get("no_bloom_after_exposed_kong") and ctx.has("kong_bloom"):
        last = hand.melds[-1] if hand.melds else None
        if last is not None and last.kind == "exposed_kong":
            return f"no_bloom_after_exposed_kong: the last call {last} was a kong on a discard; its replacement tile cannot win"
    return None
