"""`simulate HAND`: per-discard chances from a position, with confidence intervals."""

import json

import pytest

from mjtools.sim.position import mean_ci, wilson

# Textbook choices between discards at the same shanten: one keeps far more live tiles.
POSITIONS = [
    ("567m111p7888s222z+1m", "1m", "7s"),  # 1m: waits 6s 7s 9s (11 live); 7s: 1m single wait (3)
    ("222m1236667p444s+9m", "9m", "7p"),  # 9m: 5p 8p 6p... (11 live); 7p: 9m single wait (3)
]


@pytest.mark.parametrize("hand, best, worse", POSITIONS)
def test_most_effective_discard_wins_most(run, hand, best, worse):
    r = run("simulate", hand, "--trials", "80", "--discard", f"{best},{worse}", "--seed", "4", "-f", "json")
    assert r.exit_code == 0, r.output
    rec = json.loads(r.stdout)
    rows = {d["tile"]: d for d in rec["discards"]}
    assert rows[best]["shanten"] == rows[worse]["shanten"]
    assert rows[best]["effective_count"] > 2 * rows[worse]["effective_count"]
    assert rec["discards"][0]["tile"] == best, rec["discards"]
    for d in rec["discards"]:
        assert d["win_ci"][0] <= d["win"] <= d["win_ci"][1]
        assert d["points_ci"][0] <= d["points"] <= d["points_ci"][1]
        assert d["ready"] >= d["win"]


def test_position_table_and_every_discard(run):
    r = run("simulate", "1289m3457p12368s+4z", "--trials", "3", "--wall-left", "20")
    assert r.exit_code == 0, r.output
    assert "discard" in r.stdout and "ready at end" in r.stdout
    rows = r.stdout.split("---\n", 1)[1].strip().splitlines()
    assert len(rows) == 14  # every distinct tile of the hand


def test_position_same_result_with_workers(run):
    args = ["simulate", "567m111p7888s222z+1m", "--trials", "12", "--discard", "1m,7s", "-f", "json"]
    a = json.loads(run(*args).stdout)
    b = json.loads(run(*args, "--workers", "2").stdout)
    assert a == b


def test_intervals():
    assert wilson(0, 10)[0] == 0 and wilson(10, 10)[1] == 1
    lo, hi = wilson(50, 100)
    assert lo < 0.5 < hi and abs((lo + hi) / 2 - 0.5) < 1e-9
    m, (a, b) = mean_ci([1.0, 2.0, 3.0])
    assert m == 2 and a < 2 < b
