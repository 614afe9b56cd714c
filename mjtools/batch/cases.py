"""Cases to records: a hand on the command line or one case per `--input` line (a hand, or a
JSON object with "hand" and options), each computed into its record; a failing batch line
becomes an error record in its place, so N lines give N records."""

from __future__ import annotations

import gc
import json
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from mjtools.batch.reading import case_problem
from mjtools.errors import COUNT_ERRORS, MjError, UsageError
from mjtools.output import Renderer, dumps
from mjtools.rules import load
from mjtools.rules.hand_options import build_context, normalize
from mjtools.tiles.notation import parse_hand


def default_rules(value: str | None) -> str:
    """--rules, else $MJTOOLS_RULES (an unknown name there is reported as the variable's),
    else riichi."""
    if value:
        return value
    env = _RUN_ENV[0] if _RUN_RULES is not None else os.environ.get("MJTOOLS_RULES")
    if not env:
        return "riichi"
    if env not in _ENV_FOUND:  # checked once per process, not per batch line
        from mjtools.errors import RuleFileError
        from mjtools.rules.loader import find

        try:
            find(env)
        except RuleFileError as e:
            raise UsageError(f"$MJTOOLS_RULES={env}: {e.one_line()}") from None
        _ENV_FOUND.add(env)
    return env


_ENV_FOUND: set[str] = set()


# The rulesets a batch run has resolved, by (--rules value, rule options): finding a rule file
# lists the search path and resolves real paths, far more work than scoring a hand, so each
# pair is resolved once per run (per process, with --workers). None outside a run; a run
# (`rules_memo`) starts empty, so a rule file edited between two runs in one process is read
# again.
_RUN_RULES: dict[tuple[str, frozenset], Any] | None = None
_NO_OPTIONS: frozenset = frozenset()
# $MJTOOLS_RULES as a run read it when it started (os.environ.get raises and catches a
# KeyError inside when the variable is unset: not a cost to pay on every line).
_RUN_ENV: list[str | None] = [None]


@contextmanager
def rules_memo() -> Iterator[None]:
    """Resolve each (rules, options) pair once while the block runs."""
    global _RUN_RULES
    outer = _RUN_RULES
    if outer is None:
        _RUN_ENV[0] = os.environ.get("MJTOOLS_RULES")
        _RUN_RULES = {}
    try:
        yield
    finally:
        _RUN_RULES = outer


def load_rules(name: str, options: dict[str, Any] | None = None):
    memo = _RUN_RULES
    if memo is None:
        return load(name, options or {})
    try:
        key = (name, frozenset(options.items()) if options else _NO_OPTIONS)
        got = memo.get(key)
    except TypeError:  # an unhashable option value (a list): resolved as it comes
        return load(name, options or {})
    if got is None:
        got = memo[key] = load(name, options or {})  # a failure raises each time: not kept
    return got


def batch_stream(hand_words: tuple[str, ...], input_file):
    """The stream a batch reads (--input FILE, or stdin for `-`), or None for a single hand."""
    if input_file is None and hand_words == ("-",):
        from mjtools.batch.reading import stdin

        input_file = stdin()
    if input_file is not None and hand_words and hand_words != ("-",):
        raise UsageError("give a HAND or --input, not both")
    return input_file


def iter_cases(hand_words: tuple[str, ...], input_file) -> Iterator[tuple[int | None, str]]:
    """(line number, raw case) pairs; line None for a hand given on the command line."""
    input_file = batch_stream(hand_words, input_file)
    if input_file is not None:
        from mjtools.batch.reading import Overlong, read_lines

        for n, raw in enumerate(read_lines(input_file), 1):
            text = raw if isinstance(raw, Overlong) else raw.strip()
            if isinstance(text, Overlong) or (text and not text.startswith("#")):
                yield n, text
        return
    if not hand_words:
        raise UsageError("missing HAND (or --input FILE, or - for stdin)")
    yield None, " ".join(hand_words)


# The JSON type of each key of a case that is not a hand-context option (those are typed by
# rules/hand_options.normalize, table-case hands by scoring/table.py).
CASE_KEYS: dict[str, tuple[type, str]] = {
    "hand": (str, "a string"),
    "rules": (str, "a string"),
    "table": (dict, "an object {SEAT: HAND}"),
    "event": (str, "a string"),
    "winners": (list, "a list of seats"),
    "from": (str, "a seat"),
    "offender": (str, "a seat"),
    "seat_options": (dict, "an object {SEAT: {OPTION: VALUE}}"),
}


_CASE_KEY_SET = frozenset(CASE_KEYS)


def _check_keys(obj: dict[str, Any]) -> None:
    # Most cases hold "hand" (a string), perhaps "from" or "rules", and hand-context options:
    # checked with a type test per case key present; anything else (a wrong type, a None,
    # "winners") goes through the loop below, so a case with several wrong keys names the same
    # one as before.
    common = _CASE_KEY_SET.intersection(obj)  # (one pass in C over the case's keys)
    if "winners" not in common:
        for key in common:  # ("hand", often "from" or "rules"): each of its exact JSON type
            if type(obj[key]) is not CASE_KEYS[key][0]:
                break
        else:
            return
    from mjtools.rules.hand_options import shown

    for key, (kind, what) in CASE_KEYS.items():
        v = obj.get(key)
        if v is not None and not isinstance(v, kind):
            raise UsageError(f'"{key}" is {what}, got {shown(v)}')
    if any(not isinstance(w, str) for w in obj.get("winners") or ()):
        raise UsageError(f'"winners" is a list of seats, got {shown(obj["winners"])}')


# json.loads without its wrapper: the C scanner reads the object and says where it ended. A
# line the scanner cannot read from its start, or with text after the object, is read again
# with json.loads, which raises the error it always gave.
_scan = json.JSONDecoder().scan_once


def _loads_error(raw: str) -> Any:
    return json.loads(raw)


def split_case(raw: str, line: int | None) -> tuple[str, dict[str, Any]]:
    """A case line: a hand in notation, or a JSON object with "hand" and options."""
    problem = case_problem(raw)
    if problem:
        raise UsageError(problem)
    if line is not None and raw.startswith("{"):
        try:
            obj, end = _scan(raw, 0)  # a whole object: what json.loads would return
            if end != len(raw):
                obj = json.loads(raw)  # (raises the error json.loads gives)
        except StopIteration:  # not JSON at the start: json.loads says why
            obj = _loads_error(raw)
        except json.JSONDecodeError as e:
            raise UsageError(f"invalid JSON: {e.msg} at column {e.colno}") from None
        except (ValueError, RecursionError) as e:  # a number of over 4300 digits; nesting
            raise UsageError(f"invalid JSON: {'nested too deeply' if isinstance(e, RecursionError) else e}") from None
        if not isinstance(obj, dict):
            raise UsageError("a JSON case is an object")
        _check_keys(obj)
        hand = obj.pop("hand", None)  # (obj is this line's own dict)
        if "table" in obj:
            return "", obj
        if not isinstance(hand, str):
            raise UsageError('a JSON case needs "hand" (a string)')
        return hand, obj
    return raw, {}


def case_record(command: str, line: int | None, raw: str, base_opts: dict[str, Any], rules_name: str | None, compute: Callable[..., dict[str, Any]]) -> dict[str, Any]:
    """The record of one case (a hand line or a JSON case); raises MjError on failure."""
    rec = _case(command, line, raw, base_opts, rules_name, compute)
    return rec if line is None else {"line": line, **rec}


def _case(command: str, line: int | None, raw: str, base_opts: dict[str, Any], rules_name: str | None, compute: Callable[..., dict[str, Any]]) -> dict[str, Any]:
    """case_record less the "line" field."""
    text, extra = split_case(raw, line)
    rules = extra.pop("rules", None) or rules_name
    if not extra:
        opts = dict(base_opts)
    elif "table" in extra:
        opts = {**base_opts, "table": extra}
    elif base_opts:
        opts = {**base_opts, **normalize(extra, command)}
    else:
        opts = normalize(extra, command)  # (a new dict, this case's own)
    return compute(text, opts, default_rules(rules))


def batch_record(command: str, line: int, raw: str, base_opts: dict[str, Any], rules_name: str | None, compute: Callable[..., dict[str, Any]]) -> tuple[dict[str, Any], bool]:
    """(record, failed) of one batch case: a failure becomes an error record in its place."""
    try:
        return case_record(command, line, raw, base_opts, rules_name, compute), False
    except (MjError, RecursionError) as e:
        return _error_record(line, e), True


def batch_json(command: str, line: int, raw: str, base_opts: dict[str, Any], rules_name: str | None, compute: Callable[..., dict[str, Any]]) -> tuple[str, bool]:
    """(JSON line, failed) of one batch case: `dumps(batch_record(...)[0]) + "\n"`, written
    without first copying the computed record into one that starts with "line"."""
    try:
        rec = _case(command, line, raw, base_opts, rules_name, compute)
    except (MjError, RecursionError) as e:
        return dumps(_error_record(line, e)) + "\n", True
    if rec and "line" not in rec:
        return dumps(rec, f'{{"line": {line}, ', "}\n"), False
    return dumps({"line": line, **rec}) + "\n", False  # pragma: no cover - records never hold "line"


def _error_record(line: int, e: Exception) -> dict[str, Any]:
    if isinstance(e, MjError):
        return {"line": line, "error": e.one_line()}
    return {"line": line, "error": "hand too complex"}  # pragma: no cover - defensive (RecursionError)


def joined_case(hand_words: tuple[str, ...], compute: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """The record of a hand given as command-line words (joined into one hand, as the notation
    allows); a tile-count error says so when there were several words, since a user who wrote
    two hands meant --input."""
    try:
        return compute()
    except COUNT_ERRORS as e:
        if len(hand_words) < 2:
            raise
        raise UsageError(f"{e.one_line()}; the {len(hand_words)} words given were joined into one hand (for several hands, one per line: --input FILE)") from None


def run_cases(command: str, hand_words: tuple[str, ...], input_file, fmt: str, cli_opts: dict[str, Any], rules_name: str | None, compute: Callable[..., dict[str, Any]], table: Callable | None = None, workers: int = 1) -> int:
    """Compute a record per case and render them; batch failures become error records (their
    number is returned: the CLI exits 1 when there are any). `workers` > 1: a batch's cases
    are computed in that many processes (batch/parallel.py); the output is the same."""

    base_opts = normalize(cli_opts, command)
    batch = input_file is not None or hand_words == ("-",)
    out = Renderer(fmt, command, batch=batch, table=table)
    failed = 0
    with rules_memo():
        cases = iter_cases(hand_words, input_file)
        if batch and workers > 1:
            from mjtools.batch.parallel import Job, run_cases_parallel

            job = Job(command, base_opts, rules_name, compute, fmt == "jsonl")
            failed = run_cases_parallel(job, cases, workers, out.emit, out.out.write)
        else:
            jsonl = fmt == "jsonl"
            write = out.out.write
            heap = LongLived()
            try:
                for line, raw in cases:
                    if line is not None and not line % FREEZE_EVERY:
                        heap.settle()
                    if line is None:
                        out.emit(joined_case(hand_words, lambda raw=raw: case_record(command, None, raw, base_opts, rules_name, compute)))
                        continue
                    if jsonl:
                        text, bad = batch_json(command, line, raw, base_opts, rules_name, compute)
                        write(text)
                    else:
                        rec, bad = batch_record(command, line, raw, base_opts, rules_name, compute)
                        out.emit(rec)
                    failed += bad
            finally:
                heap.release()
    out.close()
    return failed


FREEZE_EVERY = 1024  # batch lines between two hand-overs of the heap to the collector's permanent generation


class LongLived:
    """What a batch builds and keeps (the rulesets, the parse, decomposition and fan-plan
    memos) lives until the run ends, yet each full collection of the cyclic garbage collector
    walks all of it again: in a 20,000-line batch two full collections took about 5% of the
    run. Every FREEZE_EVERY lines the heap is collected and what survives is moved to the
    permanent generation (`gc.freeze`, constant time). A collection does not walk frozen
    objects, so each one after the first walks only what the batch made since the last freeze:
    a full one costs no more than a young one there (0.1 ms), and it is full so that no cyclic
    garbage is frozen with the rest. Records are freed by reference counting as before. The
    run hands the objects back (`gc.unfreeze`) when it ends."""

    def __init__(self, owned: bool | None = None) -> None:
        # (a caller's own freeze is left alone; a worker process owns what its parent froze)
        self.owned = gc.isenabled() and (not gc.get_freeze_count() if owned is None else owned)
        self.frozen = False
        self.chunks = 0  # (a worker's count of the chunks it computed)

    def settle(self) -> None:
        if self.owned:
            gc.collect()
            gc.freeze()
            self.frozen = True

    def release(self) -> None:
        if self.frozen:
            gc.unfreeze()
            self.frozen = False


class AnalysisCompute:
    """The compute function of `shanten` or `wait` for one case (a module-level class, so that
    spawned --workers processes can receive it)."""

    def __init__(self, kind: str) -> None:
        self.kind = kind

    def __call__(self, text: str, opts: dict[str, Any], rules: str) -> dict[str, Any]:
        rs = load_rules(rules, opts.pop("option", {}))
        ctx = build_context(opts, rs)
        hand = parse_hand(text)
        if self.kind == "shanten":
            return _records()["shanten"](hand, rs, ctx, text)
        # --tsumo / --ron: `winning` checks that way of winning only.
        ways = ("tsumo",) if opts.get("tsumo") else ("ron",) if opts.get("ron") else ("ron", "tsumo")
        return _records()["wait"](hand, rs, ctx, text, ways)


def analysis_compute(kind: str) -> Callable[..., dict[str, Any]]:
    """The compute function of `shanten` or `wait` for one case."""
    return AnalysisCompute(kind)


class ScoreCompute:
    """The compute function of `score` for one case, with its --explain, --lang and --names
    (`names`: each fan's name in every language, `--names all`)."""

    def __init__(self, explain: bool = False, lang: str = "en", names: bool = False) -> None:
        self.explain = explain
        self.lang = lang
        self.names = names

    def __call__(self, text: str, opts: dict[str, Any], rules: str) -> dict[str, Any]:
        return score_compute(text, opts, rules, self.explain, self.lang, self.names)


def score_compute(text: str, opts: dict[str, Any], rules: str, explain: bool = False, lang: str = "en", names: bool = False) -> dict[str, Any]:
    """The score record of one case: a hand, or a table case (`"table"` in the options)."""
    table = opts.pop("table", None)
    options = opts.pop("option", None)
    options = dict(options) if options else {}
    if table is not None:
        from mjtools.rules.hand_options import kv_pairs
        from mjtools.scoring.table import settle_table

        # A table case may set rule options like a hand case: "option": ["claims=multiple_ron"].
        table = dict(table)
        options.update(kv_pairs(table.pop("option", None), "option"))
        return settle_table(table, load_rules(rules, options), lang, names)
    rs = load_rules(rules, options)
    ctx = build_context(opts, rs)
    return _scorer()(parse_hand(text), rs, ctx, text, explain=explain, lang=lang, names=names)


_SCORE: list = []  # mjtools.scoring.score, imported on first use (shanten and wait never need it)
_RECORDS: dict[str, Callable[..., dict[str, Any]]] = {}


def _records() -> dict[str, Callable[..., dict[str, Any]]]:
    if not _RECORDS:
        from mjtools.batch.records import shanten_record, wait_record

        _RECORDS.update(shanten=shanten_record, wait=wait_record)
    return _RECORDS


def _scorer() -> Callable[..., dict[str, Any]]:
    # An import statement inside a per-line function runs the import machinery (and, for a
    # package, importlib's Python code) on every call: done once here.
    if not _SCORE:
        from mjtools.scoring import score

        _SCORE.append(score)
    return _SCORE[0]
