"""Waits: which kinds complete a ready hand, and how many copies are still live."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mjtools.shanten import HandState, _add, candidate_kinds, distance
from mjtools.shapes import ShapeSpec

if TYPE_CHECKING:
    from mjtools.patterns.ctx import Ctx


def waits_of(st: HandState, spec: ShapeSpec, copies: list[int], void: int | None = None) -> list[int]:
    """Kinds that complete a hand of hand-size tiles (a kind whose copies are all held is out)."""
    out = []
    for k in candidate_kinds(spec):
        if st.held[k] >= copies[k]:
            continue
        _add(st, k, spec, 1)
        if distance(st, spec, void) <= st.wild:
            out.append(k)
        _add(st, k, spec, -1)
    return out


def waiting_kinds_before_win(ctx: Ctx) -> list[int]:
    """The waits the winner had before the winning tile (for 独听)."""
    from mjtools.shanten import state_of

    if ctx.spec is None or ctx.hand.last is None:
        return []
    before = ctx.hand.without_last()
    st = state_of(before, ctx.spec)
    return waits_of(st, ctx.spec, [4] * 50)
