"""Patterns about wind and dragon sets."""

from __future__ import annotations

from mjtools.patterns import pattern
from mjtools.patterns.ctx import Ctx

DRAGONS = (31, 32, 33)
WINDS = (27, 28, 29, 30)


@pattern("dragon_pung")
def dragon_pung(ctx: Ctx) -> int:
    """Each pung or kong of dragons (三元牌刻 / 役牌)."""
    return sum(1 for b in ctx.pungs if b.first in DRAGONS)


@pattern("white_pung")
def white_pung(ctx: Ctx) -> int:
    return sum(1 for b in ctx.pungs if b.first == 31)


@pattern("green_pung")
def green_pung(ctx: Ctx) -> int:
    return sum(1 for b in ctx.pungs if b.first == 32)


@pattern("red_pung")
def red_pung(ctx: Ctx) -> int:
    return sum(1 for b in ctx.pungs if b.first == 33)


@pattern("seat_wind_pung")
def seat_wind_pung(ctx: Ctx) -> int:
    return sum(1 for b in ctx.pungs if b.first == ctx.win.seat_wind)


@pattern("round_wind_pung")
def round_wind_pung(ctx: Ctx) -> int:
    return sum(1 for b in ctx.pungs if b.first == ctx.win.round_wind)


@pattern("wind_pung")
def wind_pung(ctx: Ctx, *, kind: str = "4z") -> int:
    """A pung of one given wind (sanma's North, a house wind fan)."""
    from mjtools.tiles import parse_kind

    k = parse_kind(kind)
    return sum(1 for b in ctx.pungs if b.first == k)


@pattern("big_three_dragons")
def big_three_dragons(ctx: Ctx) -> int:
    return int(sum(1 for b in ctx.pungs if b.first in DRAGONS) == 3)


@pattern("little_three_dragons")
def little_three_dragons(ctx: Ctx) -> int:
    pungs = sum(1 for b in ctx.pungs if b.first in DRAGONS)
    return int(pungs == 2 and ctx.pair is not None and ctx.pair.first in DRAGONS)


@pattern("big_four_winds")
def big_four_winds(ctx: Ctx) -> int:
    return int(sum(1 for b in ctx.pungs if b.first in WINDS) == 4)


@pattern("little_four_winds")
def little_four_winds(ctx: Ctx) -> int:
    pungs = sum(1 for b in ctx.pungs if b.first in WINDS)
    return int(pungs == 3 and ctx.pair is not None and ctx.pair.first in WINDS)
