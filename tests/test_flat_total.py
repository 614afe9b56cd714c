"""The flat model (Chinese Official and other flat files) reads the fans stage's sum
(Evaluation.total) where it is given and sums the fans itself where it is None: its fan_total
must equal the sum of the fans it was given, on the first pass of a hand (the fans stage works
the reading out) and on the second (its final memo gives the fans and their total)."""

from __future__ import annotations

import random

from mcr_gen import mcr_case
from mjtools.rules import load
from mjtools.rules.hand_options import build_context, normalize
from mjtools.scoring import evaluations
from mjtools.scoring.models import get as get_model
from mjtools.scoring.result import Evaluation
from mjtools.tiles.notation import parse_hand


def _check(rs, text: str, ctx, seen: dict[str, int]) -> None:
    for ev, value in evaluations(parse_hand(text), rs, ctx):
        if value is None:
            continue
        want = sum(a.value * a.count for a in ev.fans)
        assert value.fan_total == want, (text, ev.total, [(a.id, a.count) for a in ev.fans])
        seen["given" if ev.total is not None else "summed"] += 1


def test_flat_fan_total_is_the_sum_of_its_fans():
    rs = load("mcr")
    rng = random.Random("flat-total")
    seen = {"given": 0, "summed": 0}
    for _ in range(150):
        text, opts, _ = mcr_case(rng)
        ctx = build_context(normalize(dict(opts), "score"), rs)
        _check(rs, text, ctx, seen)  # first pass
        _check(rs, text, ctx, seen)  # second pass: the final memo's fans and total
    assert seen["given"] > 100, seen


def test_flat_sums_where_no_total_is_given():
    rs = load("mcr")
    rng = random.Random("flat-none")
    flat = get_model("flat")  # (loads the model: MODELS fills as models are first used)
    n = 0
    for _ in range(40):
        text, opts, _ = mcr_case(rng)
        ctx = build_context(normalize(dict(opts), "score"), rs)
        hand = parse_hand(text)
        for ev, value in evaluations(hand, rs, ctx):
            if value is None or len(ev.fans) < 2:
                continue
            bare = Evaluation(ev.decomposition, list(ev.fans))  # total None
            assert flat(bare, rs, ctx, hand).fan_total == value.fan_total
            # a total given is read as it is (the fans stage's sum stands for the fans)
            given = Evaluation(ev.decomposition, list(ev.fans), total=value.fan_total + 1)
            assert flat(given, rs, ctx, hand).fan_total == value.fan_total + 1
            n += 1
    assert n > 20


def test_plain_value_is_the_hand_value_of_its_arguments():
    """flat's HandValue, made without the class call, has every field HandValue's constructor
    gives (a field added to HandValue and not to plain_value fails here)."""
    from mjtools.scoring.result import HandValue, plain_value

    for args in ((8, 9, None, ""), (2.5, 3.5, "cap", "fan")):
        v = plain_value(*args)
        want = HandValue(args[0], args[1], None, args[2], args[3])
        assert v == want and type(v) is HandValue and repr(v) == repr(want)
        assert v.extra == {} and v.extra is not plain_value(*args).extra  # (each its own dict)
