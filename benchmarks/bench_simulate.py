"""Simulation speed: hands per second per core, beside RLCard's mahjong environment.

    python benchmarks/bench_simulate.py [--hands 300] [--repeats 3] [--rules ID ...] [--json FILE]

- efficient bots in every shipped variant (or the --rules given): hands per CPU second of this
  process (time.process_time), the median of --repeats runs of --hands hands (each run its
  own hands: the seed's hands 0 to N-1, then N to 2N-1 ...); start-up
  excluded (imports, rule loading, the bots' plan values worked out for every seat and one
  warm-up hand happen before the clock starts); full scoring of every win and draw;
- random bots in riichi and sichuan-xuezhan (the 10x RLCard target);
- RLCard: `rlcard.make("mahjong")` with four RandomAgents, games per CPU second, measured
  between the variants' runs (the median of all its runs), so every ratio compares like with
  like on a loaded machine;
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


def bench_engine(rules: str, bot: str, hands: int, seed: int = 1, repeats: int = 1, between=None) -> dict:
    from mjtools.rules import load
    from mjtools.sim.plans import warm_values
    from mjtools.sim.runner import Job, play_hand, ruleset

    rs = load(rules)
    job = Job.from_rules(rs, [bot] * rs.players, seed, hands)
    warm_values(ruleset(job))  # the bots' plan values: start-up, not play
    play_hand(job, repeats * hands)  # the first hand builds the tables and caches: start-up, not play
    runs = []
    wins = draws = 0
    for r in range(repeats):
        if between is not None:
            between()
        wins = draws = 0
        t0 = time.process_time()
        # Each run deals hands of its own (a run replaying the hands before it would meet memos
        # they filled, as a long run does not).
        for i in range(r * hands, (r + 1) * hands):
            rec = play_hand(job, i)
            wins += bool(rec["wins"])
            draws += rec["end"] == "exhaustive_draw" and not rec["wins"]
        runs.append(time.process_time() - t0)
    cpu = statistics.median(runs)
    return {
        "rules": rules,
        "bots": bot,
        "hands": hands,
        "runs": repeats,
        "cpu_s": round(cpu, 2),
        "hands_per_cpu_s": round(hands / cpu, 1),
        "win_share": round(wins / hands, 3),
        "draw_share": round(draws / hands, 3),
    }


class RLCard:
    """RLCard's mahjong environment with four random agents, timed in short runs between the
    variants' (games per CPU second, the median of the runs)."""

    def __init__(self, games: int):
        self.games = games
        self.rates: list[float] = []
        try:
            import rlcard
            from rlcard.agents import RandomAgent
        except ImportError:
            self.env = None
            return
        self.env = rlcard.make("mahjong", config={"seed": 0})
        self.env.set_agents([RandomAgent(num_actions=self.env.num_actions) for _ in range(self.env.num_players)])
        self.env.run(is_training=False)

    def run(self) -> None:
        if self.env is None:
            return
        t0 = time.process_time()
        for _ in range(self.games):
            self.env.run(is_training=False)
        self.rates.append(self.games / (time.process_time() - t0))

    def result(self) -> dict:
        if self.env is None:
            return {"rlcard": "not installed (pip install rlcard)"}
        return {"games": self.games, "runs": len(self.rates), "games_per_cpu_s": round(statistics.median(self.rates), 2)}


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


def shipped() -> list[str]:
    from mjtools.rules import available

    return [rs.id for rs in available()]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=300, help="hands per run and variant")
    ap.add_argument("--repeats", type=int, default=3, help="runs per variant (the median is reported)")
    ap.add_argument("--rules", action="append", default=None, help="variants for the efficient bots (default: every shipped one)")
    ap.add_argument("--random-hands", type=int, default=2000)
    ap.add_argument("--rlcard-games", type=int, default=30, help="RLCard games per run between the variants' runs")
    ap.add_argument("--worker-hands", type=int, default=1200)
    ap.add_argument("--skip-workers", action="store_true")
    ap.add_argument("--json", default=None, help="also write the results to this file")
    a = ap.parse_args()
    out: dict = {"cpus": os.cpu_count(), "load_average": [round(x, 2) for x in os.getloadavg()], "engine": []}
    rl = RLCard(a.rlcard_games)
    rl.run()
    for rules in ("riichi", "sichuan-xuezhan"):
        r = bench_engine(rules, "random", a.random_hands, between=rl.run)
        out["engine"].append(r)
        print(f"{rules:20} random    {r['hands_per_cpu_s']:8.1f} hands/s per core", flush=True)
    for rules in a.rules or shipped():
        r = bench_engine(rules, "efficient", a.hands, repeats=a.repeats, between=rl.run)
        out["engine"].append(r)
        print(f"{rules:20} efficient {r['hands_per_cpu_s']:8.1f} hands/s per core  (median of {r['runs']} runs of {r['hands']} hands; win share {r['win_share']:.2f}, draws {r['draw_share']:.2f})", flush=True)
    out["rlcard"] = rl.result()
    rate = out["rlcard"].get("games_per_cpu_s")
    print(f"rlcard mahjong        random    {rate} games/s per core (median of {len(rl.rates)} runs)" if rate else out["rlcard"]["rlcard"], flush=True)
    if rate:
        for r in out["engine"]:
            r["vs_rlcard"] = round(r["hands_per_cpu_s"] / rate, 2)
        print("ratios to RLCard: " + ", ".join(f"{r['rules']} {r['bots']} {r['vs_rlcard']}x" for r in out["engine"]), flush=True)
    if not a.skip_workers:
        out["workers"] = bench_workers("riichi", "efficient", a.worker_hands)
        w = out["workers"]
        print(f"workers: 1 -> {w['one_worker_s']} s, 2 -> {w['two_workers_s']} s: {w['speedup']}x wall clock (median of {w['runs']}; load {out['load_average']}); CPU-bound speed-up {w['speedup_cpu_bound']}x", flush=True)
    if a.json:
        Path(a.json).write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
