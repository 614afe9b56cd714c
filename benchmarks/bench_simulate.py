"""Simulation speed: hands per second per core, beside RLCard's mahjong environment.

    python benchmarks/bench_simulate.py [--hands 2000] [--rlcard-games 200] [--json FILE]

- hands/s per core: CPU seconds of this process (time.process_time), start-up excluded
  (imports and rule loading happen before the clock starts), full scoring of every win and
  draw, random and efficient bots, riichi and sichuan-xuezhan (and any --rules given);
- RLCard: `rlcard.make("mahjong")` with four RandomAgents, games per CPU second, same run;
- workers: wall-clock speed-up of `--workers 2` over one worker on the same hands (median of
  three), through the same runner the CLI uses.

CPU time per hand is what the targets are about; wall-clock figures depend on what else the
machine runs, so the load average is printed with them.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def bench_engine(rules: str, bot: str, hands: int, seed: int = 1) -> dict:
    from mjtools.rules import load
    from mjtools.sim.runner import Job, play_hand

    rs = load(rules)
    job = Job.from_rules(rs, [bot] * rs.players, seed, hands)
    play_hand(job, hands)  # the first hand builds the tables and caches: start-up, not play
    wins = 0
    t0 = time.process_time()
    w0 = time.perf_counter()
    for i in range(hands):
        wins += bool(play_hand(job, i)["wins"])
    cpu = time.process_time() - t0
    wall = time.perf_counter() - w0
    return {"rules": rules, "bots": bot, "hands": hands, "cpu_s": round(cpu, 2), "wall_s": round(wall, 2), "hands_per_cpu_s": round(hands / cpu, 1), "win_share": round(wins / hands, 3)}


def bench_rlcard(games: int) -> dict:
    try:
        import rlcard
        from rlcard.agents import RandomAgent
    except ImportError:
        return {"rlcard": "not installed (pip install rlcard)"}
    env = rlcard.make("mahjong", config={"seed": 0})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])
    env.run(is_training=False)
    t0 = time.process_time()
    for _ in range(games):
        env.run(is_training=False)
    cpu = time.process_time() - t0
    return {"games": games, "cpu_s": round(cpu, 2), "games_per_cpu_s": round(games / cpu, 2)}


def _timed_chunk(args: tuple) -> tuple[list[str], float, int]:
    from mjtools.sim.runner import run_chunk

    t0 = time.process_time()
    lines = run_chunk(*args)
    return lines, time.process_time() - t0, os.getpid()


def bench_workers(rules: str, bot: str, hands: int, repeats: int = 3) -> dict:
    """Wall-clock speed-up of 2 workers over 1 (median of `repeats`), and the speed-up the CPU
    time allows: one worker's CPU time over the busiest of two workers' (what the wall clock
    shows on otherwise idle cores)."""
    from mjtools.rules import load
    from mjtools.sim.runner import Job, _chunks, chunk_size, pool_context, run_lines

    rs = load(rules)
    job = Job.from_rules(rs, [bot] * rs.players, 2, hands)
    times: dict[int, list[float]] = {1: [], 2: []}
    cpu_bound: list[float] = []
    for _ in range(repeats):
        for w in (1, 2):
            t0 = time.perf_counter()
            n = sum(1 for _ in run_lines(job, 0, w))
            times[w].append(time.perf_counter() - t0)
            assert n == hands
        c0 = time.process_time()
        one_cpu = 0.0
        for _ in run_lines(job, 0, 1):
            pass
        one_cpu = time.process_time() - c0
        per: dict[int, float] = {}
        with pool_context().Pool(2) as pool:
            for _lines, cpu, pid in pool.imap(_timed_chunk, [(job, a, b) for a, b in _chunks(0, hands, chunk_size(hands, 2))]):
                per[pid] = per.get(pid, 0.0) + cpu
        cpu_bound.append(one_cpu / max(per.values()))
    one, two = statistics.median(times[1]), statistics.median(times[2])
    return {
        "rules": rules,
        "bots": bot,
        "hands": hands,
        "one_worker_s": round(one, 2),
        "two_workers_s": round(two, 2),
        "speedup": round(one / two, 2),
        "speedup_cpu_bound": round(statistics.median(cpu_bound), 2),
        "runs": repeats,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--rules", action="append", default=None, help="variants (default riichi and sichuan-xuezhan)")
    ap.add_argument("--rlcard-games", type=int, default=200)
    ap.add_argument("--worker-hands", type=int, default=1200)
    ap.add_argument("--skip-workers", action="store_true")
    ap.add_argument("--json", default=None, help="also write the results to this file")
    a = ap.parse_args()
    out: dict = {"cpus": os.cpu_count(), "load_average": [round(x, 2) for x in os.getloadavg()], "engine": []}
    for rules in a.rules or ["riichi", "sichuan-xuezhan"]:
        for bot in ("random", "efficient"):
            r = bench_engine(rules, bot, a.hands)
            out["engine"].append(r)
            print(f"{rules:16} {bot:9} {r['hands_per_cpu_s']:8.1f} hands/s per core  (win share {r['win_share']:.2f}, {r['hands']} hands, {r['cpu_s']} s CPU)", flush=True)
    out["rlcard"] = bench_rlcard(a.rlcard_games)
    rl = out["rlcard"].get("games_per_cpu_s")
    print(f"rlcard mahjong    random    {rl} games/s per core" if rl else out["rlcard"]["rlcard"], flush=True)
    if rl:
        for r in out["engine"]:
            if r["bots"] == "random":
                r["vs_rlcard"] = round(r["hands_per_cpu_s"] / rl, 1)
                print(f"  {r['rules']} random bots: {r['vs_rlcard']}x RLCard", flush=True)
    if not a.skip_workers:
        out["workers"] = bench_workers("riichi", "efficient", a.worker_hands)
        w = out["workers"]
        print(f"workers: 1 -> {w['one_worker_s']} s, 2 -> {w['two_workers_s']} s: {w['speedup']}x wall clock (median of {w['runs']}; load {out['load_average']}); CPU-bound speed-up {w['speedup_cpu_bound']}x", flush=True)
    if a.json:
        Path(a.json).write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
