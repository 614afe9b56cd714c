"""`mjtools score --input` end to end against `mahjong` 2.1.0 in-process, and `--workers`.

    python benchmarks/bench_batch.py [--hands 50000] [--workers-hands 20000] [--repeat 3]
                                     [--mjtools PATH] [--json FILE]

The lines are bench_riichi.py's seeded riichi wins (tests/riichi_cases.py: dora, red fives,
flags, kongs) written as JSON cases, one per line, as a user would feed a batch.

- **end to end**: the installed command (`mjtools score --input FILE -f jsonl`, one worker):
  interpreter start-up, imports, rules, reading, parsing, scoring, JSON out. The child's CPU
  time (user + sys, getrusage) per hand, wall time beside it; the least of --repeat runs.
  Against it, `HandCalculator.estimate_hand_value` on the same hands in this process (CPU
  time), one pass after each child run: the ratio is mahjong's time per hand over mjtools',
  the median of the --repeat turns' ratios (the least against the least printed beside it).
- **workers**: `--workers 2` against one worker on --workers-hands lines, wall clock (the
  median of --repeat runs each, alternating), with the speed-up CPU time allows beside it
  (one worker's CPU time over the busiest process of two workers': on a shared machine the
  wall clock also measures the neighbours). The outputs are checked byte-identical.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from riichi_cases import random_case  # noqa: E402

ONE_CORE = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


def mjtools_exe(given: str | None) -> list[str]:
    if given:
        return [given]
    exe = Path(sys.executable).with_name("mjtools")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "mjtools"]


def child_env() -> dict[str, str]:
    env = dict(os.environ, **ONE_CORE)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # an installed package keeps its bytecode
    env.pop("PYTHONUNBUFFERED", None)  # set in this sandbox: a write per record, not a user's default
    return env


def run_child(cmd: list[str], out_path: Path | None = None) -> tuple[float, float, bytes]:
    """(wall seconds, CPU seconds of the child and its own children, output) of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, env=child_env())
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"{cmd}: exit {proc.returncode}: {proc.stderr.decode()[-500:]}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), proc.stdout


def cases(n: int, seed: int) -> list:
    rng = random.Random(seed)
    return [random_case(rng) for _ in range(n)]


def write_lines(path: Path, got: list) -> None:
    path.write_text("".join(json.dumps(c.json_case(), ensure_ascii=False) + "\n" for c in got), encoding="utf-8")


def mahjong_us(got: list, repeat: int) -> float:
    from mahjong.hand_calculating.hand import HandCalculator

    peer = [c.mahjong_args() for c in got if not c.nagashi]
    est = HandCalculator.estimate_hand_value

    def run() -> None:
        for tiles, win, melds, dora, ura, cfg in peer:
            est(tiles, win, melds=melds, dora_indicators=dora, config=cfg, ura_dora_indicators=ura)

    best = float("inf")
    for _ in range(repeat):
        t = time.process_time()
        run()
        best = min(best, time.process_time() - t)
    return best / len(peer) * 1e6


def bench_end_to_end(exe: list[str], n: int, repeat: int, tmp: Path) -> dict:
    got = cases(n, 20261129)
    path = tmp / "score.jsonl"
    write_lines(path, got)
    cmd = exe + ["score", "--input", str(path), "-f", "jsonl"]
    run_child(cmd)  # warm-up: bytecode, the rules cache
    # The two take turns (a child run, then a pass of mahjong), so that the machine's drift
    # over the minutes of a run hits both alike; each turn gives a ratio, the median is reported.
    runs, theirs_runs = [], []
    for _ in range(repeat):
        runs.append(run_child(cmd))
        theirs_runs.append(mahjong_us(got, 1))
    lines = runs[0][2].count(b"\n")
    assert lines == n, (lines, n)
    turns = [t / (r[1] / n * 1e6) for r, t in zip(runs, theirs_runs)]
    ours_cpu = min(r[1] for r in runs) / n * 1e6
    ours_wall = min(r[0] for r in runs) / n * 1e6
    theirs = min(theirs_runs)
    return {"hands": n, "mjtools_cpu_us": ours_cpu, "mjtools_wall_us": ours_wall, "mahjong_us": theirs, "vs_mahjong": statistics.median(turns), "vs_mahjong_turns": [round(x, 3) for x in turns], "vs_mahjong_least": theirs / ours_cpu}


def bench_workers(exe: list[str], n: int, repeat: int, tmp: Path) -> dict:
    got = cases(n, 20261201)
    path = tmp / "workers.jsonl"
    write_lines(path, got)
    base = exe + ["score", "--input", str(path), "-f", "jsonl"]
    one, two = base, base + ["--workers", "2"]
    run_child(one)
    walls: dict[str, list[float]] = {"1": [], "2": []}
    cpus: dict[str, list[float]] = {"1": [], "2": []}
    outs = {}
    for _ in range(repeat):
        for key, cmd in (("1", one), ("2", two)):
            wall, cpu, out = run_child(cmd)
            walls[key].append(wall)
            cpus[key].append(cpu)
            outs[key] = out
    assert outs["1"] == outs["2"], "two workers' output differs from one worker's"
    w1, w2 = statistics.median(walls["1"]), statistics.median(walls["2"])
    c1, c2 = statistics.median(cpus["1"]), statistics.median(cpus["2"])
    # The busiest worker's share: the parent reads and writes while the workers score, so the
    # CPU-bound wall time of two workers is at least half the total CPU time.
    return {"hands": n, "wall_1": w1, "wall_2": w2, "speedup_wall": w1 / w2, "cpu_1": c1, "cpu_2": c2, "speedup_cpu": c1 / (c2 / 2)}


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=50000)
    ap.add_argument("--workers-hands", type=int, default=20000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--mjtools", default=None, help="the mjtools executable to time (default: this venv's)")
    ap.add_argument("--skip-workers", action="store_true")
    ap.add_argument("--json", default=None, help="also write the figures to this file")
    args = ap.parse_args(argv)
    exe = mjtools_exe(args.mjtools)
    res: dict = {"load_average": [round(x, 2) for x in os.getloadavg()], "python": sys.version.split()[0]}
    with tempfile.TemporaryDirectory() as tmp:
        e2e = res["end_to_end"] = bench_end_to_end(exe, args.hands, args.repeat, Path(tmp))
        print(f"score --input, {e2e['hands']:,} riichi cases, one worker: {e2e['mjtools_cpu_us']:.1f} us CPU per hand (wall {e2e['mjtools_wall_us']:.1f})")
        print(f"  mahjong 2.1.0 in-process: {e2e['mahjong_us']:.1f} us per hand; mjtools end to end is {e2e['vs_mahjong']:.2f}x as fast (median of the turns {e2e['vs_mahjong_turns']}; least against least {e2e['vs_mahjong_least']:.2f}x; target >= 0.6x)")
        if not args.skip_workers:
            w = res["workers"] = bench_workers(exe, args.workers_hands, args.repeat, Path(tmp))
            print(f"score --input --workers 2, {w['hands']:,} cases: wall {w['wall_1']:.2f} s -> {w['wall_2']:.2f} s, {w['speedup_wall']:.2f}x (median of {args.repeat}; target >= 1.7x)")
            print(f"  CPU time: one worker {w['cpu_1']:.2f} s, two workers {w['cpu_2']:.2f} s in all; CPU-bound speed-up {w['speedup_cpu']:.2f}x")
    res["load_average_end"] = [round(x, 2) for x in os.getloadavg()]
    print(f"load average {res['load_average']} at the start, {res['load_average_end']} at the end")
    if args.json:
        Path(args.json).write_text(json.dumps(res, indent=2) + "\n", encoding="utf-8")
    return res


if __name__ == "__main__":
    main()
