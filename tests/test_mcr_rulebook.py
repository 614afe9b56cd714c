"""The Chinese Official rulebook's example hands (tests/data/mcr_rulebook_hands.txt): each one
scored under rules.d/mcr.yaml must give the total written beside it and pymahjonggb's fans.

Random wins (tests/test_mcr_diff.py) rarely reach these shapes: 组合龙 with an edge wait,
seven shifted pairs against a pure-terminal-chows reading, three kongs with concealed pungs,
the theoretical maximum hand.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_mcr_diff import equal_readings, gb_fans, our_fans

from mcr_gen import gb_args_of

CASES = [
    line.rsplit(" ", 1)
    for line in (Path(__file__).parent / "data" / "mcr_rulebook_hands.txt").read_text(encoding="utf-8").splitlines()
    if line and not line.startswith("#")
]


@pytest.mark.parametrize(("case", "total"), CASES, ids=[c.split(" ")[0] for c, _ in CASES])
def test_rulebook_hand(case: str, total: str) -> None:
    text, options = case.split(" ", 1)
    opts = json.loads(options)
    ours, our_total, _ = our_fans(text, opts)
    assert our_total == int(total)
    gb, gb_total = gb_fans(gb_args_of(text, opts))
    assert gb_total == our_total
    # Two readings of equal value may name different fans (pymahjonggb keeps the first it finds).
    assert ours == gb or gb in equal_readings(text, opts, our_total)


def test_corpus_is_the_rulebook_size() -> None:
    assert len(CASES) == 150 and len({c for c, _ in CASES}) == 150
