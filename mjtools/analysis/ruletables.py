"""Group tables for the shape rules, in the form of the shipped ones (`tables.py`).

A shipped table is a pair (pattern key -> local id, local id -> global vector id). Two shape
rules need vectors the shipped file does not hold:

- honor chows (南昌 字牌顺: three different winds, or 中发白): the vector of an honor pattern is
  searched once (`groupdp.honor_chow_gid`) and kept; `HonorChowIds` answers `ids[key]` with
  the global id itself, and `IDENTITY` stands for the local -> global list;
- split requirements (八枝: N tiles of one suit; 不允许缺门: every suit used): a reading asks
  some groups to hold at least so many tiles, which blanks the (sets, pairs) entries holding
  fewer (`shanten._masked`); `Masked` maps a table's local ids to the blanked vectors.

`group_table(variant, kinds, checks)` returns the pair for any group of any reading, so the
incremental analysis (`sim/fastshape.py`) reads every rule file's groups the same way.
"""

from __future__ import annotations

from mjtools.analysis import groupdp, tables

_IDS: dict[tuple, object] = {}
_MASKED: dict[tuple, object] = {}


class _Identity:
    """A local -> global list whose local ids are global ids already."""

    __slots__ = ()

    def __getitem__(self, gid: int) -> int:
        return gid


IDENTITY = _Identity()


class HonorChowIds:
    """Pattern key -> global vector id of an honor group in which honor chows count. No set
    spans winds and dragons, so each part is searched apart (at most 5^4 and 5^3 patterns)
    and the two vectors combine as two groups do."""

    __slots__ = ("kinds", "pair", "memo", "parts")

    def __init__(self, kinds: tuple[int, ...], pair: bool):
        self.kinds = kinds
        self.pair = pair
        self.memo: dict[int, int] = {}
        # per part (winds, dragons): its kinds and their positions in the group's key
        self.parts = [(tuple(kinds[i] for i in idx), idx, {}) for sub in (groupdp.WINDS, groupdp.DRAGONS) if (idx := tuple(i for i, k in enumerate(kinds) if k in sub))]

    def __getitem__(self, key: int) -> int:
        got = self.memo.get(key)
        if got is None:
            gid = tables.ZERO  # (the neutral element of combine)
            for sub, idx, memo in self.parts:
                counts = tuple(key // tables.POW5[i] % 5 for i in idx)
                part = memo.get(counts)
                if part is None:
                    part = memo[counts] = groupdp.honor_chow_gid(sub, counts, self.pair)
                gid = tables.combine(gid, part)
            got = self.memo[key] = gid
        return got


class Masked:
    """A local -> global list whose vectors are blanked where a split requirement fails."""

    __slots__ = ("base", "checks", "memo")

    def __init__(self, base, checks: tuple):
        self.base = base
        self.checks = checks
        self.memo: dict[int, int] = {}

    def __getitem__(self, local: int) -> int:
        got = self.memo.get(local)
        if got is None:
            from mjtools.analysis.shanten import _masked

            got = self.memo[local] = _masked(self.base[local], self.checks)
        return got


def group_table(variant: str, kinds: tuple[int, ...], checks: tuple | None = None) -> tuple[object, object]:
    """(ids, to_global) of one group of a reading: a shipped table, the searched honor-chow
    vectors, either blanked by a split requirement's checks."""
    if variant.startswith("honor_chow"):
        key = (variant, kinds)
        ids = _IDS.get(key)
        if ids is None:
            ids = _IDS[key] = HonorChowIds(kinds, not variant.endswith("_nopair"))
        tg: object = IDENTITY
    else:
        ids, tg = tables.table(variant)
    if checks:
        mk = (id(tg), checks)
        got = _MASKED.get(mk)
        if got is None:
            got = _MASKED[mk] = Masked(tg, checks)
        tg = got
    return ids, tg


# -- copies a wildcard may not be -------------------------------------------------------------

_CAPPED: dict[tuple, int] = {}
CAPPED_LIMIT = 1 << 16
PREFIX_LIMIT = 1 << 13  # prefixes kept by `_capped_vec` (each holds up to ~100 states)


def capped_gid(variant: str, kinds: tuple[int, ...], counts: tuple[int, ...], caps: tuple[int, ...], top: int = tables.MAX_SETS) -> int:
    """Global vector id of a group whose targets hold at most caps[i] copies of its i-th kind
    (the copies the melds leave): the targets with no position `groupdp.py` counts as drawn
    only, with at most `top` sets (entries beyond are left unfilled). Searched once per
    (pattern, caps, top) and kept."""
    key = (variant, kinds, counts, caps, top)
    got = _CAPPED.get(key)
    if got is None:
        if variant.startswith("honor_chow"):
            rules = groupdp.Rules(False, True, False, 0)
            melds = tuple(4 - c for c in caps)
            vec = groupdp.honor_chow_vec(kinds, counts, melds, not variant.endswith("_nopair"), tables.MAX_SETS, rules)
            flat = [tables.INF] * tables.WIDTH
            for (m, p), front in vec.items():
                flat[2 * m + p] = min((d for d, n, _e in front if n == 0), default=tables.INF)
        else:
            from mjtools.analysis.shanten import _family

            chows, pair_ok = _family(variant, len(kinds))
            flat = _capped_vec(counts, caps, chows, pair_ok, top) if chows else _capped_pungs(counts, caps, pair_ok)
        if len(_CAPPED) >= CAPPED_LIMIT:
            _CAPPED.clear()
        got = _CAPPED[key] = tables.intern(tuple(flat))
    return got


_STEPS: dict[tuple, dict[int, tuple[tuple[int, int], ...]]] = {}
_PREFIX: dict[tuple, tuple[int, dict[int, int]]] = {}
_NEXT_NODE = [1]


def _step(c: int, cap: int, room1: int, room2: int, can_chow: bool, pair: bool, top: int) -> dict[int, tuple[tuple[int, int], ...]]:
    """One position of `_capped_vec`: per state, its successors and what each adds (kept
    per (held, cap, room at the next two positions, chows, pair, top), each state's entry
    made by `_outs` when a search first reaches it: of the 200 states a handful are)."""
    key = (c, cap, room1, room2, can_chow, pair, top)
    got = _STEPS.get(key)
    if got is None:
        got = _STEPS[key] = {}
    return got


def _outs(st: int, c: int, cap: int, room1: int, room2: int, can_chow: bool, pair: bool, top: int) -> tuple[tuple[int, int], ...]:
    """The successors of state `st` (packed as in `_capped_vec`) at one position, and what
    each adds."""
    a, b, m, p = st >> 8, st >> 5 & 7, st >> 1 & 15, st & 1
    base = a + b
    pairs = (0, 1) if pair else (0,)
    outs = []
    kmax = min(cap - base, room1 - a, room2, top - m) if can_chow else 0
    for k in range(kmax + 1):
        for t in (0, 1):
            mm = m + k + t
            if mm > top:
                break
            for pr in pairs:
                if pr and p:
                    break
                need = base + k + 3 * t + 2 * pr
                if need > cap:
                    break
                outs.append((k << 8 | a << 5 | mm << 1 | (p | pr), need - c if need > c else 0))
    return tuple(outs)


def _capped_vec(counts: tuple[int, ...], caps: tuple[int, ...], chows: bool, pair_ok: tuple[bool, ...], top: int = tables.MAX_SETS) -> list[int]:
    """Least tiles to add per (sets, pairs) over targets within the caps, with at most `top`
    sets (a DP over positions: a chow started at position i also needs i + 1 and i + 2).
    States are (chows started at i - 1, at i - 2, sets, pair) packed in one int; each
    position's transitions come from `_step`, and the states after each prefix are kept
    (`_PREFIX`, keyed by the node of the prefix before it): the hands a decision asks about
    differ in a kind or two, so most of their prefixes were worked out already."""
    inf = tables.INF
    n = len(counts)
    states: dict[int, int] = {0: 0}
    node = 0
    prefix = _PREFIX
    if len(prefix) >= PREFIX_LIMIT:
        prefix.clear()  # (node numbers are never reused, so no stale entry can match)
    for i in range(n):
        sk = (counts[i], caps[i], caps[i + 1] if i + 1 < n else 0, caps[i + 2] if i + 2 < n else 0, chows and i <= n - 3, pair_ok[i], top)
        got = prefix.get((node, sk))
        if got is not None:
            node, states = got
            continue
        steps = _STEPS.get(sk)
        if steps is None:
            steps = _step(*sk)
        new: dict[int, int] = {}
        get = new.get
        for st, cost in states.items():
            outs = steps.get(st)
            if outs is None:
                outs = steps[st] = _outs(st, *sk)
            for key, add in outs:
                v = cost + add
                if v < get(key, inf):
                    new[key] = v
        nxt = _NEXT_NODE[0]
        _NEXT_NODE[0] = nxt + 1
        prefix[(node, sk)] = (nxt, new)
        node, states = nxt, new
    out = [inf] * tables.WIDTH
    for st, cost in states.items():
        if not st >> 5 and cost < out[st & 31]:  # no chow left open: entry 2 * sets + pair
            out[st & 31] = cost
    return out


_CAPPED_GAIN: dict[tuple, tuple[tuple[int, ...], tuple[int, ...]] | None] = {}


def capped_gain(variant: str, kinds: tuple[int, ...], counts: tuple[int, ...], caps: tuple[int, ...], top: int = tables.MAX_SETS) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """`capped_gid`'s vector with, per entry, the positions (bit i: kinds[i]) that some
    least-distance target of that entry holds more copies of than `counts`: one more copy of
    such a kind lowers the entry by one, of any other kind leaves it (a target's distance is
    the sum over positions of the copies it lacks). None for the honour-chow variants."""
    key = (variant, kinds, counts, caps, top)
    got = _CAPPED_GAIN.get(key, 0)
    if got == 0:
        if variant.startswith("honor_chow"):
            got = None
        else:
            from mjtools.analysis.shanten import _family

            chows, pair_ok = _family(variant, len(kinds))
            got = _gain_vec(counts, caps, chows, pair_ok, top)
        if len(_CAPPED_GAIN) >= CAPPED_LIMIT:
            _CAPPED_GAIN.clear()
        _CAPPED_GAIN[key] = got
    return got


def _gain_vec(counts: tuple[int, ...], caps: tuple[int, ...], chows: bool, pair_ok: tuple[bool, ...], top: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """`_capped_vec` (or `_capped_pungs`) carrying, per state, the union of the positions its
    least-cost paths lack copies at (equal costs merge their masks)."""
    inf = tables.INF
    n = len(counts)
    states: dict[int, tuple[int, int]] = {0: (0, 0)}
    for i in range(n):
        c = counts[i]
        bit = 1 << i
        if chows:
            sk = (c, caps[i], caps[i + 1] if i + 1 < n else 0, caps[i + 2] if i + 2 < n else 0, i <= n - 3, pair_ok[i], top)
            steps = _STEPS.get(sk)
            if steps is None:
                steps = _step(*sk)
        new: dict[int, tuple[int, int]] = {}
        for st, (cost, mask) in states.items():
            if chows:
                outs = steps.get(st)
                if outs is None:
                    outs = steps[st] = _outs(st, *sk)
            else:
                outs = _pung_outs(st, c, caps[i], pair_ok[i])
            for key, add in outs:
                v = cost + add
                mk = mask | bit if add else mask
                old = new.get(key)
                if old is None or v < old[0]:
                    new[key] = (v, mk)
                elif v == old[0] and mk | old[1] != old[1]:
                    new[key] = (v, mk | old[1])
        states = new
    out = [inf] * tables.WIDTH
    masks = [0] * tables.WIDTH
    for st, (cost, mask) in states.items():
        if st >> 5:
            continue  # a chow left open
        e = st & 31
        if cost < out[e]:
            out[e], masks[e] = cost, mask
        elif cost == out[e] < inf:
            masks[e] |= mask
    return tuple(out), tuple(masks)


def _pung_outs(st: int, c: int, cap: int, pair: bool) -> tuple[tuple[int, int], ...]:
    """A position of a group without chows (as `_capped_pungs`): nothing, a pung or the pair."""
    m, p = st >> 1 & 15, st & 1
    outs = [(st, 0)]
    if cap >= 3 and m < tables.MAX_SETS:  # (entries beyond `top` filled as `_capped_pungs` does)
        outs.append(((m + 1) << 1 | p, 3 - c if c < 3 else 0))
    if pair and cap >= 2 and not p:
        outs.append((m << 1 | 1, 2 - c if c < 2 else 0))
    return tuple(outs)


def _capped_pungs(counts: tuple[int, ...], caps: tuple[int, ...], pair_ok: tuple[bool, ...]) -> list[int]:
    """`_capped_vec` of a group without chows: each kind is a pung, the pair or nothing,
    independently, so the vectors of the kinds combine by (sets, pairs)."""
    inf = tables.INF
    width = tables.WIDTH
    acc = [0] + [inf] * (width - 1)
    for c, cap, pair in zip(counts, caps, pair_ok):
        pung = (3 - c if c < 3 else 0) if cap >= 3 else inf
        two = (2 - c if c < 2 else 0) if pair and cap >= 2 else inf
        new = list(acc)
        for i in range(width):
            a = acc[i]
            if a >= inf:
                continue
            if pung < inf and i + 2 < width and a + pung < new[i + 2]:
                new[i + 2] = a + pung
            if two < inf and not i & 1 and a + two < new[i + 1]:
                new[i + 1] = a + two
        acc = new
    return acc
