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

The searches live beside this module: the standard form in `standard.py`, the other forms
(seven pairs, orphans, 十三烂, 全不靠, 组合龙, 将将和) in `irregular.py`; this one picks the
forms a hand can take, places the winning tile and checks a reading against the spec.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import compress
from operator import itemgetter

from mjtools.analysis.blocks import (
    CHOW,
    KONG,
    PAIR,
    PUNG,
    TERMINAL_HONOR,
    Block,
    Decomposition,
)
from mjtools.analysis.irregular import (
    _KNITTED_SETS,
    SINGLE_BLOCK,
    _holds_knitted_straight,
    _irregular,
    _knitted_straight_plain,
    all_258,
    held_of_packed,
    knitted_straight,
    seven_pairs,
    thirteen_orphans,
)
from mjtools.analysis.shapes import ShapeSpec
from mjtools.analysis.standard import _MELD_BLOCKS, PAIR_BLOCK, _plain_meld_block, _standard_packed, standard
from mjtools.tiles.hand import _ONE, Hand, concealed_packed, held_counts, packed_counts

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
_TERMINAL_HONOR_SET = frozenset(TERMINAL_HONOR)
_TH_SINGLES = tuple(SINGLE_BLOCK[k] for k in TERMINAL_HONOR)  # thirteen orphans' first 13 blocks
_KINDS = range(34)
_KINDS_34 = (1 << 8 * 34) - 1  # the bytes of the 34 kinds that form shapes (no flowers)
_TH_INDEX = {k: i for i, k in enumerate(TERMINAL_HONOR)}  # a kind's single among them
_TWO_OR_MORE = sum(0xFE << 8 * k for k in range(34))  # a byte's bits above one copy
# 全不靠 hands (fourteen kinds, each once) by their packed counts -> their singles; 720 at most
# (each straight's 9 kinds and the 7 honors, two left out).
_KNITTED_HANDS: dict[int, tuple[Block, ...]] = {}
_OUTSIDE_STRAIGHT = tuple(sum(1 << 8 * k for k in range(27) if k not in s) for s in _KNITTED_SETS)


def _knitted_blocks(packed: int, counts: list[int]) -> tuple[Block, ...]:
    """The singles of a hand of fourteen kinds held once each whose number kinds lie within
    one knitted straight (empty: they do not)."""
    held = held_of_packed(packed)
    for outside in _OUTSIDE_STRAIGHT:
        if not held & outside:
            got = _KNITTED_HANDS[packed] = tuple(compress(SINGLE_BLOCK, counts))
            return got
    return ()



_UNPLAYED: dict[frozenset[int], Callable[[list[int]], tuple[int, ...]]] = {}  # playable kinds -> counts of the others


def _unplayed(kinds: frozenset[int]) -> Callable[[list[int]], tuple[int, ...]]:
    out = [k for k in range(34) if k not in kinds]
    got = _UNPLAYED[kinds] = itemgetter(*out, *out)  # (twice: a tuple even for a single kind)
    return got


# The forms a hand of two melds or more cannot take (seven pairs, thirteen orphans, 十三烂 and
# 全不靠 have none; 组合龙 one at most): left out of the form loop for such hands.
_NO_MELDS_FORMS = frozenset(("seven_pairs", "thirteen_orphans", "knitted", "thirteen_unrelated", "knitted_straight"))
_MELDED_FORMS: dict[tuple[str, ...], tuple[str, ...]] = {}  # a spec's forms -> those a melded hand may take


def _melded_forms(forms: tuple[str, ...]) -> tuple[str, ...]:
    got = _MELDED_FORMS[forms] = tuple(f for f in forms if f not in _NO_MELDS_FORMS)
    return got


# A spec's forms -> by the number of kinds held (0-34), those a hand of that many kinds may take
# (seven pairs 7 kinds at most, thirteen orphans 13, 全不靠 and 十三烂 14, 组合龙 9 or more):
# the form loop below then skips the rest without a test each.
_FORMS_BY_DISTINCT: dict[tuple[str, ...], tuple[tuple[str, ...], ...]] = {}


def _may_take(form: str, distinct: int) -> bool:
    if form == "seven_pairs":
        return distinct <= 7
    if form == "thirteen_orphans":
        return distinct == 13
    if form in ("knitted", "thirteen_unrelated"):
        return distinct == 14
    if form == "knitted_straight":
        return distinct >= 9
    return True


def _forms_by_distinct(forms: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    got = _FORMS_BY_DISTINCT[forms] = tuple(tuple(f for f in forms if _may_take(f, n)) for n in range(35))
    return got


def _plain_decompositions(hand: Hand, spec: ShapeSpec) -> list[Decomposition]:
    """Decompositions of a hand without wildcards, stand-ins or honor chows; forms the tile
    counts rule out are not searched at all."""
    last = hand.last
    win = None if last is None else last.kind
    hand_melds = hand.melds
    # The same counts as one integer (a byte per kind): the standard form's groups and the
    # knitted straights are read from it by shifts and masks. A hand with melds: its concealed
    # tiles' (the parser's) and the last one, the counts list made from them in C.
    if not hand_melds and not hand.aside:
        counts = list(hand.counts[:34])  # the concealed tiles and the last one: all it holds
        packed = (hand._packed if hand._packed >= 0 else packed_counts(hand)) & _KINDS_34
    elif not hand_melds and (got := held_counts(hand)) is not None:
        counts = got  # (flowers set aside: the same)
        packed = (hand._packed if hand._packed >= 0 else packed_counts(hand)) & _KINDS_34
    else:
        packed = concealed_packed(hand)
        if win is not None:
            packed += _ONE[win]
        packed &= _KINDS_34
        counts = list(packed.to_bytes(34, "little"))
    kinds = spec.kinds
    if len(kinds) < 34 and any((_UNPLAYED.get(kinds) or _unplayed(kinds))(counts)):
        return []  # a tile the variant does not play: no shape holds it
    found: list[tuple[str, tuple[Block, ...], int]] = []
    # The kinds held rule out most irregular forms at once: seven pairs holds 7 kinds at most,
    # thirteen orphans 13, 全不靠 and 十三烂 14, 组合龙 9 number kinds at least (a hand of a
    # standard shape holds about 8). Only where those forms are possible (a meld at most).
    if len(hand_melds) <= 1:
        distinct = 34 - counts.count(0)
        forms = (_FORMS_BY_DISTINCT.get(spec.forms) or _forms_by_distinct(spec.forms))[distinct]
    else:
        distinct = 0
        forms = _MELDED_FORMS.get(spec.forms) or _melded_forms(spec.forms)
    for form in forms:
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
            total = packed % 255  # (the bytes' sum: 255 ≡ 1, and a hand holds fewer tiles)
            # (every tile a different kind: no pair, so no reading; 全不靠 and 十三烂 hands)
            if sets >= 0 and total == 3 * sets + 2 and distinct != total:
                for blocks in _standard_packed(packed, sets):
                    found.append((form, melds + blocks if melds else blocks, len(melds)))
        elif form == "seven_pairs":
            # Seven distinct pairs: seven kinds held twice (or pairs and quads where quads count).
            if not hand_melds and distinct <= 7 and spec.hand_size == 13:
                twos = counts.count(2)
                if twos == 7:  # (seven_pairs gives the same pairs, in kind order, quads or not)
                    # (seven kinds held twice and at most seven held: the kinds held are the
                    # pairs, picked in C)
                    found.append((form, tuple(compress(PAIR_BLOCK, counts)), 0))
                elif spec.quads_as_pairs and twos + 2 * counts.count(4) == 7 and packed % 255 == 14:
                    # (every kind held twice or four times: a quad is two pairs, kind order as
                    # seven_pairs gives them)
                    found.append((form, tuple([PAIR_BLOCK[k] for k in compress(_KINDS, counts) for _ in range(counts[k] >> 1)]), 0))
        elif form == "thirteen_orphans":
            # Thirteen kinds held, all of them terminals and honors, one twice: the only
            # reading (thirteen_orphans' without wildcards, the singles shared).
            if not hand_melds and distinct == 13 and 0 not in (th := _th_counts(counts)) and sum(th) == 14 and spec.hand_size == 13 and _TERMINAL_HONOR_SET <= spec.kinds:
                # (the placement below starts at the winning kind's single: no earlier block holds it)
                found.append((form, _TH_SINGLES + (SINGLE_BLOCK[TERMINAL_HONOR[th.index(2)]],), _TH_INDEX.get(win, 0)))
        elif form in ("knitted", "thirteen_unrelated"):
            # Fourteen different kinds, no melds.
            if not hand_melds and distinct == 14 and not packed & _TWO_OR_MORE:
                if form == "knitted" and spec.hand_size == 13:
                    # (as _irregular without wildcards: the number kinds held within one
                    # straight's; such hands, a few hundred, remembered by their counts)
                    blocks = _KNITTED_HANDS.get(packed) or _knitted_blocks(packed, counts)
                    if blocks:
                        # (singles in kind order: the winning kind's is after one per kind held
                        # below it, where the placement below starts)
                        found.append((form, blocks, 0 if win is None or win >= 34 else win - counts[:win].count(0)))
                else:
                    found.extend((form, tuple(blocks), 0) for blocks in FORMS[form](hand, spec))
        elif form == "knitted_straight":
            # Some knitted straight held whole, at most one meld.
            # (nine number kinds, a set and a pair: some kind held twice)
            if len(hand_melds) <= 1 and 9 <= distinct < packed % 255 and (held := held_of_packed(packed)).bit_count() >= 9 and _holds_knitted_straight(held):
                found.extend(_knitted_straight_plain(hand, spec, counts, held, packed))
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
