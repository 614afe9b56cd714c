"""One renderer for every subcommand: table, json, jsonl, csv.

CSV has a fixed column set per subcommand (`COLUMNS`): the top-level fields plus `line` and
`error`; list and dict fields are JSON-encoded in one cell; the header is always complete.
"""

from __future__ import annotations

import json
import math
import os
import re
import sys
from collections.abc import Callable, Iterable, Sequence
from operator import attrgetter
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
    line): built once, never copied per record, and written as JSON once, the first time a
    record holding it is (`dumps` reuses the text; a table never asks for it). Writing to it
    raises, so no caller can change another record through it, nor make its text stale (copy
    it with dict() first)."""

    __slots__ = ("_json",)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        dict.__init__(self, *args, **kwargs)
        self._json: str | None = None

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
        got = self._json
        if got is None:
            got = self._json = _ENCODER.encode(dict(self))
        return got


try:  # the C encoder, called directly (JSONEncoder.encode builds a new one on every call); no
    # cycle check (markers None): records are trees, and the encoder then keeps no state
    from json.encoder import c_encode_basestring as _quote
    from json.encoder import c_make_encoder

    _C = c_make_encoder(None, _ENCODER.default, _quote, None, ": ", ", ", False, False, True) if c_make_encoder and _quote else None
except ImportError:  # pragma: no cover - a Python without the C accelerator
    _C = None
_KEYS: dict[str, str] = {}  # key -> '"key": '
_FIELDS: dict[str, str] = {}  # key -> ', "key": ' (dumps writes the first one without the comma)
_INT = int.__repr__
_JSON_OF = attrgetter("_json")


def dumps(obj: Any, head: str = "{", tail: str = "}") -> str:
    """One line of JSON. A record (a dict) is written field by field, so that the parts it
    shares with other records (SharedDict) are written from their kept text; the result is
    exactly what json.dumps gives. `head` and `tail` replace the braces: a caller may write
    fields of its own first (`'{"line": 3, '`) and end the line (`"}\\n"`); `obj` is then a dict
    with at least one field."""
    if type(obj) is not dict or _C is None:
        return _headed(head, _ENCODER.encode(obj), tail)
    # The pieces are joined once at the end: a record that holds a CJK name is a two-byte
    # string, which each intermediate concatenation would copy again.
    parts = [head]
    add = parts.append
    keys = _FIELDS
    for k, v in obj.items():
        try:  # (a record's keys are met before: a subscript, not a method call, per field)
            kt = keys[k]
        except KeyError:
            if type(k) is not str:
                return _headed(head, _ENCODER.encode(obj), tail)  # keys JSON would convert (numbers, None): the plain way
            kt = keys[k] = ", " + _quote(k) + ": "
        add(kt)
        t = type(v)
        if t is str:
            add(_quote(v))
        elif t is int:
            add(_INT(v))
        elif v is None:
            add("null")
        elif t is bool:
            add("true" if v else "false")
        elif t is list:
            add(_list(v))
        elif t is dict:
            add(_flat(v))
        elif t is SharedDict:
            add(v._json or v.json())
        else:
            add("".join(_C(v, 0)))
    if len(parts) > 1:
        parts[1] = parts[1][2:]
    add(tail)
    return "".join(parts)


def _headed(head: str, text: str, tail: str) -> str:
    return text if head == "{" and tail == "}" else head + text[1:-1] + tail


def _list(v: list) -> str:
    """A list of shared parts (fans, fu lines, ledger entries) from their kept texts; any other
    list by the C encoder."""
    try:
        return "[" + ", ".join(map(_JSON_OF, v)) + "]"
    except TypeError:  # a shared part whose text is not written yet
        pass
    except AttributeError:
        return "".join(_C(v, 0))
    try:
        return "[" + ", ".join([x._json or x.json() for x in v]) + "]"
    except AttributeError:
        return "".join(_C(v, 0))


# A dict of whole amounts by seat (payments) as written before, by its items: the same few
# amounts recur. Kept only for int amounts, and a hit is used only when the amounts are ints
# again (1.0 and True compare and hash like 1).
_FLATS: dict[tuple, str] = {}
_INT_ONLY = {int}


def _flat(d: dict) -> str:
    """A dict of whole amounts by seat (payments, net) as json.dumps writes it; anything else
    by the C encoder."""
    try:
        key = tuple(d.items())
        got = _FLATS.get(key)
    except TypeError:  # an unhashable value
        return "".join(_C(d, 0))
    if got is not None and {*map(type, d.values())} == _INT_ONLY:
        return got
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
    text = "{" + ", ".join(parts) + "}"
    if len(_FLATS) > 4096:
        _FLATS.clear()
    _FLATS[key] = text
    return text


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
    rows = list(records)
    if not rows:
        return ""
    cols = columns or tuple(k for k in rows[0] if not isinstance(rows[0][k], (list, dict)))
    body = [[_cell(r.get(c)) for c in cols] for r in rows]
    return table(body, cols) + "\n"


# -- the table layout -----------------------------------------------------------------------------
#
# Every table mjtools prints has one layout: a header row, a rule of dashes, one line per row,
# two spaces between columns, no trailing spaces. Text columns are flush left; a column whose
# every non-empty cell reads as a number (numeric strings too) is flush right, decimal points
# lined up. That is tabulate's "simple" format, and tests/test_table_layout.py checks this function
# against tabulate itself on random tables. It is written here because importing tabulate
# (importlib.metadata, wcwidth) cost about 90 ms per call: three times Python's own start-up,
# for a layout of forty lines.

_CELL_NONE, _CELL_BOOL, _CELL_INT, _CELL_FLOAT, _CELL_TEXT = range(5)
_COMMA_NUMBER = re.compile(r"[+-]?[0-9]{1,3}(?:,[0-9]{3})+(\.[0-9]*)?\Z")


def _is_int_text(s: str) -> bool:
    try:
        int(s)
    except ValueError:
        return False
    return True


def _float_text(s: str) -> bool:
    """Reads as a float: an overflow such as "1e999" does not, though "inf" and "nan" do."""
    try:
        x = float(s)
    except ValueError:
        return False
    return not (math.isinf(x) or math.isnan(x)) or s.lower() in ("inf", "-inf", "nan")


def _kind(v: Any) -> int:
    if v is None or v == "":
        return _CELL_NONE
    t = type(v)
    if t is bool or (t is str and v in ("True", "False")):
        return _CELL_BOOL
    if t is int:
        return _CELL_INT
    if t is float:
        return _CELL_FLOAT
    if t is str:
        if _is_int_text(v):
            return _CELL_INT
        m = _COMMA_NUMBER.match(v)
        if m:
            return _CELL_FLOAT if m.group(1) is not None else _CELL_INT
        return _CELL_FLOAT if _float_text(v) else _CELL_TEXT
    if str(t).startswith("<class 'numpy.int"):
        return _CELL_INT
    try:  # another number type (a numpy float, a Fraction)
        float(v)
    except (TypeError, ValueError):
        return _CELL_TEXT
    return _CELL_FLOAT


def _text(v: Any, kind: int) -> str:
    if v is None:
        return ""
    if kind == _CELL_FLOAT:
        try:
            return format(float(v.replace(",", "") if isinstance(v, str) else v), "g")
        except (TypeError, ValueError):
            return f"{v}"
    return f"{v}"


def _after_point(s: str) -> int:
    """Characters after the decimal point (or the exponent's e) of a number; -1 for none."""
    if _kind(s) in (_CELL_INT, _CELL_NONE, _CELL_BOOL, _CELL_TEXT):
        return -1
    pos = s.rfind(".")
    if pos < 0:
        pos = s.lower().rfind("e")
    return len(s) - pos - 1 if pos >= 0 else -1


def display_width(s: str) -> int:
    """Terminal columns: East Asian wide and full-width characters take two, combining marks none."""
    if s.isascii():
        return len(s)
    import unicodedata  # only for text beyond ASCII (CJK names, tile glyphs)

    return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in s)


def table(rows: Sequence[Sequence[Any]], headers: Sequence[str]) -> str:
    """The rows under their headers, in the layout above (no final newline)."""
    ncols = max([len(headers), *map(len, rows)])
    columns = [[r[i] if i < len(r) else None for r in rows] for i in range(ncols)]
    heads = [""] * (ncols - len(headers)) + [str(h) for h in headers]  # missing headers: the first columns
    out_cols = []
    widths = []
    right = []
    for head, col in zip(heads, columns):
        kind = max([_CELL_BOOL, *map(_kind, col)])
        cells = [_text(v, kind) for v in col]
        numeric = kind in (_CELL_INT, _CELL_FLOAT)
        if numeric:  # pad after the number so that the decimal points line up
            points = [_after_point(c) for c in cells]
            most = max(points, default=-1)
            cells = [c + " " * (most - p) for c, p in zip(cells, points)]
        else:
            cells = [c.strip() for c in cells]
        width = max([display_width(head) + 2, *map(display_width, cells)])
        out_cols.append(cells)
        widths.append(width)
        right.append(numeric)

    def line(cells: Iterable[str]) -> str:
        parts = []
        for c, w, r in zip(cells, widths, right):
            pad = " " * (w - display_width(c))
            parts.append(pad + c if r else c + pad)
        return "  ".join(parts).rstrip()

    lines = [line(heads), "  ".join("-" * w for w in widths)]
    lines += [line(cells) for cells in zip(*out_cols)]
    return "\n".join(lines)


def _cell(v: Any) -> str:
    if isinstance(v, (list, tuple)):
        return " ".join(map(str, v))
    if isinstance(v, dict):
        return ", ".join(f"{k}:{x}" for k, x in v.items())
    if v is None:
        return ""
    return str(v)
