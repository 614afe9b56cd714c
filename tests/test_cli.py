"""The CLI contract: formats, batch records, exit codes, one-line errors."""

import csv
import io
import json
import subprocess
import sys

import pytest

from mjtools.output import COLUMNS


def test_version(run):
    r = run("--version")
    assert r.exit_code == 0 and "mjtools" in r.output


def test_python_m():
    proc = subprocess.run([sys.executable, "-m", "mjtools", "--version"], capture_output=True, text=True)
    assert proc.returncode == 0 and "mjtools" in proc.stdout


def test_shanten_json(run):
    r = run("shanten", "123m456p789s1122z", "-f", "json")
    rec = json.loads(r.stdout)
    assert rec["shanten"] == 0
    assert rec["forms"] == {"standard": 0, "seven_pairs": 4, "thirteen_orphans": 8}
    assert rec["hand"] == "123m456p789s1122z"


def test_shanten_discards_sorted(run):
    rec = json.loads(run("shanten", "1289m3457p12368s+4z", "-f", "json").stdout)
    keys = [(d["shanten"], -d["effective_count"]) for d in rec["discards"]]
    assert keys == sorted(keys)
    assert rec["discards"][0]["tile"] in ("7p", "4z")


def test_wait_json(run):
    rec = json.loads(run("wait", "123m456p789s1122z", "--visible", "1z", "-f", "json").stdout)
    assert rec["tenpai"] is True
    assert rec["waits"] == ["1z", "2z"]
    assert rec["live"] == {"1z": 1, "2z": 2}
    assert rec["winning"]["1z"] == {"ron": True, "tsumo": True}
    assert rec["winning"]["2z"] == {"ron": False, "tsumo": True}


def test_wait_excludes_fully_held_kind(run):
    rec = json.loads(run("wait", "1111m234p567s789p", "-f", "json").stdout)
    assert "1m" not in rec["waits"]


def test_score_json(run):
    rec = json.loads(run("score", "234567m234p5688s+7s", "--seat", "S", "-f", "json").stdout)
    assert rec["valid"] and rec["han"] == 2 and rec["fu"] == 30 and rec["points"] == 2000
    assert rec["payments"] == {"E": 2000, "W": 0, "N": 0}
    assert sum(rec["payments"].values()) + rec["pot"] == rec["points"]


def test_score_not_a_win(run):
    r = run("score", "123m456p789s1133z+2z", "-f", "json")
    rec = json.loads(r.stdout)
    assert r.exit_code == 0 and rec["valid"] is False and rec["reason"]


@pytest.mark.parametrize("fmt", ["table", "json", "jsonl", "csv"])
def test_every_format(run, fmt, tmp_path):
    f = tmp_path / "in.txt"
    f.write_text("123m456p789s1122z\n\n# comment\nnot a hand\n1289m3457p12368s+4z\n")
    r = run("shanten", "--input", str(f), "-f", fmt)
    assert r.exit_code == 1
    if fmt == "jsonl":
        recs = [json.loads(x) for x in r.stdout.splitlines()]
        assert [x["line"] for x in recs] == [1, 4, 5]
        assert "error" in recs[1]
    elif fmt == "json":
        recs = json.loads(r.stdout)
        assert [x["line"] for x in recs] == [1, 4, 5]
    elif fmt == "csv":
        rows = list(csv.reader(io.StringIO(r.stdout)))
        assert tuple(rows[0]) == COLUMNS["shanten"]
        assert len(rows) == 4
        assert json.loads(rows[1][COLUMNS["shanten"].index("forms")])["standard"] == 0
    else:
        assert "line 4: " in r.stderr and "error" not in r.stdout  # a table: errors on stderr


def test_csv_header_always_complete(run, tmp_path):
    f = tmp_path / "in.txt"
    f.write_text("bad\n")
    r = run("wait", "--input", str(f), "-f", "csv")
    rows = list(csv.reader(io.StringIO(r.stdout)))
    assert tuple(rows[0]) == COLUMNS["wait"]


def test_stdin_dash_and_json_cases(run):
    data = '{"hand": "123m456p789s1122z", "seat": "S"}\n{"hand": "123m456p789s1122z", "bogus": 1}\n'
    r = run("wait", "-", "-f", "jsonl", input=data)
    recs = [json.loads(x) for x in r.stdout.splitlines()]
    assert recs[0]["winning"]["2z"]["ron"] is True  # South seat: 2z is its seat wind
    assert "bogus" in recs[1]["error"]
    assert r.exit_code == 1


@pytest.mark.parametrize("args, words", [
    (["shanten", "123x"], "position 4"),
    (["shanten", "123m"], "tiles"),
    (["shanten", "-r", "nosuch", "123m"], "unknown variant"),
    (["score", "123m456p789s1122z"], "winning tile"),
    (["score", "234567m234p5688s+7s", "--ura", "1m"], "--riichi"),
    (["score", "234567m234p5688s+7s", "--seat", "Q"], "E, S, W, N"),
    (["shanten", "--bogus", "1m"], "--bogus"),
    (["shanten", "123m456p789s1122z", "-o", "nope=1"], "no option"),
    (["wait", "123m456p789s1122z", "--indicator", "zz=1m"], "role"),
])
def test_errors_are_one_line_exit_2(run, args, words):
    r = run(*args)
    assert r.exit_code == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    assert words in lines[0]
    assert "Traceback" not in r.stderr


def test_no_colour_when_not_a_tty(run):
    r = run("shanten", "123m456p789s1122z")
    assert "\x1b[" not in r.stdout


def test_unicode_glyphs(run):
    r = run("shanten", "123m456p789s1122z", "--unicode")
    assert "\U0001F007" in r.stdout


def test_option_changes_rules(run):
    off = json.loads(run("score", "(234m)567m234p5688s+7s", "-o", "open_tanyao=false", "-f", "json").stdout)
    on = json.loads(run("score", "(234m)567m234p5688s+7s", "-f", "json").stdout)
    assert on["valid"] and not off["valid"]
