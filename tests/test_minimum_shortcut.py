"""The fan minimum met as soon as a part of the sum meets it (`Checks.fans_nonneg`, issue 14's
thirteenth round): on seeded MCR cases, flowers and hands below 8 fans included, every reading
gets the reason the whole sum gives; a file with a fan worth less than nothing takes no
shortcut."""

from __future__ import annotations

import random

from mcr_gen import mcr_case
from mjtools.errors import MjError
from mjtools.rules import load
from mjtools.rules.hand_options import build_context, normalize
from mjtools.scoring import evaluations
from mjtools.scoring.validity import Checks, _values_nonneg, checks_for, value_reason
from mjtools.tiles.notation import parse_hand


def test_early_minimum_gives_the_whole_sums_reason():
    rs = load("mcr")
    ch = checks_for(rs)
    assert ch.fan_only and ch.fans_nonneg
    rng = random.Random("minimum")
    seen = {True: 0, False: 0}
    for _ in range(600):
        text, opts, _ = mcr_case(rng)
        if rng.random() < 0.3:  # flowers, which the minimum leaves out
            text = text.replace("+", "{f=" + "".join(sorted(rng.sample("12345678", rng.randint(1, 4)))) + "f}+", 1)
        try:
            hand = parse_hand(text)
            ctx = build_context(normalize(opts, "score"), rs)
            readings = evaluations(hand, rs, ctx)
        except MjError:
            continue
        for ev, _ in readings:
            if ev.reason and not ev.reason.startswith("minimum_fan"):
                continue
            got = value_reason(ev, rs, ctx, hand, 0)
            ch.fans_nonneg = False
            try:
                whole = value_reason(ev, rs, ctx, hand, 0)
            finally:
                ch.fans_nonneg = True
            assert got == whole, text
            seen[got is None] += 1
    assert min(seen.values()) > 20, seen


def test_a_negative_fan_takes_no_shortcut():
    rs = load("mcr")
    assert _values_nonneg(rs)
    fans = dict(rs.fans)
    some = next(fid for fid, fan in fans.items() if fan)
    fans[some] = {**fans[some], "value": -1}

    class _Fake:
        pass

    fake = _Fake()
    fake.fans = fans
    assert not _values_nonneg(fake)
    fans[some] = {**fans[some], "value": {"closed": 2, "open": -1}}
    assert not _values_nonneg(fake)
    assert isinstance(checks_for(rs), Checks)
