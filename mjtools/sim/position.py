"""`simulate HAND`: the rest of a hand from a position, once per possible discard.

Trial t deals the other hands and the wall from the unseen tiles with a generator seeded
from (seed, t), the same for every discard (common random numbers: the discards are compared
on the same deals). The player discards the candidate, then its bot plays on.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from mjtools.errors import UsageError
from mjtools.output import table
from mjtools.rules.model import Ruleset
from mjtools.sim.config import RED, kind_of
from mjtools.sim.runner import Job, ruleset
from mjtools.sim.seeding import derive
from mjtools.sim.state import code_str

Z95 = 1.959963984540054


def wilson(k: int, n: int) -> list[float]:
    """95% Wilson score interval of a proportion k/n."""
    if n == 0:
        return [0.0, 1.0]
    p = k / n
    den = 1 + Z95**2 / n
    mid = (p + Z95**2 / (2 * n)) / den
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / den
    return [round(max(0.0, mid - half), 4), round(min(1.0, mid + half), 4)]


def mean_ci(xs: Sequence[float]) -> tuple[float, list[float]]:
    n = len(xs)
    if n == 0:
        return 0.0, [0.0, 0.0]
    m = sum(xs) / n
    if n == 1:
        return m, [m, m]
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    half = Z95 * sd / math.sqrt(n)
    return round(m, 2), [round(m - half, 2), round(m + half, 2)]


def _parse(text: str, rs: Ruleset, seat: str) -> tuple[list[int], int]:
    """(the 13 tiles held before the draw, the drawn + tile) as codes."""
    from mjtools.errors import NotationError
    from mjtools.rules.validate import check_hand
    from mjtools.tiles.hand import Hand

    try:
        hand = Hand.parse(text)
    except NotationError:
        raise
    if hand.melds or hand.aside:
        raise UsageError("simulate HAND takes concealed tiles only (melds and flowers are not supported yet)")
    hand = check_hand(hand, rs, text, sizes=(rs.hand_size + 1,))
    tiles = [t.kind | (RED if t.red else 0) for t in hand.hand_tiles()]
    if any(kind_of(c) in rs.bonus_kinds for c in tiles):
        raise UsageError("simulate HAND: set bonus tiles aside; they are not part of the hand")
    last = tiles.pop()  # the + tile (or the last written) is the one just drawn
    return tiles, last


def trial(job: Job, seat: str, held: list[int], drawn: int, discard: int, t: int, live: int | None, visible: list[int]) -> tuple[int, int, float]:
    """One game from the position: (won, ready at the end, points of the seat)."""
    from mjtools.sim.bots import make_bots
    from mjtools.sim.engine import HandEngine
    from mjtools.sim.setup import Setup

    rs = ruleset(job)
    seed = derive("position", job.seed, t)
    setup = Setup(hands={seat: list(held)}, draws=[drawn], script={seat: [f"discard {code_str(discard)}"]}, start=rs.seats.index(seat), mid_hand=True, out_of_play=list(visible), live=live)
    e = HandEngine(rs, make_bots(job.bots, rs, seed), seed, setup=setup)
    rec = e.play()
    p = e.players[rs.seats.index(seat)]
    won = int(p.wins > 0)
    size = len(p.hand) + 3 * len(p.melds)
    ready = int(won or (size == rs.hand_size and bool(e.waits(p))))
    return won, ready, float(rec["net"][seat])


def _batch(args: tuple) -> list[tuple[int, int, int, float]]:
    job, seat, held, drawn, discard, trials, live, visible = args
    return [(discard, *trial(job, seat, held, drawn, discard, t, live, visible)) for t in trials]


def position_records(text: str, rs: Ruleset, bots: list[str], seed: int, trials: int, seat: str, discards: str | None, wall_left: int | None, visible: str | None, workers: int = 1) -> dict[str, Any]:
    from mjtools.sim.fastshape import NO_MELDS, Analyzer
    from mjtools.sim.setup import codes_of

    seat = seat.upper()
    if seat not in rs.seats:
        raise UsageError(f"--seat {seat}: {rs.id} has seats {', '.join(rs.seats)}")
    if trials < 1:
        raise UsageError("--trials is at least 1")
    if workers < 1:
        raise UsageError("--workers is at least 1")
    if rs.section("play").get("tile_exchange") or rs.section("play").get("void_declaration"):
        raise UsageError(f"{rs.id} exchanges tiles or declares a void suit before play; simulate HAND starts after that and cannot replay it")
    held, drawn = _parse(text, rs, seat)
    vis = codes_of(visible or "", "--visible")
    hand14 = held + [drawn]
    kinds = sorted({c for c in hand14}, key=lambda c: (kind_of(c), c))
    if discards:
        want = {kind_of(c) for c in codes_of(discards, "--discard")}
        missing = want - {kind_of(c) for c in kinds}
        if missing:
            raise UsageError(f"--discard: {', '.join(code_str(k) for k in sorted(missing))} is not in the hand")
        kinds = [c for c in kinds if kind_of(c) in want]
    counts = [0] * 50
    for c in hand14:
        counts[kind_of(c)] += 1
    an = Analyzer(rs.base_spec, rs.copies)
    unseen = [rs.copies[k] - counts[k] for k in range(50)]
    for c in vis:
        unseen[kind_of(c)] -= 1
    rows = {r.kind: r for r in an.discard_rows(counts, NO_MELDS, counts, unseen)}
    job = Job.from_rules(rs, bots, seed, 0)
    work = [(job, seat, held, drawn, c, range(a, min(a + 25, trials)), wall_left, vis) for c in kinds for a in range(0, trials, 25)]
    results: dict[int, list[tuple[int, int, float]]] = {c: [] for c in kinds}
    if workers > 1:
        from mjtools.sim.runner import worker_pool

        with worker_pool(workers) as pool:
            for chunk in pool.imap(_batch, work):
                for c, *r in chunk:
                    results[c].append(tuple(r))  # type: ignore[arg-type]
    else:
        for w in work:
            for c, *r in _batch(w):
                results[c].append(tuple(r))  # type: ignore[arg-type]
    out = []
    for c in kinds:
        res = results[c]
        wins = sum(r[0] for r in res)
        ready = sum(r[1] for r in res)
        pts, pts_ci = mean_ci([r[2] for r in res])
        row = rows.get(kind_of(c))
        out.append(
            {
                "tile": code_str(c),
                "shanten": row.shanten if row else None,
                "effective_count": row.live if row else None,
                "win": round(wins / len(res), 4),
                "win_ci": wilson(wins, len(res)),
                "ready": round(ready / len(res), 4),
                "ready_ci": wilson(ready, len(res)),
                "points": pts,
                "points_ci": pts_ci,
            }
        )
    out.sort(key=lambda r: (-r["win"], -r["points"], r["tile"]))
    from mjtools.tiles.notation import canonical

    return {"hand": canonical(text), "rules": rs.id, "seat": seat, "trials": trials, "seed": seed, "bots": bots, "wall_left": wall_left, "discards": out}


def position_table(rec: dict[str, Any]) -> str:
    rows = [
        [
            d["tile"],
            d["shanten"],
            d["effective_count"],
            f"{100 * d['win']:.1f}% [{100 * d['win_ci'][0]:.1f}, {100 * d['win_ci'][1]:.1f}]",
            f"{100 * d['ready']:.1f}% [{100 * d['ready_ci'][0]:.1f}, {100 * d['ready_ci'][1]:.1f}]",
            f"{d['points']:g} [{d['points_ci'][0]:g}, {d['points_ci'][1]:g}]",
        ]
        for d in rec["discards"]
    ]
    head = f"{rec['hand']}  [{rec['rules']}]  seat {rec['seat']}, {rec['trials']} games per discard (95% intervals)\n"
    return head + table(rows, ["discard", "shanten", "live", "win", "ready at end", "mean points"]) + "\n"
