"""`--workers N` for the batch modes of score, wait and shanten: worker processes, records in
input order, byte for byte what one worker writes.

The parent reads the input and cuts it into chunks of lines (one trip to a worker and back
per chunk, not per line); each worker computes its chunk's records (JSON lines already
rendered for `-f jsonl`, the records themselves for the other formats) and the parent writes
them in the order of the chunks. A bounded number of chunks is in flight, so a long input
(or stdin) streams. Workers are forked where the platform can (they start at once, with the
parent's rules and memos; batch/forked.py, one thread in the parent), else spawned by a
multiprocessing Pool; a `Job` is all a worker needs either way.

Every line's record depends on that line alone (the rule files and options resolved once
per process give the same ruleset everywhere), so the output does not depend on the number
of workers; exit statuses are the same too (the failed lines are counted across workers).
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from itertools import chain
from typing import Any

CHUNK_LINES = 400  # lines per trip through the general path (a score line is ~0.1 ms)
IN_FLIGHT = 4  # chunks per worker sent ahead of the one being written (Pool)
FORKED_IN_FLIGHT = 2  # chunks in a forked worker's hands: the one it computes, the next one
SETTLE_CHUNKS = 3  # a worker freezes what it kept every this many chunks (batch/cases.LongLived)


@dataclass(frozen=True)
class Job:
    """What a worker needs to compute the records of a chunk (picklable: spawned workers get
    it as it is). `compute` is a module-level callable object (batch/cases.py)."""

    command: str
    base_opts: dict[str, Any]
    rules_name: str | None
    compute: Callable[..., dict[str, Any]]
    jsonl: bool


_JOB: Any = None  # the job (or the shanten fast path's state) of this worker process
_HEAP: Any = None  # this worker process's batch/cases.LongLived


def _start(job: Any) -> None:
    """Worker start-up: keep the job, resolve rules once per process, leave Ctrl-C to the parent."""
    import signal

    from mjtools.batch import cases

    global _JOB, _HEAP
    _JOB = job
    _HEAP = cases.LongLived(owned=True)
    if cases._RUN_RULES is None:  # spawned (a forked worker inherits the parent's run memo)
        cases._RUN_ENV[0] = os.environ.get("MJTOOLS_RULES")
        cases._RUN_RULES = {}
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _case_chunk(chunk: list[tuple[int, str]]) -> tuple[Any, int]:
    """(the chunk's JSON lines as one text, or its records; failed lines) in a worker."""
    from mjtools.batch.cases import batch_json, batch_record

    job: Job = _JOB
    if _HEAP is not None:
        _HEAP.chunks += 1
        if not _HEAP.chunks % SETTLE_CHUNKS:
            _HEAP.settle()  # (what the worker kept from the chunks before: see LongLived)
    recs = []
    failed = 0
    one = batch_json if job.jsonl else batch_record
    for line, raw in chunk:
        rec, bad = one(job.command, line, raw, job.base_opts, job.rules_name, job.compute)
        recs.append(rec)
        failed += bad
    if job.jsonl:
        return "".join(recs), failed
    return recs, failed


def chunks(items: Iterable[Any], size: int) -> Iterator[list[Any]]:
    """Lists of `size` items; when reading fails, the items read before it come first (not on
    Ctrl-C, nor when the consumer stops: those are BaseExceptions, left to pass)."""
    chunk: list[Any] = []
    try:
        for item in items:
            chunk.append(item)
            if len(chunk) >= size:
                yield chunk
                chunk = []
    except Exception:
        if chunk:
            yield chunk
        raise
    if chunk:
        yield chunk


def in_order(fn: Callable[[Any], Any], initargs: tuple, tasks: Iterator[Any], workers: int) -> Iterator[Any]:
    """fn(task) for each task, computed in `workers` processes, yielded in task order. At most
    IN_FLIGHT chunks per worker wait ahead. An exception while reading the tasks (a decoding
    error in the input) is raised only after the results of the tasks before it."""
    from mjtools.sim.runner import pool_context

    context = pool_context()
    if context.get_start_method() == "fork":  # (one thread in the parent: batch/forked.py)
        from mjtools.batch.forked import in_order_forked

        yield from in_order_forked(fn, _start, initargs, iter(tasks), workers, FORKED_IN_FLIGHT)
        return
    pending: deque = deque()
    with context.Pool(workers, initializer=_start, initargs=initargs) as pool:
        try:
            for task in tasks:
                pending.append(pool.apply_async(fn, (task,)))
                while len(pending) >= workers * IN_FLIGHT:
                    yield pending.popleft().get()
        except Exception:
            while pending:  # what was read before the failure is written first
                yield pending.popleft().get()
            raise
        while pending:
            yield pending.popleft().get()


def run_cases_parallel(job: Job, cases: Iterable[tuple[int, str]], workers: int, emit: Callable[[dict[str, Any]], None], write: Callable[[str], None]) -> int:
    """The general path of a batch in workers: returns the number of failed lines."""
    global _JOB
    failed = 0
    tasks = chunks(cases, CHUNK_LINES)
    # The first chunk is computed here, before the workers are forked: they then start with
    # the memos it filled (rules, parsed pieces, fan plans) instead of each warming its own.
    first = next(tasks, None)
    if first is None:
        return 0
    _JOB = job
    from mjtools.batch.cases import LongLived

    heap = LongLived()
    try:
        done = _case_chunk(first)
        heap.settle()  # (before the fork: the workers start with the parent's heap frozen)
        for got, bad in chain([done], in_order(_case_chunk, (job,), tasks, workers)):
            failed += bad
            if job.jsonl:
                write(got)
            else:
                for rec in got:
                    emit(rec)
    finally:
        heap.release()
    return failed


# -- the shanten fast path (batch/plain.py) ------------------------------------------------------


@dataclass(frozen=True)
class ShantenJob:
    """The shanten fast path's batch, rebuilt in each worker from what the command was given."""

    base_opts: dict[str, Any]
    rules_name: str | None
    fmt: str
    use_numpy: bool


class Collected:
    """Stands in for the Renderer in a worker: keeps what the fast path emits (records or CSV
    rows) for the parent to replay in order."""

    def __init__(self, fmt: str) -> None:
        self.fmt = fmt
        self.items: list[tuple[bool, Any]] = []

    def emit(self, rec: dict[str, Any]) -> None:
        self.items.append((False, rec))

    def csv_values(self, row: list[Any], cols: Any = None) -> None:
        self.items.append((True, row))


def _shanten_state(job: ShantenJob) -> Any:
    from mjtools.batch.plain import batch_for

    return batch_for(job.base_opts, job.rules_name, Collected(job.fmt), job.use_numpy)


def _shanten_chunk(task: tuple[list[str], int]) -> tuple[str, list[tuple[bool, Any]], int]:
    """(JSON lines, emitted records or rows, failed lines) of one chunk of lines."""
    global _JOB
    if isinstance(_JOB, ShantenJob):
        _JOB = _shanten_state(_JOB)
    batch = _JOB
    lines, first = task
    batch.failed = 0
    batch.out.items = []
    texts = batch.feed(lines, first)
    return "".join(texts), batch.out.items, batch.failed
