"""Irregular forms, flowers and wildcards."""

from __future__ import annotations

from functools import lru_cache

from mjtools.patterns import pattern
from mjtools.patterns.ctx import Ctx
from mjtools.patterns.features import _FLOWER_BYTES, _FLOWER_SHIFT
from mjtools.tiles.hand import packed_counts
from mjtools.tiles.kinds import parse_kind

FLOWER_SEATS = {"E": "15", "S": "26", "W": "37", "N": "48"}
# The flower kinds (34-41) of each seat under FLOWER_SEATS: the default needs no lookup per reading.
_DEFAULT_SEAT_KINDS = {seat: tuple(33 + int(n) for n in nums) for seat, nums in FLOWER_SEATS.items()}


@pattern("thirteen_orphans", needs=("thirteen_orphans",))
def thirteen_orphans(ctx: Ctx) -> int:
    return int(ctx.form == "thirteen_orphans")


@pattern("thirteen_orphans_13_wait", needs=("thirteen_orphans",), placement="any")
def thirteen_orphans_13_wait(ctx: Ctx) -> int:
    """Thirteen orphans won on a 13-sided wait."""
    return int(ctx.form == "thirteen_orphans" and ctx.d.wait == "thirteen")


@pattern("thirteen_unrelated")
def thirteen_unrelated(ctx: Ctx) -> int:
    """十三烂: fourteen tiles, no two of a suit closer than 3, no repeated honor."""
    return int(ctx.form == "thirteen_unrelated")


@pattern("seven_star_unrelated")
def seven_star_unrelated(ctx: Ctx) -> int:
    """七星十三烂: 十三烂 holding all seven honors."""
    return int(ctx.form == "thirteen_unrelated" and all(k in ctx.kind_set for k in range(27, 34)))


@pattern("knitted", needs=("knit",))
def knitted(ctx: Ctx) -> int:
    """全不靠."""
    return 1 if ctx.d.form == "knitted" else 0


def _flower_counts(ctx: Ctx) -> tuple[int, ...]:
    """Copies held of flowers 1-8 (the count vector's kinds 34-41): the set tests read these
    directly rather than building the list of flowers."""
    return ctx.hand.counts[34:42]


@pattern("seat_flower", needs=("flower",))
def seat_flower(ctx: Ctx, *, seats: dict | None = None) -> int:
    """Each flower of one's own seat (正花). `seats` maps E/S/W/N to flower numbers."""
    counts = ctx.hand.counts
    seat = ctx.win.seat
    kinds = _DEFAULT_SEAT_KINDS.get(seat) if seats is None else None
    if kinds is None:
        kinds = tuple(33 + n for n in _seat_flowers(str((seats or FLOWER_SEATS)[seat])))
    held = 0
    for k in kinds:
        held += counts[k]
    return held


@lru_cache(maxsize=64)
def _seat_flowers(mine: str) -> tuple[int, ...]:
    """The flower numbers (1-8) written in a seat's entry ("15", or 15)."""
    return tuple(n for n in range(1, 9) if str(n) in mine)


@pattern("flower", needs=("flower",))
def flower(ctx: Ctx) -> int:
    """Each flower held."""
    # (_flower_counts' kinds as the bytes of the hand's packed counts, summed by their
    # remainder mod 255: a scored hand holds a few flowers, far below 255; no slice, no sum())
    hand = ctx.hand
    packed = hand._packed
    if packed < 0:
        packed = packed_counts(hand)
    return (packed >> _FLOWER_SHIFT & _FLOWER_BYTES) % 255


@pattern("flower_set", needs=("flower4",))
def flower_set(ctx: Ctx) -> int:
    """Each complete set of four flowers (春夏秋冬 or 梅兰竹菊)."""
    c = _flower_counts(ctx)
    return int(all(c[:4])) + int(all(c[4:]))


@pattern("no_flowers")
def no_flowers(ctx: Ctx) -> int:
    return int(not any(_flower_counts(ctx)))


@pattern("eight_immortals", needs=("flower4",))
def eight_immortals(ctx: Ctx) -> int:
    return int(all(_flower_counts(ctx)))


@pattern("seven_rob_one", needs=("flower4", "situation"))
def seven_rob_one(ctx: Ctx) -> int:
    """Seven flowers, robbing the eighth from another player (七抢一)."""
    return int(sum(1 for n in _flower_counts(ctx) if n) == 7 and bool(ctx.win.has("seven_rob_one")))


@pattern("no_wildcard")
def no_wildcard(ctx: Ctx, *, face_value_ok: bool = False) -> int:
    """Won with no wildcard (无财神 / 硬胡). `face_value_ok`: wildcards used as themselves count
    as natural tiles."""
    held = sum(1 for t in ctx.hand.hand_tiles() if t.kind in ctx.wild_kinds)
    if held == 0:
        return 1
    if not face_value_ok:
        return 0
    return int(wilds_at_face_value(ctx))


def wilds_at_face_value(ctx: Ctx, blocks=None) -> bool:
    """Whether every wildcard of the reading (or of `blocks`) can be a physical wildcard tile
    standing for its own kind (精归位 / 本混儿): the kinds placed match the tiles held."""
    from collections import Counter

    stand = dict(ctx.spec.stand_ins) if ctx.spec is not None else {}
    placed = Counter(k for b in (blocks if blocks is not None else ctx.d.blocks) if b.meld is None for k in b.wilds)
    phys = Counter(stand.get(t.kind, t.kind) for t in ctx.hand.hand_tiles() if t.kind in ctx.wild_kinds)
    if blocks is None:
        return placed == phys and not any(b.free for b in ctx.d.blocks)
    return all(phys[k] >= n for k, n in placed.items())


@pattern("baotou", placement="any")
def baotou(ctx: Ctx) -> int:
    """The pair was waited on by a wildcard alone, so any tile would have won (爆头)."""
    b = ctx.win_block
    return int(b is not None and b.shape == "pair" and b.wild >= 1 and ctx.standard)


@pattern("wildcards_held")
def wildcards_held(ctx: Ctx, *, at_least: int = 0) -> int:
    """Each wildcard tile held in the hand (精 / 混 counts); with `at_least`, 1 when the hand
    holds that many or more (Wuhan: two 赖子 bar a small win), else 0."""
    n = sum(1 for t in ctx.hand.hand_tiles() if t.kind in ctx.wild_kinds)
    return int(n >= at_least) if at_least else n


@pattern("tiles_held")
def tiles_held(ctx: Ctx, *, tiles: str = "") -> int:
    """Each held tile of the given kinds (e.g. chickens, 精)."""
    from mjtools.tiles.notation import parse_tiles

    kinds = {t.kind for t in parse_tiles(tiles)}
    return sum(1 for t in ctx.hand.all_tiles() if t.kind in kinds)


@pattern("tile_kind_held")
def tile_kind_held(ctx: Ctx, *, tile: str = "1s") -> int:
    k = parse_kind(tile)
    return ctx.hand.counts[k]


@pattern("wild_meld")
def wild_meld(ctx: Ctx, *, allowed: tuple[str, ...] | list[str] = ()) -> int:
    """Each laid-down meld holding a wildcard (花碰 ...) that is not a pung of an `allowed`
    kind (dragons, seat_wind, winds, honors); with nothing allowed every such meld counts."""
    n = 0
    for m in ctx.hand.melds:
        if not m.wild:
            continue
        kinds = set(m.kinds)
        k = min(kinds)
        ok = m.kind == "pung" and len(kinds) == 1 and any(_wild_meld_class(c, k, ctx) for c in allowed)
        n += not ok
    return n


def _wild_meld_class(cls: str, k: int, ctx: Ctx) -> bool:
    """Whether kind k is of a `wild_meld` allowed class (read per wild meld: most hands have none)."""
    if cls == "dragons":
        return k >= 31
    if cls == "winds":
        return 27 <= k <= 30
    if cls == "honors":
        return k >= 27
    if cls == "seat_wind":
        return k == ctx.win.seat_wind
    raise KeyError(cls)


@pattern("caipiao", placement="any")
def caipiao(ctx: Ctx) -> int:
    """财飘: a 爆头 win after consecutive wildcard discards; counts them (--situation caipiao=N)."""
    return ctx.win.has("caipiao") if baotou(ctx) else 0


@pattern("flower_units")
def flower_units(
    ctx: Ctx,
    *,
    tile: int = 1,
    number_exposed_kong: int = 1,
    number_concealed_kong: int = 2,
    wind_pung: int = 1,
    wind_exposed_kong: int = 2,
    wind_concealed_kong: int = 3,
    none: int = 10,
    below: int = 0,
) -> int:
    """花 of a hand (上海敲麻): each bonus tile set aside, number-suit kongs, wind pungs and
    kongs, each at its value; a hand with none counts `none`. With `below`, 1 when the count is
    under it (a minimum), else 0."""
    n = tile * sum(len(a.tiles) for a in ctx.hand.aside if a.tag is None)
    for b in ctx.pungs:
        k = b.first
        concealed = b.meld is None or b.meld.concealed
        if b.shape == "kong":
            if k < 27:
                n += number_concealed_kong if concealed else number_exposed_kong
            elif k <= 30:
                n += wind_concealed_kong if concealed else wind_exposed_kong
        elif 27 <= k <= 30:
            n += wind_pung
    n = n or none
    return int(n < below) if below else n


@pattern("natural_hun_straight")
def natural_hun_straight(ctx: Ctx) -> int:
    """本混儿龙: a 1-9 straight of one suit holding wildcards, each standing for its own kind
    (the 混儿 sit in their own places)."""
    for s in (0, 9, 18):
        chows = []
        for start in (s, s + 3, s + 6):
            got = next((b for b in ctx.chows if b.first == start and b not in chows), None)
            if got is None:
                break
            chows.append(got)
        else:
            if any(b.wilds for b in chows) and wilds_at_face_value(ctx, chows):
                return 1
    return 0


@pattern("kinds_held")
def kinds_held(ctx: Ctx, *, copies: int = 4, per: int = 1) -> int:
    """Kinds of which at least `copies` tiles are held (melds included), counted in groups of
    `per`: 起手胡 四喜 is {copies: 4} (each four of a kind), 六六顺 {copies: 3, per: 2} (each
    two triplets)."""
    n = sum(1 for c in ctx.hand.counts[:34] if c >= copies)
    return n // max(per, 1)
