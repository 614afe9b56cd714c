"""hand_features reads the melds through Meld._fcode (summed once per hand) and the set-aside
groups through Aside.natural, and works the tile-set bits out inline: here each is checked
against the plain computation (Meld.is_kong / concealed / wild, the tiles themselves, the
counts of each kind) on seeded Chinese Official wins (kongs of every kind, flowers) and
riichi hands with Norths set aside."""

from __future__ import annotations

import random

from mcr_gen import REVERSIBLE, mcr_case
from mjtools.patterns import features as F
from mjtools.rules import load
from mjtools.rules.hand_options import build_context, normalize
from mjtools.scoring.fans import plan_for
from mjtools.tiles.notation import parse_hand

KONG_BITS = F._KONG_COUNT_BITS


def _reference(hand) -> tuple[bool, int, int]:
    """(concealed, kong-count bits, tile-set bits) the plain way."""
    concealed = all(m.concealed for m in hand.melds)
    shown = sum(1 for m in hand.melds if m.is_kong and not m.concealed)
    hidden = sum(1 for m in hand.melds if m.is_kong and m.concealed)
    kongs = F._KONG_OPEN[min(shown, 4)] | F._KONG_HIDDEN[min(hidden, 4)]
    every = F._RANK_SETS[0] | F.BIT["reversible"]
    if any(t.kind < 34 for a in hand.aside for t in a.tiles):
        return concealed, kongs, every
    held = [k for k in range(34) if hand.counts[k]]
    sets = 0
    if all(k in REVERSIBLE for k in held):
        sets |= F.BIT["reversible"]
    if all(k < 27 for k in held):
        ranks = {k % 9 for k in held}
        for mask, bit in F.RANK_SET_BIT.items():
            if all(mask >> r & 1 for r in ranks):
                sets |= bit
    return concealed, kongs, sets


def _check(hand, ctx, uses: int) -> None:
    f = F.hand_features(hand, ctx, (), (), uses)
    concealed, kongs, sets = _reference(hand)
    assert bool(f & F.BIT["concealed"]) == concealed, str(hand)
    if uses & KONG_BITS:
        assert f & KONG_BITS == kongs, str(hand)
    tile_sets = F._RANK_SETS[0] | F.BIT["reversible"]
    if uses & tile_sets:
        assert f & tile_sets == sets, str(hand)
    for a in hand.aside:
        assert a.natural == any(t.kind < 34 for t in a.tiles)


def test_meld_codes_and_tile_sets_match_the_plain_reading():
    rs = load("mcr")
    uses = plan_for(rs).uses
    rng = random.Random("hand-feature-melds")
    seen = {"kongs": 0, "hidden": 0, "flowers": 0, "sets": 0}
    for _ in range(400):
        text, opts, _ = mcr_case(rng)
        hand = parse_hand(text)
        ctx = build_context(normalize(dict(opts), "score"), rs)
        _check(hand, ctx, uses)
        seen["kongs"] += any(m.is_kong for m in hand.melds)
        seen["hidden"] += any(m.is_kong and m.concealed for m in hand.melds)
        seen["flowers"] += bool(hand.aside)
        seen["sets"] += bool(_reference(hand)[2])
    assert min(seen.values()) > 10, seen


def test_set_aside_tiles_of_the_34_kinds_set_every_tile_set_bit():
    rs = load("mcr")
    uses = plan_for(rs).uses
    ctx = build_context(normalize({}, "score"), rs)
    for text in ("{kita=44z}123m456p789s1z1z+1z", "{1357f}(2222p)345p678p99p+9p", "(55x5z)123m456p789s1z+1z", "[2222p]345p678p99p+9p"):
        _check(parse_hand(text), ctx, uses)
