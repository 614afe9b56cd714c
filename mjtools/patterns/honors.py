"""Patterns about wind and dragon sets."""

from __future__ import annotations

from mjtools.patterns import pattern
from mjtools.patterns.ctx import Ctx

DRAGONS = (31, 32, 33)
WINDS = (27, 28, 29, 30)


DRAGON_MASK = (1 << 31) | (1 << 32) | (1 << 33)
WIND_MASK = (1 << 27) | (1 << 28) | (1 << 29) | (1 << 30)


@pattern("dragon_pung", needs=("dragon_pung",))
def dragon_pung(ctx: Ctx) -> int:
    """Each pung or kong of dragons (三元牌刻 / 役牌)."""
    return (ctx.pung_mask & DRAGON_MASK).bit_count()


@pattern("white_pung", needs=("dragon_pung",))
def white_pung(ctx: Ctx) -> int:
    return ctx.pung_mask >> 31 & 1


@pattern("green_pung", needs=("dragon_pung",))
def green_pung(ctx: Ctx) -> int:
    return ctx.pung_mask >> 32 & 1


@pattern("red_pung", needs=("dragon_pung",))
def red_pung(ctx: Ctx) -> int:
    return ctx.pung_mask >> 33 & 1


@pattern("seat_wind_pung", needs=("wind_pung",))
def seat_wind_pung(ctx: Ctx) -> int:
    return ctx.pung_mask >> ctx.win.seat_wind & 1


@pattern("round_wind_pung", needs=("wind_pung",))
def round_wind_pung(ctx: Ctx) -> int:
    return ctx.pung_mask >> ctx.win.round_wind & 1


@pattern("wind_pung", needs=("wind_pung",))
def wind_pung(ctx: Ctx, *, kind: str = "4z") -> int:
    """A pung of one given wind (sanma's North, a house wind fan)."""
    from mjtools.tiles.kinds import parse_kind

    k = parse_kind(kind)
    return sum(1 for b in ctx.pungs if b.first == k)


@pattern("big_three_dragons", needs=("dragon_pung2", "pung3"))
def big_three_dragons(ctx: Ctx) -> int:
    return int(ctx.pung_mask & DRAGON_MASK == DRAGON_MASK)


@pattern("little_three_dragons", needs=("dragon_pung2",))
def little_three_dragons(ctx: Ctx) -> int:
    pungs = (ctx.pung_mask & DRAGON_MASK).bit_count()
    return int(pungs == 2 and ctx.pair is not None and ctx.pair.first in DRAGONS)


@pattern("big_four_winds", needs=("wind_pung3", "pung4"))
def big_four_winds(ctx: Ctx) -> int:
    return int(ctx.pung_mask & WIND_MASK == WIND_MASK)


@pattern("little_four_winds", needs=("wind_pung3", "pung3"))
def little_four_winds(ctx: Ctx) -> int:
    pungs = (ctx.pung_mask & WIND_MASK).bit_count()
    return int(pungs == 3 and ctx.pair is not None and ctx.pair.first in WINDS)
