"""Waits counted only when one kind alone could win (Chinese Official's 边张, 嵌张, 单钓将), and
the last tile of its kind (和绝张)."""

from __future__ import annotations

from mjtools.patterns import pattern
from mjtools.patterns.ctx import Ctx
from mjtools.patterns.features import BIT, is_last_of_kind

# The last hand asked about: every reading of one hand asks the same question, and finding a
# second wait is the costly part. [hand, spec, live, answer]: keeps the hand and the spec, so
# their ids are not reused.
_LAST: list = [None, None, None, 0]


_OTHER_WAIT: list = []  # analysis.waits.other_wait_exists, imported on first use (it loads the shanten tables)


def _wait_needs(*, shape: str = "pair", live: bool = True) -> int:
    """The role of the winning kind in the reading (ctx.role, patterns/ctx.py wait_role) is the
    shape; an edge or a middle is a chow's."""
    return BIT.get("role_" + shape, 0) | (BIT["chow"] if shape in ("edge", "closed") else 0)


@pattern("sole_wait", needs_of=_wait_needs)
def sole_wait(ctx: Ctx, *, shape: str = "pair", live: bool = True) -> int:
    """Won on the only kind that could complete the hand (独听), the winning tile being a chow's
    end (shape edge: 12 waiting on 3), its middle (closed: 13 waiting on 2) or the partner of a
    single tile (pair: 单钓将). A tile the reading can place in several of these counts once:
    as an edge before a middle before a pair. Combined waits that add no other kind count
    (1233 waits on 3 alone: an edge). `live: false`: a kind whose four tiles the winner holds
    still counts as another wait."""
    try:
        role = ctx._role  # (set with the reading's features where the role bits are used)
    except AttributeError:
        role = ctx.role
    if role != shape:
        return 0
    # (the last answer's test written out here, and no int(): a call each, on every reading
    # with the role)
    last = _LAST
    hand = ctx.hand
    if last[0] is hand and last[1] is ctx.spec and last[2] == live:
        return last[3]
    if not _OTHER_WAIT:
        from mjtools.analysis.waits import other_wait_exists

        _OTHER_WAIT.append(other_wait_exists)
    only = 0 if _OTHER_WAIT[0](ctx, live) else 1
    last[0], last[1], last[2], last[3] = hand, ctx.spec, live, only
    return only


@pattern("last_of_kind", needs=("last_of_kind",), exact=True)
def last_of_kind(ctx: Ctx) -> int:
    """Won on the last tile of its kind (和绝张): the other three are out in the open. Given as
    --situation last_of_kind, or seen: three copies in the winner's melds and --visible. Never
    while the winner keeps a copy among his concealed tiles. (A fact of the hand: the hand bit
    `last_of_kind` says it, so the plan calls this only on wildcard readings.)"""
    return int(is_last_of_kind(ctx.hand, ctx.win))
