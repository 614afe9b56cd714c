"""Rule presets that extend riichi / riichi-sanma: every difference explained and sourced."""

import pytest
from click.testing import CliRunner

from mjtools.cli import cli
from mjtools.rules import load
from mjtools.rules.differences import differences

PRESETS = {"tenhou": "riichi", "majsoul": "riichi", "wrc": "riichi", "ema": "riichi", "mleague": "riichi", "tenhou-sanma": "riichi-sanma", "majsoul-sanma": "riichi-sanma"}


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_difference_is_explained_and_sourced(preset):
    rs = load(preset)
    assert rs.files[1].endswith(f"{PRESETS[preset]}.yaml")
    diffs = differences(rs)
    assert diffs
    for d in diffs:
        if d["kind"] in ("option", "setting", "special_rule"):
            assert d["text"], d
            assert d["source"], d


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_option_changes_are_real(preset):
    rs, base = load(preset), load(PRESETS[preset])
    changed = {d["id"] for d in differences(rs) if d["kind"] == "option"}
    assert changed == {k for k, v in rs.option_values.items() if str(base.option_values.get(k)) != str(v)}


def test_explain_rule_tenhou_lists_the_differences():
    import json

    r = CliRunner().invoke(cli, ["explain-rule", "tenhou", "-f", "json"])
    assert r.exit_code == 0
    sec = next(s for s in json.loads(r.output)["sections"] if s["id"] == "differences")
    text = "\n".join(sec["lines"])
    for key in ("renhou", "double_yakuman"):
        assert f"({key}): true -> false" in text
    assert "[TEN" in text


@pytest.mark.parametrize(
    "preset, expect",
    [
        ("tenhou", {"double_yakuman": False, "renhou": False, "kazoe": "yakuman", "pao": True}),
        ("majsoul", {"multiple_ron": "triple", "pao_scope": "fan", "renhou": False}),
        ("wrc", {"aka_dora": False, "kazoe": "sanbaiman", "abortive_draws": "none"}),
        ("ema", {"aka_dora": False, "multiple_ron_honba": "each", "abortive_draws": "none"}),
        ("mleague", {"multiple_ron": "head_bump", "abortive_draws": "none"}),
        ("majsoul-sanma", {"sanma_payment": "north_split"}),
        ("tenhou-sanma", {"sanma_payment": "tsumo_son", "double_yakuman": False}),
    ],
)
def test_preset_values(preset, expect):
    rs = load(preset)
    for k, v in expect.items():
        assert rs.option_values[k] == v, k
