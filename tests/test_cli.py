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


def test_score_names_one_and_all(run, tmp_path):
    """`--names one` (the default) gives each fan its name in --lang only; `--names all` adds
    `names` (en/ja/zh) right after `name`, the record otherwise the same, single and batch,
    JSON lines and CSV, and in a table case's results."""
    hand = ["123m456p789s23s55p+4s", "--seat", "S", "--tsumo", "--riichi"]
    one = json.loads(run("score", *hand, "-f", "json", "--lang", "ja").stdout)
    full = json.loads(run("score", *hand, "-f", "json", "--lang", "ja", "--names", "all").stdout)
    riichi = one["fans"][0]
    assert riichi == {"id": "riichi", "name": "立直", "value": 1, "count": 1, "unit": "han"}
    assert list(full["fans"][0]) == ["id", "name", "names", "value", "count", "unit"]
    assert full["fans"][0]["names"] == {"en": "Riichi", "ja": "立直", "zh": "立直"}
    assert [{k: v for k, v in f.items() if k != "names"} for f in full["fans"]] == one["fans"]
    assert {**full, "fans": one["fans"]} == one
    cases = tmp_path / "cases.jsonl"
    table = {"table": {"S": "1122334455667m+7m", "W": "123p456p789p55m68m+7m"}, "event": "win", "winners": ["S", "W"], "from": "E", "rules": "sichuan-xuezhan"}
    cases.write_text(json.dumps({"hand": hand[0], "seat": "S", "tsumo": True, "riichi": True}) + "\n" + json.dumps(table) + "\n", encoding="utf-8")
    lean = [json.loads(x) for x in run("score", "--input", str(cases), "-f", "jsonl").stdout.splitlines()]
    rich = [json.loads(x) for x in run("score", "--input", str(cases), "-f", "jsonl", "--names", "all").stdout.splitlines()]
    assert lean[0]["line"] == rich[0]["line"] == 1
    assert {k: v for k, v in lean[0].items() if k not in ("line", "fans")} == {k: v for k, v in one.items() if k != "fans"}
    assert rich[0]["fans"] == [{**f, "name": f["names"]["en"]} for f in full["fans"]]
    assert [{k: v for k, v in f.items() if k != "names"} for f in rich[0]["fans"]] == lean[0]["fans"]
    results = [(r["fans"], q["fans"]) for r, q in zip(lean[1]["results"], rich[1]["results"])]
    assert len(results) == 2 and all(r == [{k: v for k, v in f.items() if k != "names"} for f in q] for r, q in results)
    assert rich[1]["results"][0]["fans"][0]["names"]["zh"] == "清七对" and "names" not in lean[1]["results"][0]["fans"][0]
    assert run("score", *hand, "-f", "json").stdout.count("Riichi") == 1
    rows = list(csv.DictReader(io.StringIO(run("score", *hand, "-f", "csv", "--names", "all").stdout)))
    assert json.loads(rows[0]["fans"])[0]["names"]["zh"] == "立直"
    rows = list(csv.DictReader(io.StringIO(run("score", *hand, "-f", "csv").stdout)))
    assert "names" not in json.loads(rows[0]["fans"])[0]
    bad = run("score", *hand, "--names", "some")
    assert bad.exit_code == 2
