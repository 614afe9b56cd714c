"""Replay speed: a 1,000-hand game record replayed and checked, beside `mahjong` 2.1.0 scoring
as many wins in the same run.

    python benchmarks/bench_replay.py [--hands 1000] [--seed S] [--repeat R] [--format tenhou6|mjai]

The record is made by the simulator (riichi, efficient bots: hand i from the seed's hand i)
and written as one tenhou.net/6 (or mjai) record of that many hands. Timed, in one process
(one core): reading the text and `check_game` — every hand's events replayed, every win
scored, every exhaustive draw settled, every result compared. The peer reference: `mahjong`
2.1.0 estimating the value of as many seeded random winning hands as the record has wins
(tests/riichi_cases.py), i.e. the scoring alone. The least CPU time of R rounds is reported.
"""

from __future__ import annotations

import argparse
import os
import random
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests"))
sys.path.insert(0, ROOT)

from bench_riichi import best_of  # noqa: E402  (the same CPU-time loop)


def record(hands: int, seed: int, fmt: str) -> str:
    from mjtools.gamelog.model import Game
    from mjtools.rules import load
    from mjtools.sim.bots import make_bots
    from mjtools.sim.engine import HandEngine
    from mjtools.sim.logs import hand_round, render
    from mjtools.sim.seeding import hand_seed

    rs = load("riichi")
    rounds = []
    for i in range(hands):
        s = hand_seed(seed, i)
        e = HandEngine(rs, make_bots(["efficient"] * 4, rs, s), s, log=True)
        e.play()
        rounds.append(hand_round(e, i, [0, 1, 2, 3], 0, [25000] * 4))
    return render(Game("bench", fmt, 4, rounds), fmt)


def main(argv: list[str] | None = None) -> dict[str, float]:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--format", choices=["tenhou6", "mjai"], default="tenhou6")
    a = ap.parse_args(argv)

    from mahjong.hand_calculating.hand import HandCalculator
    from riichi_cases import random_case

    from mjtools.gamelog.check import check_game
    from mjtools.gamelog.read import parse
    from mjtools.rules import load

    text = record(a.hands, a.seed, a.format)
    rs = load("riichi")
    out: list[dict] = []

    def run() -> None:
        out[:] = check_game(parse(text, "bench"), rs)

    run()  # warm-up: caches, tables
    t_replay = best_of(a.repeat, run)
    assert all(r.get("match") for r in out), [r for r in out if not r.get("match")][:1]
    wins = sum(len((r.get("recorded") or {}).get("wins", [])) for r in out)
    rng = random.Random(a.seed)
    peer = [random_case(rng).mahjong_args() for _ in range(wins)]

    def run_peer() -> None:
        est = HandCalculator.estimate_hand_value
        for tiles, win, melds, dora, ura, config in peer:
            est(tiles, win, melds=melds, dora_indicators=dora, config=config, ura_dora_indicators=ura)

    t_peer = best_of(a.repeat, run_peer)
    res = {
        "hands": len(out),
        "wins": wins,
        "format": a.format,
        "bytes": len(text.encode()),
        "replay_s": round(t_replay, 3),
        "replay_ms_per_hand": round(1000 * t_replay / max(1, len(out)), 3),
        "mahjong_s_for_as_many_wins": round(t_peer, 3),
        "ratio_replay_to_mahjong_scoring": round(t_replay / t_peer, 2) if t_peer else None,
    }
    for k, v in res.items():
        print(f"{k}: {v}")
    return res


if __name__ == "__main__":
    main()
