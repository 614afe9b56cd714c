"""Shape-level prerequisites, each with hands that meet and that miss them, checked alike by
shanten, waits and decompositions (a reading counts when `decompose.meets` accepts it)."""

from __future__ import annotations

import random

import pytest
from wildref import wild_hand

from mjtools.analysis.decompose import decompositions, meets
from mjtools.analysis.shanten import shanten_of_state, state_of
from mjtools.analysis.shapes import ShapeSpec
from mjtools.analysis.waits import waits_of
from mjtools.tiles.hand import Hand
from mjtools.tiles.kinds import Tile, kinds_str, parse_kind

COPIES = [4] * 50
W = frozenset


def complete(text: str, spec: ShapeSpec, void: int | None = None) -> bool:
    """Complete by shanten, and the same answer from the readings; returns it."""
    hand = Hand.parse(text)
    by_shanten = shanten_of_state(state_of(hand, spec), spec, void)[0] == -1
    by_readings = any(meets(d, spec, void) for d in decompositions(hand, spec))
    assert by_shanten == by_readings, f"{text}: shanten says {by_shanten}, readings say {by_readings}"
    return by_shanten


def waits(text: str, spec: ShapeSpec, void: int | None = None) -> str:
    """Waits, checked against the readings of the hand plus each kind."""
    hand = Hand.parse(text)
    got = waits_of(state_of(hand, spec), spec, COPIES, void)
    for k in sorted(set(spec.kinds) | set(spec.wild_kinds)):
        if hand.counts[k] >= 4:
            continue
        done = hand.with_last(Tile(k))
        ok = any(meets(d, spec, void) for d in decompositions(done, spec))
        assert ok == (k in got), f"{text} + {kinds_str([k])}: readings say {ok}"
    return kinds_str(got)


def wait_kinds(text: str, spec: ShapeSpec) -> list[int]:
    waits(text, spec)
    return waits_of(state_of(Hand.parse(text), spec), spec, COPIES)


def agree_on_random_hands(spec: ShapeSpec, void: int | None = None, n: int = 60) -> None:
    """Shanten, waits and readings agree on generated hands (complete and ready ones)."""
    rng = random.Random(hash((spec.forms, spec.max_suits, spec.pair_258, spec.min_tiles_one_suit)) % 997)
    for i in range(n):
        melds = (i // 4) % 2
        hand = wild_hand(rng, spec, i % 3 if spec.wild_kinds else 0, (14 if i % 2 else 13) - 3 * melds, ("complete", "ready")[i % 2], melds)
        if i % 2:
            complete(str(hand), spec, void)
        else:
            waits(str(hand), spec, void)


# -- 缺一门 and the declared void suit ------------------------------------------------------------

QUE = ShapeSpec(forms=("standard", "seven_pairs"), max_suits=2)


def test_missing_suit():
    assert complete("123m456m789m11p234p", QUE)
    assert not complete("123m456m789s11p234p", QUE)
    assert complete("1122m3344m5566p7z7z", QUE)  # seven pairs too
    assert not complete("1122m3344p5566s7z7z", QUE)
    assert waits("123m456m789m1p234p", QUE) == "14p"
    assert waits("123m456m789m1s234p", QUE) == ""
    # a melded suit is the one kept: the concealed third suit cannot stay
    assert not complete("(123s)456m789m11p234p", QUE)
    assert complete("(123s)456s789m11m234m", QUE)


def test_missing_suit_with_a_wildcard():
    spec = QUE.replace(wild_kinds=W({parse_kind("9s")}))
    # the wildcard is a bamboo tile but stands for a dot: only two suits are represented
    assert complete("123m456m789m11p23p9s", spec)
    assert waits("123m456m789m11p2p9s", spec) == "1234p9s"
    assert not complete("123m456m789m11p23s9s", spec)


def test_declared_void_suit():
    spec = ShapeSpec(forms=("standard", "seven_pairs"))
    assert complete("123m456m789m11s234s", spec, void=1)
    assert not complete("123m456m789m11p234p", spec, void=1)
    assert waits("123m456m789m1s234s", spec, void=1) == "14s"
    assert waits("123m456m789m1s234p", spec, void=1) == ""
    agree_on_random_hands(spec, void=0)


def test_missing_suit_on_generated_hands():
    agree_on_random_hands(QUE)
    agree_on_random_hands(QUE.replace(wild_kinds=W({31})))


# -- the 2-5-8 pair ---------------------------------------------------------------------------------

P258 = ShapeSpec(forms=("standard", "seven_pairs"), pair_258=True)
P258_EXEMPT = P258.replace(pair_258_exempt=("all_pungs", "full_flush"))


def test_pair_258():
    assert complete("123m456p789s234m55s", P258)
    assert not complete("123m456p789s234m33s", P258)
    assert not complete("123m456p789s234m11z", P258)
    assert waits("123m456p789s234m5s", P258) == "5s"
    assert waits("123m456p789s234m3s", P258) == ""
    # two-sided with a 2-5-8 pair elsewhere
    assert waits("123m456p789s88m34m", P258) == "25m"
    # seven pairs need no 2-5-8 pair
    assert complete("1133m5577p99s1122z", P258)


def test_pair_258_exemptions():
    all_pungs = "111m333p555s777s99m"
    flush = "123m456m789m111m33m"
    assert not complete(all_pungs, P258) and not complete(flush, P258)
    assert complete(all_pungs, P258_EXEMPT) and complete(flush, P258_EXEMPT)
    only_pungs = P258.replace(pair_258_exempt=("all_pungs",))
    assert complete(all_pungs, only_pungs) and not complete(flush, only_pungs)
    # a chow melded rules the all-pungs exemption out; a second suit rules out the flush one
    assert not complete("(123p)333p555s777s99m", P258_EXEMPT)
    assert not complete("123m456m789m111p33m", P258_EXEMPT)
    assert waits("111m333p555s777s9m", P258_EXEMPT) == "9m"
    assert waits("111m333p555s777s9m", P258) == ""


def test_pair_258_with_wildcards():
    spec = P258.replace(wild_kinds=W({33}))
    assert complete("123m456p789s234m5s7z", spec)  # the wildcard pairs the 5
    assert not complete("123m456p789s234m3s7z", spec)  # a 3 cannot be the pair
    assert complete("123m456p789s234m7z7z", spec)  # two wildcards: a 2-5-8 pair of any suit
    assert waits("123m456p789s234m7z", spec) == "258m258p258s7z"
    agree_on_random_hands(spec)
    agree_on_random_hands(P258_EXEMPT.replace(wild_kinds=W({33})))


# -- 八枝 ---------------------------------------------------------------------------------------------

BAZHI = ShapeSpec(forms=("standard",), min_tiles_one_suit=8)


def test_eight_of_one_suit():
    assert complete("123m456m789m11p234p", BAZHI)
    assert not complete("123m456m11p234p789s", BAZHI)
    assert complete("12345678m11p234p9m", BAZHI)
    assert waits("123m45m11p234p789s", BAZHI) == ""
    assert waits("123m45m11p234p789s", BAZHI.replace(min_tiles_one_suit=None)) == "36m"
    assert waits("123m456m78m11p234p", BAZHI) == "369m"
    # melds count
    assert not complete("(111m)456m11p234p789s", BAZHI)
    assert complete("(111m)456m11p234p789p", BAZHI)  # eight dots


def test_eight_of_one_suit_with_wildcards():
    spec = BAZHI.replace(wild_kinds=W({31}))
    assert complete("123m456m78m11p234p5z", spec)  # the wildcard as the eighth m
    assert not complete("123m456m11p234p789s5z", spec)
    agree_on_random_hands(spec)


# -- wildcard limits --------------------------------------------------------------------------------

WILD = ShapeSpec(forms=("standard",), wild_kinds=W({31}))


def test_wildcard_not_in_the_pair():
    spec = WILD.replace(wild_in_pair=False)
    assert complete("123m456p789s123s4m5z", WILD)
    assert not complete("123m456p789s123s4m5z", spec)
    assert complete("123m456p789s12s44m5z", spec)  # the wildcard in a chow instead
    # the wildcard pairs any tile but a fifth 1m or 4p (7s and 9s still make 789s)
    assert set(range(34)) - set(wait_kinds("111m444p777s999s5z", WILD)) == {0, 12}
    # the pair must be two natural tiles: an honor no longer completes the hand; 2m does, as
    # 1-2-wildcard beside a natural 1m pair, and so does a second wildcard (1m + two wildcards)
    assert waits("111m444p777s999s5z", spec) == "23m2356p56789s5z"
    assert waits("123m456p789s1s44m5z", spec) == "123s5z"
    agree_on_random_hands(spec)


def test_fifth_copy():
    spec = WILD.replace(wild_fifth_copy=True)
    assert not complete("1111m234p567p789s5z", WILD)
    assert complete("1111m234p567p789s5z", spec)
    # the melds count: a wildcard may not be the fifth copy of a melded kind
    assert not complete("(555m)5m234p567p789s5z", WILD)
    assert complete("(555m)5m234p567p789s5z", spec)
    assert complete("(555m)6m234p567p789s5z", WILD)
    five = parse_kind("5m")
    assert five not in wait_kinds("(555m)234p567p789s5z", WILD)
    assert five in wait_kinds("(555m)234p567p789s5z", spec)
    agree_on_random_hands(spec)


def test_face_value_only_form():
    spec = ShapeSpec(forms=("standard", "seven_pairs"), wild_kinds=W({33}))
    face = spec.replace(face_value_forms=("seven_pairs",))
    hand = "1122m3344p5566s1z7z"
    assert complete(hand, spec)  # the 中 stands for East
    assert not complete(hand, face)  # at face value it is just a 中
    assert complete("1122m3344p5566s7z7z", face)
    assert waits("1122m3344p5566s7z", face) == "7z"


@pytest.mark.parametrize("spec", [WILD, WILD.replace(wild_in_pair=False), WILD.replace(wild_fifth_copy=True)], ids=["plain", "no_pair", "fifth"])
def test_limits_agree_on_generated_hands(spec):
    agree_on_random_hands(spec)
