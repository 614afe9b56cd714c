"""Chinese Official (mcr) through the CLI: its aliases, the 8-fan minimum, payments, bad input,
wait / shanten on the knitted forms."""

from __future__ import annotations

import json

import pytest


@pytest.mark.parametrize("name", ["mcr", "guobiao", "gb", "chinese-official"])
def test_aliases(run, name):
    r = run("score", "-r", name, "123m456p789s345s5p+5p", "--tsumo", "-f", "json")
    assert r.exit_code == 0, r.stderr
    assert json.loads(r.stdout)["rules"] == "mcr"


def test_listed(run):
    r = run("rules", "list")
    assert "mcr" in r.stdout


def test_below_eight_fans_is_no_win_but_reports_its_fans(run):
    # 平和 2 + 断幺 2 + 门前清 2 + 喜相逢 1 = 7; the flower (1) does not count toward the minimum
    r = run("score", "-r", "mcr", "234m567p234678s8s{1f}+8s", "--from", "N", "-f", "json")
    rec = json.loads(r.stdout)
    assert rec["valid"] is False
    assert rec["reason"] == "minimum_fan: 7 below the minimum of 8"
    assert {f["id"]: f["count"] for f in rec["fans"]} == {"all_chows": 1, "all_simples": 1, "concealed_hand": 1, "mixed_double_chow": 1, "flower": 1}
    assert rec["fan_total"] == 8 and rec["points"] == 0


def test_payments(run):
    # 清龙 16 + 平和 2 + 门前清 2 + 单钓将 1 = 21: the discarder pays 8 + 21, the others 8 each
    r = run("score", "-r", "mcr", "123456789m234p5s+5s", "--seat", "S", "--from", "W", "-f", "json")
    rec = json.loads(r.stdout)
    assert rec["fan_total"] == 21 and rec["payments"] == {"E": 8, "W": 29, "N": 8} and rec["points"] == 45
    r = run("score", "-r", "mcr", "123456789m234p5s+5s", "--seat", "S", "--tsumo", "-f", "json")
    rec = json.loads(r.stdout)
    # self-drawn: 不求人 4 instead of 门前清: 23, each pays 8 + 23
    assert rec["fan_total"] == 23 and rec["payments"] == {"E": 31, "W": 31, "N": 31}


@pytest.mark.parametrize("hand, words", [
    ("11111m234p456s789s+5s", "5 copies of 1m"),
    ("(1f2f3f)123m456p789s1z+1z", "bonus tile"),
    ("(123z@W)123m456p789s1z+1z", "is not a chow, pung or kong"),
    ("(135m@W)123m456p789s1z+1z", "is not a chow, pung or kong"),
    ("123m456p789s11z22z{3z}+2z", "not a bonus tile"),
    ("123m456p789s11z+1z", "tiles"),
])
def test_bad_input_exits_2_with_one_line(run, hand, words):
    r = run("score", "-r", "mcr", hand)
    assert r.exit_code == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0], r.stderr
    assert "Traceback" not in r.stderr


def test_shanten_counts_the_knitted_forms(run):
    r = run("shanten", "-r", "mcr", "147m258p369s1234z", "-f", "json")
    rec = json.loads(r.stdout)
    assert rec["shanten"] == 0 and rec["forms"]["knitted"] == 0 and rec["forms"]["knitted_straight"] == 2
    assert rec["effective"] == ["5z", "6z", "7z"]


def test_wait_on_a_knitted_straight_with_a_meld(run):
    r = run("wait", "-r", "mcr", "47m258p369s(123p@N)55s", "-f", "json")
    rec = json.loads(r.stdout)
    assert rec["tenpai"] is True and rec["waits"] == ["1m"] and rec["winning"]["1m"]["ron"] is True


def test_simulate_plays_legal_wins(run, tmp_path):
    out = tmp_path / "mcr.jsonl"
    r = run("simulate", "-r", "mcr", "--hands", "2", "--seed", "3", "--out", str(out), "-f", "json")
    assert r.exit_code == 0, r.stderr
    lines = out.read_text(encoding="utf-8").splitlines()[1:]
    assert len(lines) == 2
    for line in lines:
        rec = json.loads(line)
        assert sum(rec["net"].values()) + rec["pot"] == 0
        for win in rec["wins"]:
            assert win["fan_total"] - win["fans"].get("flower", 0) >= 8
            # each other player pays 8, the discarder (or everyone, self-drawn) the fans too
            payers = 1 if win["from"] else 3
            assert win["points"] == 24 + payers * win["fan_total"]
