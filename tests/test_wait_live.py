"""`wait` on a hand that has just drawn: the cut copy is out of the wall, and a wait on the cut
kind is furiten (no ron) where the variant has furiten (play.furiten: riichi). `wait`'s live
count after each discard equals `shanten`'s effective count for that discard."""

import json
import random

import pytest

from gen import complete_hand, mixed_hand
from mjtools.batch.records import shanten_record, wait_record
from mjtools.rules import load
from mjtools.rules.hand_options import build_context
from mjtools.tiles.kinds import kinds_str
from mjtools.tiles.notation import parse_hand


def _hand(rs, rng: random.Random) -> str:
    """A random hand of hand size + 1 from the variant's suits and honours: uniform, or a
    complete hand with a tile or two swapped."""
    n = rs.hand_size + 1
    if rs.playable_kinds >= frozenset(range(34)) and n == 14:
        return kinds_str(mixed_hand(rng, n))
    kinds = sorted(k for k in rs.playable_kinds if k < 34)
    pool = [k for k in kinds for _ in range(4)]
    base = complete_hand(rng, (n - 2) // 3, kinds) if rng.random() < 0.6 and n % 3 == 2 else None
    if base is None:
        return kinds_str(sorted(rng.sample(pool, n)))
    for _ in range(rng.choice([0, 1, 1, 2])):
        base.pop(rng.randrange(n))
        base.append(rng.choice([k for k in kinds if base.count(k) < 4]))
    return kinds_str(sorted(base))


def _agree(rules: str, seed: int, n: int, opts: dict | None = None) -> int:
    """Compare every discard of n random 14-tile hands; the number of discards that left a hand ready."""
    rs = load(rules)
    ctx = build_context(opts or {}, rs)
    rng = random.Random(seed)
    ready = 0
    for _ in range(n):
        hand = parse_hand(_hand(rs, rng))
        s = shanten_record(hand, rs, ctx)
        # ways=(): the live counts do not depend on whether each wait is a legal win.
        w = wait_record(hand, rs, ctx, ways=())
        want = {d["tile"]: (d["effective"], d["effective_count"]) for d in s["discards"] if d["shanten"] == 0}
        got = {d["discard"]: (d["waits"], d["live_count"]) for d in w["discards"]}
        assert got == want, f"{rules} {hand}"
        assert all(d["live_count"] == sum(d["live"].values()) for d in w["discards"])
        ready += len(want)
    return ready


def test_wait_live_counts_agree_with_shanten_riichi(rng):
    assert _agree("riichi", rng.randrange(10**9), 600) > 300


@pytest.mark.parametrize("rules,opts", [("sichuan-xuezhan", {}), ("guangdong-cantonese", {}), ("tianjin", {"indicator": ["wild=7z"]}), ("hangzhou", {})])
def test_wait_live_counts_agree_with_shanten_variants(rng, rules, opts):
    _agree(rules, rng.randrange(10**9), 60, opts)


@pytest.mark.slow
def test_wait_live_counts_agree_with_shanten_10000():
    assert _agree("riichi", 17, 10_000) > 5_000


def _ready_cuts(rules: str, seed: int, n: int):
    rs = load(rules)
    ctx = build_context({}, rs)
    rng = random.Random(seed)
    for _ in range(n):
        hand = parse_hand(_hand(rs, rng))
        rec = wait_record(hand, rs, ctx)
        for d in rec["discards"]:
            yield rs, ctx, hand, d


def test_waiting_on_the_cut_kind_is_furiten_in_riichi(rng):
    seen = 0
    for _rs, _ctx, _hand, d in _ready_cuts("riichi", rng.randrange(10**9), 150):
        cut = d["discard"]
        for k, flags in d["winning"].items():
            if k == cut:
                seen += 1
                assert flags["ron"] is False, d
    assert seen > 5


def test_pass_lock_is_no_furiten_on_ones_own_discard(rng):
    """过手胡 blocks a passed win, not a wait on one's own discard: the cut kind still wins on a
    discard exactly as it would for the hand held without it."""
    seen = 0
    for rs, ctx, hand, d in _ready_cuts("guangdong-cantonese", rng.randrange(10**9), 150):
        if d["discard"] not in d["waits"]:
            continue
        seen += 1
        from mjtools.tiles.kinds import Tile, parse_kind

        alone = wait_record(hand.discard(Tile(parse_kind(d["discard"]))), rs, ctx)
        assert d["winning"] == alone["winning"]
    assert seen > 5


def test_wait_cli_cut_copy_not_live(run):
    rec = json.loads(run("wait", "234567m234p5688s+7s", "-f", "json").stdout)
    cut = {d["discard"]: d for d in rec["discards"]}
    assert cut["2m"]["live"]["2m"] == 3 and cut["2m"]["live_count"] == 10
    assert cut["2m"]["winning"]["2m"] == {"ron": False, "tsumo": True}
    assert cut["2m"]["winning"]["5m"] == {"ron": True, "tsumo": True}
    shanten = json.loads(run("shanten", "234567m234p5688s+7s", "-f", "json").stdout)
    assert {d["tile"]: d["effective_count"] for d in shanten["discards"]} == {d: r["live_count"] for d, r in cut.items()}
