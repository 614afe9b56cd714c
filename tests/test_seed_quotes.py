"""Seed quotes in the audited wildcard variants are verbatim (garbled characters kept).

A `source:` segment that starts with `seed 004` quotes the seed in "..."; each quoted piece
(split at an ellipsis) must occur in shared seed 004 exactly as written.
"""

import re
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
SEED = Path("/work/shared/seeds/004_4c40e4075b540163.txt")
AUDITED = ["shanghai-qiaoma", "shanghai-baida", "wuhan-hongzhong", "nanchang", "luoshan", "hangzhou"]


def _sources(data: dict):
    for k, v in (data.get("examples") or {}).items():
        yield f"examples.{k}", v.get("source", "")
    for section in ("special_rules", "options"):
        for k, v in (data.get(section) or {}).items():
            yield f"{section}.{k}", (v or {}).get("source", "")


def _quotes(src: str):
    for seg in re.split(r";\s*", src or ""):
        if not seg.startswith("seed 004"):
            continue
        quoted = re.findall(r'"([^"]*)"', seg)
        if not quoted and re.search(r"[\u4e00-\u9fff]", seg):
            quoted = [seg.split(":", 1)[1].strip()] if ":" in seg else []
        for q in quoted:
            yield from (p.strip() for p in re.split(r"……|\.\.\.|…", q) if p.strip())


@pytest.mark.skipif(not SEED.exists(), reason="shared seeds not present")
@pytest.mark.parametrize("rid", AUDITED)
def test_seed_quotes_are_verbatim(rid):
    seed = SEED.read_text(encoding="utf-8")
    data = yaml.safe_load((ROOT / "rules.d" / f"{rid}.yaml").read_text(encoding="utf-8"))
    bad = [(where, q) for where, src in _sources(data) for q in _quotes(src) if q not in seed]
    assert not bad, bad
