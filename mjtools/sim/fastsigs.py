"""Group signatures and the memos every `fastshape.Analyzer` shares: what depends only on
group vectors (global ids, `analysis.tables.VECTORS`), on signatures (a group pattern's vector
and its vectors after each one-tile draw) or on a group table and key is kept here once per
process, so that a variant's analyses per void suit and per plan meet the same patterns once.
"""

from __future__ import annotations

from operator import sub

from mjtools.analysis.tables import INF, VECTORS
from mjtools.sim.fastbase import MEMO_LIMIT

# What depends only on group vectors (global ids, `analysis.tables.VECTORS`) and signatures
# (a group pattern's vector and its vectors after each one-tile draw) is shared by every
# analysis in the process: a variant's analyses per void suit and per plan meet the same patterns.
_MEMO: dict[int, int] = {}  # (signature << 40 | rest << 4 | column) -> position mask (`_positions`)
_DIST: dict[tuple[int, ...], int] = {}  # (four group vectors, column) -> distance
_FINAL: dict[int, int] = {}  # (rest << 24 | vector << 4 | column) -> distance (`fastrows`)
_REST_MEMO: dict[int, list[int]] = {}  # four group vectors -> `_rests`
_SIG_IDS: dict[tuple[int, ...], int] = {}  # signature -> its id
_SIG_LIST: list[tuple[int, ...]] = []  # id -> signature
_SIG_DRAWS: list[tuple[tuple[int, int], ...]] = []  # id -> (vector a draw makes, positions making it)
_SIG_LOW: list[tuple[int, ...] | None] = []  # id -> `_lowered`
# A group pattern's signature depends only on its table, its group's size and its key, so
# table ids (per table and size) are global too (the tables kept alive here: an id is never
# reused) and so is the (table id, key) -> signature memo; likewise a group's raw counts -> key
# memo per (kinds' slice, kinds).
_TIDS: dict[tuple[int, int, int], tuple[int, object, object]] = {}  # (id(ids), id(to-global), size) -> (table id, ids, to-global)
_SIGS: dict[int, int] = {}  # (table id << 24 | pattern key) -> signature
_KEY_MEMOS: dict[tuple, dict[bytes, int]] = {}  # (first kind, end, kinds) -> raw counts -> key


def _table_id(ids: object, to_global: object, size: int) -> int:
    got = _TIDS.get((id(ids), id(to_global), size))
    if got is None:
        got = _TIDS[id(ids), id(to_global), size] = (len(_TIDS), ids, to_global)
    return got[0]


def _lowered(v0: int, draws: dict[int, int]) -> tuple[int, ...] | None:
    """Per entry of a group's vector (v0), the positions whose draw lowers it by one; None
    if a draw lowers an entry by more, or makes an unreachable one reachable (then
    `_positions` weighs each draw's vector whole)."""
    # (a draw lowers most entries: every entry starts with every draw's positions, and
    # those of the draws that leave it are taken out; each position makes one vector, so
    # the draws' masks are disjoint and xor takes one out)
    every = 0
    for where in draws.values():
        every |= where
    low = [every] * len(VECTORS[v0])
    for v, where in draws.items():
        stays = _FALLS.get(v0 << 20 | v)  # (vector pairs recur in signatures met for the first time)
        if stays is None:  # (also a pair that does not fall by one: none is met, so not kept apart)
            stays = _fall(v0, v)
        if stays is None:
            return None
        for x in stays:
            low[x] ^= where
    return tuple(low)


_FALLS: dict[int, tuple[int, ...] | None] = {}  # (vector << 20 | vector after a draw) -> `_fall`: the entries it leaves


def _fall(v0: int, v: int) -> tuple[int, ...] | None:
    """The entries of vector v0 that v does not lower (`_lowered`); None if v lowers one by
    more than one or makes an unreachable one reachable."""
    base = VECTORS[v0]
    fall = list(map(sub, base, VECTORS[v]))  # (how far the draw lowers each entry)
    out: tuple[int, ...] | None = None
    if max(fall) <= 1 and not any(f == 1 and b == INF for f, b in zip(fall, base)):  # (an unreachable entry made reachable)
        out = tuple(x for x, f in enumerate(fall) if f != 1)
    if len(_FALLS) >= MEMO_LIMIT:
        _FALLS.clear()
    if max(v0, v) < 1 << 20:
        _FALLS[v0 << 20 | v] = out
    return out


_POSITION_BITS = tuple(1 << i for i in range(10))  # a group position's bit
