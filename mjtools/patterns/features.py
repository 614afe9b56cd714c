"""The feature bits of a win: which fan could apply, as bits of one integer. hand_features
reads the bits that hold for every reading of a hand (once per hand); Ctx adds each
reading's own bits."""

from __future__ import annotations

from typing import Any

from mjtools.analysis.blocks import CHOW, KONG, PUNG
from mjtools.tiles.context import WinContext
from mjtools.tiles.hand import MELD_OPEN, MELD_WILD, Hand, packed_counts

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
    "two_suits",  # exactly two suits (缺一门): with no_suit, one_suit, three_suits, the suit count
    "reversible",  # only tiles that look the same upside down (推不倒), looked for only when used
    "pung2", "kong2",  # two pungs (or kongs) or more, two kongs or more (双暗刻, 双明杠 ...)
    # exactly 0, 1 or 2 exposed (or added) kongs, and concealed kongs, among the melds: the
    # kong-count fans (明杠, 暗杠, 双明杠, 双暗杠, 明暗杠) read no more than these
    "kong_open0", "kong_open1", "kong_open2", "kong_hidden0", "kong_hidden1", "kong_hidden2",
    # where the winning kind sits among the reading's concealed sets and pair (wait_role): a
    # chow's edge, its middle, or the pair (独听's 边张, 嵌张, 单钓将), looked for only when used
    "role_edge", "role_closed", "role_pair",
    "last_of_kind",  # won on the last tile of its kind (和绝张): said or seen (is_last_of_kind)
    # concealed pungs and kongs (Ctx.concealed_pung_count): two or more, three or more, exactly
    # three, four or more (双暗刻, 三暗刻, 四暗刻), looked for only when used
    "cpung2", "cpung3", "cpung3x", "cpung4",
    "dragon_pung2", "wind_pung3",  # two dragon pungs or more, three wind pungs or more
)
BIT = {name: 1 << i for i, name in enumerate(FEATURES)}
ALL_FEATURES = -1  # every bit, the situation bits allocated later included (-1 & needs == needs)
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


_NEXT_BIT = [len(FEATURES)]  # the next feature bit given out on first use (situations, rank sets)


def _new_bit() -> int:
    bit = 1 << _NEXT_BIT[0]
    _NEXT_BIT[0] += 1
    return bit


def situation_bit(name: str) -> int:
    """The feature bit of one situation id: the common flags have theirs above; any other id a
    pattern needs (paarenchan, nagashi, a variant's own events) gets the next free bit on
    first use, so its fans are skipped on hands without that situation (bits past the fixed
    ones only gate fans; they never change a result)."""
    got = SITUATION_BIT.get(name)
    if got is None:
        got = SITUATION_BIT[name] = BIT["sit_" + name] = _new_bit()
    return got


# Rank sets (bit r-1 for the number r) a pattern needs every tile within, honors excluded (全大
# 789, 全小 123 ...): each gets a feature bit on first use, set on a hand whose tiles are all
# number tiles of those numbers, so that the five rank fans are tried only on such hands.
RANK_SET_BIT: dict[int, int] = {}
_RANK_SETS = [0]  # every rank-set bit given out
# (bit, a mask over the nine bytes of the hand's counts folded by suit (hand_features) of
# every rank outside the rank set): a hand without honors has the bit when no byte under the
# mask is set.
_RANK_SET_TESTS: list[tuple[int, int]] = []
# The folded counts -> the rank-set bits they hold (emptied when a rank-set bit is given out).
_RANK_BITS: dict[int, int] = {}
# hand_features' tests of `uses` (wider than a machine word: each AND allocates) as bools, by
# `uses` (an entry per fan plan); cleared when a rank-set bit is given out.
_NEEDS: dict[int, tuple[bool, bool, bool, bool, bool, bool, int, int]] = {}


def _byte_mask(kinds: Any) -> int:
    """A mask of byte k for each kind k, to test the packed counts (a byte per kind,
    `packed_counts`) against: "holds none of these kinds" is then one AND."""
    return sum(0xFF << 8 * k for k in kinds)


def rank_set_bit(ranks: int) -> int:
    got = RANK_SET_BIT.get(ranks)
    if got is None:
        got = RANK_SET_BIT[ranks] = _new_bit()
        _RANK_SETS[0] |= got
        _NEEDS.clear()  # (hand_features' tests read _RANK_SETS)
        _RANK_BITS.clear()
        _RANK_SET_TESTS.append((got, _byte_mask(r for r in range(9) if not ranks >> r & 1)))
    return got


# 推不倒: 1234589p 245689s and White look the same upside down; the counts of the other kinds.
_NOT_REVERSIBLE = _byte_mask(set(range(34)) - {9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 31})
_HONORS_BUT_WHITE = _byte_mask((27, 28, 29, 30, 32, 33))
_WHITE = _byte_mask((31,))
_RANK_BYTES = _byte_mask(range(9))
_CONCEALED = BIT["concealed"]
_TSUMO, _RON, _NO_MELDS, _SITUATION = BIT["tsumo"], BIT["ron"], BIT["no_melds"], BIT["situation"]
_DORA, _URA, _RED, _KITA = BIT["dora"], BIT["ura"], BIT["red"], BIT["kita"]
_FLOWER, _FLOWER4, _FOUR = BIT["flower"], BIT["flower4"], BIT["four"]
_COUNT_BITS = BIT["flower"] | BIT["four"] | BIT["flower4"]
_PAIR_WAIT = BIT["pair_wait"]
_FORM_BIT = {"standard": BIT["standard"], "seven_pairs": BIT["seven_pairs"], "thirteen_orphans": BIT["thirteen_orphans"], "knitted": BIT["knit"], "knitted_straight": BIT["knit"]}
_SET_SHAPES = frozenset((CHOW, PUNG, KONG))
# The feature bits of counts, by the count (index 0 unused where there is a "no ..." bit).
_CHOW_BITS = (0, BIT["chow"], BIT["chow"] | BIT["chow2"]) + (BIT["chow"] | BIT["chow2"] | BIT["chow3"],) * 6
_PUNG_BITS = (0, BIT["pung"], BIT["pung"] | BIT["pung2"]) + (BIT["pung"] | BIT["pung2"] | BIT["pung3"],) + (BIT["pung"] | BIT["pung2"] | BIT["pung3"] | BIT["pung4"],) * 5
_KONG_BITS = (0, BIT["kong"], BIT["kong"] | BIT["kong2"]) + (BIT["kong"] | BIT["kong2"] | BIT["kong3"],) * 6
SUIT_COUNT_BITS = (BIT["no_suit"], BIT["one_suit"], BIT["two_suits"], BIT["three_suits"])
_DUP_CHOW, _NO_CHOW, _NO_PUNG = BIT["dup_chow"], BIT["no_chow"], BIT["no_pung"]
_DRAGON_PUNG, _WIND_PUNG = BIT["dragon_pung"], BIT["wind_pung"]
_DRAGON_PUNG2, _WIND_PUNG3 = _DRAGON_PUNG | BIT["dragon_pung2"], _WIND_PUNG | BIT["wind_pung3"]
_HONOR_BIT, _NO_HONOR, _SIMPLES_ONLY, _OUTSIDE_BIT = BIT["honor"], BIT["no_honor"], BIT["simples_only"], BIT["outside"]
_ALL_OUTSIDE, _SETS_OUTSIDE, _GREEN_ONLY = BIT["all_outside"], BIT["sets_outside"], BIT["green_only"]
_ROLE_BIT = {"edge": BIT["role_edge"], "closed": BIT["role_closed"], "pair": BIT["role_pair"], None: 0}
_ROLE_BITS = BIT["role_edge"] | BIT["role_closed"] | BIT["role_pair"]
_LAST_OF_KIND = BIT["last_of_kind"]
# A hand bit no fan needs: the plan uses the role bits, so each reading looks for its role
# (hand_features sets it; a Ctx made without hand bits gets every bit, this one included).
_WANTS_ROLE = _new_bit()
_CPUNG2, _CPUNG3, _CPUNG4 = BIT["cpung2"], BIT["cpung2"] | BIT["cpung3"], BIT["cpung2"] | BIT["cpung3"] | BIT["cpung4"]
_CPUNG_BITS = (0, 0, _CPUNG2, _CPUNG3 | BIT["cpung3x"]) + (_CPUNG4,) * 6  # by the count
_WANTS_CPUNG = _new_bit()  # a hand bit no fan needs, as _WANTS_ROLE: the plan uses the cpung bits


def hand_features(hand: Hand, win: WinContext, dora: tuple[int, ...] = (), ura: tuple[int, ...] = (), uses: int = ALL_FEATURES) -> int:
    """The feature bits that do not depend on the reading (computed once per hand). `uses`: the
    bits some fan of the ruleset needs; the count-vector bits are looked for only then."""
    # (the first bits, the tsumo or ron bit and the plan's _WANTS_ bits, one value by `uses`:
    # no OR of a wide integer for them)
    kita, counts, count_bits, tile_sets, kong_bits, last_bit, tsumo_bits, ron_bits = _NEEDS.get(uses) or _needs_of(uses)
    f = tsumo_bits if win.tsumo else ron_bits
    melds = hand.melds
    code = 0  # the melds' Meld._fcode summed: concealment, the kong counts, a wildcard meld
    if melds:
        if kong_bits or last_bit:
            for m in melds:
                code += m._fcode
            if not code & _OPEN_MELDS:
                f |= _CONCEALED
        else:  # (riichi: the concealment alone, the loop stops at the first open meld)
            for m in melds:
                if not m.concealed:
                    break
            else:
                f |= _CONCEALED
    else:
        f |= _CONCEALED | _NO_MELDS
    if win.situations:
        f |= _SITUATION
        for name in win.situations:
            f |= SITUATION_BIT.get(name, 0)
    # dora / ura: set only when the hand holds one of the indicated kinds (or sets Norths
    # aside that are), the only way the dora patterns count anything.
    if dora and _holds_any(hand.counts, dora, win.kita):
        f |= _DORA
    if ura and _holds_any(hand.counts, ura, win.kita):
        f |= _URA
    if hand.reds:
        f |= _RED
    # (Norths set aside are looked for only where a fan reads them: flowers are set aside on
    # most Chinese Official hands.)
    if kita and (win.kita or (hand.aside and any(a.tag == "kita" for a in hand.aside))):
        f |= _KITA
    if counts:
        # The counts as one integer, a byte per kind (the parser's, or packed once): the
        # flower test, the four-of-a-kind test and the rank-set tests are then ANDs.
        packed = hand._packed
        if packed < 0:
            packed = packed_counts(hand)
        # (every mask below covers bytes of the 34 kinds only: no need to cut the flowers off)
        if count_bits:
            flowers = packed >> _FLOWER_SHIFT & _FLOWER_BYTES  # (a byte per flower kind)
            if flowers:
                # (the bytes' sum is the number mod 255: a hand holds eight flowers at most)
                f |= _FLOWER4 | _FLOWER if flowers % 255 >= 4 else _FLOWER
            if packed & _FOURS:
                f |= _FOUR
        if tile_sets:
            # The reversible and rank-set bits of the hand's tiles (a reading holds the same
            # kinds, bonus tiles aside), written out here (a call per hand costs more). Where
            # tiles of the 34 kinds are set aside (riichi's Norths) the reading may hold fewer
            # kinds than the hand: every such bit is set, and the fans decide.
            for a in hand.aside:  # (flowers are set aside on most Chinese Official hands: Aside.natural, no loop over them)
                if a.natural:
                    f |= _RANK_SETS[0] | _REVERSIBLE_BIT
                    break
            else:
                # (every rank set leaves the honors out; the reversible kinds all but White)
                if not packed & _HONORS_BUT_WHITE:
                    if packed & _WHITE:
                        if not packed & _NOT_REVERSIBLE:
                            f |= _REVERSIBLE_BIT
                    else:
                        # The three suits' counts or-ed, a byte per rank (nonzero where some
                        # suit holds that rank; bytes past the suits cut off): the rank-set
                        # bits are one look-up by it.
                        ranks = (packed | packed >> 72 | packed >> 144) & _RANK_BYTES
                        got = _RANK_BITS.get(ranks)
                        if got is None:
                            got = _rank_bits(ranks)
                        f |= got if packed & _NOT_REVERSIBLE else got | _REVERSIBLE_BIT
    if kong_bits:
        f |= _KONG_BY_CODE[code & 0xFF]
    # is_last_of_kind only where its early answers allow: --visible, the situation said, a
    # wildcard in a meld or four of the last kind. (Other situations alone answer no there:
    # no call for the flags most Chinese Official hands carry.)
    if last_bit and (win.visible or (sits := win.situations) and sits.get("last_of_kind") or melds and (code >= MELD_WILD or (last := hand.last) is not None and hand.counts[last.kind] >= 4)):
        if is_last_of_kind(hand, win):
            f |= _LAST_OF_KIND
    return f


def _needs_of(uses: int) -> tuple[bool, bool, bool, bool, bool, bool, int, int]:
    tile_sets = _REVERSIBLE_BIT | _RANK_SETS[0]
    wants = (_WANTS_ROLE if uses & _ROLE_BITS else 0) | (_WANTS_CPUNG if uses & _CPUNG_BITS[4] else 0)
    got = _NEEDS[uses] = (
        bool(uses & _KITA),
        bool(uses & (_COUNT_BITS | tile_sets)),
        bool(uses & _COUNT_BITS),
        bool(uses & tile_sets),
        bool(uses & _KONG_COUNT_BITS),
        bool(uses & _LAST_OF_KIND),
        _TSUMO | wants,
        _RON | wants,
    )
    return got


_REVERSIBLE_BIT = BIT["reversible"]
# The kong-count bits by the count (none for three or more).
_KONG_OPEN = (BIT["kong_open0"], BIT["kong_open1"], BIT["kong_open2"], 0, 0)
_KONG_HIDDEN = (BIT["kong_hidden0"], BIT["kong_hidden1"], BIT["kong_hidden2"], 0, 0)
_KONG_COUNT_BITS = sum(_KONG_OPEN) | sum(_KONG_HIDDEN)
# The kong-count bits by the low byte of the melds' summed Meld._fcode (kongs shown, concealed).
_KONG_BY_CODE = tuple(_KONG_OPEN[min(c & 0xF, 4)] | _KONG_HIDDEN[min(c >> 4, 4)] for c in range(256))
_OPEN_MELDS = 0xF * MELD_OPEN  # the _fcode field of melds that break concealment
_FLOWER_SHIFT, _FLOWER_BYTES = 8 * 34, (1 << 8 * 8) - 1  # the bytes of the flowers (kinds 34-41), shifted down
# A count of 4 or more sets a bit of 0xFC in its byte of the packed counts.
_FOURS = sum(0xFC << 8 * k for k in range(34))


def _rank_bits(ranks: int) -> int:
    """The rank-set bits of the hand's ranks folded by suit (a byte per rank), kept."""
    got = 0
    for bit, outside in _RANK_SET_TESTS:
        if not ranks & outside:
            got |= bit
    if len(_RANK_BITS) > 4096:
        _RANK_BITS.clear()
    _RANK_BITS[ranks] = got
    return got


def is_last_of_kind(hand: Hand, win: WinContext) -> bool:
    """Won on the last tile of its kind (和绝张): the other three are out in the open. Given as
    --situation last_of_kind, or seen: three copies in the winner's melds and --visible. Never
    while the winner keeps a copy among his concealed tiles. (A fact of the hand: worked out
    once per hand, a hand bit.)"""
    sits = win.situations
    visible = win.visible
    if not (sits or visible or hand.melds):
        return False  # neither said nor seen
    last = hand.last
    if last is None:
        return False
    k = last.kind
    if not visible and hand.counts[k] < 4 and not (sits and sits.get("last_of_kind")):
        # Seen only in the melds, which would hold three besides the winning tile: fewer
        # than four held in all is no such hand, unless a wildcard in a meld shows the kind
        # (the counts hold the wildcard's own kind), which the count below reads.
        for m in hand.melds:
            if m.wild:
                break
        else:
            return False
    for t in hand.concealed:
        if t.kind == k:
            return False
    if win.has("last_of_kind"):
        return True
    shown = sum(m.kinds.count(k) for m in hand.melds) + sum(1 for t in win.visible if t.kind == k)
    return shown >= 3

def _holds_any(held: tuple[int, ...], kinds: tuple[int, ...], kita: int) -> bool:
    for k in kinds:
        if held[k]:
            return True
    return bool(kita) and _NORTH in kinds


_NORTH = 30
