"""Run every analysis benchmark against `mahjong` 2.1.0 in one go and print a table of ratios.

    python benchmarks/run.py                  # full run (a few minutes)
    python benchmarks/run.py --quick          # smaller samples, for a smoke test
    python benchmarks/run.py --update-readme  # also rewrite the result blocks of README.md and
                                              # benchmarks/README.md
    python benchmarks/run.py --only batch --mjtools /tmp/fresh/bin/mjtools
                                              # the command line of another install (a fresh
                                              # venv with the README's `pip install .`)

Method (benchmarks/README.md has the details): the same seeded hands (`tests/gen.py`) go to
both libraries in the same process; each measurement is repeated and the best repetition kept;
in-process figures are CPU time (`time.process_time`), command-line figures are CPU time of
the child (user + sys) with the wall time beside it. The numbers and the machine are written
to benchmarks/results/last.json.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))  # gen.py: the seeded hand generators the tests use

from gen import baseline_waits, counts_of, mixed_hand, random_hand, ready_hand  # noqa: E402

README = ROOT / "README.md"
BENCH_README = ROOT / "benchmarks" / "README.md"
RESULTS = ROOT / "benchmarks" / "results" / "last.json"
START, END = "<!-- benchmarks:start -->", "<!-- benchmarks:end -->"
# One core for the child processes: no BLAS or OpenMP threads.
ONE_CORE = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


def best_cpu(fn, repeat: int) -> float:
    """Least CPU seconds over `repeat` runs of fn()."""
    times = []
    for _ in range(repeat):
        t = time.process_time()
        fn()
        times.append(time.process_time() - t)
    return min(times)


def shanten_hands(n: int, seed: int) -> list[list[int]]:
    rng = random.Random(seed)
    return [counts_of(mixed_hand(rng, 13 if i % 2 else 14)) for i in range(n)]


# -- in-process -----------------------------------------------------------------------------------


def bench_shanten(n: int, repeat: int) -> dict:
    from mahjong.shanten import Shanten

    from mjtools.analysis import fast

    hands = shanten_hands(n, 1)
    warm = shanten_hands(n, 2)  # other hands of the same kind: fills the pattern memo honestly
    t_cold = best_cpu(lambda: [fast.shanten(c) for c in warm], 1)
    assert [fast.shanten(c) for c in hands] == [Shanten.calculate_shanten(c) for c in hands]
    theirs = best_cpu(lambda: [Shanten.calculate_shanten(c) for c in hands], repeat)
    ours = best_cpu(lambda: [fast.shanten(c) for c in hands], repeat)
    return {
        "name": "shanten, 13/14 tiles, in-process",
        "ours_us": 1e6 * ours / n,
        "theirs_us": 1e6 * theirs / n,
        "cold_us": 1e6 * t_cold / n,
        "ratio": theirs / ours,
        "target": 10,
        "hands": n,
        "call": "mjtools.analysis.fast.shanten(counts) vs Shanten.calculate_shanten(counts)",
    }




def bench_waits(n: int, repeat: int) -> dict:
    from mjtools.analysis import fast

    rng = random.Random(3)
    hands = [counts_of(ready_hand(rng)) for _ in range(n)]
    rng = random.Random(4)
    warm = [counts_of(ready_hand(rng)) for _ in range(n)]
    t_cold = best_cpu(lambda: [fast.waits(c) for c in warm], 1)
    assert [fast.waits(c) for c in hands] == [baseline_waits(c) for c in hands]
    theirs = best_cpu(lambda: [baseline_waits(c) for c in hands], repeat)
    ours = best_cpu(lambda: [fast.waits(c) for c in hands], repeat)
    return {
        "name": "waits of ready hands, in-process",
        "ours_us": 1e6 * ours / n,
        "theirs_us": 1e6 * theirs / n,
        "cold_us": 1e6 * t_cold / n,
        "ratio": theirs / ours,
        "target": 20,
        "hands": n,
        "call": "mjtools.analysis.fast.waits(counts) vs 34 x (add a kind, Agari.is_agari)",
    }


def bench_array(n: int, repeat: int) -> dict | None:
    try:
        import numpy as np

        from mjtools.analysis import arrays, fast
    except ImportError:
        return None
    hands = shanten_hands(n, 5)
    arr = np.array(hands, dtype=np.uint8)
    assert arrays.shanten_array(arr[:20000]).tolist() == [fast.shanten(c) for c in hands[:20000]]
    ours = best_cpu(lambda: arrays.shanten_array(arr), repeat)
    return {"name": "shanten, numpy array API", "rate": n / ours, "target_rate": 1_000_000, "hands": n, "call": "mjtools.analysis.arrays.shanten_array((N, 34) uint8)"}


# -- command line ---------------------------------------------------------------------------------


def _child_env(bytecode: bool = True) -> dict[str, str]:
    env = dict(os.environ, **ONE_CORE)
    if bytecode:
        # A normal install keeps compiled bytecode; this sandbox sets PYTHONDONTWRITEBYTECODE,
        # which would make every run recompile mjtools (measured separately below).
        env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.pop("PYTHONUNBUFFERED", None)  # set in this sandbox: a write per output line, not a user's default
    return env


def run_child(cmd: list[str], env: dict[str, str], stdout=subprocess.DEVNULL) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the child) of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    proc = subprocess.run(cmd, stdout=stdout, stderr=subprocess.PIPE, env=env)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"{cmd}: {proc.stderr.decode()}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


MJTOOLS: str | None = None  # --mjtools: the executable the command-line figures time


def mjtools_exe() -> list[str]:
    if MJTOOLS:
        return [MJTOOLS]
    exe = Path(sys.executable).with_name("mjtools")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "mjtools"]


def child_python() -> str:
    """The interpreter of the mjtools being timed (for `-c pass` and the import probe)."""
    if MJTOOLS:
        py = Path(MJTOOLS).with_name("python")
        if py.exists():
            return str(py)
    return sys.executable


def bench_cli_batch(n: int, repeat: int, mahjong_us: float) -> dict:
    from mjtools.tiles.kinds import kinds_str

    rng = random.Random(6)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "hands.txt"
        path.write_text("".join(kinds_str(random_hand(rng, 13)) + "\n" for _ in range(n)), encoding="utf-8")
        cmd = mjtools_exe() + ["shanten", "--input", str(path), "--format", "jsonl"]
        env = _child_env()
        with open(Path(tmp) / "out.jsonl", "wb") as out:
            run_child(cmd, env, out)  # warm-up (bytecode, rules cache)
        lines = (Path(tmp) / "out.jsonl").read_text(encoding="utf-8").count("\n")
        assert lines == n, (lines, n)
        runs = [run_child(cmd, env) for _ in range(repeat)]
    wall = min(r[0] for r in runs)
    cpu = min(r[1] for r in runs)
    rate = n / cpu
    return {
        "name": "mjtools shanten --input FILE --format jsonl, 13 tiles",
        "rate": rate,
        "rate_wall": n / wall,
        "target_rate": 150_000,
        "vs_mahjong": rate * mahjong_us / 1e6,
        "target_vs_mahjong": 4,
        "hands": n,
    }


# The commands a single call is measured on: the analysis one the target names first, then the
# default (table) output of score and wait, which import the scoring engine and the renderer.
SINGLE_COMMANDS = (
    ("shanten", "123m456p789s1122z", "-f", "json"),
    ("score", "234567m234p5688s+7s", "--seat", "S"),
    ("wait", "123m456p789s1122z"),
)


def bench_single(repeat: int) -> dict:
    hands = [mjtools_exe() + list(args) for args in SINGLE_COMMANDS]
    out = {}
    for label, bytecode in (("", True), ("_no_pyc", False)):
        env = _child_env(bytecode)
        cmds = [([child_python(), "-c", "pass"], "pass")] + [(cmd, f"mjtools{i}") for i, cmd in enumerate(hands)]
        for cmd, _ in cmds:
            run_child(cmd, env)  # warm-up
        # The commands alternate, so that a change in the machine's speed during the
        # measurement (a shared machine) hits all alike.
        runs: dict[str, list] = {key: [] for _, key in cmds}
        for _ in range(repeat):
            for cmd, key in cmds:
                runs[key].append(run_child(cmd, env))
        for key, got in runs.items():
            out[key + label] = (statistics.median(r[0] for r in got), statistics.median(r[1] for r in got))
    probe = "import sys; from mjtools.cli import main\nsys.argv = ['mjtools', 'shanten', '123m456p789s1122z', '-f', 'json']\ntry: main()\nexcept SystemExit: pass\n"
    probe += "print(','.join(m for m in ('yaml', 'jsonschema', 'numpy', 'tabulate') if m in sys.modules), file=sys.stderr)"
    heavy = subprocess.run([child_python(), "-c", probe], capture_output=True, text=True, env=_child_env()).stderr.strip().splitlines()[-1:]
    rows = [
        {
            "name": f"mjtools {' '.join(args)} (median of {repeat})",
            "ms": 1000 * out[f"mjtools{i}"][0],
            "pass_ms": 1000 * out["pass"][0],
            "ratio_wall": out[f"mjtools{i}"][0] / out["pass"][0],
            "ratio_cpu": out[f"mjtools{i}"][1] / out["pass"][1],
            "ratio_wall_no_pyc": out[f"mjtools{i}_no_pyc"][0] / out["pass_no_pyc"][0],
            "target": 6,
        }
        for i, args in enumerate(SINGLE_COMMANDS)
    ]
    return {**rows[0], "heavy_imports": heavy[0] if heavy else "", "others": rows[1:]}


# -- report ---------------------------------------------------------------------------------------


def machine() -> dict:
    cpu = platform.processor()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    versions = {}
    for mod in ("numpy", "mahjong"):
        try:
            from importlib.metadata import version

            versions[mod] = version(mod)
        except Exception:  # noqa: BLE001 - a missing package is reported as absent
            versions[mod] = "absent"
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "os": platform.platform(terse=True),
        "load_average": [round(x, 2) for x in os.getloadavg()],
        **versions,
        "date": time.strftime("%Y-%m-%d"),
    }


def _met(ok: bool) -> str:
    return "yes" if ok else "**no**"


def table(res: dict) -> str:
    rows = ["| benchmark | mjtools | mahjong 2.1.0 | ratio | target | met |", "|---|---|---|---|---|---|"]
    for key in ("shanten", "waits"):
        r = res[key]
        rows.append(f"| {r['name']} | {r['ours_us']:.2f} µs | {r['theirs_us']:.1f} µs | {r['ratio']:.1f}x | ≥{r['target']}x | {_met(r['ratio'] >= r['target'])} |")
    b = res["batch"]
    rows.append(
        f"| {b['name']} | {b['rate']:,.0f} hands/s (wall {b['rate_wall']:,.0f}) | {1e6 / res['shanten']['theirs_us']:,.0f} hands/s in-process "
        f"| {b['vs_mahjong']:.1f}x | ≥{b['target_rate']:,} hands/s, ≥{b['target_vs_mahjong']}x | {_met(b['rate'] >= b['target_rate'] and b['vs_mahjong'] >= b['target_vs_mahjong'])} |"
    )
    a = res.get("array")
    if a:
        rows.append(f"| {a['name']} | {a['rate']:,.0f} hands/s | | | ≥{a['target_rate']:,} hands/s | {_met(a['rate'] >= a['target_rate'])} |")
    for s in (res["single"], *res["single"].get("others", ())):
        rows.append(
            f"| {s['name']} | {s['ms']:.0f} ms | `python -c pass`: {s['pass_ms']:.0f} ms | {s['ratio_wall']:.1f}x (CPU {s['ratio_cpu']:.1f}x) "
            # The measure is the wall-clock median; CPU time is shown beside it.
            f"| ≤{s['target']}x | {_met(s['ratio_wall'] <= s['target'])} |"
        )
    return "\n".join(rows)


def readme_block(res: dict) -> str:
    m = res["machine"]
    lines = [
        table(res),
        "",
        f"{m['date']}, {m['cpu']} ({m['cores']} cores, load average {m['load_average'][0]}), Python {m['python']}, numpy {m['numpy']}. "
        "Ratios are mahjong's time over mjtools' on the same seeded hands in the same run; in-process "
        "figures are the best of several repetitions in CPU time, the command-line ones CPU time of the child "
        "(wall time beside it). Exactness is asserted on the measured hands before timing.",
    ]
    return "\n".join(lines)


def details(res: dict) -> str:
    """The longer block for benchmarks/README.md: the table, then every figure measured."""
    m, sh, w, b, s = res["machine"], res["shanten"], res["waits"], res["batch"], res["single"]
    lines = [
        readme_block(res),
        "",
        f"- shanten: {sh['hands']:,} hands; mjtools {sh['ours_us']:.2f} µs per call once its pattern memo is warm "
        f"({sh['cold_us']:.2f} µs on the first {sh['hands']:,} hands of a fresh process); mahjong {sh['theirs_us']:.1f} µs.",
        f"- waits: {w['hands']:,} ready hands; mjtools {w['ours_us']:.2f} µs ({w['cold_us']:.2f} µs cold); the baseline {w['theirs_us']:.1f} µs.",
    ]
    if "array" in res:
        lines.append(f"- array API: {res['array']['hands']:,} hands in one call, {res['array']['rate']:,.0f} hands/s of CPU time.")
    lines += [
        f"- batch: {b['hands']:,} plain 13-tile lines, end to end (start-up, read, parse, compute, write): "
        f"{b['rate']:,.0f} hands per CPU second, {b['rate_wall']:,.0f} per wall second (best of the runs).",
        f"- single hand: {s['ms']:.0f} ms against {s['pass_ms']:.0f} ms for `python -c pass` (medians, wall); "
        f"{s['ratio_cpu']:.1f}x in CPU time; {s['ratio_wall_no_pyc']:.1f}x with PYTHONDONTWRITEBYTECODE set "
        f"(no cached bytecode). Heavy modules imported on that path: {s['heavy_imports'] or 'none'}.",
        *(f"- `{o['name']}`: {o['ms']:.0f} ms, {o['ratio_wall']:.1f}x wall, {o['ratio_cpu']:.1f}x CPU." for o in s.get("others", ())),
        f"- load average {m['load_average']} at the start, {m.get('load_average_end')} at the end; {m['os']}; mahjong {m['mahjong']}.",
    ]
    return "\n".join(lines)


def update_readme(path: Path, block: str) -> None:
    text = path.read_text(encoding="utf-8")
    new = re.sub(re.escape(START) + ".*?" + re.escape(END), lambda _: f"{START}\n{block}\n{END}", text, flags=re.S)
    path.write_text(new, encoding="utf-8")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small samples (a smoke test, not figures to publish)")
    ap.add_argument("--update-readme", action="store_true", help="rewrite the README block between the benchmark markers")
    ap.add_argument("--mjtools", default=None, metavar="PATH", help="the mjtools executable the command-line figures time (default: this interpreter's)")
    ap.add_argument("--only", choices=("batch", "single"), default=None, help="only this command-line figure (batch also measures mahjong's in-process shanten rate)")
    args = ap.parse_args()
    global MJTOOLS
    MJTOOLS = args.mjtools
    q = args.quick
    res: dict = {"machine": machine(), "quick": q, "mjtools": " ".join(mjtools_exe())}
    if args.only != "single":
        print("shanten ...", file=sys.stderr)
        res["shanten"] = bench_shanten(2000 if q else 20000, 2 if q else 5)
    if args.only is None:
        print("waits ...", file=sys.stderr)
        res["waits"] = bench_waits(500 if q else 5000, 2 if q else 5)
        print("array ...", file=sys.stderr)
        arr = bench_array(100_000 if q else 1_000_000, 2 if q else 5)
        if arr:
            res["array"] = arr
    if args.only != "single":
        print("command-line batch ...", file=sys.stderr)
        res["batch"] = bench_cli_batch(20_000 if q else 500_000, 2 if q else 3, res["shanten"]["theirs_us"])
    if args.only != "batch":
        print("single hand ...", file=sys.stderr)
        res["single"] = bench_single(5 if q else 20)
    res["machine"]["load_average_end"] = [round(x, 2) for x in os.getloadavg()]
    if args.only:
        print(json.dumps({k: v for k, v in res.items() if k != "machine"}, indent=2))
        print(f"load average {res['machine']['load_average']} -> {res['machine']['load_average_end']}")
        return
    print(table(res))
    if not q:
        RESULTS.parent.mkdir(exist_ok=True)
        RESULTS.write_text(json.dumps(res, indent=2) + "\n", encoding="utf-8")
    if args.update_readme:
        if q:
            sys.exit("refusing to write --quick figures into the README")
        update_readme(README, readme_block(res))
        update_readme(BENCH_README, details(res))
        print("updated README.md and benchmarks/README.md", file=sys.stderr)


if __name__ == "__main__":
    main()
