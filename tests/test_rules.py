"""Rule files: extends chains, merging, strict validation with file and key path."""

import glob
import os
import textwrap
from pathlib import Path

import pytest

from mjtools.errors import RuleFileError
from mjtools.rules import available, load, load_path

RULES_D = Path(__file__).resolve().parent.parent / "rules.d"


def write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(textwrap.dedent(text), encoding="utf-8")
    return p


def test_every_shipped_file_validates():
    files = sorted(glob.glob(str(RULES_D / "*.yaml")))
    assert files
    for f in files:
        load_path(Path(f))


def test_aliases_and_case(riichi):
    assert load("RIICHI").id == "riichi"
    assert load("jp").id == "riichi"


def test_house_rule_extends_and_deletes(tmp_path):
    p = write(tmp_path, "house.yaml", """
        id: house
        extends: riichi
        names: {en: House, zh_hans: 家规}
        fans:
          pure_double_chow: null
          jiaxinwu:
            pattern: {all_of: [{wait: closed}, {win_tile_in: [5m, 5p, 5s]}]}
            value: 1
            names: {en: Closed wait on a five, zh_hans: 夹心五}
        options:
          open_tanyao: {default: false}
    """)
    rs = load_path(p)
    assert "pure_double_chow" not in rs.fans
    assert "jiaxinwu" in rs.fans
    assert rs.option_values["open_tanyao"] is False
    assert rs.options["open_tanyao"]["text"]["en"]  # merged, not replaced
    assert rs.origin("fans.jiaxinwu") == str(p.resolve())
    assert rs.origin("fans.pinfu").endswith("riichi.yaml")
    assert rs.files[0] == str(p.resolve())


def test_lists_replace(tmp_path):
    p = write(tmp_path, "h.yaml", """
        id: h
        extends: riichi
        names: {en: H, zh_hans: H}
        win: {forms: [standard]}
    """)
    rs = load_path(p)
    assert rs.shape_spec().forms == ("standard",)


@pytest.mark.parametrize("body, path, words", [
    ("fans: {pinfu: {value: two}}", "fans.pinfu.value", "not a valid value"),
    ("players: 5", "players", "expected one of"),
    ("tiles: {suits: [m, p, x]}", "tiles.suits.2", "expected one of"),
    ("colour: red", "colour", "unknown key 'colour'"),
    ("fans: {x: {pattern: no_such_pattern, value: 1}}", "fans.x.pattern", "unknown pattern id"),
    ("fans: {x: {pattern: {id: outside_hand, colour: 1}, value: 1}}", "fans.x.pattern", "has no parameter 'colour'"),
    ("fans: {x: {pattern: pinfu, value: 1, excludes: [nothing]}}", "fans.x.excludes.0", "excludes unknown fan"),
    ("hand: {size: 13, dealer_extra: '1'}", "hand.dealer_extra", "expected integer"),
    ("scoring: {model: riichi, cap: {option: nope}}", "scoring.cap", "unknown option 'nope'"),
])
def test_bad_files_name_file_and_path(tmp_path, body, path, words):
    p = write(tmp_path, "bad.yaml", "id: bad\nextends: riichi\nnames: {en: B, zh_hans: B}\n" + body + "\n")
    with pytest.raises(RuleFileError) as e:
        load_path(p)
    line = e.value.one_line()
    assert str(p) in line or p.name in line, line
    assert path in line, line
    assert words in line, line


@pytest.mark.parametrize("entry, path, words", [
    ("{tiles: 7z, situation: hongzhong_kong}", "play.discard_situations.0.tiles", "expected array, got string '7z'"),
    ("{tiles: [8z], situation: hongzhong_kong}", "play.discard_situations.0.tiles.0", "not a tile: '8z'"),
    ("{tiles: [7z], situation: hongzhong_kongg}", "play.discard_situations.0.situation", "no fan or rule of the file reads situation 'hongzhong_kongg'"),
    ("{tiles: [wildcard], situation: laizi_kong, claimable: 'no'}", "play.discard_situations.0.claimable", "expected boolean"),
    ("{tiles: [7z]}", "play.discard_situations.0", "'situation' is required"),
])
def test_bad_discard_situations_exit_2_in_one_line(run, tmp_path, entry, path, words):
    """play.discard_situations (Wuhan 红中杠 / 赖子杠) is checked strictly: one line naming the
    file and the key, exit 2."""
    p = write(tmp_path, "bad.yaml", f"id: bad\nextends: wuhan-hongzhong\nnames: {{en: B, zh_hans: B}}\nplay:\n  discard_situations: [{entry}]\n")
    r = run("rules", "validate", str(p))
    assert r.exit_code == 2, r.output
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and str(p) in lines[0] and path in lines[0] and words in lines[0], r.stderr


def test_broken_yaml(tmp_path):
    p = write(tmp_path, "broken.yaml", "id: x\nnames: {en: [\n")
    with pytest.raises(RuleFileError) as e:
        load_path(p)
    assert "invalid YAML" in e.value.one_line() and "line" in e.value.one_line()


def test_missing_required_key(tmp_path):
    p = write(tmp_path, "partial.yaml", "id: partial\nnames: {en: P, zh_hans: P}\nplayers: 4\n")
    with pytest.raises(RuleFileError) as e:
        load_path(p)
    assert "is required" in e.value.one_line()


def test_cycle_refused(tmp_path):
    write(tmp_path, "a.yaml", "id: a\nextends: b\n")
    write(tmp_path, "b.yaml", "id: b\nextends: a\n")
    with pytest.raises(RuleFileError) as e:
        load_path(tmp_path / "a.yaml")
    assert "cycle" in e.value.one_line() and "extends" in e.value.one_line()


def test_depth_refused(tmp_path):
    write(tmp_path, "f0.yaml", "id: f0\nextends: riichi\n")
    for i in range(1, 10):
        write(tmp_path, f"f{i}.yaml", f"id: f{i}\nextends: f{i - 1}\n")
    with pytest.raises(RuleFileError) as e:
        load_path(tmp_path / "f9.yaml")
    assert "deeper than 8" in e.value.one_line()


def test_extends_path_rules(tmp_path):
    p = write(tmp_path, "abs.yaml", "id: abs\nextends: /etc/passwd\n")
    with pytest.raises(RuleFileError):
        load_path(p)
    p = write(tmp_path, "txt.yaml", "id: txt\nextends: ../secret.txt\n")
    with pytest.raises(RuleFileError) as e:
        load_path(p)
    assert "extends" in e.value.one_line()


def test_search_path(tmp_path, monkeypatch):
    write(tmp_path, "mine.yaml", "id: mine\nextends: riichi\nnames: {en: Mine, zh_hans: 我的}\naliases: [minevariant]\n")
    monkeypatch.setenv("MJTOOLS_RULES_PATH", str(tmp_path))
    assert load("mine").id == "mine"
    assert load("minevariant").id == "mine"
    assert "mine" in [r.id for r in available()]


def test_safe_load_only(tmp_path):
    p = write(tmp_path, "evil.yaml", "id: !!python/object/apply:os.system ['echo hi']\n")
    with pytest.raises(RuleFileError):
        load_path(p)


def test_rulesets_are_frozen(riichi):
    with pytest.raises(TypeError):
        riichi.data["players"] = 3  # type: ignore[index]
    with pytest.raises(TypeError):
        riichi.fans["pinfu"]["value"] = 3  # type: ignore[index]


def test_options(riichi):
    from mjtools.errors import UsageError

    rs = riichi.with_options({"kiriage": "true"})
    assert rs.data["scoring"]["riichi"]["kiriage"] is True
    assert riichi.data["scoring"]["riichi"]["kiriage"] is False
    with pytest.raises(UsageError):
        riichi.with_options({"nope": 1})
    with pytest.raises(UsageError):
        riichi.with_options({"kazoe": "sometimes"})


def test_cache_is_used(tmp_path, monkeypatch):
    monkeypatch.setenv("MJTOOLS_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("MJTOOLS_NO_CACHE", raising=False)
    from types import MappingProxyType

    from mjtools.rules import _MEMO
    from mjtools.rules.loader import _RESOLVED, load_resolved

    _MEMO.clear()
    _RESOLVED.clear()  # the per-process memo: the second load must come from the cache file
    load_resolved(RULES_D / "riichi.yaml")
    assert list((tmp_path / "cache").glob("rules-*.json"))
    _RESOLVED.clear()
    data, _, _ = load_resolved(RULES_D / "riichi.yaml")
    assert data["id"] == "riichi" and isinstance(data, MappingProxyType)
    os.environ.pop("MJTOOLS_CACHE_DIR", None)
