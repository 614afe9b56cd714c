"""`waits.waits_of` tries only the kinds that may complete the hand (`_may_complete`): the
same waits as trying every kind, on seeded ready and near-ready hands of every shipped
variant's shape spec, with and without its requirements (2-5-8 pair, 缺一门, ...)."""

import random

import pytest

from gen import complete_hand, random_hand
from mjtools.analysis import waits
from mjtools.analysis.shanten import state_of
from mjtools.rules import available
from mjtools.tiles.kinds import kinds_str
from mjtools.tiles.notation import parse_hand

SPECS = {rs.id: rs for rs in available()}


def _hands(spec, n: int, seed: int):
    rng = random.Random(seed)
    kinds = sorted(k for k in spec.kinds if k < 34)
    for i in range(n):
        base = complete_hand(rng, spec.sets_needed, kinds) if i % 4 else None
        if base is None:
            base = random_hand(rng, spec.hand_size, kinds)
        else:
            base.pop(rng.randrange(len(base)))
        yield base


@pytest.mark.parametrize("rid", sorted(SPECS))
def test_near_kinds_keep_every_wait(rid, monkeypatch):
    rs = SPECS[rid]
    spec = rs.base_spec
    copies = list(rs.copies)
    got, want = [], []
    for kinds in _hands(spec, 40, 12):
        hand = parse_hand(kinds_str(sorted(kinds)))
        got.append(waits.waits_of(state_of(hand, spec), spec, copies))
    monkeypatch.setattr(waits, "_may_complete", lambda st, spec: None)
    for kinds in _hands(spec, 40, 12):
        hand = parse_hand(kinds_str(sorted(kinds)))
        want.append(waits.waits_of(state_of(hand, spec), spec, copies))
    assert got == want
    assert any(want)
