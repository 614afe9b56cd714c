"""Every way to read a complete hand as a winning shape.

A `Decomposition` is a form (standard, seven_pairs, ...) and its blocks: sets (chows, pungs,
kongs; exposed melds included), the pair, or the single tiles of irregular forms. Wildcards
take the kind they stand for and are remembered per block (`Block.wilds`). With a winning
tile, each block (and each wildcard position) it could have completed gives its own
decomposition (`win_block`, `wait`), as riichi's fu needs.

Blocks made only of wildcards could be any set or pair: by default every concrete choice is a
reading of its own (every pung, chow and pair kind the variant allows, within the copy limits),
so patterns always see real kinds and the scorer's best-reading search is exact. Callers that
only need the shapes pass `compact=True` and get one placeholder per such block instead:
`kinds=()`, `free=n`, shape `set` (three wildcards) or `pair`.

The readings honour the variant's wildcard rules exactly as shanten does (`groupdp.py`): no
wildcard in the pair under `in_pair: false`; no wildcard as a fifth copy of a kind counting
the melds unless `fifth_copy`; wildcards at face value in `face_value_forms`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from itertools import combinations, combinations_with_replacement, permutations, product
from operator import itemgetter
from typing import Any

from mjtools.analysis.blocks import (
    CHOW,
    DRAGONS,
    FREE_SET,
    KONG,
    NO_STAND,
    PAIR,
    PUNG,
    SINGLE,
    TERMINAL_HONOR,
    WINDS,
    Block,
    Decomposition,
    caps_ok,
    hand_counts,
    meld_block,
    meld_copies,
)
from mjtools.analysis.shapes import ShapeSpec
from mjtools.tiles.hand import Hand, Meld

# -- the standard form ----------------------------------------------------------------------------


# Per shape spec instance, what the searches below read on every call: keyed by id with the
# spec kept beside its answer (an equal spec of another instance would be compared field by
# field on every lookup), and built once per (kinds, honor chows), all they depend on (a
# variant whose wildcard is turned up each hand has a spec per wildcard kind).
_SPEC_MEMO_LIMIT = 256
_PER_SPEC: dict[tuple[str, int], tuple[ShapeSpec, Any]] = {}
_BY_KINDS: dict[tuple[str, frozenset[int], bool], Any] = {}


def _per_spec(name: str, spec: ShapeSpec, make: Callable[[ShapeSpec], Any]) -> Any:
    got = _PER_SPEC.get((name, id(spec)))
    if got is not None and got[0] is spec:
        return got[1]
    key = (name, spec.kinds, spec.honor_chows)
    value = _BY_KINDS.get(key)
    if value is None:
        if len(_BY_KINDS) >= _SPEC_MEMO_LIMIT:
            _BY_KINDS.clear()
        value = _BY_KINDS[key] = make(spec)
    if len(_PER_SPEC) >= _SPEC_MEMO_LIMIT:
        _PER_SPEC.clear()
    _PER_SPEC[name, id(spec)] = (spec, value)
    return value


def _set_shapes(spec: ShapeSpec) -> list[tuple[str, tuple[int, ...]]]:
    """Every set the variant's kinds allow: pungs, chows, honor chows (kept per spec; callers
    only read it)."""
    return _per_spec("set_shapes", spec, _make_set_shapes)


def _make_set_shapes(spec: ShapeSpec) -> list[tuple[str, tuple[int, ...]]]:
    ks = spec.kinds
    out = [(PUNG, (k, k, k)) for k in sorted(ks)]
    out += [(CHOW, (k, k + 1, k + 2)) for k in range(27) if k % 9 <= 6 and {k, k + 1, k + 2} <= ks]
    if spec.honor_chows:
        out += [(CHOW, t) for t in combinations(WINDS, 3) if set(t) <= ks]
        if set(DRAGONS) <= ks:
            out.append((CHOW, DRAGONS))
    return out


def _sets_with(i: int, spec: ShapeSpec) -> list[tuple[str, tuple[int, ...]]]:
    """Chows (and honor chows) holding kind i."""
    out = []
    if i < 27:
        pos = i % 9
        for a in range(i - min(pos, 2), i - pos + min(pos, 6) + 1):
            if {a, a + 1, a + 2} <= spec.kinds:
                out.append((CHOW, (a, a + 1, a + 2)))
    elif spec.honor_chows:
        for group in (WINDS, DRAGONS):
            if i in group:
                for t in combinations(group, 3):
                    if i in t and set(t) <= spec.kinds:
                        out.append((CHOW, t))
    return out


def _chow_options(spec: ShapeSpec) -> tuple:
    """Per kind i, the chows holding i as `_natural_blocks` tries them, in its order: (shape,
    kinds sorted, ((the other kinds taken as naturals, the kinds wildcards fill), ...)); a
    choice taking a natural below i is left out (`_natural_blocks` works up from the lowest
    natural tile, so none is held there). Kept per spec."""
    return _per_spec("chow_options", spec, _make_chow_options)


def _make_chow_options(spec: ShapeSpec) -> tuple:
    per_kind = []
    for i in range(34):
        opts = []
        for shape, kinds in _sets_with(i, spec):
            others = [k for k in kinds if k != i]
            choices = []
            for mask in range(4):
                nat = tuple(k for j, k in enumerate(others) if mask >> j & 1)
                if any(k < i for k in nat):
                    continue
                choices.append((nat, tuple(sorted(k for k in others if k not in nat))))
            opts.append((shape, tuple(sorted(kinds)), tuple(choices)))
        per_kind.append(tuple(opts))
    return tuple(per_kind)


def _natural_blocks(counts: list[int], wild: int, sets: int, pair: bool, start: int, spec: ShapeSpec) -> Iterator[tuple[list[Block], int, int, bool]]:
    """Blocks holding every natural tile: yields (blocks, wildcards left, sets left, pair left)."""
    i = start
    while i < 34 and counts[i] == 0:
        i += 1
    if i >= 34:
        yield [], wild, sets, pair
        return
    c = counts[i]
    # The lowest natural tile left belongs to the pair, a pung, or a chow.
    if pair:
        for nat in (2, 1):
            if c >= nat and wild >= 2 - nat and (nat == 2 or spec.wild_in_pair):
                counts[i] -= nat
                for rest, w, s, p in _natural_blocks(counts, wild - (2 - nat), sets, False, i, spec):
                    yield [Block(PAIR, (i, i), wilds=(i,) * (2 - nat))] + rest, w, s, p
                counts[i] += nat
    if not sets:
        return
    for nat in (3, 2, 1):
        if c >= nat and wild >= 3 - nat:
            counts[i] -= nat
            for rest, w, s, p in _natural_blocks(counts, wild - (3 - nat), sets - 1, pair, i, spec):
                yield [Block(PUNG, (i, i, i), wilds=(i,) * (3 - nat))] + rest, w, s, p
            counts[i] += nat
    for shape, kinds, choices in _chow_options(spec)[i]:
        for nat, wilds in choices:
            if len(wilds) > wild or any(counts[k] == 0 for k in nat):
                continue
            counts[i] -= 1
            for k in nat:
                counts[k] -= 1
            for rest, w, s, p in _natural_blocks(counts, wild - len(wilds), sets - 1, pair, i, spec):
                yield [Block(shape, kinds, wilds=wilds)] + rest, w, s, p
            for k in nat:
                counts[k] += 1
            counts[i] += 1


# Shared blocks of concealed tiles (no wildcards): decompositions reuse them.
PUNG_BLOCK = tuple(Block(PUNG, (k, k, k)) for k in range(34))
PAIR_BLOCK = tuple(Block(PAIR, (k, k)) for k in range(34))
CHOW_BLOCK = tuple(Block(CHOW, (k, k + 1, k + 2)) if k < 27 and k % 9 < 7 else None for k in range(34))
GROUPS = ((0, 9, True), (9, 9, True), (18, 9, True), (27, 7, False))  # (first kind, size, chows)
Split = tuple[int, "Block | None", tuple[Block, ...]]
_SPLITS: dict[tuple[tuple[int, ...], int], tuple[Split, ...]] = {}


def group_splits(counts: tuple[int, ...], base: int, chows: bool) -> tuple[Split, ...]:
    """Every reading of one group's counts (a suit, or the honors) as sets and at most one
    pair, without wildcards: (number of sets, the pair or None, the sets in kind order).
    Cached by the counts: the same group pattern recurs across hands, so a hand's standard
    decompositions are a product of a few cached group readings."""
    key = (counts, base)
    got = _SPLITS.get(key)
    if got is not None:
        return got
    out: list[Split] = []
    seen: set[tuple] = set()
    c = list(counts)
    size = len(c)

    def rec(i: int, sets: list[Block], pair: Block | None) -> None:
        while i < size and c[i] == 0:
            i += 1
        if i == size:
            blocks = tuple(sorted(sets, key=lambda b: b.kinds))
            sig = (tuple(b.kinds for b in blocks), pair is None or pair.kinds)
            if sig not in seen:
                seen.add(sig)
                out.append((len(blocks), pair, blocks))
            return
        n, k = c[i], base + i
        # The lowest tile left is in the pair, a pung, or a chow starting at it.
        if pair is None and n >= 2:
            c[i] -= 2
            rec(i, sets, PAIR_BLOCK[k])
            c[i] += 2
        if n >= 3:
            c[i] -= 3
            rec(i, sets + [PUNG_BLOCK[k]], pair)
            c[i] += 3
        if chows and i + 2 < size and c[i + 1] and c[i + 2]:
            c[i] -= 1
            c[i + 1] -= 1
            c[i + 2] -= 1
            rec(i, sets + [CHOW_BLOCK[k]], pair)
            c[i] += 1
            c[i + 1] += 1
            c[i + 2] += 1

    rec(0, [], None)
    # `rec` refers to itself through its closure: unbound here, so that its frame's cells are
    # freed now rather than left as a cycle for the garbage collector (one per new pattern).
    rec = None  # type: ignore[assignment]
    got = _SPLITS[key] = tuple(out)
    return got


def _standard_plain(counts: list[int], sets: int) -> list[tuple[Block, ...]]:
    """Concealed blocks without wildcards: a product of cached per-group readings (in group
    order, m p s z; the pair last)."""
    per_group = []
    product = False
    for base, size, chows in GROUPS:
        part = counts[base : base + size]
        if not any(part):
            continue
        key = (tuple(part), base)
        splits = _SPLITS.get(key) or group_splits(key[0], base, chows)
        if not splits:
            return []
        per_group.append(splits)
        if len(splits) > 1:
            product = True
    if not product:
        # The common case: each group reads one way only.
        pair = None
        have = 0
        acc: tuple[Block, ...] = ()
        for ((n, p, blocks),) in per_group:
            if p is not None:
                if pair is not None:
                    return []
                pair = p
            have += n
            acc += blocks
        return [acc + (pair,)] if have == sets and pair is not None else []
    partial: list[tuple[int, Block | None, tuple[Block, ...]]] = [(0, None, ())]
    for splits in per_group:
        nxt = []
        for have, pair, acc in partial:
            for n, p, blocks in splits:
                if (p is not None and pair is not None) or have + n > sets:
                    continue
                nxt.append((have + n, p or pair, acc + blocks))
        if not nxt:
            return []
        partial = nxt
    return [acc + (pair,) for have, pair, acc in partial if have == sets and pair is not None]


def _wild_blocks(wild: int, sets: int, pair: bool, spec: ShapeSpec, compact: bool) -> Iterator[list[Block]]:
    """Blocks made of wildcards alone: every concrete choice, or one placeholder each."""
    if wild != 3 * sets + 2 * pair or (pair and not spec.wild_in_pair):
        return
    if compact:
        yield [Block(FREE_SET, (), free=3) for _ in range(sets)] + ([Block(PAIR, (), free=2)] if pair else [])
        return
    shapes = _set_shapes(spec)
    pairs = [Block(PAIR, (k, k), wilds=(k, k)) for k in sorted(spec.kinds)] if pair else [None]

    def choose(start: int, left: int) -> Iterator[list[Block]]:
        if not left:
            yield []
            return
        for j in range(start, len(shapes)):
            shape, kinds = shapes[j]
            for rest in choose(j, left - 1):
                yield [Block(shape, kinds, wilds=kinds)] + rest

    for chosen in choose(0, sets):
        for p in pairs:
            yield chosen + ([p] if p is not None else [])


def _standard(counts: list[int], wild: int, sets: int, pair_needed: bool, start: int, chow_ok: bool) -> Iterator[list[Block]]:
    """The earlier private helper, kept for its callers (tests build hands with it): concealed
    blocks of `counts` with `wild` wildcards, all-wildcard blocks as compact placeholders."""
    spec = ShapeSpec()
    for nat, w, s, p in _natural_blocks(list(counts), wild, sets, pair_needed, start, spec):
        if not chow_ok and any(b.shape == CHOW for b in nat):
            continue
        for extra in _wild_blocks(w, s, p, spec, True):
            yield nat + extra


def standard(hand: Hand, spec: ShapeSpec, compact: bool = False) -> Iterator[list[Block]]:
    """Block lists of the standard form (melds first, in call order)."""
    stand = dict(spec.stand_ins)
    melds = [meld_block(m, stand, spec) for m in hand.melds]
    got = hand_counts(hand, spec, "standard" in spec.face_value_forms)
    sets = spec.sets_needed - len(melds)
    if got is None or sets < 0 or sum(got[0]) + got[1] != 3 * sets + 2:
        return
    counts, wild = got
    if not wild and not spec.honor_chows:
        for blocks in _standard_plain(counts, sets):
            yield melds + list(blocks)
        return
    in_melds = meld_copies(hand, spec)
    seen: set[tuple] = set()
    for nat, w, s, p in _natural_blocks(counts, wild, sets, True, 0, spec):
        for extra in _wild_blocks(w, s, p, spec, compact):
            blocks = nat + extra
            key = tuple(sorted((b.shape, b.kinds, b.wilds, b.free) for b in blocks))
            if key in seen or not caps_ok(blocks, in_melds, spec):
                continue
            seen.add(key)
            yield melds + sorted(blocks, key=lambda b: (b.shape == PAIR, b.kinds, b.wilds))


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


def _knitted_straight_plain(hand: Hand, spec: ShapeSpec, counts: list[int]) -> list[tuple[str, tuple[Block, ...], int]]:
    """knitted_straight() without wildcards or stand-ins, from the counts already made (the
    same readings in the same order)."""
    if len(hand.melds) > 1 or spec.hand_size != 13 or not (len(spec.kinds) >= 34 or all(k in spec.kinds for k in range(27))):
        return []
    melds = tuple([_plain_meld_block(m, spec) for m in hand.melds])
    if any(not b.is_set for b in melds) or sum(counts) != 14 - 3 * len(melds):
        return []
    out = []
    for straight, knit in zip(KNITTED_STRAIGHTS, _KNIT_BLOCKS):
        if not all(counts[k] for k in straight):
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


FORMS = {
    "standard": standard,
    "seven_pairs": seven_pairs,
    "thirteen_orphans": thirteen_orphans,
    "thirteen_unrelated": lambda h, s, compact=False: _irregular(h, s, "thirteen_unrelated", compact),
    "knitted": lambda h, s, compact=False: _irregular(h, s, "knitted", compact),
    "all_258": all_258,
    "knitted_straight": knitted_straight,
}


# -- where the winning tile sits ------------------------------------------------------------------


def _wait(block: Block, win: int) -> str:
    if block.shape == PAIR:
        return "pair"
    if block.shape in (PUNG, KONG):
        return "pung"
    if block.shape == CHOW:
        a = block.kinds[0]
        if a >= 27:
            return "honor_chow"
        if win == a + 1:
            return "closed"
        if (win == a + 2 and a % 9 == 0) or (win == a and a % 9 == 6):
            return "edge"
        return "two_sided"
    return "single"


_th_counts = itemgetter(*TERMINAL_HONOR)


_MELD_BLOCKS: dict[int, tuple[Meld, Block]] = {}  # id(meld) -> its block (parsed melds are shared)


def _plain_meld_block(m: Meld, spec: ShapeSpec) -> Block:
    """A meld's block without wildcards or stand-ins (blocks are immutable values: one per
    meld, kept by the meld's identity; held with the meld, so its id is not reused)."""
    got = _MELD_BLOCKS.get(id(m))
    if got is not None and got[0] is m:
        return got[1]
    block = meld_block(m, NO_STAND, spec)
    if len(_MELD_BLOCKS) > 4096:
        _MELD_BLOCKS.clear()
    _MELD_BLOCKS[id(m)] = (m, block)
    return block


def _plain_decompositions(hand: Hand, spec: ShapeSpec) -> list[Decomposition]:
    """Decompositions of a hand without wildcards, stand-ins or honor chows; forms the tile
    counts rule out are not searched at all."""
    last = hand.last
    win = None if last is None else last.kind
    hand_melds = hand.melds
    if not hand_melds and not hand.aside:
        counts = list(hand.counts[:34])  # the concealed tiles and the last one: all it holds
    else:
        counts = [0] * 34
        for t in hand.concealed:
            if t.kind < 34:
                counts[t.kind] += 1
        if win is not None and win < 34:
            counts[win] += 1
    kinds = spec.kinds
    if len(kinds) < 34 and any(c and k not in kinds for k, c in enumerate(counts)):
        return []  # a tile the variant does not play: no shape holds it
    found: list[tuple[str, tuple[Block, ...], int]] = []
    for form in spec.forms:
        if form == "standard":
            if hand_melds:
                kept = _MELD_BLOCKS  # (_plain_meld_block's memo read here: no call for a meld met before)
                mb = []
                for m in hand_melds:
                    got = kept.get(id(m))
                    mb.append(got[1] if got is not None and got[0] is m else _plain_meld_block(m, spec))
                melds = tuple(mb)
            else:
                melds = ()
            sets = spec.sets_needed - len(melds)
            if sets >= 0 and sum(counts) == 3 * sets + 2:
                for blocks in _standard_plain(counts, sets):
                    found.append((form, melds + blocks if melds else blocks, len(melds)))
        elif form == "seven_pairs":
            # Seven distinct pairs: seven kinds held twice (or pairs and quads where quads count).
            if not hand_melds and spec.hand_size == 13:
                twos = counts.count(2)
                if twos == 7:  # (seven_pairs gives the same pairs, in kind order, quads or not)
                    found.append((form, tuple([PAIR_BLOCK[k] for k in range(34) if counts[k] == 2]), 0))
                elif spec.quads_as_pairs and twos + 2 * counts.count(4) == 7:
                    found.extend((form, tuple(blocks), 0) for blocks in seven_pairs(hand, spec))
        elif form == "thirteen_orphans":
            if not hand_melds and 0 not in _th_counts(counts):
                found.extend((form, tuple(blocks), 0) for blocks in thirteen_orphans(hand, spec))
        elif form in ("knitted", "thirteen_unrelated"):
            # Fourteen different kinds, no melds.
            if not hand_melds and counts.count(1) == 14:
                if form == "knitted" and spec.hand_size == 13:
                    # (as _irregular without wildcards: the suited kinds within one straight)
                    held = [k for k in range(34) if counts[k]]
                    suited = {k for k in held if k < 27}
                    if any(suited <= s for s in _KNITTED_SETS):
                        found.append((form, tuple([SINGLE_BLOCK[k] for k in held]), 0))
                else:
                    found.extend((form, tuple(blocks), 0) for blocks in FORMS[form](hand, spec))
        elif form == "knitted_straight":
            # Some knitted straight held whole, at most one meld.
            if len(hand_melds) <= 1 and counts[:27].count(0) <= 18 and _holds_knitted_straight(held_number_kinds(counts)):
                found.extend(_knitted_straight_plain(hand, spec, counts))
        else:
            found.extend((form, tuple(blocks), 0) for blocks in FORMS[form](hand, spec))
    out: list[Decomposition] = []
    for form, tblocks, first in found:
        if win is None:
            out.append(Decomposition(form, tblocks))
            continue
        placed = False
        seen: set[tuple[int, ...]] = set()  # the kinds of a block say its shape here (no kongs in the hand)
        for i in range(first, len(tblocks)):
            b = tblocks[i]
            bk = b.kinds
            if win not in bk or b.meld is not None or bk in seen:
                continue
            seen.add(bk)
            if form == "seven_pairs":
                wait = "pair"
            elif form == "thirteen_orphans":
                wait = "thirteen" if _is_thirteen_sided(tblocks, win, i) else "single"
            else:
                wait = _wait(b, win)
            out.append(Decomposition(form, tblocks, i, wait))
            placed = True
            if form in ("thirteen_orphans", "thirteen_unrelated", "knitted"):
                break
        if not placed:
            out.append(Decomposition(form, tblocks, None, None))
    return out


def decompositions(hand: Hand, spec: ShapeSpec, compact: bool = False) -> list[Decomposition]:
    """Every decomposition of a complete hand, one per place the winning tile can sit.

    A winning wildcard may have filled any wildcard position: each distinct kind it stood for
    in a block gives its own reading (its wait follows from that kind)."""
    if not spec.wild_kinds and not spec.stand_ins and not spec.honor_chows:
        return _plain_decompositions(hand, spec)
    out: list[Decomposition] = []
    win = hand.last
    stand = dict(spec.stand_ins)
    for form in spec.forms:
        face = form in spec.face_value_forms
        win_is_wild = win is not None and win.kind in spec.wild_kinds and not face
        win_kind = None if win is None else stand.get(win.kind, win.kind)
        for blocks in FORMS[form](hand, spec, compact=compact):
            if win is None:
                out.append(Decomposition(form, tuple(blocks)))
                continue
            placed = False
            seen: set[tuple] = set()
            for i, b in enumerate(blocks):
                if b.meld is not None:
                    continue
                if win_is_wild:
                    spots = sorted(set(b.wilds)) or ([None] if b.free else [])
                else:
                    spots = [win_kind] if win_kind in b.natural else []
                for kind in spots:
                    wait = _wait(b, kind if kind is not None else -1)
                    if form == "seven_pairs":
                        wait = "pair"
                    elif form == "thirteen_orphans":
                        wait = "thirteen" if _is_thirteen_sided(blocks, kind, i) else "single"
                    sig = (b.shape, b.kinds, b.wilds, b.free, wait)
                    if sig in seen:
                        continue
                    seen.add(sig)
                    out.append(Decomposition(form, tuple(blocks), i, wait))
                    placed = True
            if not placed:
                out.append(Decomposition(form, tuple(blocks), None, None))
    return out


def _is_thirteen_sided(blocks: list[Block], win_kind: int | None, i: int) -> bool:
    # 13-sided wait: the winning tile is the duplicate (the 14th block) of a natural orphan set.
    return i == len(blocks) - 1 or (blocks[-1].kinds == (win_kind,) and blocks[i].kinds == (win_kind,))


def meets(d: Decomposition, spec: ShapeSpec, void: int | None = None) -> bool:
    """Whether a reading meets the variant's shape-level prerequisites (the ones shanten
    counts): 缺一门 / the declared void suit, the 2-5-8 pair and its exemptions, 八枝, all
    three suits. Wildcards count as the kinds they stand for."""
    kinds = [k for b in d.blocks for k in b.kinds]
    groups = {k // 9 if k < 27 else 3 for k in kinds}
    suits = groups & {0, 1, 2}
    if void is not None and void in groups:
        return False
    if spec.max_suits is not None and len(suits) > spec.max_suits:
        return False
    if spec.all_three_suits and len(suits) < 3:
        return False
    if spec.min_tiles_one_suit and max((sum(1 for k in kinds if k < 27 and k // 9 == g) for g in range(3)), default=0) < spec.min_tiles_one_suit:
        return False
    if spec.pair_258 and d.form == "standard":
        p = d.pair
        if p is None or not p.kinds or not (p.kinds[0] < 27 and p.kinds[0] % 9 in (1, 4, 7)):
            exempt = spec.pair_258_exempt
            all_pungs = not any(b.shape == CHOW for b in d.blocks)
            flush = len(suits) == 1 and 3 not in groups
            if not (("all_pungs" in exempt and all_pungs) or ("full_flush" in exempt and flush)):
                return False
    return True
