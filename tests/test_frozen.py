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


def test_hand_made_by_new_is_read_only_and_counts_its_tiles():
    """Hand.__new__ fills a writable _HandFields and gives it the class Hand: the value is a
    Hand, refuses assignment, pickles back equal and counts its tiles as before."""
    from dataclasses import FrozenInstanceError

    from mjtools.tiles.hand import Hand
    from mjtools.tiles.notation import parse_hand

    h = parse_hand("1230m406p789s11z(555z@E){12f}+1z")
    assert type(h) is Hand
    with pytest.raises(FrozenInstanceError):
        h.last = None  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        del h.melds
    back = pickle.loads(pickle.dumps(h))
    assert back == h and hash(back) == hash(h) and type(back) is Hand and back.counts == h.counts and back.reds == h.reds == 2
    plain = Hand(h.concealed, h.melds, h.aside, h.last)  # counts and red fives read off the tiles
    assert plain == h and plain.counts == h.counts and plain.reds == 2
    given = Hand(h.concealed, h.melds, h.aside, h.last, h.counts)  # counts given, red fives not
    assert given.reds == 2 and given.counts is h.counts
    assert Hand().counts == (0,) * len(h.counts) and Hand().reds == 0
