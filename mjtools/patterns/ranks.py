"""Patterns about the numbers and kinds the tiles show (Chinese Official's tile fans)."""

from __future__ import annotations

from functools import lru_cache

from mjtools.patterns import pattern
from mjtools.patterns.ctx import Ctx
from mjtools.patterns.features import rank_set_bit
from mjtools.tiles.kinds import NUM_KINDS

# The kinds of 2, 4, 6 and 8 (全双刻, whose hands hold no honor) and of 5 (全带五), by the number
# a kind shows (k % 9, over every kind a block may hold); the winds.
_EVEN_KINDS = frozenset(k for k in range(NUM_KINDS) if k % 9 in (1, 3, 5, 7))
_FIVE = tuple(k % 9 == 4 for k in range(NUM_KINDS))
_WINDS = frozenset(range(27, 31))
_DRAGONS = frozenset(range(31, 34))
# 推不倒: the tiles that look the same upside down: 1234589 dots, 245689 bamboo, White.
REVERSIBLE = frozenset([9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 31])


@lru_cache(maxsize=32)
def _ranks(ranks: str) -> int:
    """The numbers 1-9 as a bit mask (bit 0: 1)."""
    return sum(1 << (int(c) - 1) for c in set(str(ranks)) if c.isdigit() and c != "0")


_RANK_MASKS: dict[str, int] = {}  # _ranks' answers by the ranks a rule file writes (a handful)


def rank_mask(ctx: Ctx) -> int:
    """The numbers the reading's number tiles show, as a bit mask (worked out once per reading:
    five fans ask)."""
    got = ctx.__dict__.get("_rank_mask")
    if got is None:
        got = 0
        for k in ctx.kind_set:
            if k < 27:
                got |= 1 << (k % 9)
        ctx.__dict__["_rank_mask"] = got
    return got


def _ranks_needed(*, ranks: str = "123456789") -> int:
    """Every number of the hand's tiles among `ranks` (a hand-level bit per rank set)."""
    mask = _ranks(ranks)
    return 0 if mask == 0x1FF else rank_set_bit(mask)


@pattern("number_ranks", needs=("no_honor",), needs_of=_ranks_needed)
def number_ranks(ctx: Ctx, *, ranks: str = "123456789") -> int:
    """Every tile a number tile whose number is one of `ranks` (全大 789, 大于五 6789, 全中 456,
    小于五 1234, 全小 123)."""
    if ctx.has_honors:
        return 0
    # (rank_mask's kept value and _ranks' answer read here: a call each per reading)
    got = ctx.__dict__.get("_rank_mask")
    if got is None:
        got = rank_mask(ctx)
    mask = _RANK_MASKS.get(ranks)
    if mask is None:
        mask = _RANK_MASKS[ranks] = _ranks(ranks)
    return 0 if got & ~mask else 1


def _even_ranks(**_: object) -> int:
    """Every tile a 2, 4, 6 or 8: the hand-level bit of that rank set (a necessary condition)."""
    return rank_set_bit(_ranks("2468"))


def _five_ranks(**_: object) -> int:
    """Every set and the pair holding a 5 holds numbers 3-7 only: that rank set's bit."""
    return rank_set_bit(_ranks("34567"))


@pattern("all_even_pungs", needs=("standard", "no_chow", "no_honor"), needs_of=_even_ranks)
def all_even_pungs(ctx: Ctx) -> int:
    """Four pungs (or kongs) and a pair, all of 2, 4, 6 or 8 (全双刻)."""
    if not ctx.standard or ctx.chows or ctx.has_honors:
        return 0
    return int(ctx.kind_set <= _EVEN_KINDS)


@pattern("all_fives", needs=("standard", "simples_only"), needs_of=_five_ranks)
def all_fives(ctx: Ctx) -> int:
    """Every set and the pair hold a 5 (全带五): only 3-7, so no terminal or honor."""
    if not ctx.standard or ctx.pair is None or ctx.has_honors:
        return 0
    # (plain loops over a kind table: a generator per block cost ~10k instructions a reading)
    for b in ctx.sets + (ctx.pair,):
        for k in b.kinds:
            if _FIVE[k]:
                break
        else:
            return 0
    return 1


@pattern("reversible_tiles", needs=("reversible",))
def reversible_tiles(ctx: Ctx) -> int:
    """Only tiles that look the same upside down: 1234589 dots, 245689 bamboo, White (推不倒)."""
    return int(ctx.kind_set <= REVERSIBLE)


@pattern("all_types", needs=("three_suits", "honor"))
def all_types(ctx: Ctx) -> int:
    """All three suits, a wind and a dragon (五门齐)."""
    ks = ctx.kind_set
    return 1 if len(ctx.suits) == 3 and not ks.isdisjoint(_WINDS) and not ks.isdisjoint(_DRAGONS) else 0


@pattern("seven_shifted_pairs", needs=("seven_pairs", "one_suit", "no_honor"))
def seven_shifted_pairs(ctx: Ctx) -> int:
    """Seven pairs of seven consecutive numbers of one suit (连七对)."""
    if ctx.d.form != "seven_pairs" or ctx.has_honors or len(ctx.suits) != 1:
        return 0
    ks = ctx.kind_set
    return 1 if len(ks) == 7 and max(ks) - min(ks) == 6 else 0
