"""Where the winning kind sits among a reading's concealed sets and pair (its wait role): a
chow's edge, its middle, or the pair. Ctx reads it for the role bits (独听's 边张, 嵌张, 单钓将)."""

from __future__ import annotations

from mjtools.analysis.blocks import CHOW, PAIR, Block
from mjtools.tiles.hand import Hand


def wait_role(hand: Hand, blocks: tuple[Block, ...]) -> str | None:
    """Where the winning kind sits among the concealed sets and pair of a reading: the edge of
    a chow before its middle before the pair (one role only, the first that applies)."""
    last = hand.last
    if last is None:
        return None
    k = last.kind
    closed = pair = False
    for b in blocks:
        bk = b.kinds
        if k not in bk or b.meld is not None:
            continue
        if b.shape == CHOW:
            if bk[1] != k:
                return "edge"  # an edge comes first: nothing below can change the role
            closed = True
        elif b.shape == PAIR:
            pair = True
    return "closed" if closed else "pair" if pair else None

