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
from itertools import combinations

from mjtools.analysis.blocks import CHOW
from mjtools.patterns import instances, pattern
from mjtools.patterns.ctx import Ctx

Groups = tuple[tuple[int, ...], ...]
NONE: Groups = ()


def combo(pid: str, needs: tuple[str, ...]) -> Callable[[Callable[[Ctx], Groups]], Callable[[Ctx], Groups]]:
    """Register an occurrence function under `pid`, and its count as the pattern."""

    def deco(fn: Callable[[Ctx], Groups]) -> Callable[[Ctx], Groups]:
        instances(pid)(fn)

        def count(ctx: Ctx) -> int:
            return len(fn(ctx))

        count.__doc__ = fn.__doc__
        count.__name__ = fn.__name__
        pattern(pid, needs=needs)(count)
        return fn

    return deco


def chow_starts(ctx: Ctx) -> list[tuple[int, int]]:
    """(index in ctx.sets, lowest kind) of each chow."""
    return [(i, b.kinds[0]) for i, b in enumerate(ctx.sets) if b.shape == CHOW]


def number_pungs(ctx: Ctx) -> list[tuple[int, int]]:
    """(index in ctx.sets, kind) of each pung or kong of a number tile."""
    return [(i, b.kinds[0]) for i, b in enumerate(ctx.sets) if b.shape != CHOW and b.kinds and b.kinds[0] < 27]


def _groups(items: list[tuple[int, int]], size: int, test: Callable[..., bool]) -> Groups:
    """Every `size` of `items` whose kinds, in increasing order, pass `test`."""
    if len(items) < size:
        return NONE
    out = []
    for group in combinations(items, size):
        kinds = sorted(k for _, k in group)
        if test(*kinds):
            out.append(tuple(sorted(i for i, _ in group)))
    return tuple(out)


def _suit(k: int) -> int:
    return k // 9


def _rank(k: int) -> int:
    return k % 9


def _three_suits(*ks: int) -> bool:
    return len({_suit(k) for k in ks}) == len(ks)


def _one_suit(*ks: int) -> bool:
    return len({_suit(k) for k in ks}) == 1


def _shifted(ks: tuple[int, ...], step: int) -> bool:
    return all(b - a == step for a, b in zip(ks, ks[1:]))


# -- two chows --------------------------------------------------------------------------------


@combo("mixed_double_chow", needs=("chow2",))
def mixed_double_chow(ctx: Ctx) -> Groups:
    """Two chows of the same numbers in two suits (喜相逢)."""
    return _groups(chow_starts(ctx), 2, lambda a, b: _suit(a) != _suit(b) and _rank(a) == _rank(b))


@combo("short_straight", needs=("chow2",))
def short_straight(ctx: Ctx) -> Groups:
    """Two chows of one suit that run on into each other, 123 and 456 (连六)."""
    return _groups(chow_starts(ctx), 2, lambda a, b: b - a == 3 and _one_suit(a, b))


@combo("two_terminal_chows", needs=("chow2",))
def two_terminal_chows(ctx: Ctx) -> Groups:
    """123 and 789 of one suit (老少副)."""
    return _groups(chow_starts(ctx), 2, lambda a, b: b - a == 6 and _rank(a) == 0)


# -- three chows ------------------------------------------------------------------------------


@combo("pure_triple_chow", needs=("chow3", "dup_chow"))
def pure_triple_chow(ctx: Ctx) -> Groups:
    """Three identical chows (一色三同顺)."""
    return _groups(chow_starts(ctx), 3, lambda a, b, c: a == b == c)


@combo("pure_shifted_chows", needs=("chow3",))
def pure_shifted_chows(ctx: Ctx) -> Groups:
    """Three chows of one suit, each one (or each two) up from the last: 123 234 345, or 123
    345 567 (一色三步高)."""
    return _groups(chow_starts(ctx), 3, lambda *ks: _one_suit(*ks) and (_shifted(ks, 1) or _shifted(ks, 2)))


@combo("mixed_shifted_chows", needs=("chow3", "three_suits"))
def mixed_shifted_chows(ctx: Ctx) -> Groups:
    """Three chows in the three suits, their numbers each one up from another's: 123m 234p 345s
    in any order of suits (三色三步高)."""
    return _groups(chow_starts(ctx), 3, lambda *ks: _three_suits(*ks) and _shifted(tuple(sorted(map(_rank, ks))), 1))


# -- four chows -------------------------------------------------------------------------------


@combo("quadruple_chow", needs=("chow3", "dup_chow"))
def quadruple_chow(ctx: Ctx) -> Groups:
    """Four identical chows (一色四同顺)."""
    return _groups(chow_starts(ctx), 4, lambda a, b, c, d: a == b == c == d)


@combo("four_pure_shifted_chows", needs=("chow3",))
def four_pure_shifted_chows(ctx: Ctx) -> Groups:
    """Four chows of one suit, each one (or each two) up from the last (一色四步高)."""
    return _groups(chow_starts(ctx), 4, lambda *ks: _one_suit(*ks) and (_shifted(ks, 1) or _shifted(ks, 2)))


def _pair_kind(ctx: Ctx) -> int | None:
    p = ctx.pair
    return None if p is None or not p.kinds else p.kinds[0]


@combo("pure_terminal_chows", needs=("chow3", "dup_chow", "one_suit", "no_honor"))
def pure_terminal_chows(ctx: Ctx) -> Groups:
    """123 123 789 789 and a pair of 5, all of one suit (一色双龙会)."""
    pk = _pair_kind(ctx)
    if pk is None or pk >= 27 or _rank(pk) != 4:
        return NONE
    return _groups(chow_starts(ctx), 4, lambda a, b, c, d: a == b == pk - 4 and c == d == pk + 2)


@combo("three_suited_terminal_chows", needs=("chow3", "three_suits", "no_honor"))
def three_suited_terminal_chows(ctx: Ctx) -> Groups:
    """123 and 789 in each of two suits and a pair of 5 in the third (三色双龙会)."""
    pk = _pair_kind(ctx)
    if pk is None or pk >= 27 or _rank(pk) != 4:
        return NONE

    def test(*ks: int) -> bool:
        suits = {_suit(k) for k in ks}
        return len(suits) == 2 and _suit(pk) not in suits and all(sorted(_rank(k) for k in ks if _suit(k) == s) == [0, 6] for s in suits)

    return _groups(chow_starts(ctx), 4, test)


# -- pungs ------------------------------------------------------------------------------------


@combo("double_pung", needs=("pung",))
def double_pung(ctx: Ctx) -> Groups:
    """Two pungs (or kongs) of the same number in two suits (双同刻)."""
    return _groups(number_pungs(ctx), 2, lambda a, b: _rank(a) == _rank(b) and _suit(a) != _suit(b))


@combo("pure_shifted_pungs", needs=("pung3",))
def pure_shifted_pungs(ctx: Ctx) -> Groups:
    """Three pungs of one suit with consecutive numbers, 111 222 333 (一色三节高)."""
    return _groups(number_pungs(ctx), 3, lambda *ks: _one_suit(*ks) and _shifted(ks, 1))


@combo("mixed_shifted_pungs", needs=("pung3", "three_suits"))
def mixed_shifted_pungs(ctx: Ctx) -> Groups:
    """Three pungs in the three suits with consecutive numbers in any order of suits (三色三节高)."""
    return _groups(number_pungs(ctx), 3, lambda *ks: _three_suits(*ks) and _shifted(tuple(sorted(map(_rank, ks))), 1))


@combo("four_pure_shifted_pungs", needs=("pung4",))
def four_pure_shifted_pungs(ctx: Ctx) -> Groups:
    """Four pungs of one suit with consecutive numbers (一色四节高)."""
    return _groups(number_pungs(ctx), 4, lambda *ks: _one_suit(*ks) and _shifted(ks, 1))


def honor_pungs(ctx: Ctx, kinds: range) -> list[tuple[int, int]]:
    return [(i, b.kinds[0]) for i, b in enumerate(ctx.sets) if b.shape != CHOW and b.kinds and b.kinds[0] in kinds]


_WINDS = range(27, 31)
_DRAGONS = range(31, 34)


@combo("big_three_winds", needs=("wind_pung", "pung3"))
def big_three_winds(ctx: Ctx) -> Groups:
    """Pungs (or kongs) of three winds (三风刻)."""
    return _groups(honor_pungs(ctx, _WINDS), 3, lambda *ks: True)


@combo("two_dragon_pungs", needs=("dragon_pung",))
def two_dragon_pungs(ctx: Ctx) -> Groups:
    """Pungs (or kongs) of two dragons (双箭刻)."""
    return _groups(honor_pungs(ctx, _DRAGONS), 2, lambda *ks: True)


# -- occurrences of patterns registered elsewhere (shapes.py, honors.py) ------------------------


@instances("pure_double_chow")
def _pure_double_chow(ctx: Ctx, *, concealed_only: bool = False) -> Groups:
    if concealed_only and not ctx.concealed_hand:
        return NONE
    return _groups(chow_starts(ctx), 2, lambda a, b: a == b)


@instances("pure_straight")
def _pure_straight(ctx: Ctx) -> Groups:
    return _groups(chow_starts(ctx), 3, lambda a, b, c: _rank(a) == 0 and b == a + 3 and c == a + 6)


@instances("mixed_straight")
def _mixed_straight(ctx: Ctx) -> Groups:
    return _groups(chow_starts(ctx), 3, lambda *ks: _three_suits(*ks) and sorted(map(_rank, ks)) == [0, 3, 6])


@instances("mixed_triple_chow")
def _mixed_triple_chow(ctx: Ctx) -> Groups:
    return _groups(chow_starts(ctx), 3, lambda *ks: _three_suits(*ks) and len({_rank(k) for k in ks}) == 1)


@instances("triple_pung")
def _triple_pung(ctx: Ctx) -> Groups:
    return _groups(number_pungs(ctx), 3, lambda *ks: _three_suits(*ks) and len({_rank(k) for k in ks}) == 1)


@instances("big_three_dragons")
def _big_three_dragons(ctx: Ctx) -> Groups:
    return _groups(honor_pungs(ctx, _DRAGONS), 3, lambda *ks: True)


@instances("big_four_winds")
def _big_four_winds(ctx: Ctx) -> Groups:
    return _groups(honor_pungs(ctx, _WINDS), 4, lambda *ks: True)


def _pung_of(ctx: Ctx, kind: int) -> Groups:
    return tuple((i,) for i, b in enumerate(ctx.sets) if b.shape != CHOW and b.kinds and b.kinds[0] == kind)


@instances("seat_wind_pung")
def _seat_wind_pung(ctx: Ctx) -> Groups:
    return _pung_of(ctx, ctx.win.seat_wind)


@instances("round_wind_pung")
def _round_wind_pung(ctx: Ctx) -> Groups:
    return _pung_of(ctx, ctx.win.round_wind)


@instances("dragon_pung")
def _dragon_pung(ctx: Ctx) -> Groups:
    return tuple((i,) for i, _ in honor_pungs(ctx, _DRAGONS))


# -- pungs of given kinds -----------------------------------------------------------------------


def _kinds_of(tiles: str) -> frozenset[int]:
    from mjtools.patterns.shapes import _kind_set

    return _kind_set(tiles)


@instances("pungs_of")
def _pungs_of(ctx: Ctx, *, tiles: str = "19m19p19s1234z") -> Groups:
    kinds = _kinds_of(tiles)
    return tuple((i,) for i, b in enumerate(ctx.sets) if b.shape != CHOW and b.kinds and b.kinds[0] in kinds)


@pattern("pungs_of", needs=("pung",))
def pungs_of(ctx: Ctx, *, tiles: str = "19m19p19s1234z") -> int:
    """Each pung or kong of one of the given kinds (default: terminals and winds, 幺九刻)."""
    return len(_pungs_of(ctx, tiles=tiles))
