"""Whole games (simulate --games) and records out (--log-dir): sim/game.py, sim/logs.py."""

import json

import pytest
from click.testing import CliRunner

from mjtools.cli import cli
from mjtools.rules import load
from mjtools.sim.game import _final, play_game


def test_final_scores_reproduce_a_tenhou_record():
    """double-ron.mjlog's owari: 33400 / 36000 / 32000 / -1400 -> 13.0 / 46.0 / -8.0 / -51.0
    (uma +20 / +10 / -10 / -20, oka to first place, points to the nearest thousand)."""
    pts, place, score = _final(load("tenhou"), [33400, 36000, 32000, -1400], 0)
    assert place == [2, 1, 3, 4]
    assert score == [13.0, 46.0, -8.0, -51.0]
    assert pts == [33400, 36000, 32000, -1400]


def test_final_scores_wrc_and_leftover_sticks():
    pts, place, score = _final(load("wrc"), [30000, 30000, 33400, 24600], 2)
    assert pts == [30000, 30000, 35400, 24600]  # the two sticks go to first place
    assert place == [2, 3, 1, 4]  # a tie goes to the earlier seat
    assert score == [5.0, -5.0, 20.4, -20.4]  # WRC: no rounding, no oka


@pytest.mark.parametrize("rules, length", [("tenhou", "east"), ("mleague", "south"), ("tenhou-sanma", "east")])
def test_a_game_adds_up(rules, length):
    rs = load(rules)
    n = rs.players
    g = play_game(rs, ["efficient"] * n, 11, 0, length)
    start = rs.section("game")["start_points"]
    assert sum(g["final_points"]) == start * n  # every point moved between players (sticks to first place)
    assert sorted(g["placement"]) == list(range(1, n + 1))
    assert abs(sum(g["score"])) < 1e-6
    hands = g["hand_records"]
    winds = [h["round"][0] for h in hands]
    assert winds == sorted(winds, key="ESWN".index)
    for a, b in zip(hands, hands[1:]):
        won = bool(a["wins"])
        dealer_won = any(w["seat"] == "E" for w in a["wins"])
        if won and not dealer_won:
            assert b["honba"] == 0 and b["dealer"] != a["dealer"]
        else:
            assert b["honba"] == a["honba"] + 1
    if not g["busted"]:
        assert winds[-1] in ("E", "S") if length == "east" else winds[-1] in ("S", "W")


def test_busting_ends_the_game():
    rs = load("tenhou")
    for i in range(6):
        g = play_game(rs, ["efficient"] * 4, 1, i, "south")
        if g["busted"]:
            assert min(g["hand_records"][-1]["points"]) < 0
            return
    pytest.skip("no game of this seed went below zero")


def test_games_are_the_same_whatever_the_workers(tmp_path):
    outs = []
    for w in ("1", "2"):
        out = tmp_path / f"g{w}.jsonl"
        r = CliRunner().invoke(cli, ["simulate", "-r", "tenhou", "--games", "4", "--length", "east", "--seed", "2", "--workers", w, "--out", str(out), "-f", "json"])
        assert r.exit_code == 0, r.output
        outs.append(out.read_text().splitlines()[1:])
        summary = json.loads(r.output)
        assert summary["games"] == 4 and len(summary["placements"]) == 4
        assert all(sum(p["places"]) == 4 for p in summary["placements"])
    assert outs[0] == outs[1]


def test_games_need_a_game_section():
    r = CliRunner().invoke(cli, ["simulate", "-r", "sichuan-xuezhan", "--games", "1"])
    assert r.exit_code == 2 and "no game section" in r.output


def _round_trip(rules: str, fmt: str, hands: int, seed: int, tmp_path) -> int:
    from mjtools.gamelog.check import check_game
    from mjtools.gamelog.read import parse
    from mjtools.gamelog.replay import rules_for
    from mjtools.sim.runner import Job, play_hand

    rs = load(rules)
    job = Job.from_rules(rs, ["efficient"] * rs.players, seed, hands)
    job = Job(job.rules_id, job.raw, job.options, job.bots, job.seed, job.hands, job.files, {"log_format": fmt})
    wins = 0
    for i in range(hands):
        rec = play_hand(job, i)
        game = parse(rec.pop("_log"), f"hand {i}")
        assert game.format == fmt and game.error is None
        (checked,) = check_game(game, rules_for(game, rules, {}, None))
        assert checked["match"], (i, checked["mismatches"])
        recorded = checked["recorded"]
        assert len(recorded.get("wins", [])) == len(rec["wins"])
        for w, simw in zip(checked["computed"].get("wins", []), rec["wins"]):
            assert w["hand"] == simw["hand"] and w["points"] <= simw["points"]
        wins += len(rec["wins"])
    return wins


@pytest.mark.parametrize("fmt", ["tenhou6", "mjai"])
def test_simulated_hands_round_trip_sample(fmt, tmp_path):
    assert _round_trip("riichi", fmt, 40, 5, tmp_path) > 20


@pytest.mark.slow
@pytest.mark.parametrize("fmt", ["tenhou6", "mjai"])
def test_simulated_hands_round_trip_500(fmt, tmp_path):
    assert _round_trip("riichi", fmt, 500, 13, tmp_path) > 300


def test_log_dir_files_replay(tmp_path):
    d = tmp_path / "logs"
    r = CliRunner().invoke(cli, ["simulate", "-r", "tenhou", "--games", "2", "--length", "east", "--seed", "4", "--log-dir", str(d), "--log-format", "mjai"])
    assert r.exit_code == 0, r.output
    files = sorted(str(p) for p in d.iterdir())
    assert [p.rsplit("/", 1)[-1] for p in files] == ["game-000000.mjai.jsonl", "game-000001.mjai.jsonl"]
    r = CliRunner().invoke(cli, ["replay", *files, "-f", "jsonl"])
    assert r.exit_code == 0, r.output
    assert all(json.loads(x)["match"] for x in r.output.splitlines())
