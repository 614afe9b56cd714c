"""explain-rule and score --explain: the commands players use to settle arguments."""

import csv
import io
import json
import textwrap

import pytest

from mjtools.output import COLUMNS


def one_line_error(r, words):
    assert r.exit_code == 2, r.output
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    assert "Traceback" not in r.stderr
    for w in words:
        assert w in lines[0], lines[0]
    return lines[0]


@pytest.fixture
def house(tmp_path):
    p = tmp_path / "house.yaml"
    p.write_text(textwrap.dedent("""
        id: house
        extends: riichi
        status: house_default
        names: {en: Our table, zh_hans: 我们的规则}
        options:
          open_tanyao: {default: false}
        special_rules:
          tea_break:
            names: {en: Tea break, zh_hans: 喝茶}
            text: {en: East makes the tea after a dealer repeat., zh_hans: 连庄后东家泡茶。}
        examples:
          pinfu_stays:
            hand: '234567m234p5688s+7s'
            args: {seat: S}
            expect: {points: 2000}
            source: derived
            illustrates: [tea_break]
          claims_too_much:
            hand: '234567m234p5688s+7s'
            args: {seat: S}
            expect: {points: 99999}
            source: derived
            illustrates: [tea_break]
    """), encoding="utf-8")
    return p


def test_help(run):
    r = run("explain-rule", "--help")
    assert r.exit_code == 0
    for word in ("--list", "--search", "--lang", "ID RULE", "MJTOOLS_LANG", "简体", "live"):
        assert word in r.output, word
    assert "explain-rule" in run("--help").output


def test_list_table_json_csv(run):
    table = run("explain-rule", "--list").stdout
    assert "riichi" in table and "日本立直麻将" in table and "Japanese Riichi Mahjong" in table
    assert run("explain-rule").stdout == table  # no ID: the list
    rows = json.loads(run("explain-rule", "--list", "-f", "json").stdout)
    riichi = next(r for r in rows if r["id"] == "riichi")
    assert riichi["players"] == 4 and riichi["tiles"] == 136 and riichi["hand"] == 13
    assert riichi["model"] == "riichi" and riichi["zh"] == "日本立直麻将" and riichi["wildcards"] == "none"
    out = list(csv.reader(io.StringIO(run("explain-rule", "--list", "-f", "csv").stdout)))
    assert tuple(out[0]) == COLUMNS["explain-rule-list"]
    assert any(row[0] == "riichi" for row in out[1:])
    assert "中文名" in run("explain-rule", "--list", "--lang", "zh").stdout


def test_overview(run):
    r = run("explain-rule", "riichi")
    assert r.exit_code == 0
    out = r.stdout
    for heading in ("Tiles", "Calls", "How to win", "Scoring", "Payment", "Special rules", "Options (current values)", "Where the rules come from"):
        assert heading in out, heading
    assert "136 tiles" in out and "at least one yaku" in out and "regional standard" in out
    assert "Open tanyao (kuitan) (open_tanyao) = true (default true)" in out
    assert "Double ron (multiple_ron)" in out  # a special rule with its text
    rec = json.loads(run("explain-rule", "riichi", "-o", "kiriage=true", "-f", "json").stdout)
    assert {"rules", "rule", "title", "text", "examples"} <= set(rec)
    assert rec["rules"] == "riichi" and rec["rule"] is None
    assert "Kiriage mangan (kiriage) = true (default false)" in rec["text"]
    assert [s["id"] for s in rec["sections"]][:3] == ["about", "inherits", "tiles"]


def test_overview_house_default_and_inheritance(run, house):
    out = run("explain-rule", str(house)).stdout
    assert "house default, not a regional standard" in out
    assert "house inherits from riichi" in out
    assert "house sets: examples.claims_too_much, examples.pinfu_stays, id, names, options.open_tanyao, special_rules.tea_break, status" in out
    assert "also called" not in out  # riichi's aliases name riichi, not the house file
    assert "everything else comes from riichi" in out
    assert "Open tanyao (kuitan) (open_tanyao) = false (default false)" in out
    zh = run("explain-rule", str(house), "--lang", "zh").stdout
    assert "并非地方标准" in zh and "继承自 riichi" in zh


@pytest.mark.parametrize("query, rid", [
    ("pinfu", "pinfu"),           # id
    ("平和", "pinfu"),             # 简体 name
    ("斷幺九", "all_simples"),      # 繁體 spelling of a 简体 name
    ("門前清自摸和", "concealed_self_draw"),  # Japanese name
    ("all simples", "all_simples"),  # English name, any spacing
    ("tanyao", "all_simples"),     # a part of the English name
    ("menzen", "concealed_hand"),  # alias
    ("kuit", "open_tanyao"),       # unique prefix
    ("四杠散了", "abort_four_kongs"),  # glossary term -> a setting
])
def test_find_rule(run, query, rid):
    r = run("explain-rule", "riichi", query, "-f", "json")
    assert r.exit_code == 0, r.stderr
    assert json.loads(r.stdout)["rule"] == rid


def test_rules_option_names_the_variant(run):
    by_arg = run("explain-rule", "riichi", "pinfu", "-f", "json").stdout
    assert run("explain-rule", "-r", "riichi", "pinfu", "-f", "json").stdout == by_arg
    assert json.loads(run("explain-rule", "--rules", "jp", "-f", "json").stdout)["rules"] == "riichi"
    one_line_error(run("explain-rule", "-r", "riichi", "riichi", "pinfu"), ["--rules"])


def test_rule_detail_fan(run):
    rec = json.loads(run("explain-rule", "riichi", "full_flush", "-f", "json").stdout)
    assert rec["kind"] == "fan" and rec["text"] == "One suit only."
    assert rec["excludes"] == ["half_flush"] and rec["excluded_by"] == []
    half = json.loads(run("explain-rule", "riichi", "half_flush", "-f", "json").stdout)
    assert half["excluded_by"] == ["full_flush"]
    assert "Full flush (chinitsu) (full_flush)" in run("explain-rule", "riichi", "half_flush").stdout


def test_rule_detail_option_values(run):
    rec = json.loads(run("explain-rule", "riichi", "open_tanyao", "-f", "json").stdout)
    assert rec["kind"] == "option" and rec["value"] is True and rec["default"] is True
    sets = {v["value"]: v["sets"] for v in rec["values"]}
    assert sets == {True: {"fans.all_simples.value.open": 1}, False: {"fans.all_simples.value.open": None}}
    off = json.loads(run("explain-rule", "riichi", "open_tanyao", "-o", "open_tanyao=false", "-f", "json").stdout)
    assert off["value"] is False and [v["current"] for v in off["values"]] == [False, True]
    kazoe = json.loads(run("explain-rule", "riichi", "kazoe", "-f", "json").stdout)
    assert [v["value"] for v in kazoe["values"]] == ["yakuman", "sanbaiman", "multiple"]
    assert kazoe["values"][1]["text"].startswith("13 han or more stays")


def test_examples_are_computed_live(run, riichi):
    from mjtools.rules.hand_options import build_context, normalize
    from mjtools.scoring import score
    from mjtools.tiles.notation import parse_hand

    rec = json.loads(run("explain-rule", "riichi", "dealer_payment", "-f", "json").stdout)
    assert [e["id"] for e in rec["examples"]] == ["dealer_ron", "non_dealer_tsumo"]
    for ex in rec["examples"]:
        direct = score(parse_hand(ex["hand"]), riichi, build_context(normalize(ex["args"], "score"), riichi), ex["hand"])
        assert ex["result"]["points"] == direct["points"] and ex["result"]["payments"] == direct["payments"]
        assert ex["holds"] is True and ex["problems"] == []
    table = run("explain-rule", "riichi", "dealer_payment").stdout
    assert "2900 points" in table and "(holds)" in table


def test_every_variant_rule_and_term_explains(run):
    """Every variant (in en, zh, ja), every rule of it (examples run) and every term explain
    without a crash."""
    from click.testing import CliRunner

    from mjtools.cli import cli
    from mjtools.explain.entries import entries
    from mjtools.explain.terms import all_terms
    from mjtools.rules import available

    runner = CliRunner()
    for t in all_terms():
        r = runner.invoke(cli, ["explain-rule", "--search", t.zh[0], "--lang", "ja"])
        assert r.exit_code == 0 and r.exception is None, (t.id, r.exception)
    for rs in available(include_abstract=True):
        for lang in ("en", "zh", "ja"):
            r = runner.invoke(cli, ["explain-rule", rs.id, "--lang", lang])
            assert r.exit_code == 0 and r.exception is None, (rs.id, lang, r.exception)
        for e in entries(rs):
            r = runner.invoke(cli, ["explain-rule", rs.id, e.path])
            assert r.exit_code in (0, 1), (rs.id, e.path, r.output[-300:], r.exception)
            assert r.exception is None or isinstance(r.exception, SystemExit), (rs.id, e.path, r.exception)


def test_example_that_stops_holding_is_reported(run, house):
    r = run("explain-rule", str(house), "tea_break", "-f", "json")
    assert r.exit_code == 1
    by_id = {e["id"]: e for e in json.loads(r.stdout)["examples"]}
    assert by_id["pinfu_stays"]["holds"] is True
    assert by_id["claims_too_much"]["holds"] is False
    assert "points: expected 99999, got 2000" in by_id["claims_too_much"]["problems"]
    assert "does NOT hold" in run("explain-rule", str(house), "tea_break").stdout


def test_lang_zh_and_env(run):
    zh = run("explain-rule", "riichi", "pinfu", "--lang", "zh").stdout
    assert "平和 (pinfu) - 番种" in zh and "门前清、四顺子" in zh and "实例" in zh
    assert run("explain-rule", "riichi", "pinfu", env={"MJTOOLS_LANG": "zh"}).stdout == zh
    ja = run("explain-rule", "riichi", "--lang", "ja").stdout
    assert "和了の条件" in ja
    one_line_error(run("explain-rule", "riichi", "--lang", "fr"), ["--lang"])


def test_unknown_rule_closest_matches_exit_2(run):
    line = one_line_error(run("explain-rule", "riichi", "pinfo"), ["riichi has no rule", "'pinfo'", "closest: pinfu"])
    assert "explain-rule riichi" in line
    one_line_error(run("explain-rule", "riichi", "p"), ["several rules", "pinfu"])
    # An id used by a fan and a situation: the error names both paths, and a path picks one.
    one_line_error(run("explain-rule", "riichi", "paarenchan"), ["fans.paarenchan", "situations.paarenchan"])
    assert json.loads(run("explain-rule", "riichi", "situations.paarenchan", "-f", "json").stdout)["kind"] == "situation"
    one_line_error(run("explain-rule", "nosuch"), ["unknown variant"])
    one_line_error(run("explain-rule", "riichi", "pinfu", "-o", "nope=1"), ["no option"])
    one_line_error(run("explain-rule", "--search", "zzzqqq"), ["no rule term or rule named"])
    one_line_error(run("explain-rule", "riichi", "pinfu", "--search", "x"), ["--search"])
    one_line_error(run("explain-rule", "riichi", "--list"), ["--list"])


def test_search_across_variants(run):
    rec = json.loads(run("explain-rule", "--search", "杠上開花", "-f", "json").stdout)
    term = rec["terms"][0]
    assert term["id"] == "kong_bloom"
    assert {"variant": "riichi", "path": "fans.kong_bloom"}.items() <= next(f for f in term["found"] if f["variant"] == "riichi").items()
    rows = list(csv.reader(io.StringIO(run("explain-rule", "--search", "kong bloom", "-f", "csv").stdout)))
    assert tuple(rows[0]) == COLUMNS["explain-rule-search"] and "riichi" in [r[1] for r in rows[1:]]
    # Not a glossary term, but a rule name in a variant:
    rec = json.loads(run("explain-rule", "--search", "ippatsu", "-f", "json").stdout)
    assert rec["terms"] == [] and rec["rules"][0]["id"] == "ippatsu"


def test_score_explain_json(run):
    rec = json.loads(run("score", "223344m556677p5s+5s", "--seat", "S", "--explain", "-f", "json").stdout)
    ex = rec["explain"]
    assert ex["decomposition"] == ["234m", "234m", "567p", "567p", "55s"]
    assert [(r["form"], r["chosen"], r["lost_on"], r["points"]) for r in ex["readings"]] == [("standard", True, None, 8000), ("seven_pairs", False, "points", 3200)]
    assert ex["readings"][1]["fans"] == {"all_simples": 1, "seven_pairs": 2}
    awarded = {a["id"]: a for a in ex["awarded"]}
    assert awarded["twice_pure_double_chow"]["rule"].startswith("Two different pairs of identical chows in a concealed hand")
    assert awarded["twice_pure_double_chow"]["value"] == 3
    assert ex["excluded"] == [{"id": "pure_double_chow", "name": "Pure double chow (iipeikou)", "by": "twice_pure_double_chow", "by_name": "Twice pure double chow (ryanpeikou)"}]
    steps = "\n".join(ex["steps"])
    for fragment in ("2 readings", "then real yakuman over counted", "not chosen: seven pairs", "3200 points < 8000", "excluded by", "fu: 20 base + 2 pair wait + 10 concealed ron = 32 -> 40", "E pays 4 × 2000 = 8000", "points received: E 8000 = 8000"):
        assert fragment in steps, fragment


def test_score_explain_languages_and_table(run):
    zh = json.loads(run("score", "234567m234p5688s+7s", "--seat", "S", "--explain", "--lang", "zh", "-f", "json").stdout)["explain"]
    assert zh["awarded"][0]["rule"] == "门前清、四顺子、无符雀头、两面听。"
    assert "符：底符20 + 门前荣和10 = 30 -> 30" in zh["steps"]
    en = json.loads(run("score", "234567m234p5688s+7s", "--seat", "S", "--explain", "-f", "json").stdout)
    assert en["fu_breakdown"] == [{"reason": "base", "fu": 20}, {"reason": "concealed ron", "fu": 10}]  # contract fields stay English
    table = run("score", "234567m234p5688s+7s", "--seat", "S", "--explain", "--honba", "1", "--lang", "ja").stdout
    assert "計算の過程" in table and "切り上げて 2000、1本場で +300 = 2300" in table
    bad = run("score", "(123m)456m789p11z23s+4s", "--seat", "S", "--explain").stdout
    assert "not a legal win" in bad and "no yaku" in bad and "steps:" in bad


def test_catalogue_complete():
    import re

    from mjtools.messages import catalogue

    for key, entry in catalogue().items():
        assert set(entry) == {"en", "zh", "ja"}, key
        fields = {lang: set(re.findall(r"{(\w+)}", t)) for lang, t in entry.items()}
        assert fields["zh"] <= fields["en"] and fields["ja"] <= fields["en"], key


def test_simulate_examples(run, tmp_path, monkeypatch):
    """A simulate example runs through mjtools.sim.examples (stubbed here: that engine is built
    elsewhere) and holds when the replayed hand shows the event; without the engine it is
    reported as not run, never as holding."""
    import sys
    import types

    from mjtools.batch.examples import mismatches

    assert mismatches({"events": ["deal", "kong_bloom"]}, {"event": "kong_bloom"}) == []
    assert mismatches({"events": ["deal"]}, {"event": ["kong_bloom"]})
    assert mismatches({"event": "win"}, {"event": "win"}) == []  # a table case's event
    p = tmp_path / "sim.yaml"
    p.write_text(textwrap.dedent("""
        id: sim
        extends: riichi
        names: {en: Sim, zh_hans: 模拟}
        examples:
          replay:
            command: simulate
            args: {hands: 1, seed: 7, index: 0}
            expect: {event: kong_bloom}
            source: derived
            illustrates: [kong_bloom]
    """), encoding="utf-8")
    if "mjtools.sim.examples" not in sys.modules:
        try:
            import mjtools.sim.examples  # noqa: F401
        except ModuleNotFoundError:
            rec = json.loads(run("explain-rule", str(p), "kong_bloom", "-f", "json").stdout)
            replay = next(e for e in rec["examples"] if e["id"] == "replay")
            assert replay["holds"] is None and "not installed" in replay["problems"][0]
    stub = types.ModuleType("mjtools.sim.examples")
    stub.run_simulate_example = lambda rules, ex: {"rules": rules.id, "seed": ex["args"]["seed"], "events": ["deal", "kong_bloom"]}
    monkeypatch.setitem(sys.modules, "mjtools.sim.examples", stub)
    if "mjtools.sim" not in sys.modules:
        monkeypatch.setitem(sys.modules, "mjtools.sim", types.ModuleType("mjtools.sim"))
    rec = json.loads(run("explain-rule", str(p), "kong_bloom", "-f", "json").stdout)
    replay = next(e for e in rec["examples"] if e["id"] == "replay")
    assert replay["holds"] is True and replay["result"]["events"] == ["deal", "kong_bloom"]
    assert "the replayed hand shows: deal, kong_bloom" in run("explain-rule", str(p), "kong_bloom").stdout


def test_score_explain_keeps_yaml_off_the_single_hand_path():
    import os
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from click.testing import CliRunner\n"
        "from mjtools.cli import cli\n"
        "r = CliRunner().invoke(cli, ['score', '234567m234p5688s+7s', '--seat', 'S', '--explain', '--lang', 'zh'])\n"
        "assert r.exit_code == 0, r.output\n"
        "print('yaml' in sys.modules)\n"
    )
    env = dict(os.environ)
    subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)  # warms the rules cache
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"


def test_every_message_key_used_in_code_exists():
    """A key that is missing from data/messages.json would fail at run time; find them all here."""
    import re
    from pathlib import Path

    from mjtools.messages import catalogue

    prefixes = {k.split(".")[0] for k in catalogue()}
    root = Path(__file__).resolve().parent.parent / "mjtools"
    missing = []
    for f in root.rglob("*.py"):
        for line in f.read_text(encoding="utf-8").splitlines():
            if "Msg(" not in line and "text(" not in line and "has(" not in line:
                continue
            for key in re.findall(r'"([a-z_]+\.[a-z_.]+)"', line):
                is_prefix = any(k.startswith(key + ".") for k in catalogue())  # fmt(..., "val.limit")
                if key.split(".")[0] in prefixes and key not in catalogue() and not is_prefix:
                    missing.append(f"{f.name}: {key}")
    assert not missing, missing
