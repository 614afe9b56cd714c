"""Patterns about calls: concealment, kongs, fully melded hands."""

from __future__ import annotations

from collections import Counter

from mjtools.patterns import pattern
from mjtools.patterns.ctx import Ctx
from mjtools.patterns.features import BIT
from mjtools.tiles.hand import packed_counts

_FOURS34 = sum(4 << 8 * k for k in range(34))  # bit 2 of each of the 34 kinds' bytes (a count of 4)


def _ron_needs(*, ron_only: bool = False) -> int:
    return BIT["ron"] if ron_only is True else 0


@pattern("concealed_hand", needs=("concealed",), needs_of=_ron_needs, exact=lambda ron_only=False: type(ron_only) is bool)
def concealed_hand(ctx: Ctx, *, ron_only: bool = False) -> int:
    """No exposed melds; concealed kongs allowed (门前清). `ron_only`: not with a self-draw."""
    if ron_only and ctx.tsumo:
        return 0
    return int(ctx.concealed_hand)


@pattern("concealed_self_draw", needs=("concealed", "tsumo"), exact=True)
def concealed_self_draw(ctx: Ctx) -> int:
    """Concealed hand won by self-draw (門前清自摸和 / 不求人)."""
    return int(ctx.concealed_hand and ctx.tsumo)


# (placement "none": with every set laid down the winning tile has one place, the pair; a tile
# with two places in a reading's concealed blocks leaves a set concealed, so every reading of
# those blocks counts 0, whether its pair_wait bit lets the fan be tried or not.)
@pattern("golden_hook", needs=("standard", "pair_wait"), placement="none")
def golden_hook(ctx: Ctx) -> int:
    """Every set laid down, won on the pair (金钩钓 / 手把一 / 大吊车)."""
    return int(ctx.standard and len(ctx.hand.melds) == len(ctx.sets) and ctx.d.wait == "pair")


@pattern("full_flush_golden_hook", needs=("standard", "pair_wait", "one_suit", "no_honor"), placement="none")
def full_flush_golden_hook(ctx: Ctx) -> int:
    from mjtools.patterns.suits import full_flush

    return int(golden_hook(ctx) and full_flush(ctx))


def _laid_down_on_pair(ctx: Ctx) -> bool:
    """golden_hook with no concealed kong among the melds: every set exposed, won on the pair.
    (golden_hook's tests written out, and a loop for all(): a call and a generator each.)"""
    melds = ctx.hand.melds
    d = ctx.d
    if d.wait != "pair" or len(melds) != len(ctx.sets) or d.form != "standard":
        return False
    for m in melds:
        if m.concealed:  # (Meld.is_open, without the property's call: a concealed kong)
            return False
    return True


@pattern("fully_melded", needs=("standard", "pair_wait", "ron"), placement="none")
def fully_melded(ctx: Ctx) -> int:
    """All sets exposed (no concealed kong) and won on a discard (全求人)."""
    return 0 if ctx.win.tsumo or not _laid_down_on_pair(ctx) else 1


@pattern("half_melded", needs=("standard", "pair_wait", "tsumo"), placement="none")
def half_melded(ctx: Ctx) -> int:
    """All sets exposed and self-drawn on the pair (半求)."""
    return 1 if ctx.win.tsumo and _laid_down_on_pair(ctx) else 0


@pattern("three_kongs", needs=("kong3",))
def three_kongs(ctx: Ctx) -> int:
    return 1 if len(ctx.kongs) == 3 else 0  # (no int(): a call of the type, most of the body)


@pattern("four_kongs", needs=("kong3",))
def four_kongs(ctx: Ctx) -> int:
    return 1 if len(ctx.kongs) >= 4 else 0


@pattern("kong", needs=("kong",))
def kong(ctx: Ctx, *, kind: str = "any", tiles: str = "any") -> int:
    """Counts kongs: kind any|exposed|added|concealed; tiles any|dragons|winds|honors|numbers."""
    n = 0
    for b in ctx.kongs:
        mk = b.meld.kind if b.meld is not None else "concealed_kong"
        if kind == "exposed" and mk != "exposed_kong":
            continue
        if kind == "added" and mk != "added_kong":
            continue
        if kind == "concealed" and mk != "concealed_kong":
            continue
        if kind == "open" and mk == "concealed_kong":
            continue
        k = b.first
        if tiles == "dragons" and k < 31 or tiles == "winds" and not 27 <= k <= 30:
            continue
        if tiles == "honors" and k < 27 or tiles == "numbers" and k >= 27:
            continue
        if tiles == "not_dragons" and k >= 31:
            continue
        n += 1
    return n


def _kongs_needed(*, open: int = -1, concealed: int = -1) -> int:
    """Two kongs or more asked for: the bits of that many; and the bits of exactly 0, 1 or 2
    exposed or concealed kongs where those are asked for."""
    n = sum(v for v in (open, concealed) if type(v) is int and v > 0)
    bits = BIT["kong3"] if n >= 3 else BIT["kong2"] if n == 2 else 0
    if type(open) is int and 0 <= open <= 2:
        bits |= BIT[f"kong_open{open}"]
    if type(concealed) is int and 0 <= concealed <= 2:
        bits |= BIT[f"kong_hidden{concealed}"]
    return bits


def _kongs_exact(*, open: int = -1, concealed: int = -1) -> bool:
    """The bits say it all when each count asked for is any (-1), 0, 1 or 2."""
    return all(type(v) is int and -1 <= v <= 2 for v in (open, concealed))


@pattern("kong_count", needs=("kong",), needs_of=_kongs_needed, exact=_kongs_exact)
def kong_count(ctx: Ctx, *, open: int = -1, concealed: int = -1) -> int:
    """1 when the hand has exactly `open` exposed or added kongs and `concealed` concealed
    kongs (-1: any number), and at least one kong (明杠, 暗杠, 双明杠, 双暗杠, 明暗杠)."""
    got = ctx.__dict__.get("_kong_count")  # (exposed or added, concealed): five fans ask
    if got is None:
        shown = hidden = 0
        for m in ctx.hand.melds:
            if m.is_kong:
                if m.concealed:
                    hidden += 1
                else:
                    shown += 1
        got = ctx.__dict__["_kong_count"] = (shown, hidden)
    shown, hidden = got
    if not shown + hidden:
        return 0
    return int(open in (-1, shown) and concealed in (-1, hidden))


@pattern("gen", needs=("four",))
def gen(ctx: Ctx, *, in_seven_pairs: bool = True, luxury_uses_one: bool = False) -> int:
    """Each four of a kind in the hand, melds included (根). With `in_seven_pairs: false`
    a four inside seven pairs is left to the luxury pattern; with `luxury_uses_one: true` the
    luxury hand (龙七对) uses up one four and any further four still counts."""
    if not ctx.wild_kinds and (ctx.spec is None or not ctx.spec.stand_ins):
        n = bytes(ctx.hand.counts[:34]).count(4)  # (the reading holds the hand's tiles: see four_in_hand)
    else:
        n = sum(1 for v in Counter(ctx.kinds).values() if v >= 4)
    if ctx.form == "seven_pairs" and (not in_seven_pairs or luxury_uses_one):
        from mjtools.patterns.shapes import luxury_seven_pairs

        lux = luxury_seven_pairs(ctx)
        n -= lux if not in_seven_pairs else min(1, lux)
    return n


@pattern("four_in_hand", needs=("four",))
def four_in_hand(ctx: Ctx) -> int:
    """All four of a kind used in the hand but not as a kong (四归一)."""
    if not ctx.wild_kinds and (ctx.spec is None or not ctx.spec.stand_ins):
        # Without wildcards the reading holds the hand's tiles as they are: the kinds held four
        # times, less the kongs (each holds all four of its kind). A scored hand holds no more
        # copies of a kind than its tile set (check_hand), four at most (the schema's limit):
        # a count's byte has bit 2 set where it is four, and the kinds held four times are one
        # AND and a bit count of the hand's packed counts (no bytes made and counted: ~1.6k
        # instructions less a call).
        hand = ctx.hand
        packed = hand._packed
        if packed < 0:
            packed = packed_counts(hand)
        return (packed & _FOURS34).bit_count() - len(ctx.kongs)
    kong_kinds = {b.first for b in ctx.kongs}
    c = Counter(ctx.kinds)
    return sum(1 for k, v in c.items() if v == 4 and k not in kong_kinds)


@pattern("four_in_hand_exposed", needs=("four",))
def four_in_hand_exposed(ctx: Ctx) -> int:
    """The fourth copy joins the kind of an exposed pung (明四归)."""
    c = Counter(ctx.kinds)
    exposed = {b.first for b in ctx.pungs if b.shape == "pung" and b.meld is not None}
    return sum(1 for k in exposed if c[k] == 4)


@pattern("four_in_hand_concealed", needs=("four",))
def four_in_hand_concealed(ctx: Ctx) -> int:
    """All four copies in the concealed hand, not as a kong (暗四归)."""
    c = Counter(k for b in ctx.blocks if b.meld is None for k in b.kinds)
    kong_kinds = {b.first for b in ctx.kongs}
    return sum(1 for k, v in c.items() if v == 4 and k not in kong_kinds)


@pattern("pung_plus_chow")
def pung_plus_chow(ctx: Ctx) -> int:
    """A ponged kind that also appears in a chow (沈阳 碰后成顺, counted as a kong)."""
    ponged = {b.first for b in ctx.pungs if b.shape == "pung" and b.meld is not None}
    return sum(1 for k in ponged if any(k in b.kinds for b in ctx.chows))


@pattern("open_hand")
def open_hand(ctx: Ctx) -> int:
    return int(not ctx.concealed_hand)


@pattern("pung_present", needs=("pung",))
def pung_present(ctx: Ctx) -> int:
    """At least one pung or kong, exposed or concealed (必须有碰、杠或暗刻)."""
    return int(bool(ctx.pungs))


@pattern("meld_count")
def meld_count(ctx: Ctx, *, kind: str = "any", tiles: str = "", with_meld: str = "") -> int:
    """Laid-down melds of `kind` (chow, pung, kong, open, a variant kind, any) whose tiles are among
    `tiles` (notation; empty: any), counted only when a meld of kind `with_meld` is also laid
    down (沈阳: once a 亮牌 is shown, each honor pon counts more)."""
    from mjtools.tiles.notation import parse_tiles

    if with_meld and not any(m.kind == with_meld for m in ctx.hand.melds):
        return 0
    kinds = {t.kind for t in parse_tiles(tiles)} if tiles else None
    n = 0
    for m in ctx.hand.melds:
        if kind == "open":
            if not m.is_open:
                continue  # every meld but a concealed kong opens the hand (开口)
        elif kind == "kong" and not m.is_kong or kind not in ("any", "kong") and m.kind != kind:
            continue
        if kinds is not None and not set(m.kinds) <= kinds:
            continue
        n += 1
    return n


@pattern("last_meld")
def last_meld(ctx: Ctx, *, kind: str = "any") -> int:
    """The last meld in call order is of `kind` (chow, pung, exposed_kong, added_kong,
    concealed_kong, kong, or a variant kind or tag such as bu 补张); any: there is a meld."""
    if not ctx.hand.melds:
        return 0
    m = ctx.hand.melds[-1]
    if kind == "any" or m.kind == kind or m.tag == kind:
        return 1
    return int(kind == "kong" and m.is_kong)
