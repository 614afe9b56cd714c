"""Patterns about how and when the hand was won (situations), and dora-like counts."""

from __future__ import annotations

from mjtools.patterns import pattern
from mjtools.patterns.ctx import Ctx


@pattern("self_draw", needs=("tsumo",), exact=True)
def self_draw(ctx: Ctx) -> int:
    return int(ctx.tsumo)


@pattern("ron", needs=("ron",), exact=True)
def ron(ctx: Ctx) -> int:
    return int(not ctx.tsumo)


@pattern("riichi", needs=("sit_riichi",))
def riichi(ctx: Ctx) -> int:
    """Declared ready (立直) and not double riichi."""
    return int(bool(ctx.win.has("riichi")) and not ctx.win.has("double_riichi"))


@pattern("double_riichi", needs=("sit_double_riichi",))
def double_riichi(ctx: Ctx) -> int:
    return int(bool(ctx.win.has("double_riichi")))


@pattern("declared_ready", needs=("situation",))
def declared_ready(ctx: Ctx) -> int:
    return int(bool(ctx.win.has("riichi") or ctx.win.has("double_riichi")))


@pattern("ippatsu", needs=("sit_ippatsu",))
def ippatsu(ctx: Ctx) -> int:
    return int(bool(ctx.win.has("ippatsu")))


@pattern("kong_bloom", needs=("sit_kong_bloom", "tsumo"))
def kong_bloom(ctx: Ctx) -> int:
    """Self-drawn on a kong replacement tile (杠上开花 / 嶺上開花)."""
    return int(ctx.tsumo and bool(ctx.win.has("kong_bloom")))


@pattern("flower_bloom", needs=("situation", "tsumo"))
def flower_bloom(ctx: Ctx) -> int:
    """Self-drawn on a flower replacement tile (花砸)."""
    return int(ctx.tsumo and bool(ctx.win.has("flower_bloom")))


@pattern("kong_discard_win", needs=("situation", "ron"))
def kong_discard_win(ctx: Ctx) -> int:
    """Won on the discard made right after a kong (杠上炮)."""
    return int(not ctx.tsumo and bool(ctx.win.has("kong_discard_win")))


@pattern("robbing_kong", needs=("sit_robbing_kong",))
def robbing_kong(ctx: Ctx) -> int:
    return int(bool(ctx.win.has("robbing_kong")))


@pattern("last_tile_draw", needs=("sit_last_tile", "tsumo"))
def last_tile_draw(ctx: Ctx) -> int:
    """Self-drawn on the last tile of the wall (海底捞月)."""
    return int(ctx.tsumo and bool(ctx.win.has("last_tile")))


@pattern("last_discard_win", needs=("sit_last_tile", "ron"))
def last_discard_win(ctx: Ctx) -> int:
    """Won on the last discard (河底捞鱼)."""
    return int(not ctx.tsumo and bool(ctx.win.has("last_tile")))


@pattern("heavenly_hand", needs=("sit_first_turn", "tsumo"))
def heavenly_hand(ctx: Ctx) -> int:
    """The dealer wins on his first draw (天胡)."""
    return int(ctx.tsumo and ctx.win.dealer and bool(ctx.win.has("first_turn")))


@pattern("earthly_hand", needs=("sit_first_turn", "tsumo"))
def earthly_hand(ctx: Ctx) -> int:
    """A non-dealer wins on his first draw (地胡; riichi: chiihou)."""
    return int(ctx.tsumo and not ctx.win.dealer and bool(ctx.win.has("first_turn")))


@pattern("human_hand", needs=("situation", "ron"))
def human_hand(ctx: Ctx) -> int:
    """A non-dealer wins on a discard before his first draw (人胡 / renhou)."""
    return int(not ctx.tsumo and not ctx.win.dealer and bool(ctx.win.has("first_turn") or ctx.win.has("renhou")))


@pattern("dealer")
def dealer(ctx: Ctx) -> int:
    return int(ctx.win.dealer)


NORTH = 30


@pattern("dora", needs=("dora",))
def dora(ctx: Ctx) -> int:
    """Each held tile that an indicator makes dora (kongs count four; set-aside Norths count,
    those given as `--kita N` too)."""
    if not ctx.dora:
        return 0
    held = ctx.hand.counts
    return sum(held[k] for k in ctx.dora) + ctx.win.kita * ctx.dora.count(NORTH)


@pattern("ura_dora", needs=("ura",))
def ura_dora(ctx: Ctx) -> int:
    """As dora, for the ura indicators (only a riichi winner turns them)."""
    if not ctx.ura:
        return 0
    held = ctx.hand.counts
    return sum(held[k] for k in ctx.ura) + ctx.win.kita * ctx.ura.count(NORTH)


@pattern("red_five", needs=("red",))
def red_five(ctx: Ctx) -> int:
    """Each red five held (赤ドラ)."""
    return ctx.hand.reds


@pattern("kita", needs=("kita",))
def kita(ctx: Ctx) -> int:
    """Each North set aside (拔北), from {kita=...} or --kita."""
    return len(ctx.hand.aside_tiles("kita")) + ctx.win.kita


@pattern("paarenchan", needs=("sit_paarenchan",), reads_fans=True)
def paarenchan(ctx: Ctx, *, needs_yaku: bool = True) -> int:
    """The dealer's eighth win in a row (八連荘): counts `--situation paarenchan=N` (N limit
    hands, as `mahjong`'s HandConfig.paarenchan). With `needs_yaku` it counts only when a fan
    listed before it in the rule file applies, so the rule file lists it after the yaku and
    before dora."""
    n = ctx.win.has("paarenchan")
    if not n or (needs_yaku and not ctx.awarded):
        return 0
    return n
