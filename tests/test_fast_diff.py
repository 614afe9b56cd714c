"""The fast path (`mjtools/fast.py`) against the general path and `mahjong` 2.1.0, on seeded hands.

Every answer must be identical: shanten per form, effective tiles, waits, discard tables
(with live counts from a random `--visible`), improvements, for concealed and melded hands,
riichi, sanma, seven pairs with quads, a standard-only spec and 16-tile hands.
"""

import random

import pytest
from mahjong.shanten import Shanten

from gen import baseline_waits, counts_of, melded_hand, mixed_hand, random_hand, ready_hand
from mjtools.analysis import engine, fast, shanten, waits
from mjtools.analysis.shanten import state_of
from mjtools.analysis.shapes import RIICHI, ShapeSpec
from mjtools.tiles.notation import parse_hand

SANMA_KINDS = frozenset(k for k in range(34) if not 1 <= k <= 7)
SPECS = {
    "riichi": RIICHI,
    "sanma": ShapeSpec(kinds=SANMA_KINDS),
    "quads_as_pairs": ShapeSpec(quads_as_pairs=True),
    "standard_only": ShapeSpec(forms=("standard",)),
    "sixteen": ShapeSpec(hand_size=16, forms=("standard",)),
    "sixteen_all_forms": ShapeSpec(hand_size=16),
}
COPIES = [4] * 34 + [0] * 16


def hands(spec: ShapeSpec, n: int, seed: int):
    """Hands of hand size or one more: melded, near-complete, seven-pairs-ish and random."""
    rng = random.Random(seed)
    size = spec.hand_size
    kinds = sorted(spec.kinds)
    for i in range(n):
        r = rng.random()
        if r < 0.35:
            text = melded_hand(rng, rng.choice([0, 0, 1, 2, 3]), size, kinds, complete=True)
        elif r < 0.55:
            text = melded_hand(rng, rng.choice([1, 2, 4]), size, kinds)
        elif r < 0.8 and size == 13 and kinds == list(range(34)):
            from mjtools.tiles.kinds import kinds_str

            text = kinds_str(ready_hand(rng) if i % 2 else mixed_hand(rng, 14))
        else:
            from mjtools.tiles.kinds import kinds_str

            text = kinds_str(random_hand(rng, size + i % 2, kinds))
        yield parse_hand(text)


def visible_left(rng: random.Random, held) -> list[int]:
    vis = [0] * 50
    for _ in range(rng.randint(0, 12)):
        k = rng.randrange(34)
        if held[k] + vis[k] < 4:
            vis[k] += 1
    return [max(0, COPIES[k] - held[k] - vis[k]) for k in range(50)]


def check_spec(spec: ShapeSpec, n: int, seed: int) -> None:
    rng = random.Random(seed + 1)
    assert fast.engine_for(spec) is not None
    for hand in hands(spec, n, seed):
        st = state_of(hand, spec)
        where = (str(hand), spec.hand_size)
        assert fast.shanten_of_state(st, spec) == shanten.shanten_of_state(st, spec), where
        if st.tiles == spec.hand_size + 1:
            left = visible_left(rng, st.held)
            assert fast.discard_table(st, spec, COPIES, left) == shanten.discard_table(st, spec, COPIES, left), where
        else:
            assert fast.effective_of_state(st, spec, COPIES) == shanten.effective(st, spec, COPIES), where
            assert fast.waits_of_state(st, spec, COPIES) == waits.waits_of(st, spec, COPIES), where


@pytest.mark.parametrize("name", sorted(SPECS))
def test_fast_equals_general(name):
    check_spec(SPECS[name], 500, 100 + sorted(SPECS).index(name))


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SPECS))
def test_fast_equals_general_slow(name):
    check_spec(SPECS[name], 4000, 200 + sorted(SPECS).index(name))


def test_odd_sizes_fall_back_exactly():
    """Waits of hands that are not hand-size (too few, too many tiles) match the general path."""
    rng = random.Random(9)
    for n in (1, 4, 10, 12, 14, 15):
        for _ in range(40):
            c = counts_of(random_hand(rng, n))
            st = shanten.HandState(c, 0, 0, frozenset(), True, (0, 0, 0, 0), c + [0] * 16)
            assert fast.waits_of_state(st, RIICHI, COPIES) == waits.waits_of(st, RIICHI, COPIES), c
            assert fast.effective_of_state(st, RIICHI, COPIES) == shanten.effective(st, RIICHI, COPIES), c


def test_declines_what_it_does_not_cover():
    for spec in (ShapeSpec(pair_258=True), ShapeSpec(max_suits=2), ShapeSpec(wild_kinds=frozenset({33})), ShapeSpec(forms=("standard", "knitted"))):
        assert fast.engine_for(spec) is None
        with pytest.raises(ValueError):
            fast.shanten([0] * 34, spec)
    st = shanten.HandState([0] * 34, 0, 0, frozenset(), True, (0, 0, 0, 0), [0] * 50)
    assert fast.shanten_of_state(st, RIICHI, void=1) is None


def test_bad_counts_are_refused():
    for bad in ([0] * 33, [5] + [0] * 33, [-1] + [0] * 33):
        with pytest.raises(ValueError):
            fast.shanten(bad)


# -- against mahjong 2.1.0 (the public counts API) ------------------------------------------------




def check_mahjong(n: int, seed: int) -> None:
    rng = random.Random(seed)
    for i in range(n):
        c = counts_of(mixed_hand(rng, 13 if i % 2 else 14))
        assert fast.shanten(c) == Shanten.calculate_shanten(c), c
        r = counts_of(ready_hand(rng))
        assert fast.waits(r) == baseline_waits(r), r


def test_mahjong_3000():
    check_mahjong(3000, 31)


def test_mahjong_sanma():
    rng = random.Random(32)
    spec = SPECS["sanma"]
    for i in range(1000):
        c = counts_of(random_hand(rng, 13 + i % 2, SANMA_KINDS))
        assert fast.shanten(c, spec) == Shanten.calculate_shanten(c, is_three_player=True), c


@pytest.mark.slow
def test_mahjong_100000():
    check_mahjong(100_000, 33)


# -- records: the CLI's shanten and wait records, fast vs general ---------------------------------


def _records(riichi, texts, visible):
    from mjtools.batch.records import shanten_record, wait_record
    from mjtools.tiles.context import WinContext

    ctx = WinContext(visible=visible)
    out = []
    for t in texts:
        h = parse_hand(t)
        out.append(shanten_record(h, riichi, ctx, t))
        if h.size == riichi.hand_size:
            out.append(wait_record(h, riichi, ctx, t))
    return out


def test_records_fast_equals_general(riichi, monkeypatch):
    rng = random.Random(41)
    texts = [melded_hand(rng, rng.choice([0, 1, 2]), 13, complete=True) for _ in range(12)]
    texts += ["123m456p789s1122z", "1289m3457p12368s+4z", "11223344556677p", "119m19p19s1234567z", "123m(555z@W)456p78s9s+9s", "(5555z@W/added)[1111p]123m44s67s+5s", "(5555z@W/added)[1111p]123m44s6s+5s"]
    visible = parse_hand("1z2z5p5p9s").concealed
    fast_recs = _records(riichi, texts, visible)
    monkeypatch.setattr(fast, "engine_for", lambda spec: None)
    assert _records(riichi, texts, visible) == fast_recs


def test_engine_dispatch_uses_general_for_void(riichi):
    hand = parse_hand("123m456p789s1122z")
    st = state_of(hand, riichi.base_spec)
    assert engine.shanten_of_state(st, riichi.base_spec, void=0) == shanten.shanten_of_state(st, riichi.base_spec, void=0)
