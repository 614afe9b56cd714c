"""The standard form (sets + pair) read from a hand: every split of the concealed tiles into
sets and a pair, with the wildcards' choices (see `decompose.py` for what a reading is), and
the per-spec memos and block tables the other forms' readings share."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import combinations
from typing import Any

from mjtools.analysis.blocks import (
    CHOW,
    DRAGONS,
    FREE_SET,
    NO_STAND,
    PAIR,
    PUNG,
    WINDS,
    Block,
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
    memo = _per_spec("natural_blocks", spec, _new_memo)
    if len(memo) >= _NATURAL_LIMIT:
        memo.clear()
    for nat, w, s, p in _natural_readings(counts, wild, sets, pair, start, spec, memo):
        yield list(nat), w, s, p


_NATURAL_LIMIT = 1 << 12  # (readings hold blocks the collector walks: kept few)
Reading = tuple[tuple[Block, ...], int, int, bool]


def _new_memo(spec: ShapeSpec) -> dict:
    return {}


def _natural_readings(counts: list[int], wild: int, sets: int, pair: bool, start: int, spec: ShapeSpec, memo: dict) -> tuple[Reading, ...]:
    """`_natural_blocks` as tuples, remembered per (tiles from the lowest one held on, what is
    left to make): the hands scored one after another differ in a kind or two, so most of
    what is left above the lowest tiles was read before (blocks are values: shared)."""
    i = start
    while i < 34 and counts[i] == 0:
        i += 1
    if i >= 34:
        return (((), wild, sets, pair),)
    key = (bytes(counts[i:]), wild, sets, pair, spec.wild_in_pair)
    got = memo.get(key)
    if got is not None:
        return got
    out: list[Reading] = []
    c = counts[i]
    # The lowest natural tile left belongs to the pair, a pung, or a chow.
    if pair:
        for nat in (2, 1):
            if c >= nat and wild >= 2 - nat and (nat == 2 or spec.wild_in_pair):
                counts[i] -= nat
                b = Block(PAIR, (i, i), wilds=(i,) * (2 - nat))
                for rest, w, s, p in _natural_readings(counts, wild - (2 - nat), sets, False, i, spec, memo):
                    out.append(((b,) + rest, w, s, p))
                counts[i] += nat
    if sets:
        for nat in (3, 2, 1):
            if c >= nat and wild >= 3 - nat:
                counts[i] -= nat
                b = Block(PUNG, (i, i, i), wilds=(i,) * (3 - nat))
                for rest, w, s, p in _natural_readings(counts, wild - (3 - nat), sets - 1, pair, i, spec, memo):
                    out.append(((b,) + rest, w, s, p))
                counts[i] += nat
        for shape, kinds, choices in _chow_options(spec)[i]:
            for nat_kinds, wilds in choices:
                if len(wilds) > wild or any(counts[k] == 0 for k in nat_kinds):
                    continue
                counts[i] -= 1
                for k in nat_kinds:
                    counts[k] -= 1
                b = Block(shape, kinds, wilds=wilds)
                for rest, w, s, p in _natural_readings(counts, wild - len(wilds), sets - 1, pair, i, spec, memo):
                    out.append(((b,) + rest, w, s, p))
                for k in nat_kinds:
                    counts[k] += 1
                counts[i] += 1
    got = memo[key] = tuple(out)
    return got


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


# Per group: (its first kind's bit, a byte per kind of the group, first kind, size, chows,
# index) for the counts as one integer (a byte per kind, kind k at bit 8k).
_GROUP_BYTES = tuple((8 * base, (1 << 8 * size) - 1, base, size, chows, i) for i, (base, size, chows) in enumerate(GROUPS))
# A group's counts as an integer, shifted left twice, or-ed with the group's index -> its
# readings (group_splits'; the same patterns recur, as there).
_SPLITS_PACKED: dict[int, tuple[Split, ...]] = {}


def _standard_packed(packed: int, sets: int) -> list[tuple[Block, ...]]:
    """Concealed blocks without wildcards from the 34 counts as one integer (a byte per kind):
    a product of cached per-group readings (in group order, m p s z; the pair last). Each
    group's counts are a shift and a mask, and its key an integer (no slice, tuple or tuple
    hash)."""
    per_group = []
    product = False
    for shift, mask, base, size, chows, i in _GROUP_BYTES:
        part = packed >> shift & mask
        if not part:
            continue
        key = part << 2 | i
        splits = _SPLITS_PACKED.get(key)
        if splits is None:
            splits = _SPLITS_PACKED[key] = group_splits(tuple(part.to_bytes(size, "little")), base, chows)
        if not splits:
            return []
        per_group.append(splits)
        if len(splits) > 1:
            product = True
    return _product(per_group, product, sets)


def _standard_plain(counts: list[int], sets: int) -> list[tuple[Block, ...]]:
    """_standard_packed from the 34 counts as a list (each at most 255)."""
    return _standard_packed(int.from_bytes(bytes(counts), "little"), sets)


def _product(per_group: list[tuple[Split, ...]], product: bool, sets: int) -> list[tuple[Block, ...]]:
    """The readings of a hand from its groups' (in group order; the pair last)."""
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
