"""Fans made of two, three or four sets of a reading (Chinese Official's set combinations).

Each pattern here is registered with its occurrences (`@instances`): every group of sets of
the reading that forms it, as indices into `ctx.sets`. The pattern's own count is the number of
such groups. A rule file that counts them under the account-once principle (`combine: sets`,
scoring/fans.py) chooses which groups count; one that does not just counts them.

Chows are named by their lowest kind (123m = 0); a chow's rank is that kind's place in its suit
(0 for 123, 6 for 789).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from itertools import combinations
from typing import Any

from mjtools.analysis.blocks import CHOW
from mjtools.patterns import HELD_IN, TableValue, instances, pattern
from mjtools.patterns.ctx import Ctx
from mjtools.patterns.features import ALL_FEATURES

Groups = tuple[tuple[int, ...], ...]
NONE: Groups = ()




def _suit(k: int) -> int:
    return k // 9


def _rank(k: int) -> int:
    return k % 9


@lru_cache(maxsize=2048)
def _chow_pair(a: int, b: int) -> str | None:
    """The fan two chows (lowest kinds a <= b) make: at most one."""
    if a == b:
        return "pure_double_chow"
    if a // 9 == b // 9:
        d = b - a
        if d == 3:
            return "short_straight"
        if d == 6 and a % 9 == 0:
            return "two_terminal_chows"
        return None
    return "mixed_double_chow" if a % 9 == b % 9 else None


@lru_cache(maxsize=8192)
def _chow_triple(a: int, b: int, c: int) -> str | None:
    sa, sb, sc = a // 9, b // 9, c // 9
    if sa == sb == sc:
        if a == b == c:
            return "pure_triple_chow"
        if b - a == c - b and b - a in (1, 2):
            return "pure_shifted_chows"
        if a % 9 == 0 and b == a + 3 and c == a + 6:
            return "pure_straight"
        return None
    if sa == sb or sb == sc or sa == sc:
        return None
    ranks = sorted((a % 9, b % 9, c % 9))
    if ranks[0] == ranks[2]:
        return "mixed_triple_chow"
    if ranks == [0, 3, 6]:
        return "mixed_straight"
    if ranks[1] == ranks[0] + 1 and ranks[2] == ranks[1] + 1:
        return "mixed_shifted_chows"
    return None


@lru_cache(maxsize=8192)
def _chow_quad(ks: tuple[int, ...], pair: int | None) -> str | None:
    a, b, c, d = ks
    suits = {k // 9 for k in ks}
    if len(suits) == 1:
        if a == b == c == d:
            return "quadruple_chow"
        step = b - a
        if step in (1, 2) and c - b == step and d - c == step:
            return "four_pure_shifted_chows"
    if pair is None or pair >= 27 or pair % 9 != 4:
        return None
    if len(suits) == 1 and a == b and c == d and a % 9 == 0 and c == a + 6 and pair // 9 == a // 9:
        return "pure_terminal_chows"
    if len(suits) == 2 and pair // 9 not in suits and all(sorted(k % 9 for k in ks if k // 9 == s) == [0, 6] for s in suits):
        return "three_suited_terminal_chows"
    return None


@lru_cache(maxsize=8192)
def _pung_group(ks: tuple[int, ...]) -> str | None:
    """The fan 2-4 pungs (kinds in increasing order) make: at most one."""
    n = len(ks)
    if ks[-1] >= 27:
        if ks[0] < 27:
            return None
        if ks[-1] <= 30:
            return "big_three_winds" if n == 3 else "big_four_winds" if n == 4 else None
        if ks[0] >= 31:
            return "two_dragon_pungs" if n == 2 else "big_three_dragons"
        return None
    suits = {k // 9 for k in ks}
    ranks = sorted(k % 9 for k in ks)
    consecutive = all(y == x + 1 for x, y in zip(ranks, ranks[1:]))
    if len(suits) == n:
        if ranks[0] == ranks[-1]:
            return "double_pung" if n == 2 else "triple_pung"
        return "mixed_shifted_pungs" if n == 3 and consecutive else None
    if len(suits) == 1 and consecutive and n >= 3:
        return "pure_shifted_pungs" if n == 3 else "four_pure_shifted_pungs"
    return None


@lru_cache(maxsize=32768)
def _chow_structure(starts: tuple[int, ...], pair: int | None) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """The fans groups of chows make, as (fan, positions in `starts`), for chows named by their
    lowest kinds in increasing order; `pair` is the pair's kind where it can matter (a 5)."""
    out = []
    n = len(starts)
    for size, label in ((2, _chow_pair), (3, _chow_triple)):
        for group in combinations(range(n), size):
            fan = label(*(starts[i] for i in group))
            if fan is not None:
                out.append((fan, group))
    for group in combinations(range(n), 4):
        fan = _chow_quad(tuple(starts[i] for i in group), pair)
        if fan is not None:
            out.append((fan, group))
    return tuple(out)


@lru_cache(maxsize=32768)
def _pung_structure(kinds: tuple[int, ...]) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """As _chow_structure, for pungs (and kongs) named by their kinds in increasing order."""
    out = []
    for size in range(2, len(kinds) + 1):
        for group in combinations(range(len(kinds)), size):
            fan = _pung_group(tuple(kinds[i] for i in group))
            if fan is not None:
                out.append((fan, group))
    return tuple(out)


# relations by what it reads of a reading: each set's lowest kind and whether it is a chow, in
# the order of ctx.sets, and the pair's kind where it can matter (a 5). Shared, never mutated.
_RELATIONS: dict[tuple[tuple[int, ...], int | None], dict[str, tuple[tuple[int, ...], ...]]] = {}


def relations(ctx: Ctx) -> dict[str, tuple[tuple[int, ...], ...]]:
    """Every group of 2-4 sets of the reading that makes a fan, by fan, as indices into
    ctx.sets (worked out once per reading: the patterns below and the scorer's account-once
    choice all read it; remembered across hands by the sets' kinds)."""
    # (kept as attributes, Ctx's class defaults None until set: reading ctx.__dict__ would make
    # the instance a dict of its own, and every later attribute read slower)
    got = ctx._relations
    if got is not None:
        return got
    sig = []
    for b in ctx.sets:
        ks = b.kinds
        sig.append(ks[0] * 2 + (b.shape == CHOW) if ks else -1)
    p = ctx.pair
    pk = p.kinds[0] if p is not None and p.kinds else None
    key = (tuple(sig), pk if pk is not None and pk < 27 and pk % 9 == 4 else None)
    got = _RELATIONS.get(key)
    if got is None:
        if len(_RELATIONS) > 8192:
            _RELATIONS.clear()
        got = _RELATIONS[key] = _relations(ctx)
    ctx._relations = got
    ctx._relations_key = key
    return got


def relations_key(ctx: Ctx) -> tuple:
    """The key relations(ctx) is remembered by, which says it (and so every occurrence read
    from it)."""
    got = ctx._relations_key
    if got is None:
        relations(ctx)
        got = ctx._relations_key
    return got  # type: ignore[return-value]


# relations' fans with their counts, by the reading's sets in no particular order (sets_key):
# what the fan plan reads for every reading; the groups themselves only on a memo's miss.
_FANS: dict[Any, TableValue] = {}


def sets_key(ctx: Ctx) -> Any:
    """What relations reads of a reading, in no particular order of its sets: the chows' lowest
    kinds (a mask where no chow repeats; else the sorted kinds), the pungs' kinds as a mask (no
    kind makes two pungs without wildcards), the pair's kind where it can matter (a 5); one
    non-negative integer below 2**64 where the chows are five or fewer. Every
    fan relations holds and its count follow from it, and so does every choice made over its
    groups up to the sets' order (INSTANCES_KEY). Wildcard readings (sets without kinds, a kind
    pung twice) fall back on relations_key."""
    got = ctx._sets_key
    if got is not None:
        return got
    if ctx.features == ALL_FEATURES:
        got = (None, relations_key(ctx))
    else:
        p = ctx.pair
        pk = p.kinds[0] if p is not None and p.kinds else None
        five = pk if pk is not None and pk < 27 and pk % 9 == 4 else None
        # One integer (the chows: a mask of their kinds, < 27; the pung mask above it; the 5's
        # suit 1-3 above that): a memo compares it without following pointers into a tuple's
        # items. Where a chow repeats, the chows as their sorted kinds + 1, 5 bits each (up to
        # five chows: 25 bits), and bit 63 set; more chows, a tuple.
        chows = ctx.chows
        if not ctx.chow_pairs:
            got = ctx.chow_mask | ctx.pung_mask << 27
        elif len(chows) <= 5:  # (a chow twice or more)
            got = 0
            for k in sorted([b.kinds[0] for b in chows]):
                got = got << 5 | k + 1
            got |= ctx.pung_mask << 27 | _REPEATED
        else:
            got = (tuple(sorted([b.kinds[0] for b in chows])), ctx.pung_mask, five)
            five = None
        if five is not None:
            got |= (five // 9 + 1) << 61
    ctx._sets_key = got
    return got


_REPEATED = 1 << 63  # (sets_key: a chow repeats)


def relations_fans(ctx: Ctx) -> TableValue:
    """The fans relations(ctx) holds, with their counts (the number of groups of each): the
    table the fan plan reads, remembered by sets_key."""
    got = ctx._relation_fans
    if got is None:
        key = sets_key(ctx)
        got = _FANS.get(key)
        if got is None:
            if len(_FANS) > 8192:
                _FANS.clear()
            got = _FANS[key] = TableValue({fan: len(groups) for fan, groups in relations(ctx).items()})
        ctx._relation_fans = got
    return got


# The table holds a fan's id only where the fan occurs (a count of one group or more): the fan
# plan counts a fan over it that does not count instances without calling it (Plan.table_sure).
relations_fans.held_means_found = True  # type: ignore[attr-defined]


def _relations(ctx: Ctx) -> dict[str, tuple[tuple[int, ...], ...]]:
    out: dict[str, list[tuple[int, ...]]] = {}
    chows = []
    pungs = []
    for i, b in enumerate(ctx.sets):
        ks = b.kinds
        if ks:
            (chows if b.shape == CHOW else pungs).append((ks[0], i))
    for items, structure in ((chows, _chow_structure), (pungs, _pung_structure)):
        if len(items) < 2:
            continue
        items.sort()
        kinds = tuple(k for k, _ in items)
        if structure is _chow_structure:
            p = ctx.pair
            pair = p.kinds[0] if len(items) >= 4 and p is not None and p.kinds and p.kinds[0] < 27 and p.kinds[0] % 9 == 4 else None
            found = _chow_structure(kinds, pair)
        else:
            found = _pung_structure(kinds)
        for fan, group in found:
            idx = tuple(sorted(items[j][1] for j in group))
            got = out.get(fan)
            if got is None:
                out[fan] = [idx]
            else:
                got.append(idx)
    return {fan: tuple(groups) for fan, groups in out.items()}


def _of(fan: str) -> Callable[[Ctx], Groups]:
    def fn(ctx: Ctx) -> Groups:
        return tuple(relations(ctx).get(fan, NONE))

    return fn


# -- the fans (registered with their occurrences) ----------------------------------------------

_NEW = {
    # two chows
    "mixed_double_chow": (("chow2",), "Two chows of the same numbers in two suits (喜相逢)."),
    "short_straight": (("chow2",), "Two chows of one suit that run on into each other, 123 and 456 (连六)."),
    "two_terminal_chows": (("chow2",), "123 and 789 of one suit (老少副)."),
    # three chows
    "pure_triple_chow": (("chow3", "dup_chow"), "Three identical chows (一色三同顺)."),
    "pure_shifted_chows": (("chow3",), "Three chows of one suit, each one (or each two) up from the last: 123 234 345, or 123 345 567 (一色三步高)."),
    "mixed_shifted_chows": (("chow3", "three_suits"), "Three chows in the three suits, their numbers each one up from another's: 123m 234p 345s in any order of suits (三色三步高)."),
    # four chows
    "quadruple_chow": (("chow3", "dup_chow"), "Four identical chows (一色四同顺)."),
    "four_pure_shifted_chows": (("chow3",), "Four chows of one suit, each one (or each two) up from the last (一色四步高)."),
    "pure_terminal_chows": (("chow3", "dup_chow", "one_suit", "no_honor"), "123 123 789 789 and a pair of 5, all of one suit (一色双龙会)."),
    "three_suited_terminal_chows": (("chow3", "three_suits", "no_honor"), "123 and 789 in each of two suits and a pair of 5 in the third (三色双龙会)."),
    # pungs
    "double_pung": (("pung",), "Two pungs (or kongs) of the same number in two suits (双同刻)."),
    "pure_shifted_pungs": (("pung3",), "Three pungs of one suit with consecutive numbers, 111 222 333 (一色三节高)."),
    "mixed_shifted_pungs": (("pung3", "three_suits"), "Three pungs in the three suits with consecutive numbers in any order of suits (三色三节高)."),
    "four_pure_shifted_pungs": (("pung4",), "Four pungs of one suit with consecutive numbers (一色四节高)."),
    "big_three_winds": (("wind_pung3", "pung3"), "Pungs (or kongs) of three winds (三风刻)."),
    "two_dragon_pungs": (("dragon_pung2",), "Pungs (or kongs) of two dragons (双箭刻)."),
}
def _count_of(fan: str) -> Callable[[Ctx], int]:
    def count(ctx: Ctx) -> int:
        # (the table as relations_fans keeps it: the fan plan has read it on this reading
        # before it calls a fan over it, so the call to relations_fans is mostly saved)
        got = ctx._relation_fans
        if got is None:
            got = relations_fans(ctx)
        return got.get(fan, 0)

    return count


for _pid, (_needs, _doc) in _NEW.items():
    # Each fan is registered with its occurrences and, as the pattern, their number.
    _fn, _count = _of(_pid), _count_of(_pid)
    _fn.__doc__ = _count.__doc__ = _doc
    _fn.__name__ = _count.__name__ = _pid
    instances(_pid, key=sets_key)(_fn)
    # Present exactly when relations() holds it: the plan reads its fans once per reading.
    pattern(_pid, needs=_needs, table=relations_fans)(_count)


# -- occurrences of patterns registered elsewhere (shapes.py, honors.py) ------------------------


@instances("pure_double_chow", key=sets_key)  # (concealed_only reads the concealment)
def _pure_double_chow(ctx: Ctx, *, concealed_only: bool = False) -> Groups:
    if concealed_only and not ctx.concealed_hand:
        return NONE
    return tuple(relations(ctx).get("pure_double_chow", NONE))


for _pid in ("pure_straight", "mixed_straight", "mixed_triple_chow", "triple_pung", "big_three_dragons", "big_four_winds"):
    instances(_pid, key=sets_key)(_of(_pid))
    # relations holds each of them whenever it occurs (the same sets, by their lowest kinds):
    # a plan reading its fans anyway skips them on readings it lacks them in.
    HELD_IN[_pid] = relations_fans


def _pungs_in(ctx: Ctx, mask: int) -> Groups:
    """The pungs and kongs of the kinds in a bit mask, as groups of one set each."""
    if not ctx.pung_mask & mask:
        return NONE
    return tuple([(i,) for i, b in enumerate(ctx.sets) if b.shape != CHOW and b.kinds and mask >> b.kinds[0] & 1])


def _seat_wind_key(ctx: Ctx) -> Any:
    """What says a reading's pungs of the seat wind (INSTANCES_KEY): its sets and that wind
    (one integer where sets_key is one: a wind's kind is below 64)."""
    got = sets_key(ctx)
    return got << 6 | ctx.win.seat_wind if type(got) is int else (got, ctx.win.seat_wind)


def _round_wind_key(ctx: Ctx) -> Any:
    got = sets_key(ctx)
    return got << 6 | ctx.win.round_wind if type(got) is int else (got, ctx.win.round_wind)


# (_pungs_in reads each set's shape and lowest kind: sets_key says them, up to the sets' order)
@instances("seat_wind_pung", key=_seat_wind_key)
def _seat_wind_pung(ctx: Ctx) -> Groups:
    return _pungs_in(ctx, 1 << ctx.win.seat_wind)


@instances("round_wind_pung", key=_round_wind_key)
def _round_wind_pung(ctx: Ctx) -> Groups:
    return _pungs_in(ctx, 1 << ctx.win.round_wind)


_DRAGONS = (1 << 31) | (1 << 32) | (1 << 33)


@instances("dragon_pung", key=sets_key)
def _dragon_pung(ctx: Ctx) -> Groups:
    return _pungs_in(ctx, _DRAGONS)


# -- pungs of given kinds -----------------------------------------------------------------------


def _kinds_of(tiles: str) -> frozenset[int]:
    from mjtools.patterns.shapes import _kind_set

    return _kind_set(tiles)


@lru_cache(maxsize=64)
def _mask_of(tiles: str) -> int:
    return sum(1 << k for k in _kinds_of(tiles))


@instances("pungs_of", key=sets_key)
def _pungs_of(ctx: Ctx, *, tiles: str = "19m19p19s1234z") -> Groups:
    return _pungs_in(ctx, _mask_of(tiles))


@pattern("pungs_of", needs=("pung",))
def pungs_of(ctx: Ctx, *, tiles: str = "19m19p19s1234z") -> int:
    """Each pung or kong of one of the given kinds (default: terminals and winds, 幺九刻)."""
    # A reading holds at most one pung of a kind: its bit in ctx.pung_mask.
    return (ctx.pung_mask & _mask_of(tiles)).bit_count()
