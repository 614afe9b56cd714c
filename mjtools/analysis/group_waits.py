"""Per-group facts of the standard form: whether a suit's (or the honors') counts split into
sets, or sets and a pair, which kinds' extra tile mends them, and the same kept by the group's
packed counts (`_standard_waits`: the waits of 34 kinds' counts from four look-ups). Read by
`waits` (complete, 独听, 组合龙's waits): kept apart so that module stays within bounds."""

from __future__ import annotations

from functools import cache


@cache
def _sets_only(c: tuple[int, ...], chows: bool) -> bool:
    """Whether one group's counts split into pungs and (if `chows`) chows."""
    i = next((j for j, n in enumerate(c) if n), None)
    if i is None:
        return True
    if c[i] >= 3 and _sets_only(c[:i] + (c[i] - 3,) + c[i + 1 :], chows):
        return True
    if chows and i + 2 < len(c) and c[i + 1] and c[i + 2]:
        rest = list(c)
        for j in (i, i + 1, i + 2):
            rest[j] -= 1
        return _sets_only(tuple(rest), chows)
    return False


@cache
def _sets_and_pair(c: tuple[int, ...], chows: bool) -> bool:
    return any(n >= 2 and _sets_only(c[:i] + (n - 2,) + c[i + 1 :], chows) for i, n in enumerate(c))


GROUPS = ((0, 9), (9, 18), (18, 27), (27, 34))


@cache
def _group_state(c: tuple[int, ...], chows: bool) -> int:
    """0: the group splits into sets; 2: into sets and one pair; -1: neither."""
    n = sum(c) % 3
    if n == 0:
        return 0 if _sets_only(c, chows) else -1
    if n == 2:
        return 2 if _sets_and_pair(c, chows) else -1
    return -1


@cache
def _group_facts(c: bytes, chows: bool) -> tuple[int, tuple[int, ...], tuple[int, ...]]:
    """A group's state and the offsets whose extra tile leaves it in sets only, or in sets and
    a pair (`_group_waits`), for one group's counts as bytes."""
    t = tuple(c)
    return _group_state(t, chows), _group_waits(t, chows, 0), _group_waits(t, chows, 2)


@cache
def _group_waits(c: tuple[int, ...], chows: bool, want: int) -> tuple[int, ...]:
    """The offsets in one group whose extra tile leaves it in state `want` (0: sets only, 2:
    sets and a pair). Only kinds next to a held one can; the answer depends on the group's
    counts alone, so it is worked out once per group shape, like `_group_state`."""
    near = {j for i, n in enumerate(c) if n for j in (range(i - 2, i + 3) if chows else (i,)) if 0 <= j < len(c)}
    out = []
    for off in sorted(near):
        more = list(c)
        more[off] += 1
        if _group_state(tuple(more), chows) == want:
            out.append(off)
    return tuple(out)


# Per group (m p s z): its counts as an integer (a byte per kind; no bytes slice to hash) ->
# (code: 0 sets, 16 sets and a pair, 1 neither, which four groups add up, `_PICK`; then the
# kinds whose extra tile leaves it in sets only / sets and a pair (`_group_facts`) as 34-bit
# masks, at 1, 2 for a group that does not split, at 3, 4 for a group with a pair, else 0).
_FACTS: tuple[dict[int, tuple[int, int, int, int, int]], ...] = ({}, {}, {}, {})
_GET0, _GET1, _GET2, _GET3 = (table.get for table in _FACTS)  # (bound once: the tables are cleared, never replaced)
_M9 = (1 << 72) - 1  # one suit's nine bytes
# The drawn tile goes to one group, every other one already splits (a pair at most). By the
# codes' sum: the group that does not split mends into sets and a pair (1) or sets (17); with
# none, a pair group's pair becomes a set (32), or (16: never by the counts, as the search
# has it) stays a pair. Any other sum: no wait.
_PICK = tuple({1: 2, 17: 1, 16: 4, 32: 3}.get(s, 0) for s in range(65))


def _facts_of(g: int, part: int) -> tuple[int, int, int, int, int]:
    state, sets, pair = _group_facts(part.to_bytes(9 if g < 3 else 7, "little"), g < 3)
    sets_mask, pair_mask = sum(1 << (9 * g + o) for o in sets), sum(1 << (9 * g + o) for o in pair)
    got = (1, sets_mask, pair_mask, 0, 0) if state == -1 else (16, 0, 0, sets_mask, pair_mask) if state == 2 else (0, 0, 0, 0, 0)
    table = _FACTS[g]
    if len(table) > 1 << 16:
        table.clear()
    table[part] = got
    return got


def _standard_waits(c: int) -> int:
    """The kinds (a 34-bit mask) whose draw leaves the packed counts `c` (34 kinds) in sets and
    one pair: four group look-ups, their codes' sum picks the masks (`_PICK`)."""
    g0 = _GET0(x := c & _M9) or _facts_of(0, x)
    g1 = _GET1(x := c >> 72 & _M9) or _facts_of(1, x)
    g2 = _GET2(x := c >> 144 & _M9) or _facts_of(2, x)
    g3 = _GET3(x := c >> 216) or _facts_of(3, x)
    i = _PICK[g0[0] + g1[0] + g2[0] + g3[0]]
    return g0[i] | g1[i] | g2[i] | g3[i] if i else 0


def _sets_and_pair_packed(c: int) -> bool:
    """Whether the packed counts `c` (34 kinds) split into sets and exactly one pair."""
    s = (_GET0(x := c & _M9) or _facts_of(0, x))[0] + (_GET1(x := c >> 72 & _M9) or _facts_of(1, x))[0]
    return s + (_GET2(x := c >> 144 & _M9) or _facts_of(2, x))[0] + (_GET3(x := c >> 216) or _facts_of(3, x))[0] == 16
