"""Running many hands: in this process, in worker processes, or on a Dask cluster.

A `Job` carries the resolved rule file (not its path), the option values, the bots and the
seed, so a worker anywhere rebuilds exactly the same ruleset. Hand i always plays from
`hand_seed(seed, i)`; chunks of consecutive hands go to workers and come back in index
order, so the records do not depend on the number or kind of workers.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from mjtools.errors import UsageError
from mjtools.rules.model import Ruleset


@dataclass(frozen=True)
class Job:
    rules_id: str
    raw: dict[str, Any]  # the merged rule file, options not applied
    options: dict[str, Any]
    bots: tuple[str, ...]
    seed: int
    hands: int
    files: tuple[str, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_rules(cls, rs: Ruleset, bots: list[str], seed: int, hands: int, options: dict[str, Any] | None = None) -> Job:
        from mjtools.rules.freeze import thaw

        return cls(rs.id, thaw(rs.raw), dict(options or {}), tuple(bots), seed, hands, tuple(rs.files))

    @cached_property
    def rules_hash(self) -> str:
        text = json.dumps(_canonical(self.raw), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    @cached_property
    def key(self) -> str:
        """What identifies the ruleset this job plays (the per-process cache key)."""
        return self.rules_hash + json.dumps(_canonical(self.options), sort_keys=True, default=str)

    def header(self) -> dict[str, Any]:
        from mjtools import __version__

        return {
            "header": "mjtools-simulate",
            "version": 1,
            "mjtools": __version__,
            "rules": self.rules_id,
            "rules_hash": self.rules_hash,
            "options": self.options,
            "bots": list(self.bots),
            "seed": self.seed,
            **({"length": self.extra["length"], "unit": "game"} if self.extra.get("length") else {}),
        }


def _canonical(obj: Any) -> Any:
    """Mapping keys as JSON writes them (3 -> "3", None -> "null"): a rule file read fresh
    and one read back from the loader's JSON cache then hash alike."""
    if isinstance(obj, dict):
        return {k if isinstance(k, str) else json.dumps(k): _canonical(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_canonical(v) for v in obj]
    return obj


_RULES: dict[str, Ruleset] = {}


def ruleset(job: Job) -> Ruleset:
    """The job's ruleset, built once per process."""
    rs = _RULES.get(job.key)
    if rs is None:
        rs = _RULES[job.key] = Ruleset.build(job.raw, list(job.files), {}, job.options)
    return rs


def play_hand(job: Job, index: int, log: bool = False, setup: Any = None) -> dict[str, Any]:
    """Hand `index` of the job: its record (index, hand_seed, then what happened); with the
    job's log_format, `_log` holds the hand as a game record (sim/logs.py)."""
    from mjtools.sim.bots import make_bots
    from mjtools.sim.engine import HandEngine
    from mjtools.sim.seeding import hand_seed

    rs = ruleset(job)
    seed = hand_seed(job.seed, index)
    fmt = job.extra.get("log_format")
    engine = HandEngine(rs, make_bots(job.bots, rs, seed), seed, setup=setup, log=log or fmt is not None)
    rec = engine.play()
    out = {"index": index, "hand_seed": seed, **rec}
    if log:
        out["log"] = engine.events
        out["draw_ledger"] = engine.draw_ledger
    if fmt is not None:
        from mjtools.gamelog.model import Game
        from mjtools.sim.logs import hand_round, render

        start = int(rs.section("game").get("start_points", 25000))
        r = hand_round(engine, 0, list(range(rs.players)), 0, [start] * rs.players)
        out["_log"] = render(Game(f"hand {index}", fmt, rs.players, [r], names=[f"{b} {i}" for i, b in enumerate(job.bots)]), fmt)
    return out


def play_one(job: Job, index: int) -> dict[str, Any]:
    """Unit `index` of the job: a hand, or (--games) a whole game."""
    if job.extra.get("length"):
        from mjtools.sim.game import play_game

        return {"index": index, **play_game(ruleset(job), list(job.bots), job.seed, index, job.extra["length"], job.extra.get("log_format"))}
    return play_hand(job, index)


def run_chunk(job: Job, start: int, stop: int) -> list[str]:
    """Units (hands or games) start..stop-1 as JSON lines (what workers send back)."""
    return [dumps(play_one(job, i)) for i in range(start, stop)]


def dumps(rec: dict[str, Any]) -> str:
    return json.dumps(rec, ensure_ascii=False, separators=(",", ":"))


def _chunks(start: int, stop: int, size: int) -> list[tuple[int, int]]:
    return [(a, min(a + size, stop)) for a in range(start, stop, size)]


def chunk_size(hands: int, workers: int) -> int:
    # small enough to balance the load and report progress, large enough to amortise the trip
    return max(1, min(50, hands // (workers * 8) or 1))


def run_lines(job: Job, start: int = 0, workers: int = 1, dask: str | None = None, progress: Callable[[int], None] | None = None) -> Iterator[str]:
    """Hand records start..job.hands-1 as JSON lines, in index order."""
    stop = job.hands
    if start >= stop:
        return
    if dask:
        yield from _run_dask(job, start, stop, dask, progress)
        return
    if workers <= 1:
        for i in range(start, stop):
            yield dumps(play_one(job, i))
            if progress:
                progress(1)
        return

    chunks = _chunks(start, stop, chunk_size(stop - start, workers))
    ruleset(job)  # forked workers inherit the built ruleset and the warm analysis memos
    with worker_pool(workers) as pool:
        for lines in pool.imap(_chunk_star, [(job, a, b) for a, b in chunks]):
            yield from lines
            if progress:
                progress(len(lines))


def pool_context():
    """fork where the platform has it (workers start at once, with the parent's caches; the
    records do not depend on caches), else spawn."""
    import multiprocessing as mp

    return mp.get_context("fork" if "fork" in mp.get_all_start_methods() else "spawn")


def worker_pool(workers: int) -> Any:
    """A pool of `workers` processes that end quietly with the parent (see _worker_init)."""
    import os

    return pool_context().Pool(workers, initializer=_worker_init, initargs=(os.getpid(),))


def _worker_init(parent: int) -> None:
    """In a worker: Ctrl-C is the parent's to handle; and when the parent is gone (killed),
    the worker ends at once and quietly, instead of failing to send a result (SIGPIPE at its
    default ends it without a traceback) or waiting for work forever (a watcher thread)."""
    import signal
    import threading

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "SIGPIPE"):
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()


def _watch_parent(parent: int) -> None:
    import os
    import time

    while os.getppid() == parent:
        time.sleep(0.2)
    os._exit(0)


def _chunk_star(args: tuple[Job, int, int]) -> list[str]:
    return run_chunk(*args)


def _run_dask(job: Job, start: int, stop: int, address: str, progress: Callable[[int], None] | None) -> Iterator[str]:
    try:
        from distributed import Client
    except ImportError:
        raise UsageError("--dask needs the dask extra: pip install 'mjtools[dask]'") from None
    try:
        client = Client(address, timeout="10s")
    except (OSError, TimeoutError, ValueError) as e:
        raise UsageError(f"--dask {address}: cannot connect ({e})") from None
    try:
        n = max(1, sum(client.nthreads().values()))
        chunks = _chunks(start, stop, chunk_size(stop - start, n))
        jf = client.scatter(job, broadcast=True)
        futures = [client.submit(run_chunk, jf, a, b, pure=False) for a, b in chunks]
        for fut in futures:  # in index order, whatever order they finish in
            lines = fut.result()
            yield from lines
            if progress:
                progress(len(lines))
    finally:
        client.close()
