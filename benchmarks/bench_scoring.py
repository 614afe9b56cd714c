#!/usr/bin/env python3
"""Scoring speed per hand: Chinese variants beside riichi, in one run, on the same machine.

    python benchmarks/bench_scoring.py [--hands 2000] [--seed 7] [--repeat 5] [--processes 5] [--json] [--shapes]

For each Chinese variant, seeded random *winning* hands are generated in notation (a standard
shape from tests/gen.py, limited to the variant's tiles: two suits for Sichuan's 缺一门; 16 tiles
for Taiwan; some sets laid down as exposed melds with a source seat; flowers where the variant
has them; ron or tsumo at random). The baseline, "riichi", is riichi valuation as
bench_riichi.py times it: the hands of tests/riichi_cases.py, which carry what a riichi hand
is valued with (dora indicators, red fives, riichi / ippatsu / last-tile flags, kongs of every
kind). "riichi-plain" draws riichi hands the way the Chinese rows are drawn (no indicator, no
flag); its ratio is shown too ("vs plain").

The "mcr" row (Chinese Official) draws tests/mcr_gen.py's wins instead (every form, melds and
kongs, flags, flowers, rare fans favoured); pymahjonggb's fan calculator (C++) is timed on the
same hands in the same run and its ratio shown beside, without a target.

Only legal wins are timed: a shape that is no win under the variant (riichi without a yaku,
Cantonese below its minimum fan) is dropped before timing, and the share of shapes kept is
reported; `--shapes` times every shape instead. The timed loop is the public path a `score`
call takes after the rule file is loaded: parse the hand, score it (decompositions, fans, model,
settlement). In each of --processes fresh interpreters the best of --repeat passes (CPU time,
the rows taking turns) is taken per row, with the ratios to riichi's time per hand; the medians
over the processes are reported, with the range of the ratio.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

from riichi_cases import random_case  # noqa: E402

from gen import winning_case  # noqa: E402
from mcr_gen import mcr_case  # noqa: E402
from mjtools.errors import MjError  # noqa: E402
from mjtools.rules import load  # noqa: E402
from mjtools.rules.hand_options import build_context, normalize  # noqa: E402
from mjtools.scoring import score  # noqa: E402
from mjtools.tiles.notation import parse_hand  # noqa: E402

# row -> the rule file and how its random winning hands are drawn. The riichi baseline is
# riichi valuation as bench_riichi.py times it (tests/riichi_cases.py: dora indicators, red
# fives, riichi and other flags, kongs of every kind); "riichi-plain" draws riichi hands like
# the other rows (no indicator, no flag) and is shown beside it.
VARIANTS: dict[str, dict[str, Any]] = {
    "riichi": {"rules": "riichi", "riichi_cases": True, "sets": 4},
    "riichi-plain": {"rules": "riichi", "sets": 4, "kinds": range(34), "chi": True, "flowers": False, "two_suits": False},
    "sichuan-xuezhan": {"rules": "sichuan-xuezhan", "sets": 4, "kinds": range(27), "chi": False, "flowers": False, "two_suits": True},
    "guangdong-cantonese": {"rules": "guangdong-cantonese", "sets": 4, "kinds": range(34), "chi": True, "flowers": True, "two_suits": False},
    "taiwan-16": {"rules": "taiwan-16", "sets": 5, "kinds": range(34), "chi": True, "flowers": True, "two_suits": False},
    # Chinese Official: tests/mcr_gen.py's legal wins (every form, melds and kongs, flags,
    # flowers); pymahjonggb (C++) times the same hands beside it.
    "mcr": {"rules": "mcr", "mcr_cases": True, "sets": 4},
}
_GEN_KEYS = ("sets", "kinds", "chi", "flowers", "two_suits")
GB_ARGS: dict[str, tuple] = {}  # MCR hand (text + options) -> pymahjonggb's arguments for it


def _key(text: str, opts: dict[str, Any]) -> str:
    return text + repr(sorted(opts.items()))


def cases(row: str, n: int, seed: int) -> list[tuple[str, dict[str, Any]]]:
    """N random winning hands of a row: (hand text, batch options)."""
    rng = random.Random(f"{seed}:{row}")
    how = VARIANTS[row]
    out: list[tuple[str, dict[str, Any]]] = []
    while len(out) < n:
        if how.get("riichi_cases"):
            opts = random_case(rng).json_case()
            out.append((opts.pop("hand"), normalize(opts, "score")))
            continue
        if how.get("mcr_cases"):
            text, opts, gb = mcr_case(rng)
            opts = normalize(opts, "score")
            GB_ARGS[_key(text, opts)] = gb
            out.append((text, opts))
            continue
        got = winning_case(rng, **{k: how[k] for k in _GEN_KEYS})
        if got is not None:
            out.append(got)
    return out


def prepare(row: str, n: int, seed: int, legal: bool = True) -> tuple[Any, list[tuple[str, Any]], float | None]:
    """The rule file and N timed inputs (hand text, context), with the share of generated
    winning shapes that were legal wins. `legal`: keep only those (a riichi shape without a
    yaku, or a Cantonese one below the minimum fan, is not a win and stops before the score
    model and the settlement); otherwise every generated shape is timed."""
    rs = load(VARIANTS[row]["rules"])
    prepared: list[tuple[str, Any]] = []
    tried = 0
    batch = 0
    while len(prepared) < n:
        for text, opts in cases(row, n, seed + batch):
            ctx = build_context(opts, rs)
            try:
                rec = score(parse_hand(text), rs, ctx, text)
            except MjError:  # a shape no table can hold (four fives without the red one)
                continue
            tried += 1
            if not legal or rec["valid"]:
                prepared.append((text, ctx))
                if _key(text, opts) in GB_ARGS:
                    PEER.setdefault(row, []).append(GB_ARGS[_key(text, opts)])
                if len(prepared) == n:
                    break
        batch += 1
    for text, ctx in prepared[:50]:  # warm the lazy imports and registries
        score(parse_hand(text), rs, ctx, text)
    return rs, prepared, (len(prepared) / tried if legal else None)


PEER: dict[str, list[tuple]] = {}  # row -> pymahjonggb's arguments for each timed hand (mcr)


def timed_peer(args: list[tuple]) -> float:
    """CPU seconds for pymahjonggb's fan calculator (C++) on the same hands."""
    import MahjongGB

    calc = MahjongGB.MahjongFanCalculator
    t0 = time.process_time()
    for a in args:
        calc(*a)
    return time.process_time() - t0


def timed(rs: Any, prepared: list[tuple[str, Any]]) -> tuple[float, int]:
    """CPU seconds for one pass (process time: other processes on a busy machine count less)."""
    valid = 0
    t0 = time.process_time()
    for text, ctx in prepared:
        valid += bool(score(parse_hand(text), rs, ctx, text)["valid"])
    return time.process_time() - t0, valid


def run_all(n: int, seed: int, repeat: int, legal: bool = True) -> list[dict[str, Any]]:
    """The variants take turns within each repeat, so a slow spell hits them all alike."""
    setups = {rid: prepare(rid, n, seed, legal) for rid in VARIANTS}
    best: dict[str, float] = {}
    valid: dict[str, int] = {}
    peer: dict[str, float] = {}
    for _ in range(repeat):
        for rid, (rs, prepared, _share) in setups.items():
            secs, valid[rid] = timed(rs, prepared)
            best[rid] = min(best.get(rid, secs), secs)
            if PEER.get(rid):
                secs = timed_peer(PEER[rid][:n])
                peer[rid] = min(peer.get(rid, secs), secs)
    out = []
    for rid in VARIANTS:
        tiles = 3 * VARIANTS[rid]["sets"] + 2
        us = best[rid] / n * 1e6
        out.append({"row": rid, "rules": VARIANTS[rid]["rules"], "hands": n, "valid": valid[rid], "cpu_seconds": round(best[rid], 4), "us_per_hand": round(us, 1), "legal_share": None if setups[rid][2] is None else round(setups[rid][2], 3), "tiles": tiles, "us_per_tile": round(us / tiles, 2)})
        if rid in peer:
            # pymahjonggb (C++) on the same hands: its fans and total only (no settlement).
            out[-1]["pymahjonggb_us_per_hand"] = round(peer[rid] / n * 1e6, 2)
            out[-1]["vs_pymahjonggb"] = round(best[rid] / peer[rid], 1)
    return out


def ratios(rows: list[dict[str, Any]]) -> None:
    """Each row's time over the riichi row's (per hand, per tile) and over riichi-plain's."""
    base, base_tile, plain = rows[0]["us_per_hand"], rows[0]["us_per_tile"], rows[1]["us_per_hand"]
    for r in rows:
        r["vs_riichi"] = round(r["us_per_hand"] / base, 2)
        r["vs_riichi_per_tile"] = round(r["us_per_tile"] / base_tile, 2)
        r["vs_riichi_plain"] = round(r["us_per_hand"] / plain, 2)


def in_processes(argv: list[str], processes: int) -> list[dict[str, Any]]:
    """Run the measurement in fresh interpreters (hash seeds 0..P-1: a process's string hashes
    shift its dict lookups, and so its speed, by several per cent) and keep per row the median
    time and the median of the ratios each process measured, with their range."""
    runs = []
    for i in range(processes):
        cmd = [sys.executable, __file__, *argv, "--json", "--processes", "1"]
        out = subprocess.run(cmd, check=True, capture_output=True, text=True, env={**os.environ, "PYTHONHASHSEED": str(i)}).stdout
        runs.append([json.loads(line) for line in out.splitlines() if line.strip()])
    rows = []
    for j, first in enumerate(runs[0]):
        row = dict(first)
        for key in ("us_per_hand", "us_per_tile", "cpu_seconds", "vs_riichi", "vs_riichi_per_tile", "vs_riichi_plain", "pymahjonggb_us_per_hand", "vs_pymahjonggb"):
            if key not in first:
                continue
            values = [run[j][key] for run in runs]
            row[key] = round(statistics.median(values), 2)
            if key.startswith("vs_"):
                row[key + "_range"] = [min(values), max(values)]
        row["processes"] = processes
        rows.append(row)
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--processes", type=int, default=5, help="fresh interpreters to measure in; the medians are reported (1: this one)")
    ap.add_argument("--json", action="store_true", help="one JSON object per row")
    ap.add_argument("--shapes", action="store_true", help="time every generated winning shape, legal win or not (the measure before 2026-11-29)")
    args = ap.parse_args(argv)
    if args.processes > 1:
        passed = ["--hands", str(args.hands), "--seed", str(args.seed), "--repeat", str(args.repeat)] + (["--shapes"] if args.shapes else [])
        rows = in_processes(passed, args.processes)
    else:
        rows = run_all(args.hands, args.seed, args.repeat, legal=not args.shapes)
        ratios(rows)
    if args.json:
        for r in rows:
            print(json.dumps(r))
        return 0
    spread = args.processes > 1
    print(f"{'row':22} {'hands':>6} {'legal%':>6} {'tiles':>5} {'us/hand':>9} {'vs riichi':>9}" + (f" {'(range)':>11}" if spread else "") + f" {'per tile':>9} {'vs plain':>9}")
    for r in rows:
        share = "-" if r["legal_share"] is None else f"{100 * r['legal_share']:.0f}"
        rng = f" {r['vs_riichi_range'][0]:>5}-{r['vs_riichi_range'][1]:<5}" if spread else ""
        print(f"{r['row']:22} {r['hands']:>6} {share:>6} {r['tiles']:>5} {r['us_per_hand']:>9} {r['vs_riichi']:>9}{rng} {r['vs_riichi_per_tile']:>9} {r['vs_riichi_plain']:>9}")
    how = f"medians of {args.processes} processes, each the best of {args.repeat} passes" if spread else f"best of {args.repeat} passes"
    for r in rows:
        if "vs_pymahjonggb" in r:
            print(f"{r['row']}: pymahjonggb (C++) {r['pymahjonggb_us_per_hand']} us/hand on the same hands (fans and total only); mjtools/pymahjonggb {r['vs_pymahjonggb']}x")
    print(f"({how}; python {sys.version.split()[0]})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
