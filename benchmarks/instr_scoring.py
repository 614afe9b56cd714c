"""Instructions (and simulated cache misses) per hand of one `bench_scoring.py` row, counted
by callgrind over one warm pass: a measure that a shared machine's load does not move.

    python benchmarks/instr_scoring.py mcr 600            # needs valgrind on the PATH
    python benchmarks/instr_scoring.py --cache mcr 2000   # also last-level data misses (2 MB simulated)

The script runs itself under callgrind (hash seed 0). The measured process warms the row (two
passes: memos, bytecode, lazy imports), freezes the heap for the collector, and has
instrumentation on (`callgrind_control -i on`) for the third pass only; the parent prints the
counts per hand from callgrind's output file.
"""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import tempfile


def _measured(row: str, n: int) -> None:
    """The process callgrind runs: only its third pass is counted."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import bench_scoring as bench

    rs, prepared, _ = bench.prepare(row, n, 7)
    bench.timed(rs, prepared)
    bench.timed(rs, prepared)
    gc.collect()
    gc.freeze()
    pid = str(os.getpid())
    subprocess.run(["callgrind_control", "-i", "on", pid], capture_output=True, check=False)
    bench.timed(rs, prepared)
    subprocess.run(["callgrind_control", "-i", "off", pid], capture_output=True, check=False)


def _totals(path: str) -> dict[str, int]:
    events: list[str] = []
    totals: list[int] = []
    with open(path) as f:
        for line in f:
            if line.startswith("events:"):
                events = line.split()[1:]
            elif line.startswith("totals:"):
                totals = [int(x) for x in line.split()[1:]]
    return dict(zip(events, totals))


def main(argv: list[str]) -> int:
    if argv[:1] == ["--measured"]:
        _measured(argv[1], int(argv[2]))
        return 0
    cache = argv[:1] == ["--cache"]
    args = argv[1:] if cache else argv
    if len(args) != 2 or not args[1].isdigit():
        print("usage: instr_scoring.py [--cache] ROW HANDS", file=sys.stderr)
        return 2
    row, n = args[0], int(args[1])
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "cg.out")
        cmd = ["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={out}"]
        if cache:
            cmd += ["--cache-sim=yes", "--LL=2097152,16,64"]
        cmd += [sys.executable, os.path.abspath(__file__), "--measured", row, str(n)]
        done = subprocess.run(cmd, env={**os.environ, "PYTHONHASHSEED": "0"}, capture_output=True, text=True, check=False)
        if done.returncode != 0 or not os.path.exists(out):
            print(f"instr_scoring: callgrind failed: {done.stderr.strip().splitlines()[-1:] or done.returncode}", file=sys.stderr)
            return 1
        d = _totals(out)
    line = f"{row}: {d['Ir'] / n:,.0f} instructions a hand ({n} hands)"
    if cache:
        line += f", {(d.get('DLmr', 0) + d.get('DLmw', 0)) / n:.1f} last-level data misses a hand"
    print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
