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


# One encoder for every record (json.dumps with these arguments builds a new one per call).
_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(", ", ": "))


class SharedDict(dict):
    """A read-only dict that many records hold at once (a fan's entry in a score record, a fu
    line): built once, never copied per record, and written as JSON once, when it is made
    (`dumps` reuses the text). Writing to it raises, so no caller can change another record
    through it, nor make its text stale (copy it with dict() first)."""

    __slots__ = ("_json",)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        dict.__init__(self, *args, **kwargs)
        self._json = _ENCODER.encode(dict(self))

    def _refuse(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("a shared record part is read-only: copy it with dict() first")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = __ior__ = _refuse  # type: ignore[assignment]

    def __reduce__(self) -> tuple[type, tuple[dict[str, Any]]]:
        return (SharedDict, (dict(self),))

    def __copy__(self) -> dict[str, Any]:
        return dict(self)

    def __deepcopy__(self, memo: dict) -> dict[str, Any]:
        import copy

        return copy.deepcopy(dict(self), memo)

    def json(self) -> str:
        """Its JSON text, as `dumps` writes it."""
        return self._json


try:  # the C encoder, called directly (JSONEncoder.encode builds a new one on every call); no
    # cycle check (markers None): records are trees, and the encoder then keeps no state
    from json.encoder import c_encode_basestring as _quote
    from json.encoder import c_make_encoder

    _C = c_make_encoder(None, _ENCODER.default, _quote, None, ": ", ", ", False, False, True) if c_make_encoder and _quote else None
except ImportError:  # pragma: no cover - a Python without the C accelerator
    _C = None
_KEYS: dict[str, str] = {}
_INT = int.__repr__


def dumps(obj: Any) -> str:
    """One line of JSON. A record (a dict) is written field by field, so that the parts it
    shares with other records (SharedDict) are written from their kept text; the result is
    exactly what json.dumps gives."""
    if type(obj) is not dict or _C is None:
        return _ENCODER.encode(obj)
    parts: list[str] = []
    add = parts.append
    keys = _KEYS
    for k, v in obj.items():
        kt = keys.get(k)
        if kt is None:
            if type(k) is not str:
                return _ENCODER.encode(obj)  # keys JSON would convert (numbers, None): the plain way
            kt = keys[k] = _quote(k) + ": "
        t = type(v)
        if t is str:
            add(kt + _quote(v))
        elif t is int:
            add(kt + _INT(v))
        elif v is None:
            add(kt + "null")
        elif t is bool:
            add(kt + ("true" if v else "false"))
        elif t is list:
            try:  # a list of shared parts (fans, fu lines, ledger entries): their kept texts
                add(kt + "[" + ", ".join([x._json for x in v]) + "]")
            except AttributeError:
                add(kt + "".join(_C(v, 0)))
        elif t is dict:
            add(kt + _flat(v))
        elif t is SharedDict:
            add(kt + v._json)
        else:
            add(kt + "".join(_C(v, 0)))
    return "{" + ", ".join(parts) + "}"


def _flat(d: dict) -> str:
    """A dict of whole amounts by seat (payments, net) as json.dumps writes it; anything else
    by the C encoder."""
    parts: list[str] = []
    keys = _KEYS
    for k, v in d.items():
        kt = keys.get(k)
        if kt is None:
            if type(k) is not str:
                return "".join(_C(d, 0))
            kt = keys[k] = _quote(k) + ": "
        if type(v) is not int:
            return "".join(_C(d, 0))
        parts.append(kt + _INT(v))
    return "{" + ", ".join(parts) + "}"


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
