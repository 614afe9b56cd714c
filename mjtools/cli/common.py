"""Shared CLI machinery: the common options, hand cases (single or batch), error edge."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from typing import Any

import click

from mjtools.errors import MjError, NotationError, UsageError
from mjtools.output import FORMATS, Renderer

RULES_HELP = "Variant id or alias (`mjtools rules list`), or a path to a rule file. Default: riichi, or $MJTOOLS_RULES."


def rules_option(fn: Callable) -> Callable:
    return click.option("-r", "--rules", "rules", default=None, metavar="ID|PATH", help=RULES_HELP)(fn)


def format_option(fn: Callable) -> Callable:
    return click.option("-f", "--format", "fmt", type=click.Choice(FORMATS), default="table", show_default=True, help="Output format.")(fn)


def input_option(fn: Callable) -> Callable:
    return click.option("--input", "input_file", type=click.File("r", encoding="utf-8"), default=None, metavar="FILE", help="Read one case per line (a hand, or a JSON object); `-` for stdin.")(fn)


def default_rules(value: str | None) -> str:
    import os

    return value or os.environ.get("MJTOOLS_RULES") or "riichi"


def load_rules(name: str, options: dict[str, Any] | None = None):
    from mjtools.rules import load

    return load(name, options or {})


def batch_stream(hand_words: tuple[str, ...], input_file):
    """The stream a batch reads (--input FILE, or stdin for `-`), or None for a single hand."""
    if input_file is None and hand_words == ("-",):
        input_file = sys.stdin
    if input_file is not None and hand_words and hand_words != ("-",):
        raise UsageError("give a HAND or --input, not both")
    return input_file


def iter_cases(hand_words: tuple[str, ...], input_file) -> Iterator[tuple[int | None, str]]:
    """(line number, raw case) pairs; line None for a hand given on the command line."""
    input_file = batch_stream(hand_words, input_file)
    if input_file is not None:
        n = 0
        try:
            for n, raw in enumerate(input_file, 1):
                text = raw.strip()
                if not text or text.startswith("#"):
                    continue
                yield n, text
        except UnicodeDecodeError:
            raise UsageError(f"the input is not UTF-8 text (undecodable bytes after line {n})") from None
        return
    if not hand_words:
        raise UsageError("missing HAND (or --input FILE, or - for stdin)")
    yield None, " ".join(hand_words)


def split_case(raw: str, line: int | None) -> tuple[str, dict[str, Any]]:
    """A case line: a hand in notation, or a JSON object with "hand" and options."""
    if line is not None and raw.startswith("{"):
        try:
            obj = json.loads(raw)
        except ValueError as e:
            raise UsageError(f"invalid JSON: {e.msg} at column {e.colno}") from None
        if not isinstance(obj, dict):
            raise UsageError("a JSON case is an object")
        obj = dict(obj)
        hand = obj.pop("hand", None)
        if "table" in obj:
            return "", obj
        if not isinstance(hand, str):
            raise UsageError('a JSON case needs "hand" (a string)')
        return hand, obj
    return raw, {}


def case_record(command: str, line: int | None, raw: str, base_opts: dict[str, Any], rules_name: str | None, compute: Callable[..., dict[str, Any]]) -> dict[str, Any]:
    """The record of one case (a hand line or a JSON case); raises MjError on failure."""
    from mjtools.cli.options import normalize

    text, extra = split_case(raw, line)
    opts = dict(base_opts)
    rules = extra.pop("rules", None) or rules_name
    if extra:
        opts.update(normalize(extra, command) if "table" not in extra else {"table": extra})
    rec = compute(text, opts, default_rules(rules))
    return rec if line is None else {"line": line, **rec}


def batch_record(command: str, line: int, raw: str, base_opts: dict[str, Any], rules_name: str | None, compute: Callable[..., dict[str, Any]]) -> tuple[dict[str, Any], bool]:
    """(record, failed) of one batch case: a failure becomes an error record in its place."""
    try:
        return case_record(command, line, raw, base_opts, rules_name, compute), False
    except MjError as e:
        return {"line": line, "error": e.one_line()}, True
    except RecursionError:  # pragma: no cover - defensive
        return {"line": line, "error": "hand too complex"}, True


def run_cases(command: str, hand_words: tuple[str, ...], input_file, fmt: str, cli_opts: dict[str, Any], rules_name: str | None, compute: Callable[..., dict[str, Any]], table: Callable | None = None) -> None:
    """Compute a record per case and render them; batch failures become error records."""
    from mjtools.cli.options import normalize

    base_opts = normalize(cli_opts, command)
    batch = input_file is not None or hand_words == ("-",)
    out = Renderer(fmt, command, batch=batch, table=table)
    failed = 0
    for line, raw in iter_cases(hand_words, input_file):
        if line is None:
            out.emit(case_record(command, None, raw, base_opts, rules_name, compute))
            continue
        rec, bad = batch_record(command, line, raw, base_opts, rules_name, compute)
        failed += bad
        out.emit(rec)
    out.close()
    if failed:
        sys.exit(1)


def fail(e: MjError) -> None:
    """The error edge: one line on stderr (a caret under the input on a terminal), exit 2."""
    click.echo(f"mjtools: error: {e.one_line()}", err=True)
    if isinstance(e, NotationError) and sys.stderr.isatty():
        click.echo(e.caret(), err=True)
    sys.exit(2)
