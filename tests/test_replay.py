"""`mjtools replay`: game records read, replayed and checked (mjtools/gamelog/)."""

import gzip
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from shared import shared_dir

from mjtools.cli import cli

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "game.mjlog"


def shared_logs() -> Path | None:
    """shared/tenhou-logs (tests/shared.py finds shared/; absent in the CI clone: tests skip)."""
    base = shared_dir()
    d = None if base is None else base / "tenhou-logs"
    return d if d is not None and d.is_dir() else None


LOGS = shared_logs()
needs_logs = pytest.mark.skipif(LOGS is None, reason="../shared/tenhou-logs is not beside the checkout")


def run(*args, input=None, env=None):
    return CliRunner().invoke(cli, ["replay", *args], input=input, env=env)


def jsonl(out: str) -> list[dict]:
    return [json.loads(x) for x in out.splitlines() if x.strip()]


@needs_logs
def test_every_real_win_and_payment_is_reproduced():
    files = sorted(str(p) for p in LOGS.glob("*.mjlog"))
    assert len(files) == 85
    r = run(*files, "-f", "jsonl")
    assert r.exit_code == 0, r.output[-2000:]
    recs = jsonl(r.output)
    wins = [w for x in recs if x.get("recorded") for w in x["recorded"].get("wins", [])]
    assert len(wins) == 333
    assert all(x["match"] for x in recs)
    assert any(len(x["recorded"].get("wins", [])) == 2 for x in recs if x.get("recorded"))  # double ron
    assert any(w.get("pao") for x in recs if x.get("recorded") for w in x["recorded"].get("wins", []))  # pao
    pao = [w for x in recs if x.get("computed") for w in x["computed"].get("wins", []) if w.get("pao")]
    assert pao and pao[0]["deltas"].count(0) == 2


@needs_logs
@pytest.mark.parametrize("fmt", ["tenhou6", "mjai"])
def test_real_games_through_the_writers(fmt):
    """mjlog -> Game -> tenhou6 / mjai text -> read back (format told by the content) -> replay."""
    from mjtools.gamelog.check import check_game
    from mjtools.gamelog.mjai import write_mjai
    from mjtools.gamelog.mjlog import read_mjlog
    from mjtools.gamelog.read import parse
    from mjtools.gamelog.replay import rules_for
    from mjtools.gamelog.tenhou6 import write_tenhou6

    write = write_tenhou6 if fmt == "tenhou6" else write_mjai
    checked = 0
    for f in sorted(LOGS.glob("*.mjlog"))[::3]:
        g = read_mjlog(f.read_text(encoding="utf-8"), f.name)
        g.rounds = [r for r in g.rounds if r.results]
        back = parse(write(g), f.name)
        assert back.format == fmt and back.error is None
        for rec in check_game(back, rules_for(back, None, {}, None)):
            assert rec.get("match"), rec
            checked += 1
    assert checked > 100


def test_example_record():
    r = run(str(EXAMPLE))
    assert r.exit_code == 0, r.output
    assert "heavenly_hand" in r.output and r.output.count(" ok") == 2


def test_gzip_and_stdin_give_the_same_records(tmp_path):
    data = EXAMPLE.read_bytes()
    gz = tmp_path / "game.mjlog.gz"
    gz.write_bytes(gzip.compress(data))
    a = jsonl(run(str(EXAMPLE), "-f", "jsonl").output)
    b = jsonl(run(str(gz), "-f", "jsonl").output)
    c = jsonl(run("-f", "jsonl", input=data).output)
    strip = lambda recs: [{k: v for k, v in x.items() if k != "game"} for x in recs]  # noqa: E731
    assert strip(a) == strip(b) == strip(c) and len(a) == 2


def _broken(tmp_path, text: str) -> tuple[int, list[dict]]:
    f = tmp_path / "broken.mjlog"
    f.write_text(text, encoding="utf-8")
    r = run(str(f), "-f", "jsonl")
    return r.exit_code, jsonl(r.output)


def _second_hand(text: str, old: str, new: str) -> str:
    i = text.index("<INIT", text.index("<INIT") + 1)
    return text[:i] + text[i:].replace(old, new, 1)


@pytest.mark.parametrize(
    "change, error",
    [
        (lambda t: t[: t.index("<U84/>") + 3], "truncated"),
        (lambda t: _second_hand(t, "<U84/>", "<U84/><XYZ/>"), "unknown tag <XYZ>"),
        (lambda t: _second_hand(t, "<U84/>", "<U999/>"), "tile id 999 is not a tile"),
        (lambda t: _second_hand(t, "<U84/>", '<U84/><N who="1" m="1024"/>'), "does not hold"),
    ],
    ids=["truncated", "unknown-tag", "tile-id", "meld-not-held"],
)
def test_malformed_record_keeps_the_hands_before(tmp_path, change, error):
    code, recs = _broken(tmp_path, change(EXAMPLE.read_text(encoding="utf-8")))
    assert code == 2
    assert recs[0]["match"] is True and recs[0]["round"] == "E1-0"
    assert set(recs[-1]) == {"game", "hand", "error"} and error in recs[-1]["error"] and recs[-1]["hand"] == 1


def test_a_wrong_payment_is_a_mismatch_naming_hand_and_field(tmp_path):
    text = EXAMPLE.read_text(encoding="utf-8").replace('ten="30,1000,0"', 'ten="30,2000,0"')
    f = tmp_path / "wrong.mjlog"
    f.write_text(text, encoding="utf-8")
    r = run(str(f))
    assert r.exit_code == 1
    assert "E1-0" in r.output and "wins[0].points: recorded 2000, computed 1000" in r.output


def test_rules_precedence(tmp_path):
    """--rules > the record's flags > $MJTOOLS_RULES; mjai says nothing: tenhou."""
    from mjtools.gamelog.mjlog import read_mjlog
    from mjtools.gamelog.replay import rules_for

    g = read_mjlog(EXAMPLE.read_text(encoding="utf-8"), "x")
    assert rules_for(g, None, {}, "riichi").id == "tenhou"
    assert rules_for(g, "riichi", {}, "tenhou").id == "riichi"
    g.rules = None
    assert rules_for(g, None, {}, "riichi").id == "riichi"
    assert rules_for(g, None, {}, None).id == "tenhou"
    r = run(str(EXAMPLE), "-r", "riichi-sanma")
    assert r.exit_code == 2 and "3" in r.output


def test_not_a_record():
    r = run("-", input=b"hello")
    assert r.exit_code == 2 and "not a game record" in r.output


def test_review_summary():
    r = run(str(EXAMPLE), "--review", "0", "-f", "jsonl")
    assert r.exit_code == 0
    summary = jsonl(r.output)[-1]["review"]
    assert summary["player"] == 0 and summary["decisions"] == 1
    assert run(str(EXAMPLE), "--review", "9").exit_code == 2
