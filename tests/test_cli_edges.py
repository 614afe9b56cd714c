"""What a new user hits first on the command line: joined hand words, winning tiles shown as
improvements, --tsumo / --ron on wait, help and exit statuses, errors on stderr."""

import json
import random

from gen import ready_hand
from mjtools.tiles.kinds import kinds_str


def _ready_hands(seed: int, n: int) -> list[str]:
    rng = random.Random(seed)
    return [kinds_str(ready_hand(rng)) for _ in range(n)]


def test_joined_words_error_says_joined(run, rng):
    for _ in range(20):
        a, b = (kinds_str(sorted(rng.sample([k for k in range(34) for _ in range(4)], 13))) for _ in range(2))
        for cmd in ("shanten", "wait"):
            r = run(cmd, a, b)
            assert r.exit_code == 2
            err = r.stderr.strip()
            assert len(err.splitlines()) == 1 and "2 words given were joined" in err and "--input" in err, err


def test_joined_words_of_one_hand_still_work(run):
    r = run("shanten", "123m456p", "789s1122z", "-f", "json")
    assert r.exit_code == 0 and json.loads(r.stdout)["hand"] == "123m456p789s1122z"
    # One word: the plain error, no word about joining.
    r = run("shanten", "123m456p789s1122z123m")
    assert r.exit_code == 2 and "joined" not in r.stderr


def test_usage_says_one_hand(run):
    for cmd in ("score", "wait", "shanten"):
        out = run(cmd, "--help").output
        assert "[HAND-PART]..." in out and "--input" in out


def test_improvements_never_list_a_winning_draw(run, rng):
    """A draw that completes the hand as a legal self-draw wins: it is not an improvement."""
    seen = 0
    for hand in _ready_hands(rng.randrange(10**9), 40):
        rec = json.loads(run("wait", hand, "-f", "json").stdout)
        wins = {k for k, w in rec["winning"].items() if w["tsumo"]}
        assert not wins & {i["draw"] for i in rec["improvements"]}, hand
        seen += bool(rec["improvements"])
    assert seen


def test_orphans_wait_improves_on_nothing(run):
    r = run("wait", "19m19p19s1234566z")
    assert "improves on" not in r.stdout
    assert "wins on: 7z" in run("shanten", "19m19p19s1234566z").stdout


def test_tsumo_and_ron_restrict_winning(run, rng):
    for hand in _ready_hands(rng.randrange(10**9), 15):
        both = json.loads(run("wait", hand, "--seat", "S", "-f", "json").stdout)
        for way in ("tsumo", "ron"):
            one = json.loads(run("wait", hand, "--seat", "S", f"--{way}", "-f", "json").stdout)
            assert one["waits"] == both["waits"]
            assert one["winning"] == {k: {way: w[way]} for k, w in both["winning"].items()}


def test_shanten_ignores_win_context(run, rng):
    for hand in _ready_hands(rng.randrange(10**9), 10):
        base = json.loads(run("shanten", hand, "-f", "json").stdout)
        for extra in (["--tsumo"], ["--ron"], ["--seat", "W", "--round", "S"], ["--indicator", "5z"]):
            assert json.loads(run("shanten", hand, *extra, "-f", "json").stdout) == base


# -- yakuman and limit hands counted in their own unit ---------------------------------------


def test_yakuman_fans_in_yakuman(run, rng):
    """Every riichi yakuman scored on generated honour-heavy hands is 1 (or 2) yakuman, never han;
    han stays 13 per yakuman; the table names the multiple and shows no fu."""
    from gen import winning_case

    seen = 0
    honours = list(range(27, 34)) + [0, 8]
    for _ in range(300):
        case = winning_case(rng, kinds=honours)
        if case is None:
            continue
        text, opts = case
        args = [f"--{k}" if v is True else f"--{k}={v}" for k, v in opts.items()]
        rec = json.loads(run("score", text, *args, "-f", "json").stdout)
        yak = [f for f in rec["fans"] if f["unit"] == "yakuman"]
        if not rec["valid"] or not yak:
            continue
        seen += 1
        assert all(f["value"] in (1, 2) for f in yak) and len(yak) == len(rec["fans"])
        times = sum(f["value"] * f["count"] for f in yak)
        assert rec["han"] == 13 * times
        line = run("score", text, *args).stdout.splitlines()
        words = {1: "yakuman", 2: "double yakuman", 3: "triple yakuman"}.get(times, f"{times}x yakuman")
        assert f"  {words}" in line and not any(" fu" in x for x in line)
    assert seen > 10


def test_daisangen_tsuuiisou(run):
    rec = json.loads(run("score", "555666777z11z22z+2z", "--seat", "S", "-f", "json").stdout)
    assert [(f["value"], f["unit"]) for f in rec["fans"]] == [(1, "yakuman"), (1, "yakuman")]
    assert rec["han"] == 26 and rec["fu"] == 60
    out = run("score", "555666777z11z22z+2z", "--seat", "S").stdout
    assert "double yakuman" in out and "26 han" not in out and "60 fu" not in out


def test_chinese_limit_hands_shown_as_a_limit(run):
    """Every limit fan of a shipped doubling variant, from its own worked examples: one limit,
    the counted value in fan_total."""
    from mjtools.rules import available

    seen = 0
    for rs in available():
        limits = {f for f, v in rs.fans.items() if v.get("limit") and v.get("limit") != "yakuman"}
        for ex in rs.examples.values():
            if not limits & set(ex.get("illustrates", ())) or "hand" not in ex:
                continue
            args = [f"--{k.replace('_', '-')}" if v is True else f"--{k.replace('_', '-')}={v}" for k, v in ex.get("args", {}).items()]
            args += [f"-o{k}={v}" for k, v in ex.get("options", {}).items()]
            rec = json.loads(run("score", "-r", rs.id, ex["hand"], *args, "-f", "json").stdout)
            shown = [f for f in rec["fans"] if f["id"] in limits]
            if not rec["valid"] or not shown:
                continue
            seen += 1
            assert all(f["unit"] == "limit" and f["value"] == 1 for f in shown), rec["fans"]
            assert rec["fan_total"] == rs.section("scoring").get("limit_value", rec["fan_total"])
    assert seen >= 9


# -- languages -------------------------------------------------------------------------------

ENGLISH_WORDS = ("points", "paid by", " han", " fu", "total", "dealer", "value", "unit")


def test_fixed_words_translated(run, rng):
    from gen import winning_case

    for rules, lang in (("riichi", "zh"), ("riichi", "ja"), ("guangdong-cantonese", "zh"), ("taiwan-16", "zh")):
        n = 0
        while n < 6:
            case = winning_case(rng, sets=5 if rules == "taiwan-16" else 4)
            if case is None:
                continue
            text, opts = case
            args = [f"--{k}" if v is True else f"--{k}={v}" for k, v in opts.items()]
            out = run("score", "-r", rules, text, *args, "--streak", "1", "--lang", lang, "--explain", "-o" if rules == "guangdong-cantonese" else "--seat", "min_faan=0" if rules == "guangdong-cantonese" else opts["seat"]).stdout
            if "valid" in out or not out:
                continue
            n += 1
            body = [ln for ln in out.splitlines()[1:] if not ln.startswith("      ") and "规则" not in ln and "ルール" not in ln and not ln.startswith("    +")]
            for word in ENGLISH_WORDS:
                assert not any(word in ln for ln in body), (word, out)


def test_japanese_never_shows_chinese_rule_text(run):
    from mjtools.rules import load

    rs = load("guangdong-cantonese")
    r = run("explain-rule", "guangdong-cantonese", "full_flush", "--lang", "ja")
    assert rs.fans["full_flush"]["text"]["en"] in r.stdout
    assert rs.fans["full_flush"]["text"]["zh_hans"] not in r.stdout
    assert r.stderr.count("note:") == 1 and "English" in r.stderr or "英語" in r.stderr


def test_no_note_when_every_text_is_there(run):
    r = run("score", "234567m234p5688s+7s", "--seat", "S", "--lang", "zh")
    assert "note" not in r.stderr


def test_tables_align_by_display_width(run):
    """Columns line up in display width (CJK characters and wide glyphs are two columns wide;
    mjtools/output.py measures it, tests/test_table_layout.py checks it against wcwidth)."""
    import re
    import subprocess
    import sys
    import unicodedata

    def cells(line: str) -> list[str]:
        out = []
        for c in line:
            out.append(c)
            if unicodedata.east_asian_width(c) in "WF":
                out.append("")
        return out

    for args in (["rules", "list"], ["explain-rule", "--list", "--lang", "zh"], ["score", "234567m234p5688s+7s", "--seat", "S", "--lang", "ja", "--unicode"], ["score", "-r", "hk", "111m234m789m555z2z+2z", "--seat", "S", "--from", "N", "--lang", "zh"]):
        out = subprocess.run([sys.executable, "-m", "mjtools", *args], capture_output=True, text=True, encoding="utf-8").stdout.splitlines()
        checked = 0
        for i, line in enumerate(out):
            if not (re.fullmatch(r"[ -]+", line) and "--" in line):
                continue
            gaps = [m.start() for m in re.finditer(r"(?<=-) (?= *-)", line)]
            rows = [out[i - 1]] + [r for r in out[i + 1 :] if r.strip()][:40]
            for r in rows:
                if r.startswith("  ") and not r[:3].strip() == "" and len(r) < 60:
                    break
                c = cells(r)
                for g in gaps:
                    assert g >= len(c) or c[g] == " ", (args, r)
                    checked += 1
        assert checked, args


# -- environment, help, completion, errors --------------------------------------------------


def test_bad_environment_named(run):
    r = run("score", "234567m234p5688s+7s", env={"MJTOOLS_LANG": "xx"})
    assert r.exit_code == 2 and "MJTOOLS_LANG" in r.stderr and "'--lang'" not in r.stderr
    r = run("explain-rule", "riichi", env={"MJTOOLS_LANG": "de"})
    assert r.exit_code == 2 and "MJTOOLS_LANG" in r.stderr
    r = run("wait", "123m456p789s1122z", env={"MJTOOLS_RULES": "nosuchvariant"})
    assert r.exit_code == 2 and "MJTOOLS_RULES" in r.stderr
    # The option itself is still reported as the option.
    r = run("score", "234567m234p5688s+7s", "--lang", "xx")
    assert r.exit_code == 2 and "--lang" in r.stderr and "MJTOOLS_LANG" not in r.stderr


def test_bare_groups_print_help(run):
    for args in ([], ["rules"]):
        r = run(*args)
        assert r.exit_code == 0 and "Usage:" in r.stdout and not r.stderr


def _complete(words: str, cword: int) -> set[str]:
    import os
    import subprocess
    import sys

    env = dict(os.environ, _MJTOOLS_COMPLETE="bash_complete", COMP_WORDS=words, COMP_CWORD=str(cword))
    out = subprocess.run([sys.executable, "-m", "mjtools"], env=env, capture_output=True, text=True).stdout
    return {ln.split(",", 1)[1] for ln in out.splitlines() if "," in ln}


def test_completion_of_variants():
    from mjtools.rules import available

    ids = {rs.id for rs in available()}
    aliases = {a for rs in available() for a in rs.raw.get("aliases", ())}
    for words, cword in (("mjtools score -r ", 3), ("mjtools rules show ", 3), ("mjtools simulate --rules ", 3), ("mjtools rules diff riichi ", 4)):
        got = _complete(words, cword)
        assert ids | aliases <= got and "base-chinese" not in got, words
    assert _complete("mjtools wait -r can", 3) == {"cantonese"}


def test_batch_errors_to_stderr_in_table(run, tmp_path):
    f = tmp_path / "in.txt"
    f.write_text("123m456p789s1122z\nnot a hand\n19m19p19s1234566z\n")
    for cmd in ("shanten", "wait"):
        r = run(cmd, "--input", str(f))
        assert r.exit_code == 1 and "error" not in r.stdout and "line 2" in r.stderr
    f.write_text("234567m234p5688s+7s\nnot a hand\n")
    r = run("score", "--input", str(f), "--seat", "S")
    assert r.exit_code == 1 and "error" not in r.stdout and "line 2" in r.stderr
    r = run("score", "--input", str(f), "--seat", "S", "-f", "jsonl")
    assert r.exit_code == 1 and not r.stderr and json.loads(r.stdout.splitlines()[1])["line"] == 2


def test_not_a_legal_win_exits_0(run, rng, tmp_path):
    """A possible hand that is not a legal win is an answer: valid false with a reason, exit 0,
    alone or in a batch (where it is no failed case)."""
    lines = []
    for hand in _ready_hands(rng.randrange(10**9), 30):
        # A tile the hand does not wait on (the first of these it holds fewer than four of).
        from mjtools.tiles.kinds import parse_kind
        from mjtools.tiles.notation import parse_hand

        waits = json.loads(run("wait", hand, "-f", "json").stdout)["waits"]
        counts = parse_hand(hand).counts
        extra = next(t for t in ("1z", "4z", "9m", "1p", "5s") if t not in waits and counts[parse_kind(t)] < 4)
        r = run("score", f"{hand}+{extra}", "-f", "json")
        rec = json.loads(r.stdout)
        if "error" in rec or rec.get("valid") is not False:
            continue
        assert r.exit_code == 0 and rec["reason"]
        lines.append(f"{hand}+{extra}")
    assert len(lines) > 10
    f = tmp_path / "in.txt"
    f.write_text("\n".join(lines) + "\n")
    r = run("score", "--input", str(f), "-f", "jsonl")
    assert r.exit_code == 0 and all(json.loads(x)["valid"] is False for x in r.stdout.splitlines())


def test_simulate_position_options_need_hand(run):
    for extra in (["--trials", "5"], ["--seat", "S"], ["--discard", "1m"], ["--wall-left", "20"], ["--visible", "1m"]):
        r = run("simulate", "--hands", "1", *extra)
        assert r.exit_code == 2 and extra[0] in r.stderr


def test_simulate_out_not_overwritten(run, tmp_path):
    out = tmp_path / "run.jsonl"
    out.write_text("keep me\n")
    r = run("simulate", "--hands", "1", "--out", str(out))
    assert r.exit_code == 2 and "--force" in r.stderr and out.read_text() == "keep me\n"
    assert run("simulate", "--hands", "1", "--out", str(out), "--force").exit_code == 0
    assert "keep me" not in out.read_text()


def test_simulate_csv_rows(run):
    import csv
    import io

    summary = json.loads(run("simulate", "--hands", "3", "--seed", "2", "-f", "json").stdout)
    rows = list(csv.DictReader(io.StringIO(run("simulate", "--hands", "3", "--seed", "2", "-f", "csv", "--csv-rows", "seat").stdout)))
    assert [r["seat"] for r in rows] == ["E", "S", "W", "N"]
    assert [float(r["points"]) for r in rows] == list(summary["points_by_seat"].values())
    rows = list(csv.DictReader(io.StringIO(run("simulate", "--hands", "3", "--seed", "2", "-f", "csv", "--csv-rows", "fan").stdout)))
    assert {r["fan"]: int(r["count"]) for r in rows} == summary["fans"]
    # Without it: the contract's one row per record.
    assert len(run("simulate", "--hands", "3", "--seed", "2", "-f", "csv").stdout.splitlines()) == 2
    assert run("simulate", "--hands", "3", "--csv-rows", "seat").exit_code == 2


def test_aliases_are_lists_in_json(run):
    for args in (["rules", "list", "-f", "json"], ["explain-rule", "--list", "-f", "json"]):
        rows = json.loads(run(*args).stdout)
        assert all(isinstance(r["aliases"], list) for r in rows)
        assert any(r["aliases"] for r in rows)
    assert "cantonese, guangdong, hongkong, hk" in run("rules", "list").stdout
