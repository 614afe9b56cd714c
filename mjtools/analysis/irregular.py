"""Readings of the forms other than sets + pair (see `decompose.py` for what a reading is):
seven pairs, thirteen orphans, 十三烂 and 全不靠 (single tiles), 组合龙 (a knitted straight with
one set and a pair) and 将将和 (2-5-8 pungs and pair)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from itertools import combinations, combinations_with_replacement, permutations, product

from mjtools.analysis.blocks import (
    KONG,
    PAIR,
    PUNG,
    SINGLE,
    TERMINAL_HONOR,
    Block,
    hand_counts,
    meld_block,
    meld_copies,
)
from mjtools.analysis.shapes import ShapeSpec
from mjtools.analysis.standard import (
    _natural_blocks,
    _plain_meld_block,
    _standard_packed,
    _standard_plain,
    _wild_blocks,
)
from mjtools.tiles.hand import Hand

# -- seven pairs, thirteen orphans ----------------------------------------------------------------


def seven_pairs(hand: Hand, spec: ShapeSpec, compact: bool = False) -> Iterator[list[Block]]:
    """Naturals pair among themselves first (a single takes one wildcard); the wildcards left
    over pair up as any kind: one pair per kind, two where four of a kind count as two pairs."""
    if hand.melds or spec.hand_size != 13:
        return
    got = hand_counts(hand, spec, "seven_pairs" in spec.face_value_forms)
    if got is None:
        return
    counts, wild = got
    per_kind = 2 if spec.quads_as_pairs else 1
    fixed: list[Block] = []
    used = Counter()
    for k, c in enumerate(counts):
        if not c:
            continue
        if c > 2 * per_kind:
            return
        fixed += [Block(PAIR, (k, k))] * (c // 2)
        if c % 2:
            fixed.append(Block(PAIR, (k, k), wilds=(k,)))
            wild -= 1
        used[k] = (c + 1) // 2
    if wild < 0 or wild % 2 or len(fixed) + wild // 2 != 7:
        return
    if compact:
        yield fixed + [Block(PAIR, (), free=2)] * (wild // 2)
        return
    kinds = sorted(spec.kinds)

    def more(start: int, left: int) -> Iterator[list[Block]]:
        if not left:
            yield []
            return
        for j in range(start, len(kinds)):
            k = kinds[j]
            if used[k] < per_kind:
                used[k] += 1
                for rest in more(j, left - 1):
                    yield [Block(PAIR, (k, k), wilds=(k, k))] + rest
                used[k] -= 1

    for extra in more(0, wild // 2):
        yield sorted(fixed + extra, key=lambda b: (b.kinds, b.wilds))


def thirteen_orphans(hand: Hand, spec: ShapeSpec, compact: bool = False) -> Iterator[list[Block]]:
    if hand.melds or spec.hand_size != 13 or not set(TERMINAL_HONOR) <= spec.kinds:
        return
    got = hand_counts(hand, spec, "thirteen_orphans" in spec.face_value_forms)
    if got is None:
        return
    counts, wild = got
    if any(counts[k] for k in range(34) if k not in TERMINAL_HONOR) or any(counts[k] > 2 for k in TERMINAL_HONOR):
        return
    missing = [k for k in TERMINAL_HONOR if counts[k] == 0]
    doubles = [k for k in TERMINAL_HONOR if counts[k] == 2]
    if len(doubles) > 1 or len(missing) + (1 - len(doubles)) != wild:
        return
    singles = [Block(SINGLE, (k,)) if counts[k] else Block(SINGLE, (k,), wilds=(k,)) for k in TERMINAL_HONOR]
    if doubles:
        yield singles + [Block(SINGLE, (doubles[0],))]
    elif compact:
        yield singles + [Block(SINGLE, (), free=1)]
    else:
        for k in TERMINAL_HONOR:
            yield singles + [Block(SINGLE, (k,), wilds=(k,))]


# -- 十三烂 and 全不靠 ---------------------------------------------------------------------------


def _irregular(hand: Hand, spec: ShapeSpec, form: str, compact: bool) -> Iterator[list[Block]]:
    """Fourteen different kinds: the naturals as they are, the wildcards on every completion."""
    from mjtools.analysis.forms import KNIT, _spread_ok, group_of
    from mjtools.analysis.shanten import form_distances, state_of

    if hand.melds or spec.hand_size != 13:
        return
    got = hand_counts(hand, spec, form in spec.face_value_forms)
    if got is None or any(c > 1 for c in got[0]):
        return
    counts, wild = got
    if not wild and form == "knitted":
        # No wildcard: fourteen different kinds, the suited ones within one knitted straight.
        held = [k for k in range(34) if counts[k]]
        suited = {k for k in held if k < 27}
        if len(held) == 14 and any(suited <= set(s) for s in KNITTED_STRAIGHTS):
            yield [Block(SINGLE, (k,)) for k in held]
        return
    one = ShapeSpec(**{**spec.__dict__, "forms": (form,), "_groups": ()})
    st = state_of(hand, one)
    if form_distances(st, one).get(form) != st.wild:
        return  # not complete: skip the enumeration below
    held = [k for k in range(34) if counts[k]]
    if compact:
        yield [Block(SINGLE, (k,)) for k in held] + [Block(SINGLE, (), free=1) for _ in range(wild)]
        return
    # Per suit, the 9-bit masks a target may use there; knitted: submasks of 147/258/369.
    if form == "knitted":
        layouts = [tuple(list(_submasks(m)) for m in perm) for perm in permutations(KNIT)]
    else:
        valid = [m for m in range(512) if _spread_ok(m)]
        layouts = [tuple(valid if all(k in spec.kinds for k in range(9 * g, 9 * g + 9)) else [0] for g in range(3))]
    hmask = [sum(1 << (k - 9 * g) for k in held if group_of(k) == g) for g in range(3)]
    held_honors = [k for k in held if k >= 27]
    free_honors = [k for k in range(27, 34) if k in spec.kinds and not counts[k]]
    targets: set[tuple[int, ...]] = set()
    for lay in layouts:
        choices = [[m for m in lay[g] if m & hmask[g] == hmask[g]] for g in range(3)]
        for masks in product(*choices):
            suited = [9 * g + i for g, m in enumerate(masks) for i in range(9) if m >> i & 1]
            z = 14 - len(suited) - len(held_honors)
            if 0 <= z <= len(free_honors) and len(suited) + len(held_honors) + z - len(held) == wild:
                for extra in combinations(free_honors, z):
                    targets.add(tuple(sorted(suited + held_honors + list(extra))))
    for t in sorted(targets):
        yield [Block(SINGLE, (k,)) if counts[k] else Block(SINGLE, (k,), wilds=(k,)) for k in t]


def _submasks(mask: int) -> Iterator[int]:
    sub = mask
    while True:
        yield sub
        if not sub:
            return
        sub = (sub - 1) & mask


# The six knitted straights (组合龙): 147, 258 and 369 each in a different suit, as 9 kinds.
KNITTED_STRAIGHTS = tuple(
    tuple(9 * g + r for g, start in enumerate(order) for r in (start, start + 3, start + 6)) for order in permutations((0, 1, 2))
)
# The number kinds held, a byte per kind (0 or 1), as one integer: `held_number_kinds(counts)`.
# Each straight's kinds as a mask over it, so that how many of its nine kinds a hand holds is
# one AND and a bit count.
_HELD = bytes(1 if n else 0 for n in range(256))  # bytes.translate: 1 where a kind is held
KNITTED_MASKS = tuple(sum(1 << 8 * k for k in ks) for ks in KNITTED_STRAIGHTS)


def held_number_kinds(counts: list[int] | tuple[int, ...]) -> int:
    """A byte per number kind (the first 27 counts, each at most 255), 1 where it is held."""
    return int.from_bytes(bytes(counts[:27]).translate(_HELD), "little")


_LOW7 = sum(0x7F << 8 * k for k in range(27))
_HIGH = sum(0x80 << 8 * k for k in range(27))


def held_of_packed(packed: int) -> int:
    """held_number_kinds from the counts as one integer (a byte per kind, any count up to
    255): a byte's low seven bits plus 127 reach its top bit where any is set (no carry out
    of the byte), its own top bit is or-ed in."""
    return (((packed & _LOW7) + _LOW7 | packed) & _HIGH) >> 7


def _holds_knitted_straight(held: int) -> bool:
    for m in KNITTED_MASKS:
        if held & m == m:
            return True
    return False


def knitted_straight(hand: Hand, spec: ShapeSpec, compact: bool = False) -> Iterator[list[Block]]:
    """组合龙 + a set + a pair (Chinese Official): the nine tiles of a knitted straight (three
    `knitted` blocks, one per suit), one more set (which may be the hand's only meld) and a
    pair. Wildcards fill missing knitted positions first, then the set and the pair."""
    if len(hand.melds) > 1 or spec.hand_size != 13 or not all(k in spec.kinds for k in range(27)):
        return
    got = hand_counts(hand, spec, "knitted_straight" in spec.face_value_forms)
    if got is None:
        return
    counts, wild = got
    melds = [meld_block(m, dict(spec.stand_ins), spec) for m in hand.melds]
    if any(not b.is_set for b in melds) or sum(counts) + wild != 14 - 3 * len(melds):
        return
    seen: set[tuple] = set()
    for straight in KNITTED_STRAIGHTS:
        missing = [k for k in straight if not counts[k]]
        if len(missing) > wild:
            continue
        rest = list(counts)
        for k in straight:
            if rest[k]:
                rest[k] -= 1
        knit = [Block("knitted", straight[i : i + 3], wilds=tuple(k for k in straight[i : i + 3] if k in missing)) for i in (0, 3, 6)]
        knit.sort(key=lambda b: b.kinds)
        if not wild:
            for blocks in _standard_plain(rest, 1 - len(melds)):
                yield knit + melds + list(blocks)
            continue
        for nat, w, s, p in _natural_blocks(rest, wild - len(missing), 1 - len(melds), True, 0, spec):
            for extra in _wild_blocks(w, s, p, spec, compact):
                blocks = knit + melds + sorted(nat + extra, key=lambda b: (b.shape == PAIR, b.kinds, b.wilds))
                key = tuple((b.shape, b.kinds, b.wilds, b.free) for b in blocks)
                if key not in seen:
                    seen.add(key)
                    yield blocks


SINGLE_BLOCK = tuple(Block(SINGLE, (k,)) for k in range(34))  # shared, like PAIR_BLOCK
_KNITTED_SETS = tuple(frozenset(s) for s in KNITTED_STRAIGHTS)
# Each straight's three knitted blocks in kind order (no wildcards): shared.
_KNIT_BLOCKS = tuple(tuple(sorted((Block("knitted", s[i : i + 3]) for i in (0, 3, 6)), key=lambda b: b.kinds)) for s in KNITTED_STRAIGHTS)


def _knitted_straight_plain(hand: Hand, spec: ShapeSpec, counts: list[int], held: int = -1, packed: int = -1) -> list[tuple[str, tuple[Block, ...], int]]:
    """knitted_straight() without wildcards or stand-ins, from the counts already made (the
    same readings in the same order). `held`: held_number_kinds(counts) where the caller has it;
    `packed`: the counts as one integer (a byte per kind) where it has that (-1: not)."""
    if len(hand.melds) > 1 or spec.hand_size != 13 or not (len(spec.kinds) >= 34 or all(k in spec.kinds for k in range(27))):
        return []
    melds: tuple[Block, ...] = ()
    if hand.melds:  # (one at most, from the test above)
        melds = (_plain_meld_block(hand.melds[0], spec),)
        if not melds[0].is_set:
            return []
    # (the tile count as the packed bytes' sum where given: 255 ≡ 1, and a hand holds fewer)
    if (packed % 255 if packed >= 0 else sum(counts)) != 14 - 3 * len(melds):
        return []
    out = []
    if held < 0:
        held = held_number_kinds(counts)
    for straight, knit, mask in zip(KNITTED_STRAIGHTS, _KNIT_BLOCKS, KNITTED_MASKS):
        if held & mask != mask:  # (a straight's nine kinds all held: one AND)
            continue
        if packed >= 0:  # (one copy of each of its kinds taken out: a subtraction)
            for blocks in _standard_packed(packed - mask, 1 - len(melds)):
                out.append(("knitted_straight", knit + melds + tuple(blocks), 0))
            continue
        rest = list(counts)
        for k in straight:
            rest[k] -= 1
        for blocks in _standard_plain(rest, 1 - len(melds)):
            out.append(("knitted_straight", knit + melds + tuple(blocks), 0))
    return out


def all_258(hand: Hand, spec: ShapeSpec, compact: bool = False) -> Iterator[list[Block]]:
    """将将和 (Changsha): every tile a 2, 5 or 8 in any arrangement; laid-down melds must be
    pungs or kongs of them. The concealed tiles are singles; each wildcard takes every 2, 5 or
    8 it may be (within the copy limits), one reading per multiset of placements."""
    from mjtools.analysis.shapes import KINDS_258

    stand = dict(spec.stand_ins)
    melds = [meld_block(m, stand, spec) for m in hand.melds]
    if any(b.shape not in (PUNG, KONG) or b.first not in KINDS_258 for b in melds):
        return
    got = hand_counts(hand, spec, "all_258" in spec.face_value_forms)
    if got is None:
        return
    counts, wild = got
    if any(counts[k] for k in range(34) if k not in KINDS_258) or sum(counts) + wild + 3 * len(melds) != spec.hand_size + 1:
        return
    natural = [Block(SINGLE, (k,)) for k in range(34) for _ in range(counts[k])]
    if compact or not wild:
        yield melds + natural + [Block(SINGLE, (), free=1) for _ in range(wild)]
        return
    in_melds = meld_copies(hand, spec)
    kinds = sorted(KINDS_258 & spec.kinds)
    for placed in combinations_with_replacement(kinds, wild):
        if not spec.wild_fifth_copy and any(counts[k] + placed.count(k) + in_melds[k] > 4 for k in set(placed)):
            continue
        yield melds + sorted(natural + [Block(SINGLE, (k,), wilds=(k,)) for k in placed], key=lambda b: (b.kinds, b.wilds))
