"""Special shapes: Nanchang's honor chows, 十三烂 (and 七星十三烂), 全不靠, with and without
wildcards; 全不靠 and 十三烂 against `pymahjonggb` where their definitions coincide."""

from __future__ import annotations

import random
import textwrap
from itertools import combinations

import MahjongGB
import pytest

from gen import FROM_GB, GB, counts_of
from mjtools.analysis.decompose import decompositions
from mjtools.analysis.shanten import HandState, effective, shanten_of_state, state_of
from mjtools.analysis.shapes import ShapeSpec
from mjtools.analysis.waits import waits_of
from mjtools.errors import IllegalHandError
from mjtools.tiles.context import WinContext
from mjtools.tiles.hand import Hand
from mjtools.tiles.kinds import kinds_str, parse_kind

COPIES = [4] * 50
NANCHANG = ShapeSpec(forms=("standard", "thirteen_unrelated"), honor_chows=True)
PLAIN = ShapeSpec(forms=("standard",))
UNRELATED = ShapeSpec(forms=("thirteen_unrelated",))
KNITTED = ShapeSpec(forms=("knitted",))


def shanten(text: str, spec: ShapeSpec) -> int:
    return shanten_of_state(state_of(Hand.parse(text), spec), spec)[0]


def waits(text: str, spec: ShapeSpec) -> str:
    return kinds_str(waits_of(state_of(Hand.parse(text), spec), spec, COPIES))


# -- honor chows ----------------------------------------------------------------------------------


@pytest.mark.parametrize("hand", ["123m456p789s124z55z", "123m456p789s567z11z", "123m456p234z134z55z", "111m234z567z124z99s"])
def test_honor_chows_complete_only_where_allowed(hand):
    assert shanten(hand, NANCHANG) == -1
    assert shanten(hand, PLAIN) >= 0
    readings = decompositions(Hand.parse(hand), NANCHANG)
    assert readings and all(d.form == "standard" for d in readings)
    honor_chows = [b for d in readings for b in d.blocks if b.shape == "chow" and b.first >= 27]
    assert honor_chows and all(len(set(b.kinds)) == 3 for b in honor_chows)
    assert not decompositions(Hand.parse(hand), PLAIN)


def test_honor_chow_waits():
    # East and South wait for West or North; White and Green for Red (or the pair's partner)
    assert waits("123m456p789s12z55z", NANCHANG) == "34z"
    assert waits("123m456p789s12z55z", PLAIN) == ""
    assert waits("123m456p789s5z6z11s", NANCHANG) == "7z"
    # East-South-West held: a chow, or a pung partner
    assert waits("123m456p789s1234z", NANCHANG) == "1234z"


def test_honor_chow_never_mixes_winds_and_dragons():
    assert shanten("123m456p789s125z55s", NANCHANG) >= 0
    assert waits("123m456p789s15z55s", NANCHANG) == ""


def test_honor_chow_with_a_wildcard():
    spec = ShapeSpec(forms=("standard",), honor_chows=True, wild_kinds=frozenset({0}))
    # the wildcard 1m makes any wind or dragon chow: East + 1m, waiting for the pair and more
    assert shanten("456p789s123s1z1m55z", spec) == 0
    st = state_of(Hand.parse("456p789s123s1z1m55z"), spec)
    got = waits_of(st, spec, COPIES)
    assert {parse_kind(t) for t in ("2z", "3z", "4z", "1z", "5z")} <= set(got)
    readings = decompositions(Hand.parse("456p789s123s1z1m55z+3z"), spec)
    assert any(b.shape == "chow" and b.kinds == (27, 28, 29) and b.wilds == (28,) for d in readings for b in d.blocks)


def test_honor_chow_meld_in_a_variant_that_has_them(tmp_path):
    from mjtools.batch.records import shanten_record
    from mjtools.rules import load_path

    base = textwrap.dedent("""
        id: hc
        extends: riichi
        names: {en: Honor chows, zh_hans: 字牌顺}
        win: {forms: [standard], minimum: {}, honor_chow: HC}
    """)
    on = tmp_path / "hc.yaml"
    on.write_text(base.replace("HC", "true"), encoding="utf-8")
    off = tmp_path / "nohc.yaml"
    off.write_text(base.replace("HC", "false").replace("id: hc", "id: nohc"), encoding="utf-8")
    hand = Hand.parse("(124z)123m456p789s5z")
    rec = shanten_record(hand, load_path(on), WinContext())
    assert rec["shanten"] == 0
    with pytest.raises(IllegalHandError):
        shanten_record(hand, load_path(off), WinContext())


# -- 十三烂 ---------------------------------------------------------------------------------------

SPREADS = [s for n in range(4) for s in combinations(range(9), n) if all(b - a >= 3 for a, b in zip(s, s[1:]))]


def _unrelated_targets() -> list[int]:
    """Every 十三烂 target as a 34-bit mask of kinds."""
    out = set()
    for a in SPREADS:
        for b in SPREADS:
            for c in SPREADS:
                suited = [x for x in a] + [9 + x for x in b] + [18 + x for x in c]
                z = 14 - len(suited)
                if 0 <= z <= 7:
                    for hs in combinations(range(27, 34), z):
                        out.add(sum(1 << k for k in suited + list(hs)))
    return sorted(out)


@pytest.fixture(scope="module")
def unrelated_targets():
    return _unrelated_targets()


def test_thirteen_unrelated_against_every_target(unrelated_targets):
    rng = random.Random(5)
    for i in range(120):
        n = 13 + i % 2
        if i % 3:
            # near a target: a random target with a few tiles changed
            t = rng.choice(unrelated_targets)
            kinds = [k for k in range(34) if t >> k & 1]
            rng.shuffle(kinds)
            kinds = kinds[:n]
            for _ in range(rng.choice([0, 1, 2, 3])):
                kinds[rng.randrange(n)] = rng.randrange(34)
            c = counts_of(kinds)
            if max(c) > 4:
                continue
        else:
            c = counts_of(rng.sample([k for k in range(34) for _ in range(4)], n))
        mask = sum(1 << k for k in range(34) if c[k])
        want = 14 - max(bin(mask & t).count("1") for t in unrelated_targets) - 1
        st = HandState(c, 0, 0, frozenset(), True, (0, 0, 0, 0), c + [0] * 16)
        assert shanten_of_state(st, UNRELATED)[0] == want, kinds_str([k for k in range(34) for _ in range(c[k])])


def test_thirteen_unrelated_spread_that_cannot_grow():
    # 3-7 keeps two tiles of a suit and no third fits, so 3-7 in all three suits plus the
    # seven honors is 13 tiles that no 14th completes: one suit must change (shanten 1)
    assert shanten("37m37p37s1234567z", UNRELATED) == 1
    assert shanten("37m37p369s1234567z", UNRELATED) == -1
    assert waits("37m37p36s1234567z", UNRELATED) == "9s"
    assert waits("147m258p369s1234z", UNRELATED) == "567z"
    assert waits("147m258p36s12345z", UNRELATED) == "9s67z"


def test_seven_star_unrelated_readings():
    d = decompositions(Hand.parse("147m258p3s1234567z"), UNRELATED)
    assert d and all({27, 28, 29, 30, 31, 32, 33} <= set(x.kinds()) for x in d)


def test_thirteen_unrelated_with_wildcards():
    spec = ShapeSpec(forms=("thirteen_unrelated",), wild_kinds=frozenset({4}))  # 5m wild
    assert shanten("14m258p369s1234z5m5m", spec) == -1
    readings = decompositions(Hand.parse("14m258p369s1234z5m5m"), spec)
    placed = {tuple(sorted(k for b in d.blocks for k in b.wilds)) for d in readings}
    # one wildcard may take 7m, 8m or 9m (1-4-x), the other a missing honor, or both honors
    assert (6, 31) in placed and (31, 32) in placed and all(len(p) == 2 for p in placed)
    assert not any(k in (1, 2, 4, 5) for p in placed for k in p)


# -- against pymahjonggb --------------------------------------------------------------------------


def test_knitted_matches_pymahjonggb():
    rng = random.Random(8)
    knit = [0, 3, 6, 10, 13, 16, 20, 23, 26]
    for i in range(300):
        if i % 2:
            base = rng.sample(knit + list(range(27, 34)), 13)
            for _ in range(rng.choice([0, 1, 2, 3])):
                base[rng.randrange(13)] = rng.randrange(34)
            c = counts_of(base)
            if max(c) > 4:
                continue
        else:
            c = counts_of(rng.sample([k for k in range(34) for _ in range(4)], 13))
        tiles = tuple(GB[k] for k in range(34) for _ in range(c[k]))
        gb_shanten, useful = MahjongGB.HonorsAndKnittedTilesShanten(tiles)
        st = HandState(c, 0, 0, frozenset(), True, (0, 0, 0, 0), c + [0] * 16)
        ours = shanten_of_state(st, KNITTED)[0]
        assert ours == gb_shanten, kinds_str([k for k in range(34) for _ in range(c[k])])
        eff = effective(st, KNITTED, COPIES)
        assert sorted(eff) == sorted(FROM_GB[t] for t in useful)
        # every 全不靠 is also a 十三烂, so 十三烂 is never further away
        assert shanten_of_state(st, UNRELATED)[0] <= gb_shanten


def test_seven_star_knitted_is_a_seven_star_unrelated():
    # GB's 七星不靠: the seven honors and seven of the knitted tiles
    rng = random.Random(9)
    knit = [0, 3, 6, 10, 13, 16, 20, 23, 26]
    for _ in range(30):
        kinds = sorted(rng.sample(knit, 7) + list(range(27, 34)))
        hand = Hand.parse(kinds_str(kinds))
        assert shanten_of_state(state_of(hand, UNRELATED), UNRELATED)[0] == -1
        assert all(set(range(27, 34)) <= set(d.kinds()) for d in decompositions(hand, UNRELATED))
