"""Ctx: what a pattern sees — one decomposition of one win, with its hand and context."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from mjtools.analysis.blocks import CHOW, KONG, PAIR_FORMS, PUNG, Block, Decomposition
from mjtools.analysis.shapes import ShapeSpec
from mjtools.tiles.context import WinContext
from mjtools.tiles.hand import Hand

SUIT_OF_GROUP = "mps"


def group(kind: int) -> int:
    """0 m, 1 p, 2 s, 3 honors."""
    return kind // 9 if kind < 27 else 3


# Feature bits of one reading. A pattern may declare the bits it needs (`@pattern(...,
# needs=...)`): the fan plan then skips it on readings without them, so a hand evaluates only
# the few fans it could score. A declared need must be a necessary condition of the pattern.
FEATURES = (
    "standard", "seven_pairs", "thirteen_orphans",
    "chow", "no_chow", "chow2", "chow3", "dup_chow", "pung", "pung3", "kong", "kong3",
    "honor", "no_honor", "outside", "simples_only", "all_outside", "sets_outside", "green_only",
    "one_suit", "no_suit", "three_suits",
    "concealed", "no_melds", "tsumo", "ron", "dragon_pung", "wind_pung",
    "situation", "dora", "ura", "red", "kita",
    # one bit per common flag, so that a riichi does not wake the kong-bloom fans
    "sit_riichi", "sit_double_riichi", "sit_ippatsu", "sit_kong_bloom", "sit_last_tile", "sit_robbing_kong", "sit_first_turn",
    "flower",  # a flower (bonus tile 1f-8f) held: the flower fans are skipped without one
    "pair_wait",  # won on the pair (单吊): golden hook and its kin
    "four",  # four copies of a kind in the hand (根, 四归一); wildcard readings have every bit
    "no_pung",  # no pung or kong in the reading (平胡 and its kin)
    "flower4",  # four flowers or more: the flower-set fans (花杠, 八仙过海) need them
    "pung4",  # four pungs or kongs or more (四暗刻, 大四喜); most readings with three have no fourth
    "knit",  # a knitted form: 全不靠 (knitted) or 组合龙 with a set and a pair (knitted_straight)
)
BIT = {name: 1 << i for i, name in enumerate(FEATURES)}
ALL_FEATURES = (1 << len(FEATURES)) - 1
_OUTSIDE = frozenset((0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33))
_HONOR = frozenset(range(27, 34))
_GREEN = frozenset((19, 20, 21, 23, 25, 32))
_MAN, _PIN, _SOU = frozenset(range(0, 9)), frozenset(range(9, 18)), frozenset(range(18, 27))
# The suits (0 m, 1 p, 2 s) a reading holds, by a 3-bit mask of them: shared frozensets.
_SUITS_BY_MASK = tuple(frozenset(g for g in range(3) if mask >> g & 1) for mask in range(8))
_OUT = tuple(k in _OUTSIDE for k in range(34))
_DRAGON_MASK = (1 << 31) | (1 << 32) | (1 << 33)
_WIND_MASK = (1 << 27) | (1 << 28) | (1 << 29) | (1 << 30)
SITUATION_BIT = {name[4:]: BIT[name] for name in FEATURES if name.startswith("sit_")}
_CONCEALED = BIT["concealed"]
_FLOWER_KINDS = slice(34, 42)
_COUNT_BITS = BIT["flower"] | BIT["four"] | BIT["flower4"]
_PAIR_WAIT = BIT["pair_wait"]
_FORM_BIT = {"standard": BIT["standard"], "seven_pairs": BIT["seven_pairs"], "thirteen_orphans": BIT["thirteen_orphans"], "knitted": BIT["knit"], "knitted_straight": BIT["knit"]}


def hand_features(hand: Hand, win: WinContext, dora: tuple[int, ...] = (), ura: tuple[int, ...] = (), uses: int = ALL_FEATURES) -> int:
    """The feature bits that do not depend on the reading (computed once per hand). `uses`: the
    bits some fan of the ruleset needs; the count-vector bits are looked for only then."""
    f = BIT["tsumo"] if win.tsumo else BIT["ron"]
    if hand.is_concealed:
        f |= BIT["concealed"]
    if not hand.melds:
        f |= BIT["no_melds"]
    if win.situations:
        f |= BIT["situation"]
        for name in win.situations:
            f |= SITUATION_BIT.get(name, 0)
    if dora:
        f |= BIT["dora"]
    if ura:
        f |= BIT["ura"]
    if hand.reds:
        f |= BIT["red"]
    if win.kita or any(a.tag == "kita" for a in hand.aside):
        f |= BIT["kita"]
    if uses & _COUNT_BITS:
        counts = hand.counts
        flowers = sum(counts[_FLOWER_KINDS])
        if flowers:
            f |= BIT["flower"] | (BIT["flower4"] if flowers >= 4 else 0)
        if max(counts[:34]) >= 4:
            f |= BIT["four"]
    return f


T = TypeVar("T")


class lazy(Generic[T]):
    """A per-reading attribute computed on first use. functools.cached_property takes a lock
    on every first access in Python 3.11, which costs more than most of these attributes."""

    def __init__(self, fn: Callable[[Any], T]):
        self.fn = fn
        self.name = fn.__name__
        self.__doc__ = fn.__doc__

    def __get__(self, obj: Any, cls: type | None = None) -> T:
        if obj is None:
            return self  # type: ignore[return-value]
        value = obj.__dict__[self.name] = self.fn(obj)
        return value


@dataclass
class Ctx:
    hand: Hand
    d: Decomposition
    win: WinContext
    wild_kinds: frozenset[int] = frozenset()
    dora: tuple[int, ...] = ()  # dora kinds, one entry per indicator (repeats count twice)
    ura: tuple[int, ...] = ()
    options: Mapping[str, Any] = field(default_factory=dict)
    awarded: dict[str, int] = field(default_factory=dict)  # fans found so far ({fan: id})
    spec: ShapeSpec | None = None
    hand_bits: int = -1  # hand_features(...), when the caller computed it once for all readings

    def __post_init__(self) -> None:
        # One pass over the blocks fills what most patterns read (sets, kinds, bit masks of
        # chow and pung kinds, features) so that patterns stay a few operations each.
        sets: list[Block] = []
        pungs: list[Block] = []
        chows: list[Block] = []
        kongs: list[Block] = []
        kinds: list[int] = []
        pair = None
        npairs = 0
        chow_mask = pung_mask = 0
        dup = False
        sets_outside = True
        wild = False
        d = self.d
        for b in d.blocks:
            sh = b.shape
            bk = b.kinds
            if b.wilds or b.free:
                wild = True
            if sh == CHOW:
                sets.append(b)
                chows.append(b)
                bit = 1 << bk[0]
                if chow_mask & bit:
                    dup = True
                chow_mask |= bit
                if sets_outside and not (_OUT[bk[0]] or _OUT[bk[2]]):
                    sets_outside = False
            elif sh == PUNG or sh == KONG:
                sets.append(b)
                pungs.append(b)
                if sh == KONG:
                    kongs.append(b)
                if bk:
                    pung_mask |= 1 << bk[0]
                    if sets_outside and not _OUT[bk[0]]:
                        sets_outside = False
            elif sh == "pair":
                pair = b
                npairs += 1
            kinds.extend(bk)
        self.sets = tuple(sets)
        self.pungs = tuple(pungs)
        self.chows = tuple(chows)
        self.kongs = tuple(kongs)
        self.kinds = tuple(kinds)
        self.chow_mask = chow_mask
        self.pung_mask = pung_mask
        self.pair = pair if npairs == 1 and d.form in PAIR_FORMS else None
        ks = self.kind_set = frozenset(kinds)
        suits = self.suits = _SUITS_BY_MASK[(not ks.isdisjoint(_MAN)) | (not ks.isdisjoint(_PIN)) << 1 | (not ks.isdisjoint(_SOU)) << 2]
        self.has_honors = not ks.isdisjoint(_HONOR)
        hb = self.hand_bits if self.hand_bits >= 0 else hand_features(self.hand, self.win, self.dora, self.ura)
        self.concealed_hand = bool(hb & _CONCEALED)
        wb = d.win_block
        self.win_block = None if wb is None else d.blocks[wb]
        if dup:
            firsts = [b.kinds[0] for b in chows]
            self.chow_pairs = sum(firsts.count(k) // 2 for k in set(firsts))
        else:
            self.chow_pairs = 0
        if wild:
            # Wildcards may still change what the reading holds: no fan is skipped.
            self.features = ALL_FEATURES
            return
        f = hb | _FORM_BIT.get(d.form, 0)
        if d.wait == "pair":
            f |= _PAIR_WAIT
        n = len(chows)
        if n:
            f |= BIT["chow"] | (BIT["chow2"] if n >= 2 else 0) | (BIT["chow3"] if n >= 3 else 0) | (BIT["dup_chow"] if dup else 0)
        else:
            f |= BIT["no_chow"]
        if pungs:
            n = len(pungs)
            f |= BIT["pung"] | (BIT["pung3"] | (BIT["pung4"] if n >= 4 else 0) if n >= 3 else 0)
            if pung_mask & _DRAGON_MASK:
                f |= BIT["dragon_pung"]
            if pung_mask & _WIND_MASK:
                f |= BIT["wind_pung"]
            if kongs:
                f |= BIT["kong"] | (BIT["kong3"] if len(kongs) >= 3 else 0)
        else:
            f |= BIT["no_pung"]
        f |= BIT["no_honor"] if ks.isdisjoint(_HONOR) else BIT["honor"]
        if ks.isdisjoint(_OUTSIDE):
            f |= BIT["simples_only"]
        else:
            f |= BIT["outside"]
            if ks <= _OUTSIDE:
                f |= BIT["all_outside"]
            if sets_outside:
                f |= BIT["sets_outside"]
        if ks <= _GREEN:
            f |= BIT["green_only"]
        n = len(suits)
        f |= BIT["no_suit"] if n == 0 else BIT["one_suit"] if n == 1 else BIT["three_suits"] if n == 3 else 0
        self.features = f

    # -- blocks ---------------------------------------------------------------------------------
    @property
    def blocks(self) -> tuple[Block, ...]:
        return self.d.blocks

    @property
    def form(self) -> str:
        return self.d.form

    @property
    def standard(self) -> bool:
        return self.d.form == "standard"

    @property
    def win_kind(self) -> int | None:
        last = self.hand.last
        return None if last is None else last.kind

    @property
    def tsumo(self) -> bool:
        return self.win.tsumo

    def concealed_pung(self, b: Block) -> bool:
        """A pung or kong held concealed; one completed by a discard (ron) counts as open."""
        if b.shape not in (PUNG, KONG) or not b.concealed:
            return False
        if b.meld is not None:  # a concealed kong
            return True
        return not (b is self.win_block and not self.win.tsumo)

    @lazy
    def concealed_pung_count(self) -> int:
        """Concealed pungs and kongs (a pung completed by a discard does not count)."""
        return sum(1 for b in self.pungs if self.concealed_pung(b))

    # -- tiles ----------------------------------------------------------------------------------
    @lazy
    def groups(self) -> frozenset[int]:
        return frozenset(group(k) for k in self.kinds)

    @lazy
    def free_wild(self) -> int:
        return sum(b.free for b in self.d.blocks)

    @lazy
    def wild_used(self) -> int:
        return sum(b.wild for b in self.d.blocks)

    def kind_count(self, kind: int) -> int:
        return self.kinds.count(kind)
