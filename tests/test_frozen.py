"""The read-only value types (tiles/frozen.py): assignment refused, copies through replace and
pickle (worker processes receive them) equal to the original."""

import pickle

import pytest

from mjtools.analysis.shapes import ShapeSpec
from mjtools.rules import load
from mjtools.rules.counted import Counted, counted_entries


def test_record_values_pickle_back_equal():
    rs = load("wuhan")
    values = [Counted(frozenset({33}), True, "laizi_gang", claimable=True), ShapeSpec(pair_258=True, max_suits=2), rs.base_spec, *counted_entries(rs)]
    for v in values:
        back = pickle.loads(pickle.dumps(v))
        assert back == v and hash(back) == hash(v) and type(back) is type(v)


def test_record_refuses_assignment_and_replace_copies():
    c = Counted(frozenset({33}), False, "x")
    with pytest.raises(AttributeError):
        c.situation = "y"  # type: ignore[misc]
    d = c.replace(situation="y")
    assert (d.situation, d.kinds, c.situation) == ("y", frozenset({33}), "x")
