"""Hostile input: how long and how much memory mjtools takes to refuse (or answer) each case.

    python benchmarks/bench_hostile.py [--json FILE] [--repeat N]

Each case runs the installed command (`python -m mjtools`) in a fresh process, with a warm
rules cache in a temporary directory; the figures are that process's wall and CPU time and its
peak resident set size (`os.wait4`), the median of --repeat runs. Beside them, in the same run,
a plain `mjtools shanten 123m456p789s1122z` and `python -c pass`: CPU time is also given as a
ratio to the plain command, which survives a loaded machine. Goal: every case ends within 2 s
and 200 MB, with the exit status the contract names and one line on stderr.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HAND = "234567m234p5688s+7s"
READY = "123m456p789s1122z"
GOAL_S, GOAL_MB = 2.0, 200


def measure(args: list[str], env: dict, stdin=None, stdout=subprocess.DEVNULL, timeout: float = 60, pre=None) -> dict:
    """Wall and CPU seconds and peak RSS (MB) of one `python -m mjtools ARGS` process."""
    t0 = time.perf_counter()
    p = subprocess.Popen([sys.executable, "-m", "mjtools", *args], stdin=stdin, stdout=stdout, stderr=subprocess.PIPE, env=env, preexec_fn=pre)
    timer = threading.Timer(timeout, lambda: p.send_signal(signal.SIGKILL))
    timer.start()
    err = p.stderr.read()
    _, status, usage = os.wait4(p.pid, 0)
    timer.cancel()
    p.returncode = os.waitstatus_to_exitcode(status)
    p.stderr.close()
    return {
        "wall_s": time.perf_counter() - t0,
        "cpu_s": usage.ru_utime + usage.ru_stime,
        "rss_mb": usage.ru_maxrss / 1024,  # kilobytes on Linux
        "status": p.returncode,
        "stderr_lines": len(err.decode(errors="replace").strip().splitlines()),
        "traceback": b"Traceback" in err,
    }


def cases(tmp: Path) -> list[tuple[str, list[str], dict]]:
    """(name, args, extra: stdin file / stdout / env / pre) for each hostile case."""
    w = lambda name, text: _write(tmp / name, text)  # noqa: E731
    house = "id: h\nextends: riichi\nnames: {en: H, zh_hans: H}\n"
    bomb = "summary:\n  a0: &a0 [x, x, x, x, x, x, x, x, x]\n" + "".join(f"  a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]\n" for i in range(1, 9))
    w("bomb.yaml", house + bomb)
    w("bomb-default.yaml", house + bomb + "options:\n  kiriage: {default: *a8}\n")
    w("deep.yaml", house + "sources: " + "[" * 500 + "]" * 500 + "\n")
    w("bigint.yaml", house + "options:\n  kiriage: {default: " + "9" * 5000 + "}\n")
    w("date.yaml", house + "options:\n  kiriage: {default: 2024-01-01}\n")
    w("boolkeys.yaml", house + "options:\n  kiriage:\n    default: false\n    choices: {true: {en: a}, false: {en: b}}\n")
    w("longext.yaml", "id: l\nextends: " + "a" * 300 + "\n")
    w("wrongdefault.yaml", "id: w\nextends: taiwan-16\nnames: {en: W, zh_hans: W}\noptions:\n  tai_value: {default: str}\n")
    (tmp / "loop1.yaml").symlink_to(tmp / "loop2.yaml")
    (tmp / "loop2.yaml").symlink_to(tmp / "loop1.yaml")
    w("useloop.yaml", "id: u\nextends: ./loop1.yaml\n")
    (tmp / "pw.yaml").symlink_to("/etc/passwd")
    w("usepw.yaml", "id: p\nextends: pw\n")
    os.mkfifo(tmp / "fifo.yaml")
    (tmp / "zero.yaml").symlink_to("/dev/zero")
    sp = tmp / "sp"
    sp.mkdir()
    os.mkfifo(sp / "fifo.yaml")
    (sp / "zero.yaml").symlink_to("/dev/zero")
    (sp / "dir.yaml").mkdir()
    w("sp/mine.yaml", "id: mine\nextends: riichi\nnames: {en: M, zh_hans: M}\naliases: [minealias]\n")
    lines = [READY] * 10_000
    lines[4999] = "1" * 40_000 + "m"
    w("long-line.txt", "\n".join(lines) + "\n")
    bad = [READY.encode()] * 10_000
    bad[4999] = b"123m456p\xff789s1122z"
    (tmp / "undecodable.txt").write_bytes(b"\n".join(bad) + b"\n")
    (tmp / "undecodable-200.txt").write_bytes(b"\n".join(bad[4900:5100]) + b"\n")
    w("json-types.txt", "".join(json.dumps({"hand": HAND, k: 0}).replace("0}", v + "}") + "\n" for k, v in (("option", "1"), ("rules", "5"), ("honba", "1e999"))))
    sp_env = {"MJTOOLS_RULES_PATH": str(sp)}
    return [
        ("hand of 40,001 characters (quadratic locator)", ["shanten", "1" * 40_000 + "m"], {}),
        ("batch: a 40,001-character line in 10,000", ["shanten", "--input", str(tmp / "long-line.txt"), "-f", "jsonl"], {}),
        ("alias bomb (445 bytes, 9 levels)", ["rules", "validate", str(tmp / "bomb.yaml")], {}),
        ("alias bomb as an option default, score", ["score", HAND, "-r", str(tmp / "bomb-default.yaml")], {}),
        ("nesting 500 deep", ["rules", "validate", str(tmp / "deep.yaml")], {}),
        ("5,000-digit integer", ["rules", "validate", str(tmp / "bigint.yaml")], {}),
        ("a date as a default", ["rules", "validate", str(tmp / "date.yaml")], {}),
        ("boolean choice keys (valid: answered)", ["score", HAND, "-r", str(tmp / "boolkeys.yaml")], {}),
        ("300-character extends", ["rules", "validate", str(tmp / "longext.yaml")], {}),
        ("extends through a symlink loop", ["rules", "validate", str(tmp / "useloop.yaml")], {}),
        ("default of the wrong type, score", ["score", HAND, "-r", str(tmp / "wrongdefault.yaml")], {}),
        ("extends: a .yaml link to /etc/passwd", ["rules", "validate", str(tmp / "usepw.yaml")], {}),
        ("--rules a FIFO", ["score", HAND, "-r", str(tmp / "fifo.yaml")], {}),
        ("--rules a link to /dev/zero", ["score", HAND, "-r", str(tmp / "zero.yaml")], {}),
        ("rules list, FIFO + /dev/zero + dir on the search path", ["rules", "list"], {"env": sp_env}),
        ("alias lookup, same search path", ["wait", READY, "-r", "minealias"], {"env": sp_env}),
        ("batch JSON cases of odd types", ["score", "--input", str(tmp / "json-types.txt"), "-f", "jsonl"], {}),
        ("undecodable byte on line 5,000 of 10,000 (file)", ["shanten", "--input", str(tmp / "undecodable.txt"), "-f", "jsonl"], {}),
        ("undecodable byte on line 5,000 of 10,000 (stdin)", ["shanten", "-", "-f", "jsonl"], {"stdin": tmp / "undecodable.txt"}),
        ("undecodable byte on line 100 of 200, `wait` (stdin)", ["wait", "-", "-f", "jsonl"], {"stdin": tmp / "undecodable-200.txt"}),
        ("rules cache entry of [ x 100,000", ["score", HAND], {"corrupt": True}),
        ("rules list > /dev/full", ["rules", "list"], {"stdout": "/dev/full"}),
        ("PYTHONIOENCODING=cp1252 rules list", ["rules", "list"], {"env": {"PYTHONIOENCODING": "cp1252"}}),
    ]


def _write(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", default=None, help="Also write the figures to this file.")
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        cache = tmp / "cache"
        env = {**os.environ, "MJTOOLS_CACHE_DIR": str(cache), "PYTHONPATH": str(ROOT), "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        all_cases = cases(tmp)
        for warm in (["score", HAND], ["score", HAND, "-r", "taiwan-16"], ["shanten", READY], ["wait", READY, "-r", "jp"]):
            measure(warm, env)  # a warm rules cache, as a user has after the first call
        base = statistics.median(measure(["shanten", READY, "-f", "json"], env)["cpu_s"] for _ in range(max(3, a.repeat)))
        rows = []
        for name, args, extra in all_cases:
            runs = []
            for _ in range(a.repeat):
                e = {**env, **extra.get("env", {})}
                if extra.get("corrupt"):
                    for f in cache.glob("rules-*.json"):
                        f.write_bytes(b"[" * 100_000)
                stdin = open(extra["stdin"], "rb") if "stdin" in extra else None
                stdout = open(extra["stdout"], "wb") if "stdout" in extra else subprocess.DEVNULL
                try:
                    runs.append(measure(args, e, stdin=stdin, stdout=stdout))
                finally:
                    for f in (stdin, stdout):
                        if f not in (None, subprocess.DEVNULL):
                            f.close()
            med = {k: statistics.median(r[k] for r in runs) for k in ("wall_s", "cpu_s", "rss_mb")}
            last = runs[-1]
            # A refusal is one line with exit 2 or 3; an answer (0, or 1: a batch with error records) says nothing on stderr.
            said = last["stderr_lines"] == (1 if last["status"] >= 2 else 0)
            ok = med["wall_s"] <= GOAL_S and med["rss_mb"] <= GOAL_MB and not last["traceback"] and said
            rows.append({"case": name, **{k: round(v, 3) for k, v in med.items()}, "cpu_ratio": round(med["cpu_s"] / base, 2), "status": last["status"], "stderr_lines": last["stderr_lines"], "met": ok})
    load = os.getloadavg()[0]
    print(f"plain `mjtools shanten {READY} -f json`: {base * 1000:.0f} ms CPU; load average {load:.2f}; median of {a.repeat}")
    print("| case | exit | wall s | CPU s | CPU / plain call | peak RSS MB | within 2 s, 200 MB |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['case']} | {r['status']} | {r['wall_s']:.2f} | {r['cpu_s']:.2f} | {r['cpu_ratio']:.1f}x | {r['rss_mb']:.0f} | {'yes' if r['met'] else '**no**'} |")
    if a.json:
        Path(a.json).write_text(json.dumps({"plain_cpu_s": base, "load": load, "rows": rows}, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    main()
