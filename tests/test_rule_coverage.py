"""Every fan, option and special rule of every shipped rule file is explained and illustrated.

For each entry of each resolved file in rules.d/: en and zh names and text (and the text of each
option choice), and at least one worked example in the resolved file that `illustrates` it;
every such example must hold when run under that file (not only in the file that defines it).
"""

import glob
from functools import cache
from pathlib import Path

import pytest

from mjtools.batch.examples import mismatches, run_example
from mjtools.rules import load_path

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = sorted(glob.glob(str(ROOT / "rules.d" / "*.yaml")))
SECTIONS = (("fans", "fan"), ("options", "option"), ("special_rules", "special_rule"))


def _entries(rs):
    for section, kind in SECTIONS:
        items = rs.options if section == "options" else rs.section(section)
        for key, value in items.items():
            yield section, kind, key, value


def params():
    for f in SHIPPED:
        rs = load_path(Path(f))
        if rs.abstract:
            continue  # a base file's entries are checked in the variants that extend it
        for section, _, key, _ in _entries(rs):
            yield pytest.param(f, section, key, id=f"{rs.id}:{section}.{key}")


def _has_en_zh(mapping, what):
    assert mapping, f"{what}: missing"
    assert (mapping.get("en") or "").strip(), f"{what}: no English"
    assert (mapping.get("zh_hans") or mapping.get("zh_hant") or "").strip(), f"{what}: no Chinese"


@pytest.mark.parametrize("file", SHIPPED, ids=lambda f: Path(f).stem)
def test_variant_names(file):
    names = load_path(Path(file)).raw["names"]
    for lang in ("en", "zh_hans", "zh_hant"):
        assert names.get(lang), f"{Path(file).stem}: no {lang} name"


@pytest.mark.parametrize("file, section, key", list(params()))
def test_names_and_texts(file, section, key):
    rs = load_path(Path(file))
    entry = (rs.options if section == "options" else rs.section(section))[key]
    _has_en_zh(entry.get("names"), f"{rs.id} {section}.{key}.names")
    _has_en_zh(entry.get("text"), f"{rs.id} {section}.{key}.text")
    choices = entry.get("choices") if section == "options" else None
    if isinstance(choices, dict):
        for value, what in choices.items():
            _has_en_zh(what, f"{rs.id} options.{key}.choices.{value}")


@cache
def _problems(file: str, eid: str) -> tuple[str, ...]:
    rs = load_path(Path(file))
    ex = rs.examples[eid]
    return tuple(mismatches(run_example(rs, ex), ex["expect"]))


@pytest.mark.parametrize("file, section, key", list(params()))
def test_illustrated_by_a_live_example(file, section, key):
    rs = load_path(Path(file))
    ids = [eid for eid, ex in rs.examples.items() if key in ex.get("illustrates", ())]
    assert ids, f"{rs.id}: no example illustrates {section}.{key}"
    for eid in ids:
        problems = _problems(file, eid)
        assert not problems, f"{rs.id}:{eid} (illustrates {key}): " + "; ".join(problems)


def test_the_checks_can_fail(tmp_path):
    """A file with an unexplained, unillustrated rule is caught by the same checks."""
    p = tmp_path / "bare.yaml"
    p.write_text(
        "id: bare\nextends: riichi\nnames: {en: Bare, zh_hans: 裸}\n"
        "special_rules:\n  whisper: {text: {en: Say nothing.}}\n",
        encoding="utf-8",
    )
    rs = load_path(p)
    entry = rs.section("special_rules")["whisper"]
    with pytest.raises(AssertionError):
        _has_en_zh(entry.get("text"), "whisper")
    assert not [e for e, ex in rs.examples.items() if "whisper" in ex.get("illustrates", ())]
