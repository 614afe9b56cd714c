"""How a rule file's `wildcards:` section reaches the analysis: fixed and indicated wildcards,
successor cycles, two tiers, stand-ins, the turned copy kept out, wildcards that may not be
discarded, and the command line around them."""

from __future__ import annotations

import json
import textwrap

import pytest

from mjtools.analysis.wildcards import copies_in_play, stand_ins, successor, wild_kinds
from mjtools.batch.records import shanten_record, wait_record
from mjtools.errors import MjError
from mjtools.rules import load_path
from mjtools.tiles.context import WinContext
from mjtools.tiles.hand import Hand
from mjtools.tiles.kinds import Tile, parse_kind


def k(text: str) -> int:
    return parse_kind(text)


@pytest.mark.parametrize("cycle, turned, nxt", [
    ("dora", "9m", "1m"), ("dora", "4z", "1z"), ("dora", "7z", "5z"), ("dora", "5z", "6z"),
    ("reverse_dragons", "7z", "6z"), ("reverse_dragons", "6z", "5z"), ("reverse_dragons", "5z", "7z"), ("reverse_dragons", "4z", "1z"),
    ("honor_ring", "4z", "7z"), ("honor_ring", "7z", "6z"), ("honor_ring", "5z", "1z"), ("honor_ring", "3s", "4s"),
])
def test_successor_cycles(cycle, turned, nxt):
    assert successor(k(turned), cycle) == k(nxt)


def test_successor_skips_kinds_outside_the_tile_set():
    present = {k("1m"), k("9m")} | set(range(9, 34))
    assert successor(k("1m"), "dora", 1, present) == k("9m")
    assert successor(k("9m"), "dora", 1, present) == k("1m")


def write(tmp_path, name: str, wild: str, extra: str = "") -> object:
    lines = [
        f"id: {name}",
        "extends: riichi",
        f"names: {{en: {name}, zh_hans: {name}}}",
        "win: {forms: [standard, seven_pairs], minimum: null}",
        "wildcards:",
        *("  " + line for line in textwrap.dedent(wild).strip().splitlines()),
        textwrap.dedent(extra),
    ]
    p = tmp_path / f"{name}.yaml"
    p.write_text("\n".join(lines), encoding="utf-8")
    return load_path(p)


def ctx(*indicators: str) -> WinContext:
    return WinContext(indicators={"wild": tuple(Tile.parse(t) for t in indicators)})


def test_two_tiers_and_fixed(tmp_path):
    rs = write(tmp_path, "jing", "indicator: {tiers: [0, 1], cycle: dora}")
    assert wild_kinds(rs, ctx("9s")) == {k("9s"), k("1s")}
    assert wild_kinds(rs, ctx("7z")) == {k("7z"), k("5z")}
    rs = write(tmp_path, "fixed", "fixed: [5z]")
    assert wild_kinds(rs, WinContext()) == {k("5z")}
    assert wild_kinds(rs, WinContext(wild=(k("1m"),))) == {k("5z"), k("1m")}


def test_stand_in_plays_the_wildcard_kind(tmp_path):
    rs = write(tmp_path, "caishen", "indicator: {tiers: [1]}\nstand_in: {5z: natural}")
    wild = wild_kinds(rs, ctx("3p"))
    assert stand_ins(rs, wild) == ((k("5z"), k("4p")),)
    # 白板 itself wild: it stands in for nothing
    assert stand_ins(rs, frozenset({k("5z")})) == ()
    # 4p are wildcards and 白板 a natural 4p: 2p + 白板 waits on 3p (and on a wildcard)
    rec = wait_record(Hand.parse("123m456m789s11s2p5z"), rs, ctx("3p"))
    assert rec["waits"] == ["3p", "4p"]
    # three 白板 are a pung of 4p, not of whites
    rec = shanten_record(Hand.parse("123m456m789m11s555z"), rs, ctx("3p"))
    assert rec["shanten"] == -1


def test_turned_copy_stays_on_the_table(tmp_path):
    rs = write(tmp_path, "hun", "indicator: {tiers: [0, 1], turned_copy_excluded: true}", "indicators: null\n")
    c = ctx("5m")
    assert copies_in_play(rs, c)[k("5m")] == 3 and copies_in_play(rs, c)[k("6m")] == 4
    with pytest.raises(MjError, match="3"):
        shanten_record(Hand.parse("5555m123p456p789s"), rs, c)
    rec = shanten_record(Hand.parse("555m123p456p789s1z"), rs, c)
    assert rec["shanten"] == 0  # three wildcards make a set; East waits for its pair
    rec = wait_record(Hand.parse("555m123p456p789s1z"), rs, c)
    assert "5m" not in rec["waits"] and "6m" in rec["waits"] and "1z" in rec["waits"]  # the last 5m is the turned one


def test_score_keeps_the_turned_copy_out_too(tmp_path):
    """score checks copies as shanten does: all four of the turned kind cannot be held."""
    from mjtools.scoring import score

    rs = write(tmp_path, "hun2", "indicator: {tiers: [0, 1], turned_copy_excluded: true}", "indicators: null\n")
    c = WinContext(tsumo=True, indicators={"wild": (Tile.parse("5m"),)})
    with pytest.raises(MjError, match="3"):
        score(Hand.parse("5555m123p456p789s+1z"), rs, c)
    assert score(Hand.parse("555m123p456p789s1z+1z"), rs, c)["valid"]


def test_wildcards_that_may_not_be_discarded(tmp_path):
    rs = write(tmp_path, "keep", "fixed: [7z]\ndiscardable: false")
    rec = shanten_record(Hand.parse("123m456p789s155z7z+9m"), rs, WinContext())
    assert rec["discards"] and all(row["tile"] != "7z" for row in rec["discards"])
    rs2 = write(tmp_path, "toss", "fixed: [7z]")
    rec2 = shanten_record(Hand.parse("123m456p789s155z7z+9m"), rs2, WinContext())
    assert any(row["tile"] == "7z" for row in rec2["discards"])
    waits = wait_record(Hand.parse("123m456p789s155z7z+9m"), rs, WinContext())
    assert all(d["discard"] != "7z" for d in waits["discards"])


def test_command_line(tmp_path, run):
    write(tmp_path, "cli", "indicator: {tiers: [1], cycle: reverse_dragons}")
    f = str(tmp_path / "cli.yaml")
    r = run("shanten", "123m456p789s11z5z6z", "-r", f, "--indicator", "wild=7z", "-f", "json")
    assert r.exit_code == 0, r.stderr
    rec = json.loads(r.stdout)
    assert rec["shanten"] == 0  # 6z is the wildcard (red turned: green): 5z + wild wait widely
    r = run("wait", "123m456p789s11z5z6z", "-r", f, "--indicator", "wild=7z", "-f", "json")
    assert "5z" in json.loads(r.stdout)["waits"]
    r = run("shanten", "123m456p789s11z5z6z", "-r", f, "--indicator", "wild=8z")
    assert r.exit_code == 2 and len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr


WUHAN_OPENED = "123m456p55s78s(999s@E)+6s"  # a small win, opened with a pung of 9s


@pytest.mark.parametrize("command, hand, words", [
    ("score", "123m456p55s78s(777z@E)+6s", "(777z@E) cannot exist in wuhan-hongzhong: a 7z put out is a hongzhong_kong, which nobody may claim"),
    ("score", "123m456p55s78s(7777z@E)+6s", "(7777z@E) cannot exist"),
    ("score", "123m456p55s78s(7777z@E/added)+6s", "(7777z@E/added) cannot exist"),
    ("score", "123m55s78s[7777z](999s@E)+6s", "[7777z] cannot exist in wuhan-hongzhong: a 7z is put out as a hongzhong_kong, never kept in a set"),
    ("wait", "123m456p55s78s(777z@E)", "(777z@E) cannot exist"),
    ("shanten", "123m456p55s78s(777z@E)", "(777z@E) cannot exist"),
    ("score", "123m456p55s78s(333s@E)+6s", "(333s@E) cannot exist in wuhan-hongzhong: a 3s put out is a laizi_kong, which nobody may claim"),
])
def test_wuhan_red_dragon_melds_cannot_exist(run, command, hand, words):
    """play.discard_situations: a 红中 put out is a 红中杠 nobody may claim (claimable false),
    so no meld called from another player holds one; and as 红中 is never kept (also in
    win.no_win_holding) a concealed 红中 kong cannot exist either. The 赖子 (3s, turned 2s)
    put out is a 赖子杠, so a called pung of it cannot exist. One line, exit 2."""
    wild = "wild=2s" if "333s" in hand else "wild=3z"
    r = run(command, hand, "-r", "wuhan-hongzhong", "--indicator", wild)
    assert r.exit_code == 2, (r.stdout, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0] and "Traceback" not in r.stderr, r.stderr


def test_wuhan_hand_without_the_red_dragon_meld_still_scores(run):
    r = run("score", WUHAN_OPENED, "-r", "wuhan-hongzhong", "--seat", "S", "--from", "W", "--indicator", "wild=3z", "-f", "json")
    assert r.exit_code == 0, r.stderr
    assert json.loads(r.stdout)["valid"] and json.loads(r.stdout)["points"] == 4
    # The same pung of 3s is an ordinary meld when 3s is not this hand's 赖子.
    r = run("score", "123m456p55s78s(333s@E)+6s", "-r", "wuhan-hongzhong", "--seat", "S", "--from", "W", "--indicator", "wild=3z", "-f", "json")
    assert r.exit_code == 0 and json.loads(r.stdout)["valid"], r.stderr


def test_red_dragon_melds_elsewhere(tmp_path, run):
    """Rulesets without a non-claimable discard_situations entry are unaffected: riichi has a
    dragon pung; a Wuhan whose 红中 may be claimed accepts the pung; one whose 红中 may stay in
    the hand (no win.no_win_holding) accepts a concealed 红中 kong but not a called pung."""
    from mjtools.rules import load
    from mjtools.rules.counted import counted_entries
    from mjtools.scoring import score

    assert counted_entries(load("riichi")) == () and counted_entries(load("zuanpai")) == ()
    r = run("score", "123m456p55s78s(777z@S)+6s", "-r", "riichi")
    assert r.exit_code == 0, r.stderr
    claim = tmp_path / "claim.yaml"
    claim.write_text("id: claim\nextends: wuhan-hongzhong\nnames: {en: C, zh_hans: C}\nplay:\n  discard_situations: [{tiles: [7z], situation: hongzhong_kong, claimable: true}]\n", encoding="utf-8")
    keep = tmp_path / "keep.yaml"
    keep.write_text("id: keep\nextends: wuhan-hongzhong\nnames: {en: K, zh_hans: K}\nwin: {no_win_holding: []}\n", encoding="utf-8")
    c = WinContext(seat="S", discarder="W", indicators={"wild": (Tile.parse("3z"),)})
    assert score(Hand.parse("123m456p55s78s(777z@E)+6s"), load_path(claim), c)["valid"]
    assert score(Hand.parse("123m55s78s[7777z](999s@E)+6s"), load_path(keep), c)["valid"]
    with pytest.raises(MjError, match="nobody may claim"):
        score(Hand.parse("123m456p55s78s(777z@E)+6s"), load_path(keep), c)
