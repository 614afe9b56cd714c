"""Seed quotes in the rule files are verbatim (garbled characters kept).

A `source:` segment (segments are split at `;`) that starts with `seed NNN` quotes shared seed
NNN in "..."; each quoted piece (split at an ellipsis …… / … / ...) must occur in that seed
exactly as written. A segment with no "..." that quotes bare Chinese after its colon
(`seed 004: 有混儿`) is checked the same way; one whose text after the colon has Latin letters
is an English description, not a quote. Every rules.d/*.yaml file is checked: the `source:` of
each entry in examples, special_rules and options (null entries deleted by `extends` skipped).
"""

import re
from functools import cache
from pathlib import Path

import pytest
import yaml
from shared import SKIP_REASON, shared_dir

ROOT = Path(__file__).resolve().parent.parent
RULE_IDS = sorted(p.stem for p in (ROOT / "rules.d").glob("*.yaml"))
SECTIONS = ("examples", "special_rules", "options")


SHARED = shared_dir()


@cache
def _seed(sid: str) -> str | None:
    found = sorted((SHARED / "seeds").glob(f"{sid}_*.txt")) if SHARED else []
    return found[0].read_text(encoding="utf-8") if found else None


def _sources(data: dict):
    """(where, source) for every entry of every section; null entries (deleted by `extends`) are skipped."""
    for section in SECTIONS:
        for k, v in (data.get(section) or {}).items():
            if isinstance(v, dict) and v.get("source"):
                yield f"{section}.{k}", str(v["source"])


def _quotes(src: str):
    """(seed id, quoted piece) for each "..." in each `seed NNN` segment, split at ellipses."""
    for seg in re.split(r";\s*", src):
        m = re.match(r"seed (\d{3})\b", seg)
        if not m:
            continue
        quoted = re.findall(r'"([^"]*)"', seg)
        if not quoted and ":" in seg:
            bare = seg.split(":", 1)[1].strip()
            if re.search(r"[\u4e00-\u9fff]", bare) and not re.search(r"[A-Za-z]", bare):
                quoted = [bare]
        for q in quoted:
            for piece in re.split(r"……|…|\.\.\.", q):
                if piece.strip():
                    yield m.group(1), piece.strip()


def test_quote_parser():
    src = 'seed 004 rule 1: "甲乙...丙丁"; derived: x; seed 000: "戊……己" and "庚"; common: "辛"; seed 003: 壬…癸'
    assert list(_quotes(src)) == [
        ("004", "甲乙"), ("004", "丙丁"), ("000", "戊"), ("000", "己"), ("000", "庚"), ("003", "壬"), ("003", "癸")
    ]
    assert not list(_quotes("seed 004: the Changsha line names 漏和; seed 004 rule 3 (十三幺 only)"))


@pytest.mark.skipif(SHARED is None, reason=SKIP_REASON)
@pytest.mark.parametrize("rid", RULE_IDS)
def test_seed_quotes_are_verbatim(rid):
    data = yaml.safe_load((ROOT / "rules.d" / f"{rid}.yaml").read_text(encoding="utf-8")) or {}
    bad = []
    for where, src in _sources(data):
        for sid, q in _quotes(src):
            seed = _seed(sid)
            if seed is None:
                bad.append((where, f"seed {sid} not found"))
            elif q not in seed:
                bad.append((where, sid, q))
    assert not bad, bad
