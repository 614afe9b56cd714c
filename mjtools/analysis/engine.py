"""Analysis entry points that pick the fast path (`fast.py`) when it covers the shape spec.

Same signatures and results as the general functions in `shanten.py` and `waits.py`; the
general path answers whenever the fast path declines (wildcards, shape requirements, a
declared void, special forms).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from mjtools.analysis import fast
from mjtools.analysis.shapes import ShapeSpec
from mjtools.analysis.state import HandState
from mjtools.tiles.hand import Hand

# The general engine (`shanten.py`, `waits.py` and what they use) is imported only when the
# fast path declines: a single command on the common spec never loads it.


def shanten_of_state(st: HandState, spec: ShapeSpec, void: int | None = None) -> tuple[int, dict[str, int | None]]:
    got = fast.shanten_of_state(st, spec, void)
    if got is not None:
        return got
    from mjtools.analysis import shanten

    return shanten.shanten_of_state(st, spec, void)


def effective(st: HandState, spec: ShapeSpec, copies: list[int], void: int | None = None) -> list[int]:
    got = fast.effective_of_state(st, spec, copies, void)
    if got is not None:
        return got
    from mjtools.analysis import shanten

    return shanten.effective(st, spec, copies, void)


def discard_table(st: HandState, spec: ShapeSpec, copies: list[int], unseen: list[int], void: int | None = None, discardable: Callable[[int], bool] | None = None) -> list[dict]:
    got = fast.discard_table(st, spec, copies, unseen, void, discardable)
    if got is not None:
        return got
    from mjtools.analysis import shanten

    return shanten.discard_table(st, spec, copies, unseen, void, discardable)


def waits_of(st: HandState, spec: ShapeSpec, copies: list[int], void: int | None = None) -> list[int]:
    got = fast.waits_of_state(st, spec, copies, void)
    if got is not None:
        return got
    from mjtools.analysis import waits

    return waits.waits_of(st, spec, copies, void)


def improvements(hand: Hand, st: HandState, spec: ShapeSpec, copies: Sequence[int], left: Sequence[int], void: int | None) -> list[dict[str, Any]] | None:
    """Fast `analysis.improvements` on counts; None when the fast path does not cover the hand."""
    from mjtools.tiles.kinds import kind_str

    eng = fast.engine_for(spec)
    if eng is None or void is not None or st.wild or max(copies[:34]) > 4:
        return None
    if any(t.kind >= 34 for t in hand.hand_tiles()):
        return None
    c, held = list(st.counts), list(st.held)
    drawable = fast.drawable(eng, held, copies)

    def live_waits(c2: list[int], k: int, t: int) -> int:
        # The drawable set changes only at the drawn and the discarded kind.
        d = drawable
        for x, h in ((k, held[k] + 1 - (t == k)), (t, held[t] - 1 + (t == k))):
            if eng.kinds_mask >> x & 1:
                d = d | (1 << x) if h < copies[x] else d & ~(1 << x)
        return eng.waits_mask(c2, st.melds, d)

    base = sum(left[x] for x in fast.kinds_of(eng.waits_mask(c, st.melds, drawable)))
    out = []
    for k in sorted(spec.kinds):
        if left[k] <= 0:
            continue
        c[k] += 1
        best: tuple[int, str, list[str]] | None = None
        for t in range(34):
            if t == k or not c[t]:
                continue
            c[t] -= 1
            w = fast.kinds_of(live_waits(c, k, t))
            c[t] += 1
            live = sum(left[x] - (1 if x == k else 0) for x in w)
            if live > base and (best is None or live > best[0]):
                best = (live, kind_str(t), [kind_str(x) for x in w])
        c[k] -= 1
        if best:
            out.append({"draw": kind_str(k), "discard": best[1], "waits": best[2], "live_count": best[0]})
    out.sort(key=lambda r: -r["live_count"])
    return out
