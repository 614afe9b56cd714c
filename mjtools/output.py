"""One renderer for every subcommand: table (tabulate), json, jsonl, csv.

CSV has a fixed column set per subcommand (`COLUMNS`): the top-level fields plus `line` and
`error`; list and dict fields are JSON-encoded in one cell; the header is always complete.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterable
from typing import Any, TextIO

FORMATS = ("table", "json", "jsonl", "csv")

COLUMNS: dict[str, tuple[str, ...]] = {
    "shanten": ("line", "hand", "rules", "shanten", "forms", "unmet", "effective", "effective_count", "discards", "error"),
    "wait": ("line", "hand", "rules", "tenpai", "waits", "live", "winning", "improvements", "discards", "error"),
    "score": ("line", "hand", "rules", "valid", "reason", "fans", "fan_total", "base", "limit", "points", "payments", "pot", "ledger", "han", "fu", "event", "results", "net", "error"),
    "replay": ("game", "hand", "round", "event", "match", "mismatches", "recorded", "computed", "error"),
    "explain-rule-list": ("id", "zh", "en", "players", "tiles", "hand", "wildcards", "model", "status", "aliases"),
    "explain-rule": ("rules", "rule", "kind", "title", "text", "examples"),
    "explain-rule-search": ("term", "variant", "kind", "id", "path", "name", "what"),
}


def dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(", ", ": "))


def use_color(stream: TextIO) -> bool:
    return stream.isatty() and not os.environ.get("NO_COLOR")


class Renderer:
    """Streams records in the chosen format. `table` and `json` collect; the others stream."""

    def __init__(self, fmt: str, command: str, out: TextIO | None = None, batch: bool = False, table: Callable[[list[dict]], str] | None = None):
        self.fmt = fmt
        self.command = command
        self.out = out or sys.stdout
        self.batch = batch
        self.table = table
        self.records: list[dict[str, Any]] = []
        self._csv = None

    def emit(self, rec: dict[str, Any]) -> None:
        if self.fmt == "table" and "error" in rec:
            # A table is for reading: a failed case goes to stderr at once. The machine formats
            # keep it as a {"line", "error"} record in its place.
            sys.stderr.write(f"mjtools: error: line {rec.get('line')}: {rec['error']}\n")
            return
        if self.fmt == "jsonl":
            self.out.write(dumps(rec) + "\n")
        elif self.fmt == "csv":
            self._csv_row(rec)
        else:
            self.records.append(rec)

    def _csv_row(self, rec: dict[str, Any]) -> None:
        cols = COLUMNS.get(self.command) or tuple(rec)
        row = []
        for c in cols:
            v = rec.get(c)
            if isinstance(v, (list, dict)):
                v = dumps(v)
            elif isinstance(v, bool):
                v = "true" if v else "false"
            elif v is None:
                v = ""
            row.append(v)
        self.csv_values(row, cols)

    def csv_values(self, row: list[Any], cols: tuple[str, ...] | None = None) -> None:
        """Write one CSV row of cell values already converted (the header first, once)."""
        import csv

        if self._csv is None:
            self._csv = csv.writer(self.out, lineterminator="\n")
            self._csv.writerow(COLUMNS[self.command] if cols is None else cols)
        self._csv.writerow(row)

    def close(self) -> None:
        if self.fmt == "json":
            obj: Any = self.records if self.batch else (self.records[0] if self.records else None)
            self.out.write(json.dumps(obj, ensure_ascii=False, indent=2) + "\n")
        elif self.fmt == "csv" and self._csv is None:
            self._csv_row({})  # header only
        elif self.fmt == "table":
            if self.table is not None:
                self.out.write(self.table(self.records))
            else:
                self.out.write(simple_table(self.records))
        self.out.flush()


def simple_table(records: Iterable[dict[str, Any]], columns: tuple[str, ...] | None = None) -> str:
    from tabulate import tabulate

    rows = list(records)
    if not rows:
        return ""
    cols = columns or tuple(k for k in rows[0] if not isinstance(rows[0][k], (list, dict)))
    body = [[_cell(r.get(c)) for c in cols] for r in rows]
    return tabulate(body, headers=list(cols), tablefmt="simple") + "\n"


def _cell(v: Any) -> str:
    if isinstance(v, (list, tuple)):
        return " ".join(map(str, v))
    if isinstance(v, dict):
        return ", ".join(f"{k}:{x}" for k, x in v.items())
    if v is None:
        return ""
    return str(v)
