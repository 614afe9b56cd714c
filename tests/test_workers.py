"""`--workers N` for the batch modes of score, wait and shanten: the same bytes and exit status as
one worker, whatever the format, with error lines, table cases and odd lines among the cases;
a decoding error stops both at the same line. (Speed: benchmarks/bench_batch.py.)"""

import json
import pickle
import random

import pytest
from riichi_cases import random_case
from test_batch_fast import ODD, batch_file

from gen import random_hand
from mjtools.batch import parallel, plain
from mjtools.batch.cases import AnalysisCompute, ScoreCompute
from mjtools.tiles.kinds import kinds_str


def same_as_one_worker(run, *args, workers=(2,)):
    """Run a command with one worker and with each of `workers`; return the one-worker result."""
    one = run(*args)
    assert "Traceback" not in one.stderr
    for n in workers:
        got = run(*args, "--workers", str(n))
        assert (got.exit_code, got.stdout, got.stderr) == (one.exit_code, one.stdout, one.stderr), n
    return one


@pytest.fixture
def small_chunks(monkeypatch):
    """Chunks of a few lines, so that a small file is spread over many trips and workers."""
    monkeypatch.setattr(parallel, "CHUNK_LINES", 7)
    monkeypatch.setattr(plain, "WORKER_SPLIT", 5)


def score_file(tmp_path, n: int = 120) -> str:
    rng = random.Random(15)
    lines = [json.dumps(random_case(rng).json_case(), ensure_ascii=False) for _ in range(n)]
    odd = ["", "# comment", "123x", '{"hand": 5}', '{"hand": "123m456p789s1122z+1z", "rules": "nosuch"}', "234567m234p5688s+7s", '{"hand": "234567m234p5688s+7s", "seat": "S", "lang": "zh"}']
    table = '{"table": {"E": "123m456p789s1122z+2z", "S": "123m456p789s11z22z+1z"}, "event": "win", "winners": ["E"], "from": "S"}'
    for i, extra in enumerate(odd + [table]):
        lines.insert(11 * (i + 1), extra)
    f = tmp_path / "score.jsonl"
    f.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(f)


@pytest.mark.parametrize("fmt", ["jsonl", "csv", "json", "table"])
def test_score_batch(run, tmp_path, small_chunks, fmt):
    one = same_as_one_worker(run, "score", "--input", score_file(tmp_path), "-f", fmt, workers=(2, 3) if fmt == "jsonl" else (2,))
    assert one.exit_code == 1  # the bad lines are error records, as with one worker
    if fmt == "jsonl":
        recs = [json.loads(x) for x in one.stdout.splitlines()]
        assert [r["line"] for r in recs] == sorted(r["line"] for r in recs)
        assert any("error" in r for r in recs) and any("results" in r for r in recs)


def test_score_explain_and_lang(run, tmp_path, small_chunks):
    same_as_one_worker(run, "score", "--input", score_file(tmp_path, 40), "-f", "jsonl", "--explain", "--lang", "ja", "--honba", "2")


@pytest.mark.parametrize(("fmt", "numpy_backend"), [("jsonl", True), ("csv", True), ("json", False)])
def test_shanten_fast_path(run, tmp_path, monkeypatch, small_chunks, fmt, numpy_backend):
    monkeypatch.setattr(plain, "USE_NUMPY", numpy_backend)
    one = same_as_one_worker(run, "shanten", "--input", batch_file(tmp_path, 15, 300), "-f", fmt, "--visible", "1z5p", workers=(2, 3))
    assert one.exit_code == 1


def test_shanten_general_path_and_wait(run, tmp_path, small_chunks):
    rng = random.Random(16)
    lines = [kinds_str(random_hand(rng, 13 + (i % 4 == 0))) for i in range(60)] + ODD
    f = tmp_path / "hands.txt"
    f.write_text("\n".join(lines) + "\n", encoding="utf-8")
    # 血战 with a declared void suit: not the fast path, so the general per-line path in workers.
    same_as_one_worker(run, "shanten", "--input", str(f), "-f", "jsonl", "-r", "sichuan-xuezhan", "--void", "m")
    same_as_one_worker(run, "wait", "--input", str(f), "-f", "jsonl")
    same_as_one_worker(run, "wait", "--input", str(f), "-f", "csv", "-r", "guangdong-cantonese")


def test_not_utf8_line_is_an_error_record_in_place(run, tmp_path, small_chunks):
    """A line that is not UTF-8 becomes its error record, where it stands, with any --workers."""
    good = open(score_file(tmp_path, 200), "rb").read()  # several of the decoder's 8 KB blocks
    cut = good.index(b"\n", len(good) * 3 // 4) + 1
    bad_line = good[:cut].count(b"\n") + 1
    f = tmp_path / "bad.jsonl"
    f.write_bytes(good[:cut] + b"\xff\xfe 123m\n" + good[cut:])
    one = same_as_one_worker(run, "score", "--input", str(f), "-f", "jsonl")
    recs = [json.loads(x) for x in one.stdout.splitlines()]
    lines = [r["line"] for r in recs]
    assert one.exit_code == 1 and lines == sorted(lines) and len(recs) > 150
    (bad,) = [r for r in recs if r["line"] == bad_line]
    assert "not UTF-8" in bad["error"] and lines[-1] == good.count(b"\n") + 1
    shanten = tmp_path / "bad.txt"
    shanten.write_bytes(b"123m456p789s1122z\n" * 50 + b"12\xffm\n" + b"123m456p789s1122z\n" * 5)
    one = same_as_one_worker(run, "shanten", "--input", str(shanten), "-f", "jsonl")
    recs = [json.loads(x) for x in one.stdout.splitlines()]
    assert one.exit_code == 1 and len(recs) == 56 and "not UTF-8" in recs[50]["error"]


def test_workers_is_a_positive_count(run):
    r = run("score", "123m456p789s1122z+1z", "--workers", "0")
    assert r.exit_code == 2 and "--workers" in r.stderr
    assert run("score", "234567m234p5688s+7s", "--seat", "S", "--workers", "2", "-f", "json").exit_code == 0  # a single hand: one process


def test_jobs_travel_to_spawned_workers(run, tmp_path, monkeypatch):
    """What a worker receives pickles (platforms without fork spawn their workers)."""
    for compute in (ScoreCompute(True, "zh"), AnalysisCompute("wait")):
        job = parallel.Job("score", {"seat": "S"}, "riichi", compute, True)
        back = pickle.loads(pickle.dumps(job))
        assert back.compute.__dict__ == compute.__dict__
    pickle.loads(pickle.dumps(parallel.ShantenJob({}, None, "jsonl", True)))
    import multiprocessing as mp

    from mjtools.sim import runner

    monkeypatch.setattr(runner, "pool_context", lambda: mp.get_context("spawn"))
    monkeypatch.setattr(parallel, "CHUNK_LINES", 20)
    same_as_one_worker(run, "score", "--input", score_file(tmp_path, 40), "-f", "jsonl", workers=(2,))
