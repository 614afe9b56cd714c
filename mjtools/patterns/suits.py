"""Patterns about which tiles the hand is made of."""

from __future__ import annotations

from mjtools.patterns import pattern
from mjtools.patterns.ctx import Ctx

TERMINALS = frozenset((0, 8, 9, 17, 18, 26))
HONORS = frozenset(range(27, 34))
GREEN = frozenset((19, 20, 21, 23, 25, 32))  # 2 3 4 6 8 s and Green dragon


def _is_terminal(k: int) -> bool:
    return k in TERMINALS


def _is_outside(k: int) -> bool:
    return k in TERMINALS or k >= 27


@pattern("full_flush", needs=("one_suit", "no_honor"), exact=True)
def full_flush(ctx: Ctx) -> int:
    """One number suit only, no honors (清一色)."""
    return int(len(ctx.suits) == 1 and not ctx.has_honors)


@pattern("half_flush", needs=("one_suit", "honor"), exact=True)
def half_flush(ctx: Ctx) -> int:
    """One number suit and honors (混一色)."""
    return int(len(ctx.suits) == 1 and ctx.has_honors)


@pattern("all_honors", needs=("no_suit", "honor"), exact=True)
def all_honors(ctx: Ctx) -> int:
    return int(not ctx.suits and ctx.has_honors)


@pattern("all_winds_honors", needs=("no_suit", "honor"))
def all_winds_honors(ctx: Ctx) -> int:
    """Every tile a wind or a dragon (风一色, Wuhan)."""
    return all_honors(ctx)


_OUTSIDE = TERMINALS | HONORS


@pattern("all_simples", needs=("simples_only",), exact=lambda open_allowed=True: open_allowed is True)
def all_simples(ctx: Ctx, *, open_allowed: bool = True) -> int:
    """No terminals and no honors (断幺九)."""
    if not open_allowed and not ctx.concealed_hand:
        return 0
    return int(ctx.kind_set.isdisjoint(_OUTSIDE))


@pattern("outside_hand", needs=("standard", "sets_outside"))
def outside_hand(ctx: Ctx, *, honors: bool = True, chow_required: bool = False, pair: bool = True) -> int:
    """Every set (and the pair) holds a terminal or an honor (带幺九 / chanta)."""
    if not ctx.standard:
        return 0
    blocks = ctx.sets + ((ctx.pair,) if pair and ctx.pair else ())
    # (plain loops, no test function per kind: a generator and a call per tile cost ~30k
    # instructions a reading)
    for b in blocks:
        for k in b.kinds:
            if k in TERMINALS or (honors and k >= 27):
                break
        else:
            return 0
    if chow_required and not ctx.chows:
        return 0
    return 1


@pattern("terminal_outside_hand", needs=("standard", "sets_outside", "no_honor"))
def terminal_outside_hand(ctx: Ctx, *, chow_required: bool = True) -> int:
    """Every set and the pair hold a terminal; no honors (純全帯幺九)."""
    if ctx.has_honors:
        return 0
    return outside_hand(ctx, honors=False, chow_required=chow_required)


@pattern("all_terminals", needs=("all_outside", "no_honor"))
def all_terminals(ctx: Ctx) -> int:
    return int(ctx.kind_set <= TERMINALS)


@pattern("terminals_and_honors", needs=("all_outside", "honor"))
def terminals_and_honors(ctx: Ctx) -> int:
    """Only terminals and honors, both present (混老頭)."""
    return int(ctx.kind_set <= _OUTSIDE and ctx.has_honors and bool(ctx.suits))


@pattern("all_258", needs=("simples_only",))
def all_258(ctx: Ctx) -> int:
    """Every tile a 2, 5 or 8 (将将胡)."""
    return int(all(k < 27 and k % 9 in (1, 4, 7) for k in ctx.kinds))


@pattern("all_pungs_258", needs=("standard", "no_chow", "simples_only"))
def all_pungs_258(ctx: Ctx) -> int:
    """All pungs, every tile a 2, 5 or 8 (将对)."""
    return int(ctx.standard and not ctx.chows and all_258(ctx) == 1)


@pattern("all_green", needs=("green_only",))
def all_green(ctx: Ctx) -> int:
    return int(ctx.kind_set <= GREEN)


@pattern("nine_gates", needs=("no_melds", "standard", "one_suit", "no_honor"))
def nine_gates(ctx: Ctx) -> int:
    """1112345678999 of one suit plus any tile of it, concealed (九莲宝灯)."""
    if ctx.hand.melds or len(ctx.suits) != 1 or ctx.has_honors or not ctx.standard:
        return 0
    kinds = ctx.kinds
    base = min(kinds) // 9 * 9
    counts = [0] * 9
    for k in kinds:
        counts[k - base] += 1
    # 1112345678999: three 1s and 9s, one of each other number (one comparison each, in C)
    return int(counts[0] >= 3 and counts[8] >= 3 and min(counts) >= 1)


@pattern("nine_gates_9_wait", needs=("no_melds", "standard", "one_suit", "no_honor"))
def nine_gates_9_wait(ctx: Ctx) -> int:
    """Nine gates won on its nine-sided wait (純正九蓮宝燈): 1112345678999 held before the
    winning tile, so the winning kind ends up held twice (or four times for a 1 or a 9)."""
    k = ctx.win_kind
    return int(k is not None and nine_gates(ctx) == 1 and ctx.kind_count(k) in (2, 4))


@pattern("big_wheels", needs=("one_suit", "no_honor"))
def big_wheels(ctx: Ctx, *, pin: bool = True, other_suits: bool = False) -> int:
    """Two each of 2-8 of one suit (大車輪 and its m/s cousins 大数隣, 大竹林). `pin`: the dots
    hand counts; `other_suits`: characters and bamboo count too (and dots with them)."""
    if len(ctx.suits) != 1 or ctx.has_honors:
        return 0
    g = next(iter(ctx.suits))
    if not (other_suits or (pin and g == 1)):
        return 0
    base = g * 9
    counts = [0] * 9
    for k in ctx.kinds:
        counts[k - base] += 1
    return int(counts[0] == 0 and counts[8] == 0 and all(c == 2 for c in counts[1:8]))


@pattern("full_flush_all_pungs", needs=("one_suit", "no_honor", "standard", "no_chow"))
def full_flush_all_pungs(ctx: Ctx) -> int:
    """清对 / 清四台."""
    return int(full_flush(ctx) and ctx.standard and not ctx.chows)


@pattern("full_flush_seven_pairs", needs=("seven_pairs", "one_suit", "no_honor"))
def full_flush_seven_pairs(ctx: Ctx) -> int:
    return int(full_flush(ctx) and ctx.form == "seven_pairs")


@pattern("full_flush_luxury_seven_pairs", needs=("seven_pairs", "one_suit", "no_honor"))
def full_flush_luxury_seven_pairs(ctx: Ctx) -> int:
    from mjtools.patterns.shapes import luxury_seven_pairs

    return int(full_flush(ctx) and luxury_seven_pairs(ctx) > 0)


@pattern("catch_five", placement="any")
def catch_five(ctx: Ctx, *, suits: str = "mps") -> int:
    """Won on a 5 that completes 4-5-6 (卡五星 / 捉伍儿); `suits` limits where."""
    b, k = ctx.win_block, ctx.win_kind
    if b is None or k is None or k >= 27 or k % 9 != 4 or "mps"[k // 9] not in suits:
        return 0
    return int(b.shape == "chow" and b.first == k - 1)


@pattern("terminal_present")
def terminal_present(ctx: Ctx, *, dragon_pung_counts: bool = False) -> int:
    """At least one 1 or 9 anywhere (不允许缺幺九); optionally a dragon pung instead."""
    if any(k in TERMINALS for k in ctx.kinds):
        return 1
    return int(dragon_pung_counts and any(b.first >= 31 for b in ctx.pungs))


@pattern("three_suits", needs=("three_suits",))
def three_suits(ctx: Ctx) -> int:
    """All three number suits present (不允许缺门)."""
    return int(len(ctx.suits) == 3)
