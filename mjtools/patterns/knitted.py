"""Knitted shapes (Chinese Official): 组合龙 in a hand of sets, 全不靠 and 七星不靠.

A knitted straight is 147, 258 and 369, each in a different suit. The `knitted` form (全不靠,
pattern `knitted` in special.py) holds fourteen different tiles from one knitted straight and
the honors; the `knitted_straight` form holds a whole knitted straight, one set and a pair.
"""

from __future__ import annotations

from mjtools.analysis.blocks import CHOW
from mjtools.patterns import pattern
from mjtools.patterns.ctx import Ctx


def _whole_straight(ctx: Ctx) -> bool:
    """A 全不靠 reading that holds all nine tiles of its knitted straight."""
    return sum(1 for k in ctx.kind_set if k < 27) == 9


@pattern("knitted_straight", needs=("knit",))
def knitted_straight(ctx: Ctx, *, all_chows: bool = False) -> int:
    """A whole knitted straight (组合龙): the knitted_straight form, or a 全不靠 with all nine of
    its number tiles. `all_chows`: only the knitted_straight form whose other set is a chow and
    whose pair is of a number tile (平和 in that form)."""
    if ctx.form == "knitted_straight":
        if not all_chows:
            return 1
        pair = ctx.pair
        return int(len(ctx.sets) == 1 and ctx.sets[0].shape == CHOW and pair is not None and pair.kinds[0] < 27)
    return int(not all_chows and ctx.form == "knitted" and _whole_straight(ctx))


@pattern("knitted_seven_honors", needs=("knit",))
def knitted_seven_honors(ctx: Ctx) -> int:
    """全不靠 holding all seven honors (七星不靠)."""
    return int(ctx.form == "knitted" and all(k in ctx.kind_set for k in range(27, 34)))
