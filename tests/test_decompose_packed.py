"""The decomposer's shortcuts of issue 14's eleventh round, each against the code it stands
beside or replaced, on seeded hands built near the shapes:

- the standard form's groups read from the counts as one integer (`_standard_packed`, which
  `_standard_plain` now calls) against the list path it replaced (tuple slices per group);
- the held number kinds from that integer (`held_of_packed`) against `held_number_kinds`;
- thirteen orphans and seven pairs with quads in closed form, and the standard and 组合龙
  searches skipped where every tile is a different kind, against the forms' own searches
  (`FORMS`: thirteen_orphans, seven_pairs, ...);
- check_hand's copy-limit test on the parser's packed counts against the same hand built
  without them."""

from __future__ import annotations

import random

import pytest

from mcr_gen import mcr_case
from mjtools.analysis.blocks import TERMINAL_HONOR
from mjtools.analysis.decompose import FORMS, decompositions
from mjtools.analysis.irregular import KNITTED_STRAIGHTS, held_number_kinds, held_of_packed
from mjtools.analysis.standard import GROUPS, _product, _standard_packed, _standard_plain, group_splits
from mjtools.errors import MjError
from mjtools.rules import load
from mjtools.rules.validate import check_hand
from mjtools.rules.validate import normalize as normalize_hand
from mjtools.tiles.hand import Hand
from mjtools.tiles.kinds import Tile
from mjtools.tiles.notation import format_tiles, parse_hand


def _packed(counts) -> int:
    return sum(n << 8 * k for k, n in enumerate(counts))


def test_held_of_packed_matches_held_number_kinds():
    rng = random.Random("held")
    for _ in range(5000):
        counts = [rng.choice((0, 0, 0, 1, 2, 3, 4, 127, 128, 255)) for _ in range(34)]
        assert held_of_packed(_packed(counts)) == held_number_kinds(counts), counts


def _standard_by_slices(counts: list[int], sets: int):
    """The list path `_standard_packed` replaced: each group's counts a tuple slice."""
    per_group = []
    product = False
    for base, size, chows in GROUPS:
        part = counts[base : base + size]
        if not any(part):
            continue
        splits = group_splits(tuple(part), base, chows)
        if not splits:
            return []
        per_group.append(splits)
        product = product or len(splits) > 1
    return _product(per_group, product, sets)


def test_standard_packed_matches_standard_plain():
    rng = random.Random("standard")
    for _ in range(4000):
        counts = [0] * 34
        for _ in range(rng.choice((2, 5, 8, 11, 14))):
            k = rng.randrange(34) if rng.random() < 0.3 else rng.randrange(9) + 9 * rng.randrange(3)
            if counts[k] < 4:
                counts[k] += 1
        sets = (sum(counts) - 2) // 3
        for s in (sets, sets - 1):
            assert _standard_packed(_packed(counts), s) == _standard_by_slices(counts, s) == _standard_plain(counts, s), (counts, s)


def _tiles(kinds: list[int]) -> str:
    return format_tiles([Tile(k) for k in sorted(kinds)])


def _near_shapes(rng: random.Random) -> list[str]:
    """Hands at and next to the irregular forms: thirteen orphans (each double, the winning
    tile anywhere), seven pairs with quads, 全不靠 and 组合龙 with or without a pair."""
    out = []
    th = list(TERMINAL_HONOR)
    for _ in range(60):
        kinds = th + [rng.choice(th)]
        if rng.random() < 0.3:  # a tile off the shape
            kinds[rng.randrange(14)] = rng.randrange(34)
        rng.shuffle(kinds)
        out.append(_tiles(kinds[:13]) + "+" + _tiles(kinds[13:]))
        quads = rng.choice((0, 1, 2))
        pairs = rng.sample(range(34), 7 - quads)
        kinds = pairs * 2 + pairs[:quads] * 2
        if rng.random() < 0.3:
            kinds[rng.randrange(14)] = rng.randrange(34)
        rng.shuffle(kinds)
        out.append(_tiles(kinds[:13]) + "+" + _tiles(kinds[13:]))
        straight = list(rng.choice(KNITTED_STRAIGHTS))
        honors = rng.sample(range(27, 34), 5)
        kinds = straight + honors
        if rng.random() < 0.5:  # a pair instead of two singles: 组合龙 then may read
            kinds[-1] = kinds[-2]
        if rng.random() < 0.3:
            kinds[rng.randrange(14)] = rng.randrange(34)
        rng.shuffle(kinds)
        out.append(_tiles(kinds[:13]) + "+" + _tiles(kinds[13:]))
    return out


def _by_forms(hand: Hand, spec) -> set[tuple[str, tuple]]:
    """What the forms' own searches read (the kinds of each block, in order)."""
    return {(form, tuple(b.kinds for b in blocks)) for form in spec.forms for blocks in FORMS[form](hand, spec)}


@pytest.mark.parametrize("rules", ["mcr", "riichi", "guangdong-cantonese"])
def test_irregular_closed_forms_match_the_searches(rules):
    rs = load(rules)
    spec = rs.base_spec
    rng = random.Random(rules)
    texts = _near_shapes(rng)
    if rules == "mcr":
        texts += [mcr_case(rng)[0] for _ in range(300)]
    seen_forms = set()
    for text in texts:
        try:
            hand = normalize_hand(parse_hand(text), rs)
        except MjError:
            continue
        if hand.melds:
            continue
        readings = decompositions(hand, spec)
        got = {(d.form, tuple(b.kinds for b in d.blocks)) for d in readings}
        assert got == _by_forms(hand, spec), text
        win = hand.last.kind
        for d in readings:  # (the placement of the singles' forms starts at the winning kind's)
            if d.form in ("knitted", "thirteen_orphans"):
                assert win in d.blocks[d.win_block].kinds and not any(win in b.kinds for b in d.blocks[: d.win_block]), text
        seen_forms |= {form for form, _ in got}
    assert {"thirteen_orphans", "seven_pairs"} & set(spec.forms) <= seen_forms
    if rules == "mcr":
        assert {"knitted", "knitted_straight"} <= seen_forms


def test_orphans_wait_and_quads_as_two_pairs():
    rs = load("mcr")
    spec = rs.base_spec
    thirteen = decompositions(parse_hand("19m19p19s1234567z+1m"), spec)
    assert [(d.form, d.wait, d.win_block) for d in thirteen] == [("thirteen_orphans", "thirteen", 0)]
    single = decompositions(parse_hand("119m19p19s123456z+7z"), spec)
    assert [(d.form, d.wait) for d in single] == [("thirteen_orphans", "single")]
    quads = [d for d in decompositions(parse_hand("11112222m3344p5s+5s"), spec) if d.form == "seven_pairs"]
    assert [tuple(b.kinds for b in d.blocks) for d in quads] == [((0, 0), (0, 0), (1, 1), (1, 1), (11, 11), (12, 12), (22, 22))]


@pytest.mark.parametrize("rules", ["mcr", "riichi", "sichuan-xuezhan"])
def test_check_hand_on_packed_counts_as_without(rules):
    """The parser's packed counts and the counts alone give the same answer (a kind outside
    the tile set, a fifth copy by wildcard-free counts, a legal hand)."""
    rs = load(rules)
    texts = ["123m456p789s11z22z+2z", "123m456p789s1122z{1f}+2z", "19m19p19s1234567z+1m", "123m456p789s11z(2222z)+5m", "1112345678999p+9p"]
    for text in texts:
        parse_hand(text)  # (a group set aside is read by the scanner first; the plain path then)
        hand = parse_hand(text)
        assert hand._packed >= 0
        bare = Hand(hand.concealed, hand.melds, hand.aside, hand.last)
        assert bare._packed < 0
        results = []
        for h in (hand, bare):
            try:
                results.append(str(check_hand(h, rs, text, need_last=True, any_size=True)))
            except MjError as e:
                results.append(f"{type(e).__name__}: {e}")
        assert results[0] == results[1], (text, results)


@pytest.mark.parametrize("rules", ["guannan", "nanjing", "zuanpai", "mcr"])
def test_normalize_on_packed_counts_as_without(rules):
    """validate.normalize rules bonus tiles out from the parser's packed counts (a byte per
    kind) less its groups set aside: the same hand as from the counts alone, where the bonus
    kinds are winds or dragons written among the concealed tiles too."""
    rs = load(rules)
    texts = ["123m456p789s1z55z+5z", "123m456p789s55z{1z}+5z", "123m456p789s55z{5z}+6z", "123m456p789s55z{1f}+7z", "123m456p789s1155z+6z", "123m456p789s55z{12f}+5z"]
    for text in texts:
        parse_hand(text)  # (a group set aside is read by the scanner first; the plain path then)
        hand = parse_hand(text)
        assert hand._packed >= 0, text
        bare = Hand(hand.concealed, hand.melds, hand.aside, hand.last)
        assert normalize_hand(hand, rs) == normalize_hand(bare, rs), text
        assert normalize_hand(hand, rs).aside == normalize_hand(bare, rs).aside, text


@pytest.mark.parametrize("rules", ["mcr", "riichi", "sichuan-xuezhan", "changsha", "taiwan-16"])
def test_decompositions_packed_as_from_the_tiles(rules):
    """A parsed hand (packed counts: the melded hands' concealed counts are those less the
    melds') reads as the same hand built without them (counted from its tiles)."""
    rs = load(rules)
    spec = rs.base_spec
    rng = random.Random("packed:" + rules)
    texts = [mcr_case(rng)[0] for _ in range(400)] if rules == "mcr" else []
    texts += ["1m(123p)(456s)(789m)(777z)+1m", "11m(123p)(456s)(789m)+789m", "5m(1111p)[2222s](333m@E)(444s)+5m", "11m(1111p)(2222s)(333m)(444s)+5z", "11m(123p)(456s)(789m)(789m)+1z{4z}"]
    if rules != "riichi":
        texts += ["1m(123p)(456s)(789m)(777s)+1m{1f}", "12m(123p)(456s)(789m)+3m{1234f}"]
    compared = 0
    for text in texts:
        try:
            parse_hand(text)
            hand = normalize_hand(parse_hand(text), rs)
        except MjError:
            continue
        if hand._packed < 0:
            continue
        bare = Hand(hand.concealed, hand.melds, hand.aside, hand.last)
        assert decompositions(hand, spec) == decompositions(bare, spec), text
        compared += bool(hand.melds)
    assert compared >= 3
