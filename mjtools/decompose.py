"""Every way to read a complete hand as a winning shape.

A `Decomposition` is a form (standard, seven_pairs, ...) and its blocks: sets (chows, pungs,
kongs; exposed melds included), the pair, or the single tiles of irregular forms. Wildcards
take the kind they stand for and are remembered per block. With a winning tile, each block it
could have completed gives its own decomposition (`win_block`, `wait`), as riichi's fu needs.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from mjtools.hand import Hand, Meld
from mjtools.shapes import ShapeSpec

CHOW, PUNG, KONG, PAIR, SINGLE = "chow", "pung", "kong", "pair", "single"
TERMINAL_HONOR = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


@dataclass(frozen=True, slots=True)
class Block:
    shape: str  # chow, pung, kong, pair, single
    kinds: tuple[int, ...]  # the kinds it represents (sorted)
    concealed: bool = True  # in the hand or a concealed kong
    meld: Meld | None = None  # the meld it is, if laid down
    wilds: tuple[int, ...] = ()  # the kinds wildcards stand for in it
    free: int = 0  # wildcards with no kind fixed yet (a block of wildcards alone)

    @property
    def wild(self) -> int:
        return len(self.wilds) + self.free

    @property
    def natural(self) -> tuple[int, ...]:
        """The kinds held as natural tiles."""
        rest = list(self.kinds)
        for k in self.wilds:
            rest.remove(k)
        return tuple(rest)

    @property
    def first(self) -> int:
        return self.kinds[0]

    @property
    def is_set(self) -> bool:
        return self.shape in (CHOW, PUNG, KONG)

    @property
    def is_pung_like(self) -> bool:
        return self.shape in (PUNG, KONG)

    def __str__(self) -> str:
        from mjtools.tiles import kinds_str

        text = kinds_str(self.kinds)
        return text if self.concealed and self.meld is None else f"({text})" if self.meld is None or not self.meld.concealed else f"[{text}]"


@dataclass(frozen=True, slots=True)
class Decomposition:
    form: str
    blocks: tuple[Block, ...]
    win_block: int | None = None  # index of the block the winning tile completed
    wait: str | None = None  # two_sided, closed, edge, pair, pung, single, thirteen

    @property
    def sets(self) -> tuple[Block, ...]:
        return tuple(b for b in self.blocks if b.is_set)

    @property
    def pair(self) -> Block | None:
        pairs = [b for b in self.blocks if b.shape == PAIR]
        return pairs[0] if len(pairs) == 1 and self.form == "standard" else None

    @property
    def pairs(self) -> tuple[Block, ...]:
        return tuple(b for b in self.blocks if b.shape == PAIR)

    def kinds(self) -> Iterator[int]:
        for b in self.blocks:
            yield from b.kinds
            if b.shape == KONG:
                pass

    def __str__(self) -> str:
        return " ".join(str(b) for b in self.blocks)


def _meld_block(m: Meld, stand: dict[int, int]) -> Block:
    kinds = tuple(sorted(stand.get(k, k) for k in m.kinds))
    if len(kinds) == 4 and len(set(kinds)) == 1:
        shape = KONG
    elif len(kinds) == 3 and len(set(kinds)) == 1:
        shape = PUNG
    elif len(kinds) == 3 and kinds[0] < 27 and kinds[0] // 9 == kinds[2] // 9 and kinds == (kinds[0], kinds[0] + 1, kinds[0] + 2):
        shape = CHOW
    else:
        shape = m.kind  # a variant-declared meld kind (亮牌 ...)
    wilds = tuple(sorted(stand.get(m.tiles[i].kind, m.tiles[i].kind) for i in m.wild))
    return Block(shape, kinds, concealed=m.concealed, meld=m, wilds=wilds)


def _standard(counts: list[int], wild: int, sets: int, pair_needed: bool, start: int, chow_ok) -> Iterator[list[Block]]:
    """Concealed blocks: `sets` sets and (if pair_needed) one pair, wildcards filling gaps."""
    i = start
    while i < 34 and counts[i] == 0:
        i += 1
    if i >= 34:
        yield from _wild_only(wild, sets, pair_needed)
        return
    c = counts[i]
    # The lowest natural tile left must belong to a pair, a pung/kong-less pung, or a chow.
    if pair_needed:
        for nat in (2, 1):
            if c >= nat and wild >= 2 - nat:
                counts[i] -= nat
                for rest in _standard(counts, wild - (2 - nat), sets, False, i, chow_ok):
                    yield [Block(PAIR, (i, i), wilds=(i,) * (2 - nat))] + rest
                counts[i] += nat
    if sets:
        for nat in (3, 2, 1):
            if c >= nat and wild >= 3 - nat:
                counts[i] -= nat
                for rest in _standard(counts, wild - (3 - nat), sets - 1, pair_needed, i, chow_ok):
                    yield [Block(PUNG, (i, i, i), wilds=(i,) * (3 - nat))] + rest
                counts[i] += nat
        if i < 27 and chow_ok:
            pos = i % 9
            for a in range(i - min(pos, 2), i - pos + min(pos, 6) + 1):
                others = [k for k in (a, a + 1, a + 2) if k != i]
                for mask in range(4):
                    nat = [k for j, k in enumerate(others) if mask >> j & 1]
                    if any(k < i or counts[k] == 0 for k in nat):
                        continue
                    used = 2 - len(nat)
                    if used > wild:
                        continue
                    counts[i] -= 1
                    for k in nat:
                        counts[k] -= 1
                    wilds = tuple(k for k in others if k not in nat)
                    for rest in _standard(counts, wild - used, sets - 1, pair_needed, i, chow_ok):
                        yield [Block(CHOW, (a, a + 1, a + 2), wilds=wilds)] + rest
                    for k in nat:
                        counts[k] += 1
                    counts[i] += 1


def _wild_only(wild: int, sets: int, pair_needed: bool) -> Iterator[list[Block]]:
    """Blocks made of wildcards alone. They could stand for anything; we yield one canonical
    reading per block shape (`kinds` = ()); scoring picks their best kinds (`assign_free`)."""
    need = 3 * sets + 2 * pair_needed
    if wild != need:
        return
    out = [Block(PUNG, (), free=3) for _ in range(sets)]
    if pair_needed:
        out.append(Block(PAIR, (), free=2))
    yield out


def standard(hand: Hand, spec: ShapeSpec) -> Iterator[list[Block]]:
    """Block lists of the standard form (melds first, in call order)."""
    stand = dict(spec.stand_ins)
    melds = [_meld_block(m, stand) for m in hand.melds]
    counts = [0] * 34
    wild = 0
    for t in hand.hand_tiles():
        if t.kind in spec.wild_kinds:
            wild += 1
        elif t.kind < 34:
            counts[stand.get(t.kind, t.kind)] += 1
    sets = spec.sets_needed - len(melds)
    if sets < 0 or sum(counts) + wild != 3 * sets + 2:
        return
    seen: set[tuple] = set()
    for blocks in _standard(counts, wild, sets, True, 0, True):
        key = tuple(sorted((b.shape, b.kinds, b.wilds, b.free) for b in blocks))
        if key in seen:
            continue
        seen.add(key)
        yield melds + sorted(blocks, key=lambda b: (b.shape == PAIR, b.kinds))


def seven_pairs(hand: Hand, spec: ShapeSpec) -> Iterator[list[Block]]:
    if hand.melds or spec.hand_size != 13:
        return
    stand = dict(spec.stand_ins)
    counts = [0] * 34
    wild = 0
    for t in hand.hand_tiles():
        if t.kind in spec.wild_kinds:
            wild += 1
        else:
            counts[stand.get(t.kind, t.kind)] += 1
    pairs: list[Block] = []
    for k, c in enumerate(counts):
        if c == 4 and spec.quads_as_pairs:
            pairs += [Block(PAIR, (k, k)), Block(PAIR, (k, k))]
        elif c >= 2:
            if c > 2 and not (c == 3 and wild):
                if c == 3 and wild:
                    pass
                return
            pairs.append(Block(PAIR, (k, k)))
            if c == 3:
                pairs.append(Block(PAIR, (k, k), wilds=(k,)))
                wild -= 1
        elif c == 1:
            if not wild:
                return
            pairs.append(Block(PAIR, (k, k), wilds=(k,)))
            wild -= 1
    while wild >= 2:
        pairs.append(Block(PAIR, (), free=2))
        wild -= 2
    if len(pairs) != 7 or wild:
        return
    if not spec.quads_as_pairs:
        named = [b.kinds for b in pairs if b.kinds]
        if len(named) != len(set(named)):
            return
    yield sorted(pairs, key=lambda b: b.kinds)


def thirteen_orphans(hand: Hand, spec: ShapeSpec) -> Iterator[list[Block]]:
    if hand.melds or spec.hand_size != 13:
        return
    counts = [0] * 34
    wild = 0
    for t in hand.hand_tiles():
        if t.kind in spec.wild_kinds:
            wild += 1
        elif t.kind < 34:
            counts[t.kind] += 1
    if any(counts[k] for k in range(34) if k not in TERMINAL_HONOR):
        return
    missing = sum(1 for k in TERMINAL_HONOR if counts[k] == 0)
    extra = sum(max(0, counts[k] - 1) for k in TERMINAL_HONOR)
    if extra > 1 or missing + (1 - extra) != wild:
        return
    pair_kind = next((k for k in TERMINAL_HONOR if counts[k] == 2), None)
    blocks = [Block(SINGLE, (k,)) if counts[k] else Block(SINGLE, (k,), wilds=(k,)) for k in TERMINAL_HONOR]
    if pair_kind is not None:
        blocks.append(Block(SINGLE, (pair_kind,)))
    else:
        blocks.append(Block(SINGLE, (), free=1))
    yield blocks


def _irregular(hand: Hand, spec: ShapeSpec, form: str) -> Iterator[list[Block]]:
    """十三烂 and 全不靠: fourteen distinct tiles, checked by the distance (0 = complete)."""
    from mjtools.shanten import form_distances, state_of

    st = state_of(hand, spec)
    one = ShapeSpec(**{**spec.__dict__, "forms": (form,), "_groups": ()})
    if form_distances(st, one).get(form) == st.wild:
        kinds = sorted(k for k, c in enumerate(st.counts) for _ in range(c))
        yield [Block(SINGLE, (k,)) for k in kinds] + [Block(SINGLE, (), free=1) for _ in range(st.wild)]


def all_258(hand: Hand, spec: ShapeSpec) -> Iterator[list[Block]]:
    """将将和 (Changsha): every tile a 2, 5 or 8 in any arrangement; laid-down melds must be
    pungs or kongs of them. The concealed tiles are singles (a wildcard a free single)."""
    from mjtools.shapes import KINDS_258

    stand = dict(spec.stand_ins)
    melds = [_meld_block(m, stand) for m in hand.melds]
    if any(b.shape not in (PUNG, KONG) or b.first not in KINDS_258 for b in melds):
        return
    singles: list[Block] = []
    for t in hand.hand_tiles():
        if t.kind in spec.wild_kinds:
            singles.append(Block(SINGLE, (), free=1))
            continue
        k = stand.get(t.kind, t.kind)
        if k not in KINDS_258:
            return
        singles.append(Block(SINGLE, (k,)))
    if len(singles) + 3 * len(melds) != spec.hand_size + 1:
        return
    yield melds + sorted(singles, key=lambda b: (b.kinds == (), b.kinds))


FORMS = {
    "standard": standard,
    "seven_pairs": seven_pairs,
    "thirteen_orphans": thirteen_orphans,
    "thirteen_unrelated": lambda h, s: _irregular(h, s, "thirteen_unrelated"),
    "knitted": lambda h, s: _irregular(h, s, "knitted"),
    "all_258": all_258,
}


def _wait(block: Block, win: int) -> str:
    if block.shape == PAIR:
        return "pair"
    if block.shape in (PUNG, KONG):
        return "pung"
    if block.shape == CHOW:
        a = block.kinds[0]
        if win == a + 1:
            return "closed"
        if (win == a + 2 and a % 9 == 0) or (win == a and a % 9 == 6):
            return "edge"
        return "two_sided"
    return "single"


def decompositions(hand: Hand, spec: ShapeSpec) -> list[Decomposition]:
    """Every decomposition of a complete hand, one per place the winning tile can sit."""
    out: list[Decomposition] = []
    win = hand.last
    stand = dict(spec.stand_ins)
    win_kind = None if win is None else stand.get(win.kind, win.kind)
    win_is_wild = win is not None and win.kind in spec.wild_kinds
    for form in spec.forms:
        for blocks in FORMS[form](hand, spec):
            if win is None:
                out.append(Decomposition(form, tuple(blocks)))
                continue
            placed = False
            seen: set[tuple] = set()
            for i, b in enumerate(blocks):
                if b.meld is not None:
                    continue
                fits = (win_is_wild and b.wild) or (not win_is_wild and win_kind in b.natural)
                if not fits:
                    continue
                sig = (b.shape, b.kinds, b.wilds, b.free)
                if sig in seen:
                    continue
                seen.add(sig)
                wait = "thirteen" if form == "thirteen_orphans" and _is_thirteen_sided(blocks, win_kind, i) else _wait(b, win_kind if not win_is_wild else (b.kinds[0] if b.kinds else -1))
                if form == "seven_pairs":
                    wait = "pair"
                out.append(Decomposition(form, tuple(blocks), i, wait))
                placed = True
                if form in ("thirteen_orphans", "thirteen_unrelated", "knitted", "all_258"):
                    break
            if not placed:
                out.append(Decomposition(form, tuple(blocks), None, None))
    return out


def _is_thirteen_sided(blocks: list[Block], win_kind: int | None, i: int) -> bool:
    # 13-sided wait: the winning tile is the duplicate (the 14th block).
    return i == len(blocks) - 1 or (blocks[-1].kinds == (win_kind,) and blocks[i].kinds == (win_kind,))
