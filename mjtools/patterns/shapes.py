"""Patterns about how the sets are arranged."""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from typing import Any

from mjtools.patterns import pattern
from mjtools.patterns.ctx import Ctx
from mjtools.patterns.features import BIT


@pattern("basic_win", "chicken_hand", "plain_win", exact=True)
def basic_win(ctx: Ctx) -> int:
    """Any winning shape. Rule files mark it `fallback` so it counts only when nothing else does."""
    return 1


@pattern("all_pungs", needs=("standard", "no_chow"), exact=True)
def all_pungs(ctx: Ctx) -> int:
    """Four (16-tile: five) pungs or kongs and a pair."""
    return int(ctx.standard and not ctx.chows)


def _all_chows_placement(*, two_sided_wait: bool = False, **_: Any) -> str:
    return "any" if two_sided_wait else ""


def _all_chows_needs(*, no_honors: bool = False, ron_only: bool = False, **_: Any) -> int:
    return (BIT["no_honor"] if no_honors is True else 0) | (BIT["ron"] if ron_only is True else 0)


def _all_chows_exact(*, two_sided_wait: bool = False, no_honors: bool = False, pair_not_value: bool = False, ron_only: bool = False, no_flowers: bool = False, value_tiles: str = "") -> bool:
    """Exact without the conditions no bit says (the wait, the pair, flowers, value tiles)."""
    return two_sided_wait is False and pair_not_value is False and no_flowers is False and value_tiles == "" and type(no_honors) is bool and type(ron_only) is bool


@pattern("all_chows", needs=("standard", "chow", "no_pung"), needs_of=_all_chows_needs, exact=_all_chows_exact, placement=_all_chows_placement)
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


@lru_cache(maxsize=64)
def _kind_set(tiles: str) -> frozenset[int]:
    from mjtools.tiles.notation import parse_tiles

    return frozenset(t.kind for t in parse_tiles(tiles))


@pattern("pinfu", needs=("no_melds", "standard", "chow"), placement="any")
def pinfu(ctx: Ctx, *, ron_only: bool = False, value_tiles: str = "") -> int:
    """Riichi pinfu: concealed, four chows, a pair that scores no fu, a two-sided wait.
    `ron_only`: a self-drawn hand takes the 2 tsumo fu and so is not pinfu (ピンヅモ無し)."""
    if ctx.hand.melds or (ron_only and ctx.tsumo):
        return 0
    return all_chows(ctx, two_sided_wait=True, pair_not_value=True, value_tiles=value_tiles)


@pattern("seven_pairs", needs=("seven_pairs",), exact=True)
def seven_pairs(ctx: Ctx) -> int:
    return int(ctx.form == "seven_pairs")


@pattern("luxury_seven_pairs", needs=("seven_pairs",))
def luxury_seven_pairs(ctx: Ctx) -> int:
    """Seven pairs holding four of a kind (counts the fours: 豪华 / 龙七对)."""
    if ctx.form != "seven_pairs":
        return 0
    c = Counter(b.kinds for b in ctx.d.pairs if b.kinds)
    return sum(1 for v in c.values() if v >= 2)


def _chow_firsts(ctx: Ctx) -> list[int]:
    return sorted(b.first for b in ctx.chows)


# Bit masks over kinds (ctx.chow_mask / ctx.pung_mask hold a bit per first kind of a set).
# A straight (k, k+3, k+6 with k the first kind of a suit) or the same set in all three suits
# (n, n+9, n+18) is found by shifting the mask onto itself: m & m >> 3 & m >> 6 keeps bit k
# where all three are set.
_SUIT_STARTS = (1 << 0) | (1 << 9) | (1 << 18)
_MIXED_STRAIGHTS = tuple((1 << a) | (1 << (9 + b)) | (1 << (18 + c)) for a, b, c in ((0, 3, 6), (0, 6, 3), (3, 0, 6), (3, 6, 0), (6, 0, 3), (6, 3, 0)))


@pattern("pure_double_chow", needs=("dup_chow",))
def pure_double_chow(ctx: Ctx, *, concealed_only: bool = False) -> int:
    """Two identical chows (一般高); counts each pair of identical chows."""
    if concealed_only and not ctx.concealed_hand:
        return 0
    return ctx.chow_pairs


@pattern("twice_pure_double_chow", "twin_dragons", needs=("dup_chow", "chow3"))
def twice_pure_double_chow(ctx: Ctx) -> int:
    """Two different pairs of identical chows (二盃口 / 双龙抱)."""
    return int(ctx.chow_pairs >= 2)


@pattern("pure_straight", needs=("chow3",))
def pure_straight(ctx: Ctx) -> int:
    """1-2-3, 4-5-6, 7-8-9 of one suit (一条龙)."""
    m = ctx.chow_mask
    return int(m & (m >> 3) & (m >> 6) & _SUIT_STARTS != 0)


@pattern("mixed_straight", needs=("chow3", "three_suits"))
def mixed_straight(ctx: Ctx) -> int:
    """1-2-3, 4-5-6, 7-8-9 spread over the three suits (花龙)."""
    m = ctx.chow_mask
    for s in _MIXED_STRAIGHTS:  # (a loop: any() over a generator makes a frame per call)
        if m & s == s:
            return 1
    return 0


@pattern("mixed_triple_chow", needs=("chow3", "three_suits"))
def mixed_triple_chow(ctx: Ctx) -> int:
    """The same chow in all three suits (三色同顺)."""
    m = ctx.chow_mask
    return int(m & (m >> 9) & (m >> 18) & 0x7F != 0)  # (n: 0-6, the first of a chow)


@pattern("triple_pung", needs=("pung3", "three_suits"))
def triple_pung(ctx: Ctx) -> int:
    """The same number as a pung in all three suits (三色同刻)."""
    m = ctx.pung_mask
    return int(m & (m >> 9) & (m >> 18) & 0x1FF != 0)


@pattern("concealed_pungs_3", needs=("pung3", "cpung3x"), placement="pung", exact=True)
def concealed_pungs_3(ctx: Ctx) -> int:
    """Three concealed pungs (kongs count; a pung completed by a discard does not)."""
    return int(ctx.concealed_pung_count == 3)


@pattern("concealed_pungs_4", needs=("pung4", "cpung4"), placement="pung", exact=True)
def concealed_pungs_4(ctx: Ctx) -> int:
    return int(ctx.concealed_pung_count >= 4)


@pattern("concealed_pungs_5", needs=("pung4", "cpung4"), placement="pung")
def concealed_pungs_5(ctx: Ctx) -> int:
    return int(ctx.concealed_pung_count >= 5)


def _pungs_needed(*, min: int = 1) -> int:
    """At least `min` pungs (or kongs) in the reading, as many of them concealed."""
    if type(min) is not int:
        return 0
    return BIT["pung4"] | BIT["cpung4"] if min >= 4 else BIT["pung3"] | BIT["cpung3"] if min == 3 else BIT["pung2"] | BIT["cpung2"] if min == 2 else 0


def _pungs_exact(*, min: int = 1) -> bool | str:
    """With `min` 2 or more its bits say a count (of that many or more): "nonzero"."""
    return "nonzero" if type(min) is int and min >= 2 else False


@pattern("concealed_pungs", needs=("pung",), needs_of=_pungs_needed, placement="pung", exact=_pungs_exact)
def concealed_pungs(ctx: Ctx, *, min: int = 1) -> int:
    """Counts concealed pungs when there are at least `min`."""
    n = ctx.concealed_pung_count
    return n if n >= min else 0
