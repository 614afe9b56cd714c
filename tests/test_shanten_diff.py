"""Shanten and waits against the independent `mahjong` 2.1.0 package, on seeded random hands."""

import random

import pytest
from mahjong.shanten import Shanten

from gen import baseline_waits, counts_of, mixed_hand, ready_hand
from mjtools.analysis.shanten import HandState, shanten_of_state
from mjtools.analysis.shapes import RIICHI, ShapeSpec
from mjtools.analysis.waits import waits_of

COPIES = [4] * 50
SANMA = ShapeSpec(kinds=frozenset(k for k in range(34) if not 1 <= k <= 7))


def state(counts):
    return HandState(list(counts), 0, 0, frozenset(), True, (0, 0, 0, 0), list(counts) + [0] * 16)


def check_shanten(n_hands: int, seed: int):
    rng = random.Random(seed)
    for i in range(n_hands):
        kinds = mixed_hand(rng, 13 if i % 2 else 14)
        c = counts_of(kinds)
        ours, forms = shanten_of_state(state(c), RIICHI)
        assert ours == Shanten.calculate_shanten(c), kinds
        assert forms["standard"] == Shanten.calculate_shanten_for_regular_hand(c), kinds
        assert forms["seven_pairs"] == Shanten.calculate_shanten_for_chiitoitsu_hand(c), kinds
        assert forms["thirteen_orphans"] == Shanten.calculate_shanten_for_kokushi_hand(c), kinds




def check_waits(n_hands: int, seed: int, start: int = 0):
    """Hands start..n_hands-1 of the seed's sequence (the earlier ones are drawn and skipped)."""
    rng = random.Random(seed)
    for i in range(n_hands):
        kinds = ready_hand(rng)
        if i < start:
            continue
        c = counts_of(kinds)
        assert waits_of(state(c), RIICHI, COPIES) == baseline_waits(c), kinds


def test_shanten_3000():
    check_shanten(3000, 1)


def test_waits_3000():
    check_waits(3000, 2)


def test_sanma_shanten():
    rng = random.Random(3)
    pool = [k for k in range(34) if not 1 <= k <= 7 for _ in range(4)]
    for i in range(1000):
        c = counts_of(rng.sample(pool, 13 + i % 2))
        assert shanten_of_state(state(c), SANMA)[0] == Shanten.calculate_shanten(c, is_three_player=True)


@pytest.mark.slow
def test_shanten_100000():
    check_shanten(100_000, 11)


@pytest.mark.slow
@pytest.mark.parametrize("quarter", range(4))
def test_waits_100000(quarter):
    # 100,000 hands in four parts, so that the slow suite's workers share them
    check_waits(25_000 * (quarter + 1), 12, start=25_000 * quarter)
