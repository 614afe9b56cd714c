"""Riichi pao (liability) and several winners on one discard (scoring/liability.py, table.py)."""

import pytest

from mjtools.errors import MjError
from mjtools.rules import load
from mjtools.rules.hand_options import build_context, normalize
from mjtools.scoring import score
from mjtools.scoring.table import settle_table
from mjtools.tiles.notation import parse_hand

DAISANGEN = "23m22p(555z@W)(666z@N)(777z@E)+4m"  # East fed the third dragon set


def _score(hand, rules="riichi", options=None, **opts):
    rs = load(rules, options or {})
    return score(parse_hand(hand), rs, build_context(normalize(opts, "score"), rs), hand)


@pytest.mark.parametrize(
    "opts, payments",
    [
        ({"tsumo": True}, {"E": 32000, "W": 0, "N": 0}),
        ({"from": "W"}, {"E": 16000, "W": 16000, "N": 0}),
        ({"from": "E"}, {"E": 32000, "W": 0, "N": 0}),
        ({"from": "N", "honba": 2}, {"E": 16600, "W": 0, "N": 16000}),
        ({"tsumo": True, "honba": 2}, {"E": 32600, "W": 0, "N": 0}),
    ],
)
def test_pao_payments(opts, payments):
    rec = _score(DAISANGEN, seat="S", **opts)
    assert rec["payments"] == payments
    assert rec["points"] == sum(payments.values())
    assert all("pao big_three_dragons: E" in e["reason"] for e in rec["ledger"])


def test_pao_honba_usual_splits_the_honba_with_the_hand():
    rec = _score(DAISANGEN, options={"pao_honba": "usual"}, seat="S", **{"from": "N", "honba": 2})
    assert rec["payments"] == {"E": 16300, "W": 0, "N": 16300}


def test_pao_sticks_still_come_from_the_table():
    rec = _score(DAISANGEN, seat="S", tsumo=True, sticks=2)
    assert rec["payments"] == {"E": 32000, "W": 0, "N": 0} and rec["pot"] == 2000 and rec["points"] == 34000


def test_no_source_no_pao():
    rec = _score("23m22p(555z@W)(666z@N)(777z)+4m", seat="S", tsumo=True)
    assert rec["payments"] == {"E": 16000, "W": 8000, "N": 8000}


def test_pao_explain_names_the_feeder():
    rs = load("riichi")
    rec = score(parse_hand(DAISANGEN), rs, build_context(normalize({"seat": "S", "tsumo": True}, "score"), rs), DAISANGEN, explain=True)
    assert any("E fed (777z@E)" in s for s in rec["explain"]["steps"])


def test_double_ron_takes_the_pot_once():
    """The issue's example: two winners, two sticks on the table: 2000 go out, not 4000."""
    case = {"table": {"S": "2344567m234p567s+1m", "N": "12233m77p340789s+1m"}, "event": "win", "winners": ["S", "N"], "from": "E", "sticks": 2}
    rec = settle_table(case, load("riichi"))
    assert [r["pot"] for r in rec["results"]] == [2000, 0]
    assert rec["pot"] == -2000 and sum(rec["net"].values()) + rec["pot"] == 0


def test_seat_options_reach_one_winner_only():
    case = {"table": {"S": "2344567m234p567s+1m", "N": "12233m77p340789s+1m"}, "event": "win", "winners": ["S", "N"], "from": "E", "seat_options": {"N": {"riichi": True}}}
    rec = settle_table(case, load("riichi"))
    fans = {r["seat"]: [f["id"] for f in r["fans"]] for r in rec["results"]}
    assert "riichi" in fans["N"] and "riichi" not in fans["S"]


@pytest.mark.parametrize(
    "seat_options, error",
    [
        ({"X": {}}, "seat_options: 'X' is not a seat"),
        ({"N": {"tsumo": True}}, "seat_options.N takes no 'tsumo'"),
        ({"N": {"bogus": 1}}, "no option 'bogus'"),
        ({"N": 3}, "seat_options.N is a JSON object"),
    ],
)
def test_seat_options_errors(seat_options, error):
    case = {"table": {"S": "2344567m234p567s+1m", "N": "12233m77p340789s+1m"}, "event": "win", "winners": ["S", "N"], "from": "E", "seat_options": seat_options}
    with pytest.raises(MjError, match=error.replace("(", r"\(")):
        settle_table(case, load("riichi"))
