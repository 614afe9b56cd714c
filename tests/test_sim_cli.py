"""`mjtools simulate` from the command line: the contract's summary, determinism across
workers, hash seeds and a Dask cluster, --resume after a kill, scenarios, plots, errors."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
CONTRACT = {"rules", "hands", "seed", "hands_with_win", "win_events", "exhaustive_draws", "aborted", "elapsed_s", "hands_per_s", "fans", "points_by_seat"}


def mj(*args, env=None, timeout=300, check=True):
    e = dict(os.environ)
    e.update(env or {})
    proc = subprocess.run([sys.executable, "-m", "mjtools", *args], cwd=ROOT, capture_output=True, text=True, env=e, timeout=timeout)
    if check:
        assert proc.returncode == 0, proc.stderr
    return proc


def records(path):
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    return lines[0], lines[1:]


def test_summary_fields(run):
    r = run("simulate", "--hands", "6", "--seed", "2", "-f", "json")
    assert r.exit_code == 0, r.output
    s = json.loads(r.stdout)
    assert CONTRACT <= set(s)
    assert s["hands"] == 6 and s["seed"] == 2 and s["rules"] == "riichi"
    assert abs(sum(s["points_by_seat"].values())) < 1e-6 or s["hands_with_win"] < s["hands"]  # sticks left in the pot
    assert set(s["win_share_by_seat"]) == set("ESWN")
    assert s["win_events"] == s["self_draw"] + s["discard_wins"]
    assert sum(s["fans"].values()) >= s["win_events"]


def same_for_one_and_two_workers(tmp_path, args: list[str]):
    """The records of `args` with one worker, checked equal to two workers' (other hash seeds)."""
    one = tmp_path / "one.jsonl"
    two = tmp_path / "two.jsonl"
    mj(*args, "--out", str(one), env={"PYTHONHASHSEED": "1"})
    mj(*args, "--out", str(two), "--workers", "2", env={"PYTHONHASHSEED": "2"})
    assert records(one) == records(two)
    return one


def test_same_records_for_any_workers_and_dask(tmp_path):
    args = ["simulate", "--hands", "24", "--seed", "7", "--bots", "efficient,random,efficient,random", "-f", "json"]
    one = same_for_one_and_two_workers(tmp_path, args)
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        dask = tmp_path / "dask.jsonl"
        mj(*args, "--out", str(dask), "--dask", cluster.scheduler_address, env={"PYTHONHASHSEED": "3"})
    assert records(one) == records(dask)
    head, lines = records(one)
    assert [json.loads(x)["index"] for x in lines] == list(range(24))
    assert json.loads(head)["seed"] == 7


def test_wuhan_put_out_counts_same_for_any_workers(tmp_path):
    """The 红中杠 / 赖子杠 counts live in each hand's state: 1 and 2 workers write the same records."""
    args = ["simulate", "--rules", "wuhan-hongzhong", "--hands", "16", "--seed", "5", "-f", "json"]
    one = same_for_one_and_two_workers(tmp_path, args)
    wins = [w for x in records(one)[1] for w in json.loads(x)["wins"]]
    assert any("hongzhong_kong" in w["fans"] for w in wins)


def test_resume_after_kill(tmp_path):
    out = tmp_path / "run.jsonl"
    cmd = [sys.executable, "-m", "mjtools", "simulate", "--hands", "120", "--seed", "3", "--bots", "random", "--out", str(out), "-f", "json"]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 120
    while time.time() < deadline:
        if out.exists() and out.read_text(encoding="utf-8").count("\n") > 40:
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    with open(out, "a", encoding="utf-8") as f:
        f.write('{"index": 999, "cut off by the ki')  # a partial last line
    n_before = out.read_text(encoding="utf-8").count("\n") - 1
    assert 0 < n_before < 120
    r = mj("simulate", "--hands", "120", "--seed", "3", "--bots", "random", "--out", str(out), "--resume", "-f", "json")
    assert json.loads(r.stdout)["resumed_at"] == n_before
    _, lines = records(out)
    assert [json.loads(x)["index"] for x in lines] == list(range(120))
    clean = tmp_path / "clean.jsonl"
    mj("simulate", "--hands", "120", "--seed", "3", "--bots", "random", "--out", str(clean), "-f", "json")
    assert records(clean) == records(out)
    # a resume that does not match the header is refused
    bad = mj("simulate", "--hands", "120", "--seed", "4", "--bots", "random", "--out", str(out), "--resume", check=False)
    assert bad.returncode == 2 and "seed" in bad.stderr and len(bad.stderr.strip().splitlines()) == 1


def test_scenarios_yaml_and_jsonl(run, tmp_path):
    y = tmp_path / "s.yaml"
    y.write_text(f"- {{name: eff, rules: riichi, hands: 4, seed: 1}}\n- {{name: rnd, rules: {DATA / 'sim-xuezhan.yaml'}, bots: random, hands: 3}}\n", encoding="utf-8")
    r = run("simulate", "--scenarios", str(y))
    assert r.exit_code == 0, r.output
    assert "eff" in r.stdout and "rnd" in r.stdout and "win share" in r.stdout
    j = tmp_path / "s.jsonl"
    j.write_text('{"name": "a", "hands": 3, "seed": 2}\n# a comment\n{"name": "b", "hands": 3, "seed": 2, "options": {"open_tanyao": false}}\n', encoding="utf-8")
    r = run("simulate", "--input", str(j), "-f", "json")
    recs = json.loads(r.stdout)
    assert [x["name"] for x in recs] == ["a", "b"] and recs[1]["options"] == {"open_tanyao": False}
    bad = tmp_path / "bad.yaml"
    bad.write_text("- {hands: 2, bots: 'mjtools.sim.bots:RandomBot'}\n", encoding="utf-8")
    r = run("simulate", "--scenarios", str(bad))
    assert r.exit_code == 2 and "only on the command line" in r.stderr


def test_bots_module_class_on_the_command_line(run):
    r = run("simulate", "--hands", "2", "--bots", "mjtools.sim.bots:RandomBot", "-f", "json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["bots"] == ["mjtools.sim.bots:RandomBot"] * 4


def test_entry_point_bots(monkeypatch):
    from mjtools.sim import bots

    class EP:
        name = "mine"

        def load(self):
            return bots.RandomBot

    monkeypatch.setattr(bots, "_entry_points", lambda: {"mine": EP()})
    assert bots.parse_bots("mine", 4, allow_path=False) == ["mine"] * 4


def test_plot(run, tmp_path):
    pytest.importorskip("matplotlib")
    png = tmp_path / "p.png"
    r = run("simulate", "--hands", "4", "--plot", str(png), "-f", "json")
    assert r.exit_code == 0, r.output
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(
    "args, words",
    [
        (["--hands", "-1"], "negative"),
        (["--workers", "0"], "at least 1"),
        (["--bots", "efficient,random"], "one per seat"),
        (["--bots", "nosuch"], "unknown bot"),
        (["--bots", "nosuch.module:Bot"], "cannot load"),
        (["--resume"], "--out"),
        (["-o", "nosuch=1"], "no option"),
        (["--rules", "nosuch"], "unknown variant"),
        (["--scenarios", "/nonexistent.yaml"], "nonexistent"),
        (["--dask", "tcp://127.0.0.1:9"], "cannot connect"),
        (["1m", "--trials", "3"], "tiles"),
        (["123m456p789s1122z+3z", "--trials", "0"], "at least 1"),
        (["123m456p789s1122z+3z", "--discard", "9p"], "not in the hand"),
        (["123m456p789s1122z+3z", "--out", "x.jsonl"], "whole-hand"),
    ],
)
def test_errors_are_one_line(run, args, words):
    r = run("simulate", *args)
    assert r.exit_code == 2, r.output
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in r.stderr and words in lines[0], r.stderr


def test_progress_only_on_a_terminal(run):
    r = run("simulate", "--hands", "3")
    assert r.exit_code == 0 and r.stderr == ""
