"""The Chinese variant files: complete, documented, illustrated, sourced, and netting to zero."""

import json
from pathlib import Path

import pytest

from mjtools.rules import load
from mjtools.rules.freeze import thaw

VARIANTS = ["sichuan-xuezhan", "yichang-xueliu", "guangdong-cantonese", "taiwan-16"]
FIXTURES = Path(__file__).resolve().parent / "fixtures"


@pytest.mark.parametrize("rid", VARIANTS)
def test_examples_are_sourced(rid):
    examples = thaw(load(rid).raw)["examples"]
    assert all(ex.get("source", "").strip() for ex in examples.values())
    published = [e for e, ex in examples.items() if not ex["source"].startswith("derived")]
    assert len(published) >= 6, f"{rid}: only {len(published)} examples from a seed or a published table"


def test_rules_diff_sichuan_yichang(run):
    r = run("rules", "diff", "sichuan-xuezhan", "yichang-xueliu")
    assert r.exit_code == 0
    assert r.stdout == (FIXTURES / "diff-sichuan-yichang.txt").read_text(encoding="utf-8")


def test_batch_table_cases_from_the_command_line(run, tmp_path):
    f = tmp_path / "cases.jsonl"
    f.write_text(
        '{"table": {"S": "1122334455667m+7m", "W": "123p456p789p55m68m+7m"}, "event": "win", "winners": ["S", "W"], "from": "E"}\n'
        '{"hand": "123m456p789s123m5m+5m", "from": "W"}\n'
        '{"table": {"E": "1m"}, "event": "win", "winners": ["N"]}\n'
    )
    r = run("score", "-r", "sichuan-xuezhan", "--input", str(f), "-f", "jsonl")
    recs = [json.loads(x) for x in r.stdout.splitlines()]
    assert recs[0]["net"] == {"E": -9, "S": 8, "W": 1, "N": 0}
    assert recs[1]["valid"] is False and recs[1]["reason"].startswith("missing_suit")
    assert "winners" in recs[2]["error"]
    assert r.exit_code == 1


@pytest.mark.parametrize("args, words", [
    (["-r", "sichuan-xuezhan", "1m(2222m)(333m@W)(555p@N)(777p@S)+1m", "--from", "N"], "(2222m)"),
    (["-r", "guangdong-cantonese", "(123m@E)(456m)(789m@E)(222m)1m+1m", "--seat", "S", "--tsumo"], "包牌 full_flush"),
    (["-r", "sichuan-xuezhan", "123m456m789m11p23p+4p", "--birds", "5m"], "no birds"),
    (["-r", "sichuan-xuezhan", "123m456m789m11p23p+4p", "--seat", "S", "--tsumo", "--active", "EW"], "winner S"),
    (["-r", "sichuan-xuezhan", "123m456m789m11p23p+4p", "--seat", "S", "--from", "N", "--active", "ESW"], "discarder N"),
    (["-r", "taiwan-16", "123m456m789p234s56s11p+7s", "-o", "heavenly_tai=20"], "heavenly_tai"),
    (["-r", "sichuan-xuezhan", "123m456m789m11z23p+4p"], "1z"),
])
def test_bad_input_is_one_line_exit_2(run, args, words):
    r = run("score", *args)
    assert r.exit_code == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0], r.stderr
    assert "Traceback" not in r.stderr


def test_invalid_wins_carry_the_reason(run):
    rec = json.loads(run("score", "-r", "taiwan-16", "(9999m@E)456m789p234s56s11p+7s", "--seat", "S", "-o", "kong_from_left=false", "-f", "json").stdout)
    assert rec["valid"] is False and rec["reason"].startswith("exposed_kong_from_left")
    rec = json.loads(run("score", "-r", "guangdong-cantonese", "123m456p789s12s33p+3s", "--seat", "S", "-f", "json").stdout)
    assert rec["valid"] is False and rec["reason"].startswith("minimum_fan")


SPECS = {
    "sichuan-xuezhan": {"sets": 4, "kinds": range(27), "chi": False, "two_suits": True},
    "yichang-xueliu": {"sets": 4, "kinds": range(27), "chi": False, "two_suits": True},
    "guangdong-cantonese": {"sets": 4, "flowers": True},
    "taiwan-16": {"sets": 5, "flowers": True},
}


@pytest.mark.parametrize("rid", VARIANTS)
def test_random_wins_settle_to_what_the_winner_receives(rid):
    """Every ledger entry of a score record goes to the winner and they add up to its points."""
    import random

    from gen import winning_case
    from mjtools.rules.hand_options import build_context, normalize
    from mjtools.scoring import score
    from mjtools.tiles.notation import parse_hand

    rs = load(rid)
    rng = random.Random(f"settle:{rid}")
    done = 0
    while done < 120:
        case = winning_case(rng, **SPECS[rid])
        if case is None:
            continue
        text, opts = case
        opts["streak"] = rng.choice([0, 0, 1, 3])
        if rid != "taiwan-16" and rng.random() < 0.3:
            opts["active"] = "".join(s for s in "ESWN" if s in (opts["seat"], opts.get("from")) or rng.random() < 0.5)
        ctx = build_context(normalize(opts, "score"), rs)
        rec = score(parse_hand(text), rs, ctx, text)
        done += 1
        if not rec["valid"]:
            continue
        assert all(e["to"] == ctx.seat and e["amount"] > 0 for e in rec["ledger"]), text
        assert abs(sum(e["amount"] for e in rec["ledger"]) - rec["points"]) < 1e-9, text
        assert abs(sum(rec["payments"].values()) + rec["pot"] - rec["points"]) < 1e-9, text


def test_table_cases_render_as_text(run):
    r = run("score", "-r", "sichuan-xuezhan", "--input", str(Path(__file__).resolve().parent.parent / "examples" / "sichuan-table.jsonl"))
    assert r.exit_code == 0, r.stderr
    assert "查花猪" in r.stdout and "not ready; flower pig" in r.stdout
    assert "net: E -9, S +8, W +1, N +0" in r.stdout
