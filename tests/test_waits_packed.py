"""独听's wait tables on the counts as one integer (issue 14, thirteenth round), each against a
brute force over every kind by the standard decomposer (`_standard_packed`, whose per-group
readings come from `group_splits`, not from the wait tables' `_group_facts`):

- `_standard_waits`: the kinds whose draw leaves the counts in sets and one pair;
- `_knitted_straight_waits` (now from those tables) with no meld and with one;
- `concealed_packed`: the parser's concealed counts against the tiles counted."""

from __future__ import annotations

import random

from mjtools.analysis import waits
from mjtools.analysis.irregular import KNITTED_STRAIGHTS
from mjtools.analysis.standard import _standard_packed
from mjtools.tiles.hand import Hand, concealed_packed
from mjtools.tiles.notation import parse_hand


def _packed(counts) -> int:
    return sum(n << 8 * k for k, n in enumerate(counts))


def _random_counts(rng: random.Random, tiles: int) -> list[int]:
    counts = [0] * 34
    while sum(counts) < tiles:
        k = rng.randrange(34) if rng.random() < 0.3 else rng.randrange(9) + 9 * rng.randrange(3)
        if rng.random() < 0.5 and sum(counts):  # next to a held kind: near the shapes
            held = [j for j in range(34) if counts[j]]
            j = rng.choice(held)
            k = j if j >= 27 else min(max(j + rng.randint(-2, 2), j // 9 * 9), j // 9 * 9 + 8)
        if counts[k] < 4:
            counts[k] += 1
    return counts


def _completes(counts: list[int], k: int, sets: int) -> bool:
    c = list(counts)
    c[k] += 1
    return bool(_standard_packed(_packed(c), sets))


def test_standard_waits_are_the_kinds_that_complete():
    rng = random.Random("standard-waits")
    found = 0
    for _ in range(3000):
        tiles = rng.choice((1, 4, 7, 10, 13))
        counts = _random_counts(rng, tiles)
        sets = (tiles + 1 - 2) // 3
        got = waits._standard_waits(_packed(counts))
        expected = sum(1 << k for k in range(34) if counts[k] < 4 and _completes(counts, k, sets))
        # (a kind held four times may still show as a wait on the shape: the callers test copies)
        assert got & ~sum(1 << k for k in range(34) if counts[k] >= 4) == expected, counts
        found += bool(expected)
    assert found > 300


def _knitted_straight_brute(counts: list[int], melds: int) -> set[int]:
    out = set()
    for k in range(34):
        c = list(counts)
        c[k] += 1
        for straight in KNITTED_STRAIGHTS:
            if all(c[j] for j in straight):
                rest = list(c)
                for j in straight:
                    rest[j] -= 1
                if _standard_packed(_packed(rest), 1 - melds):
                    out.add(k)
    return out


def test_knitted_straight_waits_match_a_brute_force():
    rng = random.Random("knitted-straight-waits")
    found = 0
    for _ in range(1500):
        melds = rng.choice((0, 1))
        straight = list(rng.choice(KNITTED_STRAIGHTS))
        if rng.random() < 0.6:
            straight.pop(rng.randrange(9))  # one kind missing
        if rng.random() < 0.2:
            straight.pop(rng.randrange(len(straight)))  # two: no wait from this straight
        counts = [0] * 34
        for k in straight:
            counts[k] += 1
        extra = _random_counts(rng, 13 - 3 * melds - len(straight))
        for k in range(34):
            counts[k] = min(4, counts[k] + extra[k])
        if sum(counts) != 13 - 3 * melds:
            continue
        expected = _knitted_straight_brute(counts, melds)
        assert waits._knitted_straight_waits(counts, melds) == expected, (counts, melds)
        found += bool(expected)
    assert found > 150


def test_concealed_packed_is_the_concealed_tiles():
    texts = ["123m456p789s11z+1z", "123m{f=1f2f}(456p)789s1z+1z", "55z[1111m](234s)45p+6p", "1m1m1m2m3m4m5m6m7m8m9m9m9m+9m", "19m19p19s1234567z+1m", "406m55p(789s)(111z){f=13f}+5p"]
    given = 0
    for text in texts:
        for hand in (parse_hand(text), parse_hand(str(parse_hand(text)))):  # (the canonical text: the parser's plain path)
            expected = _packed([sum(1 for t in hand.concealed if t.kind == k) for k in range(50)])
            assert hand._cpacked in (-1, expected), text
            given += hand._cpacked >= 0
            assert concealed_packed(hand) == expected, text
            built = Hand(hand.concealed, hand.melds, hand.aside, hand.last)  # not by the parser
            assert built._cpacked == -1 and concealed_packed(built) == expected, text
    assert given >= len(texts)
