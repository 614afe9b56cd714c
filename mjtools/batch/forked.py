"""An in-order map over forked worker processes, for `--workers` where the platform forks.

multiprocessing's Pool pays for its generality on every chunk: a task thread, a result thread
and a worker-watching thread in the parent take turns at the interpreter lock while the parent
also writes the output. On a two-core machine that parent time is taken from the two workers
(about 0.1 s of CPU in a 20,000-line `score --input`). Here the parent is one thread: it
writes each worker's tasks and reads its results through a pair of pipes, never blocking on
either (a selector says which pipe is ready), so a worker writing a long result and the parent
writing it a long task can never wait on each other. A worker reads a task, computes, writes
the result, and ends when its task pipe closes (the parent's end, or the parent itself, gone).

A message is its length (8 bytes) and a pickle. A worker sends back (True, result) or (False,
the exception); the parent raises the exception when that task's turn to be yielded comes, as
Pool's `get()` does. A worker that dies (killed) is an error at once, not a hang.
"""

from __future__ import annotations

import os
import pickle
import selectors
import signal
import struct
from collections import deque
from collections.abc import Callable, Iterator
from typing import Any

from mjtools.errors import MjError

_SIZE = struct.Struct("<Q")  # a message's length, before its pickle
_READ = 1 << 20  # bytes asked of a pipe at a time


class WorkerDied(MjError):
    """A worker process ended (killed from outside) while tasks were in its hands: one line
    and exit status 3, the output so far written (multiprocessing's Pool waits forever)."""

    exit_code = 3


def _read_exact(fd: int, n: int) -> bytes | None:
    """n bytes from a blocking pipe; None at its end (before any byte of them)."""
    parts = []
    while n:
        got = os.read(fd, n)
        if not got:
            if parts:
                raise EOFError("a message was cut short")
            return None
        parts.append(got)
        n -= len(got)
    return b"".join(parts)


def _message(obj: Any) -> bytes:
    data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    return _SIZE.pack(len(data)) + data


def _serve(fn: Callable[[Any], Any], tasks: int, results: int) -> None:
    """A worker's life: answer tasks until the task pipe closes. Never returns (os._exit, so
    nothing of the parent's, such as its buffered output, is flushed or cleaned up twice)."""
    try:
        while (head := _read_exact(tasks, _SIZE.size)) is not None:
            task = pickle.loads(_read_exact(tasks, _SIZE.unpack(head)[0]) or b"")
            try:
                out = _message((True, fn(task)))
            except BaseException as e:  # the parent raises it in its turn
                try:
                    out = _message((False, e))
                except Exception:  # an exception that does not pickle: its text instead
                    out = _message((False, RuntimeError(f"{type(e).__name__}: {e}")))
            view = memoryview(out)
            while view:
                view = view[os.write(results, view) :]
    finally:
        os._exit(0)


class _Worker:
    """The parent's side of one worker: its pipes, what is to be written, what has come back."""

    def __init__(self, pid: int, tasks: int, results: int) -> None:
        self.pid, self.tasks, self.results = pid, tasks, results
        self.to_send = bytearray()
        self.received = bytearray()
        self.pending: deque[int] = deque()  # the task numbers in its hands, in order

    def died(self) -> WorkerDied:
        return WorkerDied(f"a --workers process (pid {self.pid}) ended unexpectedly; the output stops at the lines before its chunk")

    def take_messages(self) -> Iterator[tuple[int, bytes]]:
        """(task number, pickled answer) of each whole message received."""
        buf = self.received
        start = 0
        while len(buf) - start >= _SIZE.size:
            (n,) = _SIZE.unpack_from(buf, start)
            if len(buf) - start - _SIZE.size < n:
                break
            yield self.pending.popleft(), bytes(buf[start + _SIZE.size : start + _SIZE.size + n])
            start += _SIZE.size + n
        del buf[:start]


def _fork_worker(fn: Callable[[Any], Any], initializer: Callable[..., None], initargs: tuple, others: list[_Worker]) -> _Worker:
    task_r, task_w = os.pipe()
    result_r, result_w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the worker
        try:
            for fd in (task_w, result_r, *(fd for w in others for fd in (w.tasks, w.results))):
                os.close(fd)  # (so that each worker sees its own pipe's end when the parent goes)
            signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # the parent gone: end quietly
            initializer(*initargs)
        except BaseException:
            os._exit(1)
        _serve(fn, task_r, result_w)
    os.close(task_r)
    os.close(result_w)
    os.set_blocking(task_w, False)
    os.set_blocking(result_r, False)
    return _Worker(pid, task_w, result_r)


def in_order_forked(fn: Callable[[Any], Any], initializer: Callable[..., None], initargs: tuple, tasks: Iterator[Any], workers: int, in_flight: int) -> Iterator[Any]:
    """fn(task) for each task, computed in `workers` forked processes, yielded in task order.
    At most `in_flight` tasks per worker are out at once (each goes to the least busy worker).
    An exception raised while reading the tasks comes after the results of the tasks before it."""
    crew: list[_Worker] = []
    sel = selectors.DefaultSelector()
    # (set before the workers are forked: a Ctrl-C while forking reaches the `finally` below)
    sent = given = 0  # tasks handed out; results yielded
    finished = False
    try:
        for _ in range(workers):
            crew.append(_fork_worker(fn, initializer, initargs, crew))
            sel.register(crew[-1].results, selectors.EVENT_READ, crew[-1])
        done: dict[int, bytes] = {}
        reading_failed: Exception | None = None
        more = True
        while True:
            while more:  # hand out tasks while some worker has room
                w = min(crew, key=lambda w: len(w.pending))
                if len(w.pending) >= in_flight:
                    break
                try:
                    task = next(tasks)
                except StopIteration:
                    more = False
                    break
                except Exception as e:  # (raised after what came before it; Ctrl-C at once)
                    reading_failed, more = e, False
                    break
                w.to_send += _message(task)
                w.pending.append(sent)
                sent += 1
            while given in done:
                ok, value = pickle.loads(done.pop(given))
                given += 1
                if not ok:
                    raise value
                yield value
            if given == sent and not more:
                break
            for w in crew:
                if w.to_send:
                    _write_some(w)
                _watch_writes(sel, w)
            for key, _ in sel.select():
                w = key.data
                if key.fd == w.tasks:
                    _write_some(w)
                    continue
                try:
                    got = os.read(w.results, _READ)
                except BlockingIOError:
                    continue
                if not got:
                    raise w.died()
                w.received += got
                done.update(w.take_messages())
        finished = True
        if reading_failed is not None:
            raise reading_failed
    finally:
        sel.close()
        for w in crew:
            for fd in (w.tasks, w.results):
                os.close(fd)  # the worker reads the end of its tasks and exits
        for w in crew:
            if not finished or given != sent:  # stopped early (an error, Ctrl-C): do not wait for their work
                try:
                    os.kill(w.pid, signal.SIGTERM)
                except ProcessLookupError:
                    pass
            try:
                os.waitpid(w.pid, 0)
            except ChildProcessError:  # (already reaped)
                pass


def _write_some(w: _Worker) -> None:
    try:
        n = os.write(w.tasks, w.to_send)
    except BlockingIOError:
        return
    except BrokenPipeError:  # (its end of the task pipe closed: the worker is gone)
        raise w.died() from None
    del w.to_send[:n]


def _watch_writes(sel: selectors.BaseSelector, w: _Worker) -> None:
    """Ask the selector about the worker's task pipe while there is something to write to it."""
    watched = w.tasks in sel.get_map()
    if w.to_send and not watched:
        sel.register(w.tasks, selectors.EVENT_WRITE, w)
    elif watched and not w.to_send:
        sel.unregister(w.tasks)
