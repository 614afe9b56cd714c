"""The table layout of mjtools/output.py against tabulate's "simple" format, the layout it
reproduces (tabulate and wcwidth are test dependencies only: importing them cost about 90 ms a
call). Random tables mix the cell kinds that decide a column's alignment: numbers, numeric text,
thousands separators, booleans, blanks, CJK text and tile glyphs."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from mjtools.output import display_width, table

tabulate = pytest.importorskip("tabulate").tabulate
wcwidth = pytest.importorskip("wcwidth")

ROOT = Path(__file__).resolve().parent.parent

CELLS = [
    None, "", " ", True, False, "True", "False", 0, 7, -3, 12345, 10**12, 0.5, -2.25, 1e-7, 3.0, 1234567.0, float("nan"),
    "3", " 4 ", "-12", "+5", "1_000", "1,000", "12,345.5", "1,0000", ".5", "1.", "2.50", "1e5", "1E-3", "inf", "-inf", "nan", "NaN", "1e999", "infinity",
    "riichi", "dora 2", "  padded  ", "x", "mixed_triple_chow", "中文名", "清一色", "役満", "リーチ", "门前清", "🀄", "🀇🀈🀉", "a·b", "12.5%", "3/4", "E", "1-2",
]


def _random_table(rng: random.Random) -> tuple[list[list[object]], list[str]]:
    ncols = rng.randint(1, 5)
    headers = [rng.choice(["id", "wait", "live", "名称", "fan", "mean points", "x", "番数", "h"]) for _ in range(ncols)]
    # Columns draw from a few cells each, so that all-numeric columns are common.
    pools = [rng.sample(CELLS, rng.randint(1, 4)) for _ in range(ncols)]
    rows = [[rng.choice(pool) for pool in pools] for _ in range(rng.randint(1, 6))]
    return rows, headers


def test_layout_matches_tabulate_simple_on_random_tables():
    rng = random.Random(20261201)
    for _ in range(3000):
        rows, headers = _random_table(rng)
        assert table(rows, headers) == tabulate(rows, headers=headers, tablefmt="simple"), (rows, headers)


def test_layout_examples():
    assert table([[1, "x"], [2.5, None]], ["a", "b"]) == "  a  b\n---  ---\n1    x\n2.5"
    assert table([["清一色", 6]], ["fan", "han"]) == "fan       han\n------  -----\n清一色      6"


def test_display_width_agrees_with_wcwidth_on_every_shipped_text():
    """Every character of the rule files and the message catalogue (names in zh, ja and en)."""
    chars = set()
    for path in [*(ROOT / "rules.d").glob("*.yaml"), *(ROOT / "mjtools" / "data").glob("*.yaml"), *(ROOT / "mjtools" / "data").glob("*.json")]:
        chars |= set(path.read_text(encoding="utf-8"))
    chars |= {chr(c) for c in range(0x1F000, 0x1F02C)}  # the tile glyphs of --unicode
    chars = {c for c in chars if c.isprintable()}
    assert len(chars) > 500
    for c in sorted(chars):
        assert display_width(c) == wcwidth.wcswidth(c), (c, hex(ord(c)))
