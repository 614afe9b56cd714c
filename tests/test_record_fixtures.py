"""The hand-written records of tests/fixtures/records (one per format) replay and cover the
situations the issue lists: double ron, pao, abortive draws, ippatsu broken by a call, chankan,
rinshan, haitei and houtei, kan dora timing, sanma kita, red fives."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from mjtools.cli import cli

DIR = Path(__file__).resolve().parent / "fixtures" / "records"


def replay(name: str) -> list[dict]:
    r = CliRunner().invoke(cli, ["replay", str(DIR / name), "-f", "jsonl"])
    assert r.exit_code == 0, r.output
    recs = [json.loads(x) for x in r.output.splitlines()]
    assert recs and all(x["match"] for x in recs)
    return recs


def _wins(recs):
    return [w for x in recs for w in (x["computed"] or {}).get("wins", [])]


def test_tenhou6_scenarios():
    recs = replay("scenarios.tenhou6.json")
    events = [x["event"] for x in recs]
    assert events[:2] == ["abort_four_winds", "abort_nine_terminals"]
    assert len(recs[2]["computed"]["wins"]) == 2  # double ron
    yaku = [w["yaku"] for w in _wins(recs)]
    assert any("red_five" in y for y in yaku)
    pao = recs[3]["computed"]["wins"][0]
    assert pao["pao"] == "N" and pao["deltas"] == [0, 32000, 0, -32000]
    assert "robbing_kong" in recs[4]["computed"]["wins"][0]["yaku"]
    rinshan = recs[5]["computed"]["wins"][0]["yaku"]
    assert rinshan["kong_bloom"] == 1 and rinshan["dora"] == 1  # the kong's indicator, turned at once
    ippatsu = recs[6]["computed"]["wins"][0]["yaku"]
    assert "riichi" in ippatsu and "ippatsu" not in ippatsu  # South's pon broke it
    assert "last_tile_draw" in recs[7]["computed"]["wins"][0]["yaku"]
    assert "last_discard_win" in recs[8]["computed"]["wins"][0]["yaku"]


def test_mjai_sanma_kita():
    (rec,) = replay("sanma-kita.mjai.jsonl")
    w = rec["computed"]["wins"][0]
    assert w["yaku"]["kita"] == 1 and w["yaku"]["red_five"] == 1 and w["deltas"] == [12000, -6000, -6000]


def test_mjai_kan_dora_after_the_discard():
    (rec,) = replay("kan-dora.mjai.jsonl")
    assert rec["computed"]["wins"][0]["yaku"]["dora"] == 1


def test_mjai_kan_dora_counts(tmp_path):
    """The same record without the kong's indicator: the ron has one han less, a mismatch."""
    text = [x for x in (DIR / "kan-dora.mjai.jsonl").read_text().splitlines() if '"type":"dora"' not in x]
    f = tmp_path / "no-kan-dora.mjai.jsonl"
    f.write_text("\n".join(text) + "\n")
    r = CliRunner().invoke(cli, ["replay", str(f)])
    assert r.exit_code == 1 and "wins[0].han: recorded 4, computed 3" in r.output


def test_mjai_event_after_the_result_is_malformed(tmp_path):
    text = (DIR / "kan-dora.mjai.jsonl").read_text().splitlines()
    text.insert(len(text) - 2, '{"type":"dahai","actor":2,"pai":"C","tsumogiri":false}')
    f = tmp_path / "late.mjai.jsonl"
    f.write_text("\n".join(text) + "\n")
    r = CliRunner().invoke(cli, ["replay", str(f), "-f", "jsonl"])
    assert r.exit_code == 2 and "after the hand's result" in r.output
    (rec,) = [json.loads(x) for x in r.output.splitlines()]
    assert set(rec) == {"game", "hand", "error"} and rec["hand"] == 0


def test_mjlog_aborts_and_no_pao():
    recs = replay("aborts.mjlog")
    assert [x["event"] for x in recs] == ["abort_four_winds", "abort_nine_terminals", "win"]
    w = recs[2]["computed"]["wins"][0]
    assert w["pao"] is None and w["deltas"] == [48600, -16200, -16200, -16200]


@pytest.mark.parametrize("name", ["scenarios.tenhou6.json", "sanma-kita.mjai.jsonl", "kan-dora.mjai.jsonl", "aborts.mjlog"])
def test_fixture_format_is_told_by_content(name):
    from mjtools.gamelog.read import detect

    fmt = detect((DIR / name).read_text(encoding="utf-8"))
    assert fmt == {"json": "tenhou6", "jsonl": "mjai", "mjlog": "mjlog"}[name.rsplit(".", 1)[-1]]


def test_a_ron_in_furiten_is_a_mismatch(tmp_path):
    """South lets 8s go by from his own hand (a wait of his 67s): his later ron is furiten."""
    text = (DIR / "kan-dora.mjai.jsonl").read_text()
    text = text.replace('{"type":"tsumo","actor":1,"pai":"9m"}\n{"type":"dahai","actor":1,"pai":"9m","tsumogiri":true}',
                        '{"type":"tsumo","actor":1,"pai":"8s"}\n{"type":"dahai","actor":1,"pai":"8s","tsumogiri":true}')
    f = tmp_path / "furiten.mjai.jsonl"
    f.write_text(text)
    r = CliRunner().invoke(cli, ["replay", str(f)])
    assert r.exit_code == 1 and "a ron in furiten" in r.output
