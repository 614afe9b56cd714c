"""The Chinese variant files: complete, documented, illustrated, sourced, and netting to zero."""

import json
from pathlib import Path

import pytest

from mjtools.rules import load
from mjtools.rules.freeze import thaw

VARIANTS = ["sichuan-xuezhan", "yichang-xueliu", "guangdong-cantonese", "taiwan-16"]
FIXTURES = Path(__file__).resolve().parent / "fixtures"


def _texts(node, what):
    for lang in ("en", "zh_hans"):
        assert (node.get("text") or {}).get(lang), f"{what}: no {lang} text"


@pytest.mark.parametrize("rid", VARIANTS)
def test_every_fan_option_and_special_rule_is_documented_and_illustrated(rid):
    rs = load(rid)
    raw = thaw(rs.raw)
    illustrated = {i for ex in raw.get("examples", {}).values() for i in ex.get("illustrates", ())}
    for kind in ("fans", "options", "special_rules"):
        for key, node in raw.get(kind, {}).items():
            _texts(node, f"{rid} {kind}.{key}")
            if kind != "options":
                names = node.get("names") or {}
                assert names.get("en") and names.get("zh_hans"), f"{rid} {kind}.{key}: names"
            assert key in illustrated, f"{rid}: {kind}.{key} has no illustrating example"
        if kind == "options":
            for key, node in raw["options"].items():
                choices = node.get("choices")
                if isinstance(choices, dict):
                    for c, text in choices.items():
                        assert text.get("en") and text.get("zh_hans"), f"{rid} options.{key}.{c}"
    for lang in ("en", "zh_hans", "zh_hant"):
        assert raw["names"].get(lang)


@pytest.mark.parametrize("rid", VARIANTS)
def test_examples_are_sourced(rid):
    examples = thaw(load(rid).raw)["examples"]
    assert all(ex.get("source", "").strip() for ex in examples.values())
    published = [e for e, ex in examples.items() if not ex["source"].startswith("derived")]
    assert len(published) >= 6, f"{rid}: only {len(published)} examples from a seed or a published table"


@pytest.mark.parametrize("rid", VARIANTS)
def test_table_examples_net_to_zero(rid):
    from mjtools.worked_examples import run_example

    rs = load(rid)
    for eid, ex in rs.examples.items():
        rec = run_example(rs, ex)
        if "net" in rec:
            assert abs(sum(rec["net"].values()) + rec["pot"]) < 1e-9, eid
        elif rec.get("valid"):
            assert sum(e["amount"] for e in rec["ledger"]) == rec["points"], eid


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
