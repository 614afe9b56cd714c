"""batch/forked.py: the in-order map over forked workers behind `--workers` (where the platform
forks). Its end-to-end guarantee (the same bytes as one worker) is tests/test_workers.py's; here
the edges: messages longer than a pipe holds both ways, errors in their turn, a dying worker."""

import os

import pytest

from mjtools.batch.forked import WorkerDied, in_order_forked

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this platform")


def _nothing() -> None:
    pass


def _echo(task):
    n, pad = task
    if n == "boom":
        raise ValueError("task boom")
    if n == "die":
        os._exit(3)
    return n, "x" * (len(pad) * 3)  # results longer than the task, and than a pipe holds


def run(tasks, workers=2, in_flight=2):
    return in_order_forked(_echo, _nothing, (), iter(tasks), workers, in_flight)


@pytest.mark.parametrize("workers", [1, 2, 3])
def test_results_in_task_order_with_long_messages(workers):
    tasks = [(i, "y" * (1000 + 70_000 * (i % 3))) for i in range(30)]  # tasks of up to 140 KB
    got = list(run(tasks, workers))
    assert [n for n, _ in got] == list(range(30))
    assert [len(s) for _, s in got] == [3 * len(p) for _, p in tasks]


def test_an_error_in_a_task_comes_in_its_turn():
    it = run([(0, "a"), (1, "b"), ("boom", "c"), (3, "d")])
    assert [next(it)[0], next(it)[0]] == [0, 1]
    with pytest.raises(ValueError, match="task boom"):
        next(it)


def test_an_error_reading_the_tasks_comes_after_the_tasks_before_it():
    def tasks():
        yield from ((i, "z") for i in range(5))
        raise UnicodeDecodeError("utf-8", b"\xff", 0, 1, "bad byte")

    got = []
    with pytest.raises(UnicodeDecodeError):
        for n, _ in in_order_forked(_echo, _nothing, (), tasks(), 2, 2):
            got.append(n)
    assert got == list(range(5))


def test_a_worker_that_dies_is_an_error_not_a_hang():
    with pytest.raises(WorkerDied, match="ended unexpectedly"):
        list(run([(0, "a"), ("die", "b"), (2, "c")]))


def test_a_broken_task_pipe_is_a_dead_worker():
    """Writing to a worker whose end of the task pipe is closed: WorkerDied, not BrokenPipeError."""
    from mjtools.batch.forked import _Worker, _write_some

    r, w = os.pipe()
    os.close(r)
    os.set_blocking(w, False)
    worker = _Worker(0, w, -1)
    worker.to_send += b"task"
    try:
        with pytest.raises(WorkerDied, match="ended unexpectedly"):
            _write_some(worker)
    finally:
        os.close(w)


def _note_pid(path) -> None:
    with open(path, "a") as f:
        f.write(f"{os.getpid()}\n")


def test_stopping_early_ends_the_workers(tmp_path):
    pids = tmp_path / "pids"
    it = in_order_forked(_echo, _note_pid, (pids,), iter([(i, "p" * 50_000) for i in range(40)]), 2, 2)
    next(it)
    it.close()  # the rest is not waited for, and no worker is left behind
    started = [int(x) for x in pids.read_text().split()]
    assert 1 <= len(started) <= 2  # (a worker may be ended before it got as far as noting its pid)
    for pid in started:
        with pytest.raises(ChildProcessError):  # ended and reaped
            os.waitpid(pid, os.WNOHANG)


def test_ctrl_c_while_forking_is_a_keyboard_interrupt_and_ends_the_forked(tmp_path, monkeypatch):
    # A Ctrl-C that lands while the workers are still being forked (a batch stopped at once)
    # reached the clean-up before its counts were set: an UnboundLocalError traceback and exit
    # status 1 instead of "mjtools: aborted" and 130.
    import mjtools.batch.forked as forked

    real = forked._fork_worker
    calls = []

    def fork_then_interrupt(*args):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(*args)

    monkeypatch.setattr(forked, "_fork_worker", fork_then_interrupt)
    pids = tmp_path / "pids"
    it = in_order_forked(_echo, _note_pid, (pids,), iter([(i, "p") for i in range(10)]), 2, 2)
    with pytest.raises(KeyboardInterrupt):
        next(it)
    for pid in [int(x) for x in pids.read_text().split()] if pids.exists() else []:
        with pytest.raises(ChildProcessError):  # ended and reaped
            os.waitpid(pid, os.WNOHANG)
