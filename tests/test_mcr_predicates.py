"""Chinese Official's fan predicates written for speed (four_in_hand's bit count, fully_melded,
number_ranks, all_types, the knitted fans, seven_shifted_pairs, flower, mixed_straight) against the plain definitions
they replace, on every reading of seeded MCR wins (tests/mcr_gen.py favours the rare fans:
four of a kind held, as a kong or not, among them)."""

from __future__ import annotations

import random
from collections import Counter

from mcr_gen import mcr_case
from mjtools.analysis.decompose import decompositions
from mjtools.errors import MjError
from mjtools.patterns.ctx import Ctx
from mjtools.patterns.knitted import knitted_seven_honors, knitted_straight
from mjtools.patterns.melds import four_in_hand, fully_melded
from mjtools.patterns.ranks import _ranks, all_types, number_ranks, seven_shifted_pairs
from mjtools.patterns.shapes import _MIXED_STRAIGHTS, mixed_straight
from mjtools.patterns.special import flower, knitted
from mjtools.rules import load
from mjtools.rules.hand_options import build_context, normalize
from mjtools.rules.validate import check_hand
from mjtools.tiles.notation import parse_hand

RANKS = ("123456789", "789", "456", "123", "6789", "1234", "2468")


def _reference(ctx: Ctx) -> dict:
    """The predicates as plainly written (the forms they had before the fast ones)."""
    ks = ctx.kind_set
    rank = 0
    for k in ks:
        if k < 27:
            rank |= 1 << (k % 9)
    kong_kinds = {b.first for b in ctx.kongs}
    golden = ctx.standard and len(ctx.hand.melds) == len(ctx.sets) and ctx.d.wait == "pair"
    whole = sum(1 for k in ks if k < 27) == 9
    out = {
        "four_in_hand": sum(1 for k, v in Counter(ctx.kinds).items() if v == 4 and k not in kong_kinds),
        "fully_melded": int(golden and all(m.is_open for m in ctx.hand.melds) and not ctx.tsumo),
        "all_types": int(len(ctx.suits) == 3 and not ks.isdisjoint(range(27, 31)) and max(ks) >= 31),
        "knitted": int(ctx.form == "knitted"),
        "knitted_seven_honors": int(ctx.form == "knitted" and all(k in ks for k in range(27, 34))),
        "knitted_straight": int(ctx.form == "knitted_straight" or (ctx.form == "knitted" and whole)),
        "seven_shifted_pairs": 0,
        "flower": sum(ctx.hand.counts[34:42]),
        "mixed_straight": int(any(ctx.chow_mask & s == s for s in _MIXED_STRAIGHTS)),
    }
    pair = ctx.pair
    out["knitted_straight_all_chows"] = int(ctx.form == "knitted_straight" and len(ctx.sets) == 1 and ctx.sets[0].shape == "chow" and pair is not None and pair.kinds[0] < 27)
    if ctx.form == "seven_pairs" and not ctx.has_honors and len(ctx.suits) == 1:
        s = sorted(ks)
        out["seven_shifted_pairs"] = int(len(s) == 7 and s[-1] - s[0] == 6)
    for r in RANKS:
        out["ranks " + r] = int(not ctx.has_honors and not rank & ~_ranks(r))
    return out


def _fast(ctx: Ctx) -> dict:
    out = {
        "four_in_hand": four_in_hand(ctx),
        "fully_melded": fully_melded(ctx),
        "all_types": all_types(ctx),
        "knitted": knitted(ctx),
        "knitted_seven_honors": knitted_seven_honors(ctx),
        "knitted_straight": knitted_straight(ctx),
        "knitted_straight_all_chows": knitted_straight(ctx, all_chows=True),
        "seven_shifted_pairs": seven_shifted_pairs(ctx),
        "flower": flower(ctx),
        "mixed_straight": mixed_straight(ctx),
    }
    for r in RANKS:
        out["ranks " + r] = number_ranks(ctx, ranks=r)
    return out


def _texts(rng: random.Random, n: int):
    for _ in range(n):
        text, opts, _ = mcr_case(rng)
        yield text, opts


def test_fast_predicates_match_their_definitions():
    rs = load("mcr")
    spec = rs.base_spec
    rng = random.Random("mcr-predicates")
    seen: Counter = Counter()
    readings = 0
    for text, opts in _texts(rng, 1500):
        try:
            hand = check_hand(parse_hand(text), rs, text, need_last=True)
        except MjError:
            continue
        win = build_context(normalize(opts, "score"), rs)
        for d in decompositions(hand, spec):
            ctx = Ctx(hand, d, win, frozenset(), (), (), {}, {}, spec)
            want, got = _reference(ctx), _fast(ctx)
            assert got == want, (text, d)
            seen.update(k for k, v in want.items() if v)
            readings += 1
    assert readings > 1500
    # every predicate answers yes on some reading (the hands reach them)
    assert set(seen) >= {"four_in_hand", "fully_melded", "all_types", "knitted", "knitted_seven_honors", "knitted_straight", "knitted_straight_all_chows", "seven_shifted_pairs", "flower", "mixed_straight", "ranks 123"}, seen
