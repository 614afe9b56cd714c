"""Patterns about how the sets are arranged."""

from __future__ import annotations

from collections import Counter

from mjtools.patterns import pattern
from mjtools.patterns.ctx import Ctx


@pattern("basic_win", "chicken_hand", "plain_win")
def basic_win(ctx: Ctx) -> int:
    """Any winning shape. Rule files mark it `fallback` so it counts only when nothing else does."""
    return 1


@pattern("all_pungs")
def all_pungs(ctx: Ctx) -> int:
    """Four (16-tile: five) pungs or kongs and a pair."""
    return int(ctx.standard and not ctx.chows)


@pattern("all_chows")
def all_chows(ctx: Ctx, *, two_sided_wait: bool = False, no_honors: bool = False, pair_not_value: bool = False, ron_only: bool = False, no_flowers: bool = False, value_tiles: str = "") -> int:
    """Every set a chow (平胡). Parameters add the conditions some tables set; `value_tiles`
    names kinds that count as value pairs besides dragons and the seat and round winds."""
    if not ctx.standard or ctx.pungs:
        return 0
    if two_sided_wait and ctx.d.wait != "two_sided":
        return 0
    if no_honors and ctx.has_honors:
        return 0
    if ron_only and ctx.tsumo:
        return 0
    if no_flowers and any(a.tag is None for a in ctx.hand.aside):
        return 0
    if pair_not_value and ctx.pair is not None:
        k = ctx.pair.first
        if k >= 31 or k in (ctx.win.seat_wind, ctx.win.round_wind):
            return 0
        if value_tiles and k in _kind_set(value_tiles):
            return 0
    return 1


def _kind_set(tiles: str) -> frozenset[int]:
    from mjtools.notation import parse_tiles

    return frozenset(t.kind for t in parse_tiles(tiles))


@pattern("pinfu")
def pinfu(ctx: Ctx, *, ron_only: bool = False, value_tiles: str = "") -> int:
    """Riichi pinfu: concealed, four chows, a pair that scores no fu, a two-sided wait.
    `ron_only`: a self-drawn hand takes the 2 tsumo fu and so is not pinfu (ピンヅモ無し)."""
    if ctx.hand.melds or (ron_only and ctx.tsumo):
        return 0
    return all_chows(ctx, two_sided_wait=True, pair_not_value=True, value_tiles=value_tiles)


@pattern("seven_pairs")
def seven_pairs(ctx: Ctx) -> int:
    return int(ctx.form == "seven_pairs")


@pattern("luxury_seven_pairs")
def luxury_seven_pairs(ctx: Ctx) -> int:
    """Seven pairs holding four of a kind (counts the fours: 豪华 / 龙七对)."""
    if ctx.form != "seven_pairs":
        return 0
    c = Counter(b.kinds for b in ctx.d.pairs if b.kinds)
    return sum(1 for v in c.values() if v >= 2)


def _chow_firsts(ctx: Ctx) -> list[int]:
    return sorted(b.first for b in ctx.chows)


@pattern("pure_double_chow")
def pure_double_chow(ctx: Ctx, *, concealed_only: bool = False) -> int:
    """Two identical chows (一般高); counts each pair of identical chows."""
    if concealed_only and not ctx.concealed_hand:
        return 0
    c = Counter(_chow_firsts(ctx))
    return sum(v // 2 for v in c.values())


@pattern("twice_pure_double_chow", "twin_dragons")
def twice_pure_double_chow(ctx: Ctx) -> int:
    """Two different pairs of identical chows (二盃口 / 双龙抱)."""
    return int(pure_double_chow(ctx) >= 2)


@pattern("pure_straight")
def pure_straight(ctx: Ctx) -> int:
    """1-2-3, 4-5-6, 7-8-9 of one suit (一条龙)."""
    firsts = set(_chow_firsts(ctx))
    return int(any({s, s + 3, s + 6} <= firsts for s in (0, 9, 18)))


@pattern("mixed_straight")
def mixed_straight(ctx: Ctx) -> int:
    """1-2-3, 4-5-6, 7-8-9 spread over the three suits (花龙)."""
    firsts = set(_chow_firsts(ctx))
    from itertools import permutations

    return int(any({a, 9 + b, 18 + c} <= firsts for a, b, c in permutations((0, 3, 6))))


@pattern("mixed_triple_chow")
def mixed_triple_chow(ctx: Ctx) -> int:
    """The same chow in all three suits (三色同顺)."""
    firsts = set(_chow_firsts(ctx))
    return int(any({n, n + 9, n + 18} <= firsts for n in range(7)))


@pattern("triple_pung")
def triple_pung(ctx: Ctx) -> int:
    """The same number as a pung in all three suits (三色同刻)."""
    ks = {b.first for b in ctx.pungs}
    return int(any({n, n + 9, n + 18} <= ks for n in range(9)))


def concealed_pung_count(ctx: Ctx) -> int:
    return sum(1 for b in ctx.pungs if ctx.concealed_pung(b))


@pattern("concealed_pungs_3")
def concealed_pungs_3(ctx: Ctx) -> int:
    """Three concealed pungs (kongs count; a pung completed by a discard does not)."""
    return int(concealed_pung_count(ctx) == 3)


@pattern("concealed_pungs_4")
def concealed_pungs_4(ctx: Ctx) -> int:
    return int(concealed_pung_count(ctx) >= 4)


@pattern("concealed_pungs_5")
def concealed_pungs_5(ctx: Ctx) -> int:
    return int(concealed_pung_count(ctx) >= 5)


@pattern("concealed_pungs")
def concealed_pungs(ctx: Ctx, *, min: int = 1) -> int:
    """Counts concealed pungs when there are at least `min`."""
    n = concealed_pung_count(ctx)
    return n if n >= min else 0
