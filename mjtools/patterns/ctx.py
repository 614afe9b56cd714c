"""Ctx: what a pattern sees — one decomposition of one win, with its hand and context."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Generic, TypeVar

from mjtools.analysis.blocks import CHOW, KONG, PAIR, PAIR_FORMS, PUNG, Block, Decomposition
from mjtools.analysis.shapes import ShapeSpec

# The hand's bits and the bit table live in features.py; the reading's bits are set here.
from mjtools.patterns.features import (
    _ALL_OUTSIDE,
    _CHOW_BITS,
    _CONCEALED,
    _CPUNG_BITS,
    _DRAGON_MASK,
    _DRAGON_PUNG,
    _DRAGON_PUNG2,
    _DUP_CHOW,
    _FORM_BIT,
    _GREEN,
    _GREEN_ONLY,
    _HONOR,
    _HONOR_BIT,
    _KONG_BITS,
    _MAN,
    _NO_CHOW,
    _NO_HONOR,
    _NO_PUNG,
    _OUT,
    _OUTSIDE,
    _OUTSIDE_BIT,
    _PAIR_WAIT,
    _PIN,
    _PUNG_BITS,
    _ROLE_BIT,
    _SET_SHAPES,
    _SETS_OUTSIDE,
    _SIMPLES_ONLY,
    _SOU,
    _SUITS_BY_MASK,
    _WANTS_CPUNG,
    _WANTS_ROLE,
    _WIND_MASK,
    _WIND_PUNG,
    _WIND_PUNG3,
    ALL_FEATURES,
    SUIT_COUNT_BITS,
    group,
    hand_features,
)
from mjtools.patterns.roles import wait_role
from mjtools.tiles.context import WinContext
from mjtools.tiles.hand import Hand


def count_concealed_pungs(ctx: Ctx) -> int:
    """Ctx.concealed_pung_count by its own loop over the reading's pungs."""
    n = 0
    win_block = ctx.win_block
    ron = not ctx.win.tsumo
    for b in ctx.pungs:
        if b.concealed and (b.meld is not None or not (b is win_block and ron)):
            n += 1
    return n


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


class Ctx:
    """What the patterns read about one reading of a hand. (A plain class: a dataclass compiled
    its methods at import, start-up time on every call.)"""

    # The attributes every reading sets as slots; what is worked out on first use (`lazy`, the
    # shared tables' values) goes to the instance dict. (Without slots a reading's attributes
    # outgrow the 30 keys an instance shares with its class, and its reads get slower.)
    __slots__ = ("hand", "d", "win", "wild_kinds", "dora", "ura", "options", "_awarded", "_found", "spec", "hand_bits", "chows", "pungs", "sets", "kongs", "kinds", "chow_mask", "pung_mask", "pair", "kind_set", "suits", "has_honors", "concealed_hand", "win_block", "chow_pairs", "features", "_role", "_cpungs", "_sets_key", "_relation_fans", "__dict__")
    hand: Hand
    d: Decomposition
    win: WinContext
    wild_kinds: frozenset[int]
    dora: tuple[int, ...]  # dora kinds, one entry per indicator (repeats count twice)
    ura: tuple[int, ...]
    options: Mapping[str, Any]
    _awarded: dict[str, int]  # the fans found so far ({fan: count}; read it as `awarded`)
    _found: list[Any] | None  # the fans found, not yet in _awarded (see `awarded`)
    spec: ShapeSpec | None
    hand_bits: int  # hand_features(...), when the caller computed it once for all readings
    # combos.relations of the reading and its key, once worked out (class defaults: no
    # instance dict per reading)
    _relations: dict[str, tuple[tuple[int, ...], ...]] | None = None
    _relations_key: tuple | None = None
    _sets_key: Any  # combos.sets_key, and the fans relations holds by it (None until then)
    _relation_fans: dict[str, int] | None

    def __init__(
        self,
        hand: Hand,
        d: Decomposition,
        win: WinContext,
        wild_kinds: frozenset[int] = frozenset(),
        dora: tuple[int, ...] = (),
        ura: tuple[int, ...] = (),
        options: Mapping[str, Any] | None = None,
        awarded: dict[str, int] | None = None,
        spec: ShapeSpec | None = None,
        hand_bits: int = -1,
    ) -> None:
        self.hand = hand
        self.d = d
        self.win = win
        self.wild_kinds = wild_kinds
        self.dora = dora
        self.ura = ura
        self.options = {} if options is None else options
        self._awarded = {} if awarded is None else awarded
        self._found = None
        self.spec = spec
        self.hand_bits = hand_bits
        self._sets_key = self._relation_fans = None
        # One pass over the blocks fills what most patterns read (sets, kinds, bit masks of
        # chow and pung kinds, features) so that patterns stay a few operations each.
        pungs: list[Block] = []
        chows: list[Block] = []
        kinds: list[int] = []
        pair = None
        npairs = 0
        chow_mask = pung_mask = 0
        dup = False
        sets_outside = True
        wild = False
        kongs = hidden = 0
        d = self.d
        blocks = d.blocks
        for b in blocks:
            sh = b.shape
            bk = b.kinds
            if sh is CHOW:
                chows.append(b)
                bit = 1 << bk[0]
                if chow_mask & bit:
                    dup = True
                chow_mask |= bit
                if sets_outside and not (_OUT[bk[0]] or _OUT[bk[2]]):
                    sets_outside = False
            elif sh is PUNG or sh is KONG:
                pungs.append(b)
                if sh is KONG:
                    kongs += 1
                if b.concealed:
                    hidden += 1
                if bk:
                    pung_mask |= 1 << bk[0]
                    if sets_outside and not _OUT[bk[0]]:
                        sets_outside = False
            elif sh is PAIR:
                pair = b
                npairs += 1
            elif sh != CHOW and sh != PUNG and sh != KONG and sh != PAIR:
                pass
            else:  # an equal string that is not the shared constant (a block built elsewhere)
                self._slow_init()
                return
            kinds += bk
        if self.wild_kinds:  # (a reading holds wildcards only where the hand has some)
            for b in blocks:
                if b.wilds or b.free:
                    wild = True
                    break
        self._finish(blocks, chows, pungs, kongs, kinds, pair, npairs, chow_mask, pung_mask, dup, sets_outside, wild, hidden)

    def _slow_init(self) -> None:
        """The same facts with shapes compared by value (blocks whose shape strings are not the
        shared constants)."""
        pungs: list[Block] = []
        chows: list[Block] = []
        kinds: list[int] = []
        pair = None
        npairs = 0
        chow_mask = pung_mask = 0
        dup = False
        sets_outside = True
        wild = False
        kongs = hidden = 0
        blocks = self.d.blocks
        for b in blocks:
            sh = b.shape
            bk = b.kinds
            if b.wilds or b.free:
                wild = True
            if sh == CHOW:
                chows.append(b)
                bit = 1 << bk[0]
                if chow_mask & bit:
                    dup = True
                chow_mask |= bit
                if sets_outside and not (_OUT[bk[0]] or _OUT[bk[2]]):
                    sets_outside = False
            elif sh == PUNG or sh == KONG:
                pungs.append(b)
                if sh == KONG:
                    kongs += 1
                if b.concealed:
                    hidden += 1
                if bk:
                    pung_mask |= 1 << bk[0]
                    if sets_outside and not _OUT[bk[0]]:
                        sets_outside = False
            elif sh == PAIR:
                pair = b
                npairs += 1
            kinds.extend(bk)
        self._finish(blocks, chows, pungs, kongs, kinds, pair, npairs, chow_mask, pung_mask, dup, sets_outside, wild, hidden)

    def _finish(self, blocks: tuple[Block, ...], chows: list[Block], pungs: list[Block], kongs: int, kinds: list[int], pair: Block | None, npairs: int, chow_mask: int, pung_mask: int, dup: bool, sets_outside: bool, wild: bool, hidden: int) -> None:
        d = self.d
        self.chows = tuple(chows)
        self.pungs = tuple(pungs)
        # Sets in block order (chows and pungs interleaved as the reading has them).
        self.sets = tuple([b for b in blocks if b.shape in _SET_SHAPES]) if chows and pungs else self.chows or self.pungs
        self.kongs = tuple([b for b in pungs if b.shape == KONG]) if kongs else ()
        self.kinds = tuple(kinds)
        self.chow_mask = chow_mask
        self.pung_mask = pung_mask
        self.pair = pair if npairs == 1 and d.form in PAIR_FORMS else None
        ks = self.kind_set = frozenset(kinds)
        suits = self.suits = _SUITS_BY_MASK[(not ks.isdisjoint(_MAN)) | (not ks.isdisjoint(_PIN)) << 1 | (not ks.isdisjoint(_SOU)) << 2]
        honors = self.has_honors = not ks.isdisjoint(_HONOR)
        hb = self.hand_bits if self.hand_bits >= 0 else hand_features(self.hand, self.win, self.dora, self.ura)
        self.concealed_hand = bool(hb & _CONCEALED)
        wb = d.win_block
        self.win_block = None if wb is None else blocks[wb]
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
        if hb & _WANTS_ROLE:
            # (an attribute: writing __dict__ would make one per reading)
            if npairs > 1:
                role = wait_role(self.hand, blocks)
            else:
                # (from the chows and the one pair, written out here: a call per reading costs
                # more than the loop; the role does not depend on the blocks' order)
                last = self.hand.last
                role = None
                if last is not None:
                    k = last.kind
                    for b in chows:
                        bk = b.kinds
                        if b.meld is None and k in bk:
                            if bk[1] != k:
                                role = "edge"
                                break
                            role = "closed"
                    if role is None and pair is not None and pair.meld is None and k in pair.kinds:
                        role = "pair"
            self._role = role
            if role is not None:  # (an OR of a wide integer with no bit is skipped)
                f |= _ROLE_BIT[role]
        if d.wait == "pair":
            f |= _PAIR_WAIT
        n = len(chows)
        if n:
            f |= _CHOW_BITS[n] | (_DUP_CHOW if dup else 0)
        else:
            f |= _NO_CHOW
        if pungs:
            f |= _PUNG_BITS[len(pungs)]
            x = pung_mask & _DRAGON_MASK
            if x:
                f |= _DRAGON_PUNG if x & (x - 1) == 0 else _DRAGON_PUNG2
            x = pung_mask & _WIND_MASK
            if x:
                f |= _WIND_PUNG if x.bit_count() < 3 else _WIND_PUNG3
            if kongs:
                f |= _KONG_BITS[kongs]
            if hb & _WANTS_CPUNG:
                # concealed_pung_count from the concealed pungs counted above: less a pung the
                # winning tile completed on a discard (it counts as exposed)
                if hidden and wb is not None and not self.win.tsumo:
                    b = blocks[wb]
                    if b.concealed and b.meld is None and (b.shape is PUNG or b.shape is KONG or b.shape == PUNG or b.shape == KONG):
                        hidden -= 1
                self._cpungs = hidden
                if hidden > 1:  # (the bits start at two)
                    f |= _CPUNG_BITS[hidden]
        else:
            f |= _NO_PUNG
        f |= _HONOR_BIT if honors else _NO_HONOR
        if ks.isdisjoint(_OUTSIDE):
            f |= _SIMPLES_ONLY
        else:
            f |= _OUTSIDE_BIT
            if ks <= _OUTSIDE:
                f |= _ALL_OUTSIDE
            if sets_outside:
                f |= _SETS_OUTSIDE
        if ks <= _GREEN:
            f |= _GREEN_ONLY
        f |= SUIT_COUNT_BITS[len(suits)]
        self.features = f

    @property
    def awarded(self) -> dict[str, int]:
        """The fans found so far, {fan: count}: the `fan` primitive's and 八連荘's reading. A
        plan with a pattern that reads them keeps the dict up to date fan by fan; the others
        leave the reading's fans found in `_found` (the fan plan's awards: `.id`, `.count`), made
        into the dict here on first read, so a reading nothing asks about never builds it."""
        found = self._found
        if found is not None:
            self._found = None
            got = self._awarded
            for a in found:
                got[a.id] = a.count
        return self._awarded

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

    @property
    def role(self) -> str | None:
        """wait_role of this reading (set while the features are worked out where a fan uses
        the role bits; else worked out on first use)."""
        try:
            return self._role
        except AttributeError:
            got = self._role = wait_role(self.hand, self.d.blocks)
            return got

    @property
    def concealed_pung_count(self) -> int:
        """Concealed pungs and kongs (a pung completed by a discard does not count): counted
        while the features are worked out where a fan uses the cpung bits; else on first use."""
        try:
            return self._cpungs
        except AttributeError:
            got = self._cpungs = count_concealed_pungs(self)
            return got

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
