"""Is a reading of a hand a legal win? Shape-level and value-level prerequisites."""

from __future__ import annotations

from functools import lru_cache

from mjtools.patterns.ctx import Ctx
from mjtools.rules.model import Ruleset
from mjtools.scoring.result import Evaluation
from mjtools.tiles.context import WinContext
from mjtools.tiles.kinds import parse_kind


class Checks:
    """The win requirements of one ruleset, read once: validity runs for every reading of every
    hand, and most rule files enable only a few of the checks (kept on the ruleset, as the fan
    plan is; `rs.with_options` makes a new ruleset, so options cannot go stale)."""

    def __init__(self, rs: Ruleset):
        win = rs.section("win")
        req = rs.requirements
        self.req = req
        self.forbid = tuple((fid, rule) for fid, rule in win.get("forbid", {}).items() if rule.get("enabled", True))
        self.shape_any = bool(req) or "forbid" in win
        self.pair_258_exempt = win.get("pair_258_exempt", ())
        self.min_tiles_one_suit = win.get("min_tiles_one_suit") or 0
        self.terminal_or_dragon_pung = bool(win.get("terminal_or_dragon_pung"))
        self.only_yaku = _only_yaku(rs)
        minimum = win.get("minimum", {})
        self.yaku = bool(minimum.get("yaku"))
        self.skip = frozenset(minimum.get("exclude_fans", ()))
        self.need_fan = minimum.get("fan")
        self.fans_nonneg = _values_nonneg(rs)
        self.need_fan_ron = minimum.get("fan_ron")
        self.open_by = frozenset(win.get("open_by", ("chi", "pon", "exposed_kong", "added_kong"))) if win.get("must_open") else None
        self.pass_lock = rs.section("play").get("furiten") == "pass_lock"
        self.self_draw_only = bool(win.get("self_draw_only"))
        self.unless_order = tuple(win.get("self_draw_only_unless") or ())
        self.unless = frozenset(self.unless_order)
        self.only_for = frozenset(win.get("self_draw_only_for") or ())
        calls = rs.section("calls")
        # A chow from another seat than the left player's is refused before scoring, in every
        # variant (rules/validate.py source_reason); what is left here are variant rules.
        self.kong_not_from_left = calls.get("exposed_kong_from_left") is False
        self.no_bloom = bool(win.get("no_bloom_after_exposed_kong"))
        self.calls = self.kong_not_from_left or self.no_bloom
        self.no_win = tuple((t, parse_kind(t)) for t in win.get("no_win_holding", ()))
        self.max_wild_for_basic = win.get("max_wild_for_basic")
        self.wants_ids = bool(self.unless or self.only_for or self.max_wild_for_basic is not None)
        self.ready_declaration = bool(win.get("ready_declaration"))
        self.minimum_points = (minimum.get("points_tsumo"), minimum.get("points_ron"), bool(minimum.get("points_before_rounding")))
        # Only a minimum of fans (the Chinese Official 8): value_reason checks that alone.
        self.fan_only = not (self.only_yaku or self.yaku or self.need_fan_ron is not None or self.open_by is not None or self.pass_lock or self.self_draw_only or self.unless or self.only_for or self.calls or self.no_win or self.max_wild_for_basic is not None or self.ready_declaration)
        # That minimum where no fan lowers a sum: (the minimum, the fans it leaves out), read
        # at once (None: not so).
        self.min_only = (self.need_fan, self.skip) if self.fan_only and self.need_fan and self.fans_nonneg else None


def _values_nonneg(rs: Ruleset) -> bool:
    """Whether no fan of the file is worth less than nothing (concealed or open): a sum of
    awarded fans then only grows, and the minimum is met as soon as a part of it meets it."""
    from mjtools.scoring.fan_spec import fan_value

    try:
        for fan in rs.fans.values():
            if fan:
                for concealed in (True, False):
                    v = fan_value(fan, concealed)
                    if v is not None and not (type(v) in (int, float) and v >= 0):
                        return False
    except (KeyError, TypeError, AttributeError):  # (a fan without a plain value: no shortcut)
        return False
    return True


def checks_for(rs: Ruleset) -> Checks:
    got = rs.__dict__.get("_win_checks")
    if got is None:
        got = rs.__dict__["_win_checks"] = Checks(rs)
    return got


def shape_reason(ctx: Ctx, rs: Ruleset) -> str | None:
    """Requirements that depend only on the decomposition."""
    ch = checks_for(rs)
    void = ctx.win.void
    if not ch.shape_any and void is None:
        return None
    req = ch.req
    suits = ctx.suits
    if "missing_suit" in req and len(suits) > 2:
        return "missing_suit: the hand holds all three suits (缺一门)"
    if void is not None:
        g = "mps".index(void)
        if g in suits:
            return f"missing_suit: the hand holds the declared void suit {void}"
    if not req:
        return forbid_reason(ctx, rs)
    if "pair_258" in req and ctx.standard:
        p = ctx.pair
        is_258 = p is not None and p.first < 27 and p.first % 9 in (1, 4, 7)
        if not is_258 and not _exempt_from_258(ctx, rs, ch.pair_258_exempt):
            return "pair_258: the pair is not a 2, 5 or 8"
    if "min_tiles_one_suit" in req:
        need = ch.min_tiles_one_suit
        if need and max((sum(1 for k in ctx.kinds if k < 27 and k // 9 == g) for g in range(3)), default=0) < need:
            return f"min_tiles_one_suit: fewer than {need} tiles of one suit (八枝)"
    if "all_three_suits_required" in req and len(suits) < 3:
        return "all_three_suits_required: a suit is missing (不允许缺门)"
    if "terminal_required" in req:
        from mjtools.patterns.suits import terminal_present

        if not terminal_present(ctx, dragon_pung_counts=ch.terminal_or_dragon_pung):
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
    forbid = checks_for(rs).forbid
    if not forbid:
        return None
    from mjtools.patterns import evaluate
    from mjtools.rules.model import pick

    for fid, rule in forbid:
        if evaluate(rule["pattern"], ctx):
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
    )


def value_reason(ev: Evaluation, rs: Ruleset, ctx: WinContext, hand, wild_held: int) -> str | None:
    """Requirements on the fans and the circumstances of the win."""
    try:
        ch = rs._win_checks  # type: ignore[attr-defined]  # (checks_for's: an attribute read, no call)
    except AttributeError:
        ch = checks_for(rs)
    fans = ev.fans
    if ch.min_only:  # (the Chinese Official 8, and no other check; a test as cheap as fan_only's was)
        need, skip = ch.min_only
        fan_sum = 0  # (a plain loop: a list comprehension makes a function and a list per call)
        # (no fan lowers the sum: met once a part meets it, most often by the first fan)
        for a in fans:
            if a.yaku and a.id not in skip:
                fan_sum += a.amount
                if fan_sum >= need:
                    return None
        for a in fans:
            if a.limit:
                return None
        return f"minimum_fan: {fan_sum:g} below the minimum of {need:g}"
    # (only_yaku and fan_only exclude each other: riichi's test first, then the other minima)
    if ch.only_yaku:
        if ch.yaku:
            for a in fans:
                if a.yaku:
                    return None
            return "no yaku"
        return None
    if ch.fan_only:  # (the minimum below, and no other check; min_only above where no fan is negative)
        need = ch.need_fan
        if need:
            skip = ch.skip
            fan_sum = 0  # (a plain loop: a list comprehension makes a function and a list per call)
            for a in fans:
                if a.yaku and a.id not in skip:
                    fan_sum += a.amount
            if fan_sum < need:
                for a in fans:
                    if a.limit:
                        return None
                return f"minimum_fan: {fan_sum:g} below the minimum of {need:g}"
        return None
    if ch.yaku and not any(a.yaku for a in fans):
        return "no yaku"
    need = ch.need_fan
    if not ctx.tsumo and ch.need_fan_ron is not None:
        need = max(need or 0, ch.need_fan_ron)
    if need:
        skip = ch.skip
        fan_sum = sum([a.amount for a in fans if a.yaku and a.id not in skip])
        if fan_sum < need and not any(a.limit for a in fans):
            return f"minimum_fan: {fan_sum:g} below the minimum of {need:g}"
    if ch.open_by is not None:
        kinds = {"chow": "chi", "pung": "pon", "exposed_kong": "exposed_kong", "added_kong": "added_kong"}
        if not any(kinds.get(m.kind) in ch.open_by for m in hand.melds):
            return "must_open: the hand was never opened (开口)"
    # The fan ids only matter to a few rules; most rule files never build the set.
    ids = {a.id for a in fans} if ch.wants_ids else frozenset()
    if not ctx.tsumo:
        if ch.pass_lock and ctx.has("passed_win"):
            return "pass_lock: a win passed up since the winner's last draw blocks wins on discards (过手胡 / 漏和)"
        if ch.self_draw_only:
            return "self_draw_only: this variant wins only by self-draw"
        if ch.unless and not ids & ch.unless:
            return "self_draw_only: a discard win needs " + ", ".join(ch.unless_order)
        if ch.only_for and ids and ids <= ch.only_for:
            return "self_draw_only: " + ", ".join(sorted(ids)) + " must be self-drawn"
    if ch.calls:
        why = call_reason(rs, ctx, hand, ch)
        if why:
            return why
    if ch.no_win:
        why = held_reason(hand, rs, ev.pctx.wild_kinds if ev.pctx is not None else frozenset())
        if why:
            return why
    cap = ch.max_wild_for_basic
    if cap is not None and wild_held > cap and ids <= {"basic_win"}:
        return f"max_wild_for_basic: a basic win may hold at most {cap} wildcards"
    if ch.ready_declaration and not (ctx.has("riichi") or ctx.has("double_riichi")):
        return "ready_declaration: the winner did not declare ready (报听)"
    return None


def held_reason(hand, rs: Ruleset, wild: frozenset[int]) -> str | None:
    """win.no_win_holding: a tile still in the hand that blocks every win (Wuhan's 红中, the 钻
    game's 白). Such a tile is in no shape, so a hand holding one has no reading at all: this
    names the cause instead of "not a winning shape". A tile that is wild this hand is no longer
    the tile that blocks a win (钻 on 白板)."""
    no_win = checks_for(rs).no_win
    if not no_win:
        return None
    held = {t.kind for t in hand.hand_tiles()} - wild
    for t, kind in no_win:
        if kind in held:
            return f"no_win_holding: {t} is still in the hand"
    return None


def points_reason(value, rs: Ruleset, ctx: WinContext) -> str | None:
    """起胡 in points: win.minimum.points_tsumo / points_ron against the per-payer value."""
    tsumo_need, ron_need, before_rounding = checks_for(rs).minimum_points
    need = tsumo_need if ctx.tsumo else ron_need
    if need is None:
        return None
    got = value.unrounded if before_rounding and value.unrounded is not None else value.points
    if got < need:
        how = "a self-draw" if ctx.tsumo else "a discard win"
        return f"minimum_points: {got:g} below the {need:g} that {how} needs (起胡)"
    return None


def call_reason(rs: Ruleset, ctx: WinContext, hand, ch: Checks | None = None) -> str | None:
    """Calls the variant forbids, read from the melds' sources and their order (Taiwan, seed 003).
    The rules come from the ruleset's Checks (read once), not from its sections per reading."""
    if not hand.melds:
        return None
    if ch is None:
        ch = checks_for(rs)
    melds = hand.melds
    if ch.kong_not_from_left:
        seats = rs.seats
        left = seats[(seats.index(ctx.seat) - 1) % len(seats)]
        for m in melds:
            if m.kind == "exposed_kong" and m.source == left:
                return f"exposed_kong_from_left: the kong {m} was called on the left player's discard (不得顺杠)"
    if ch.no_bloom and ctx.has("kong_bloom"):
        last = melds[-1]
        if last.kind == "exposed_kong":
            return f"no_bloom_after_exposed_kong: the last call {last} was a kong on a discard; its replacement tile cannot win"
    return None
