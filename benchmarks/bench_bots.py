"""The bots per variant: how often hands are won and drawn, what wins are worth, how often
players deal in, and how fast, for 4 efficient, 4 defensive and 4 random bots.

    python benchmarks/bench_bots.py [--hands 500] [--workers 2] [--rules ID ...] [--write]
    python benchmarks/bench_bots.py --duel [--duel-hands 2000]

- hands with a win, exhaustive draws: shares of hands (an abortive draw is neither);
- self-draw: the share of wins won by self-draw; mean fan: the mean `fan_total` of wins (the
  variant's unit: fan, han, 台, 番, points for the point-counting variants);
- deal-ins: discard wins per player and hand;
- hands/s: hands per CPU second of the processes that played them (start-up excluded).

`--write` replaces the table in `benchmarks/README.md` ("Bots per variant"). `--duel` plays
riichi with 2 defensive and 2 efficient bots, half the hands with the defensive bots at East and
West and half at South and North, and compares how often each kind deals in per hand played.
Seeded: the same arguments give the same tables (hands/s aside).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

BEGIN, END = "<!-- bots:begin -->", "<!-- bots:end -->"


def _timed(args: tuple) -> tuple[list[str], float]:
    from mjtools.sim.runner import run_chunk

    t0 = time.process_time()
    lines = run_chunk(*args)
    return lines, time.process_time() - t0


def play(rules: str, bots: list[str] | str, hands: int, seed: int, workers: int, options: dict | None = None) -> tuple[list[dict], float]:
    """(hand records, CPU seconds of the processes that played them)."""
    from mjtools.rules import load
    from mjtools.sim.plans import warm_values
    from mjtools.sim.runner import Job, _chunks, chunk_size, pool_context, ruleset

    rs = load(rules, options)
    names = [bots] * rs.players if isinstance(bots, str) else list(bots)
    job = Job.from_rules(rs, names, seed, hands, options)
    warm_values(ruleset(job))  # forked workers start with the plan values worked out
    chunks = [(job, a, b) for a, b in _chunks(0, hands, chunk_size(hands, workers))]
    if workers <= 1:
        got = [_timed(c) for c in chunks]
    else:
        with pool_context().Pool(workers) as pool:
            got = list(pool.imap(_timed, chunks))
    return [json.loads(line) for lines, _ in got for line in lines], sum(cpu for _, cpu in got)


def stats(recs: list[dict], cpu: float, players: int) -> dict:
    n = len(recs)
    wins = [w for r in recs for w in r["wins"]]
    return {
        "hands": n,
        "win_share": round(sum(1 for r in recs if r["wins"]) / n, 3),
        "draw_share": round(sum(1 for r in recs if r["end"] == "exhaustive_draw" and not r["wins"]) / n, 3),
        "self_draw_share": round(sum(1 for w in wins if w["from"] is None) / max(1, len(wins)), 3),
        "mean_fan": round(sum(w["fan_total"] or 0 for w in wins) / max(1, len(wins)), 2),
        "deal_ins_per_player_hand": round(sum(1 for w in wins if w["from"] is not None) / (n * players), 4),
        "hands_per_cpu_s": round(n / cpu, 1) if cpu > 0 else None,
    }


def variants() -> list[str]:
    from mjtools.rules import available

    return [rs.id for rs in available()]


def table(rows: list[dict]) -> str:
    head = "| variant | bots | hands with a win | exhaustive draws | self-draw | mean fan of wins | deal-ins per player and hand | hands/s per core |\n|---|---|---|---|---|---|---|---|\n"
    out = []
    for r in rows:
        out.append(
            f"| {r['rules']} | {r['bots']} | {100 * r['win_share']:.1f}% | {100 * r['draw_share']:.1f}% | {100 * r['self_draw_share']:.1f}% | {r['mean_fan']:g} | {r['deal_ins_per_player_hand']:.3f} | {r['hands_per_cpu_s']} |"
        )
    return head + "\n".join(out) + "\n"


def duel(hands: int, seed: int, workers: int, rules: str = "riichi") -> dict:
    """2 defensive against 2 efficient bots: deal-ins per hand played by each kind."""
    from mjtools.rules import load

    seats = load(rules).seats
    count = {"defensive": [0, 0], "efficient": [0, 0]}  # deal-ins, seat-hands
    for half, layout in enumerate((["defensive", "efficient"] * 2, ["efficient", "defensive"] * 2)):
        recs, _ = play(rules, layout, hands // 2, seed + half, workers)
        for r in recs:
            for i, s in enumerate(seats):
                c = count[layout[i]]
                c[1] += 1
                c[0] += sum(1 for w in r["wins"] if w["from"] == s)
    d = count["defensive"][0] / count["defensive"][1]
    e = count["efficient"][0] / count["efficient"][1]
    return {"rules": rules, "hands": hands, "seed": seed, "defensive_deal_ins_per_hand": round(d, 4), "efficient_deal_ins_per_hand": round(e, 4), "ratio": round(d / e, 3) if e else None}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=500)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--rules", action="append", default=None, help="variants (default: every shipped one)")
    ap.add_argument("--bots", default="efficient,defensive,random", help="bot kinds to play, 4 of a kind each")
    ap.add_argument("--duel", action="store_true", help="only the riichi duel of defensive against efficient bots")
    ap.add_argument("--duel-hands", type=int, default=2000)
    ap.add_argument("--write", action="store_true", help="replace the table in benchmarks/README.md")
    ap.add_argument("--json", default=str(ROOT / "benchmarks" / "results" / "bots.json"))
    a = ap.parse_args()
    if a.duel:
        r = duel(a.duel_hands, a.seed, a.workers)
        print(json.dumps(r))
        return
    rows = []
    for rules in a.rules or variants():
        for bot in a.bots.split(","):
            from mjtools.rules import load

            recs, cpu = play(rules, bot, a.hands, a.seed, a.workers)
            row = {"rules": rules, "bots": bot, **stats(recs, cpu, load(rules).players)}
            rows.append(row)
            print(json.dumps(row), flush=True)
    text = table(rows)
    print(text)
    out = {"hands": a.hands, "seed": a.seed, "rows": rows, "duel": duel(a.duel_hands, a.seed, a.workers)}
    print(json.dumps(out["duel"]))
    Path(a.json).write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")
    if a.write:
        readme = ROOT / "benchmarks" / "README.md"
        src = readme.read_text(encoding="utf-8")
        d = out["duel"]
        block = (
            f"{BEGIN}\n{text}\nRiichi, 2 defensive against 2 efficient bots, {d['hands']} hands (half with the defensive bots at East and West, half at South and North), seed {d['seed']}: "
            f"the defensive bots deal in {d['defensive_deal_ins_per_hand']:.3f} times per hand played, the efficient ones {d['efficient_deal_ins_per_hand']:.3f} ({d['ratio']:.2f}x).\n{END}"
        )
        if BEGIN in src:
            src = src[: src.index(BEGIN)] + block + src[src.index(END) + len(END) :]
        else:
            src = src.rstrip("\n") + "\n\n## Bots per variant (`bench_bots.py`)\n\n" + block + "\n"
        readme.write_text(src, encoding="utf-8")


if __name__ == "__main__":
    main()
