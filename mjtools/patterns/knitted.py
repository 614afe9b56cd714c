"""Knitted shapes (Chinese Official): 组合龙 in a hand of sets, 全不靠 and 七星不靠.

A knitted straight is 147, 258 and 369, each in a different suit. The `knitted` form (全不靠,
pattern `knitted` in special.py) holds fourteen different tiles from one knitted straight and
the honors; the `knitted_straight` form holds a whole knitted straight, one set and a pair.
"""

from __future__ import annotations

from mjtools.analysis.blocks import CHOW
from mjtools.patterns import pattern
from mjtools.patterns.ctx import Ctx

_NUMBERS = frozenset(range(27))
_HONORS = frozenset(range(27, 34))


def _whole_straight(ctx: Ctx) -> bool:
    """A 全不靠 reading that holds all nine tiles of its knitted straight."""
    return len(ctx.kind_set & _NUMBERS) == 9


@pattern("knitted_straight", needs=("knit",))
def knitted_straight(ctx: Ctx, *, all_chows: bool = False) -> int:
    """A whole knitted straight (组合龙): the knitted_straight form, or a 全不靠 with all nine of
    its number tiles. `all_chows`: only the knitted_straight form whose other set is a chow and
    whose pair is of a number tile (平和 in that form)."""
    # (the form from the reading itself, not the property; no int(): a call each)
    form = ctx.d.form
    if form == "knitted_straight":
        if not all_chows:
            return 1
        pair = ctx.pair
        return 1 if len(ctx.sets) == 1 and ctx.sets[0].shape == CHOW and pair is not None and pair.kinds[0] < 27 else 0
    return 1 if not all_chows and form == "knitted" and _whole_straight(ctx) else 0


@pattern("knitted_seven_honors", needs=("knit",))
def knitted_seven_honors(ctx: Ctx) -> int:
    """全不靠 holding all seven honors (七星不靠)."""
    return 1 if ctx.d.form == "knitted" and ctx.kind_set >= _HONORS else 0
