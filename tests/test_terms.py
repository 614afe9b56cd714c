"""data/terms.yaml: the seed documents' rule terms, checked against the actual rule files."""

import json
import re
import unicodedata
from functools import lru_cache
from pathlib import Path

import pytest
from shared import SKIP_REASON, shared_dir

from mjtools.explain.terms import all_terms, locate, match, norm
from mjtools.rules import available

ROOT = Path(__file__).resolve().parent.parent
SEEDS = {"000": "000_ff50b453d86e1620.txt", "003": "003_0d30cfc21d30490f.txt", "004": "004_4c40e4075b540163.txt"}
# The terms the issue names; each must be in the data file.
REQUIRED = (
    "门前清 抢杠和 一炮多响 血战到底 扎鸟 过手胡 四杠散了 九种九牌 包牌 诈胡 定缺 换三张 查大叫 查花猪 "
    "刮风下雨 杠上开花 海底捞月 天胡 相公 四归西 连庄 拉庄 跟庄 花猪"
).split()


@lru_cache(maxsize=1)
def _shipped():
    return {rs.id: rs for rs in available()}


@pytest.mark.parametrize("term", all_terms(), ids=lambda t: t.id)
def test_term_found_in_every_shipped_variant_that_has_it(term):
    shipped = _shipped()
    for v in term.variants:
        if v in shipped:
            assert locate(shipped[v], term), f"{term.zh[0]} ({term.id}): not found in {v}; add it to the rule file or fix data/terms.yaml"


def test_required_terms_present():
    for word in REQUIRED:
        assert match(word) and norm(word) in match(word)[0].spellings, word


def test_terms_well_formed():
    ids = [t.id for t in all_terms()]
    assert len(ids) == len(set(ids))
    for t in all_terms():
        assert re.fullmatch(r"[a-z0-9_.]+", t.id), t.id
        assert t.zh and t.en, t.id
        assert set(t.seeds) <= set(SEEDS), t.id
        assert len(set(t.variants)) == len(t.variants), t.id
        for w in t.where:
            assert re.fullmatch(r"[a-z_]+(\.[a-z_]+)*(=.+)?", w), (t.id, w)


def test_simplified_traditional_japanese_and_english_find_the_same_term():
    for query in ("門前清", "门前清", "concealed hand", "Concealed-Hand", "concealed_hand"):
        assert [t.id for t in match(query)] == ["concealed_hand"], query
    assert [t.id for t in match("槓上開花")] == ["kong_bloom"]
    assert [t.id for t in match("一炮多響")] == ["multiple_ron"]


@pytest.mark.skipif(shared_dir() is None, reason=SKIP_REASON)
def test_terms_come_from_the_seeds():
    seeds = {k: norm(unicodedata.normalize("NFKC", (shared_dir() / "seeds" / f).read_text(encoding="utf-8"))) for k, f in SEEDS.items()}
    for t in all_terms():
        for s in t.seeds:
            spellings = [norm(x) for x in (*t.zh, *t.zh_hant, t.seed_text) if x]
            assert any(x in seeds[s] for x in spellings), f"{t.id}: no spelling found in seed {s}"


@pytest.mark.skipif(shared_dir() is None, reason=SKIP_REASON)
def test_variants_are_reference_variants():
    known = {p.stem for p in (shared_dir() / "rules-reference").glob("*.md")} - {"README"}
    for t in all_terms():
        assert set(t.variants) <= known, (t.id, set(t.variants) - known)


def test_search_reports_unshipped_variants(run):
    # Every variant the terms name ships now; hide one to check how an unshipped one is told.
    from mjtools.explain.render import search_text
    from mjtools.explain.search import search

    term = next(t for t in all_terms() if len(t.variants) >= 2)
    hidden, kept = term.variants[0], set(term.variants[1:])
    variants = [rs for rs in _shipped().values() if rs.id != hidden]
    rec = search(term.zh[0], variants)
    got = next(x for x in rec["terms"] if x["id"] == term.id)
    assert got["not_shipped"] == [hidden]
    assert {f["variant"] for f in got["found"]} >= kept
    assert got["missing"] == []
    assert "not yet shipped: " + hidden in search_text(rec, "en")
    # The CLI searches every shipped variant: nothing is reported unshipped.
    full = json.loads(run("explain-rule", "--search", term.zh[0], "-f", "json").stdout)
    assert next(x for x in full["terms"] if x["id"] == term.id)["not_shipped"] == []


def test_search_with_no_shipped_variant_says_so():
    from mjtools.explain.render import search_text
    from mjtools.explain.search import search

    term = next(t for t in all_terms() if t.variants)
    variants = [rs for rs in _shipped().values() if rs.id not in term.variants and not locate(rs, term)]
    rec = search(term.zh[0], variants)
    got = next(x for x in rec["terms"] if x["id"] == term.id)
    assert got["found"] == [] and got["not_shipped"] == list(term.variants)
    assert "no shipped variant has this rule" in search_text(rec, "en")


def test_locate_finds_settings_entries_and_unsupported(tmp_path):
    from mjtools.rules import load_path

    p = tmp_path / "h.yaml"
    p.write_text(
        "id: h\nextends: riichi\nnames: {en: H, zh_hans: 家}\n"
        "unsupported: {follow_dealer: {en: not modelled, zh_hans: 未实现}}\n",
        encoding="utf-8",
    )
    rs = load_path(p)
    by_id = {t.id: t for t in all_terms()}
    assert [e.path for e in locate(rs, by_id["follow_dealer"])] == ["unsupported.follow_dealer"]
    assert "play.abortive_draws" in [e.path for e in locate(rs, by_id["abort_four_kongs"])]
    q = tmp_path / "q.yaml"
    q.write_text(
        "id: q\nextends: riichi\nnames: {en: Q, zh_hans: 问}\n"
        "unsupported: {table_manners: {en: 四归西 and 跟庄 are table manners, zh_hans: 四归西、跟庄属于牌桌礼仪}}\n",
        encoding="utf-8",
    )
    assert [e.path for e in locate(load_path(q), by_id["no_fourth_west"])] == ["unsupported.table_manners"]
    assert locate(rs, by_id["bloody_battle"]) == []
