"""Whole riichi games (simulate --games N --length east|south) under a rule file's `game` section.

Players keep their index for the whole game; the dealer of a hand is the player whose turn it
is (kyoku), and seat i (E S W N) of that hand is player (dealer + i) mod n. Between hands:
honba grow on a dealer's repeat and on every draw and go back to 0 when another player wins;
riichi sticks left on the table carry over; the dealer repeats after his own win, when ready at
an exhaustive draw (`game.repeat`) and after an abortive draw. The game ends after the last
hand of the length (with `game.extension` sudden death until someone has `return_points`), when
a player is below zero (`busting`), or at the last hand when the dealer who would repeat is in
first place (`agari_yame`). Final placement: by points, ties to the earlier seat; leftover sticks
to first place; score = (points - return_points) / 1000 (rounded as `rounding` says) + uma, and
the oka to first place.

Game g plays from derive("game", seed, g) and hand h of it from derive("game-hand", seed, g, h):
a game's record is the same whichever process plays it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mjtools.rules.model import Ruleset
from mjtools.sim.seeding import derive

LENGTHS = {"east": 1, "south": 2}


@dataclass
class Table:
    """What carries from one hand of a game to the next, as the engine reads it."""

    round_wind: str
    honba: int
    sticks: int
    may_riichi: list[bool]


def game_seed(seed: int, game: int) -> int:
    return derive("game", seed, game)


def _final(rs: Ruleset, points: list[int], sticks: int) -> tuple[list[int], list[int], list[float]]:
    """(points after leftover sticks, place of each player 1..n, final score of each)."""
    g = rs.section("game")
    n = len(points)
    pts = list(points)
    order = sorted(range(n), key=lambda p: (-pts[p], p))  # ties: the earlier seat places higher
    if sticks and g.get("leftover_sticks", "first_place") == "first_place":
        pts[order[0]] += sticks * int((rs.section("settlement").get("riichi") or {}).get("stick", 1000))
    order = sorted(range(n), key=lambda p: (-pts[p], p))
    place = [0] * n
    for i, p in enumerate(order):
        place[p] = i + 1
    ret = int(g.get("return_points", 30000))
    start = int(g.get("start_points", 25000))
    uma = list(g.get("uma", [0] * n))
    oka = (ret - start) * n / 1000 if g.get("oka", True) else 0
    rounded = g.get("rounding", "none") == "nearest_1000"
    score = [0.0] * n
    for i, p in enumerate(order):
        base = ((pts[p] + 500) // 1000 * 1000 - ret) / 1000 if rounded else (pts[p] - ret) / 1000
        score[p] = base + uma[i] / 1000 + (oka if i == 0 else 0)
    if rounded:  # first place takes what the others' rounding leaves, so the scores sum to 0
        first = order[0]
        score[first] = -sum(score[p] for p in range(n) if p != first)
    return pts, place, [round(s, 1) for s in score]


def play_game(rs: Ruleset, bots: list[str], seed: int, game: int, length: str, log_format: str | None = None) -> dict[str, Any]:
    """One whole game: its summary record, the records of its hands and (log_format) its
    record text."""
    from mjtools.sim.bots import make_bots
    from mjtools.sim.engine import HandEngine

    g = rs.section("game")
    n = rs.players
    points = [int(g.get("start_points", 25000))] * n
    rounds = LENGTHS[length]
    extension = g.get("extension", "none") == "sudden_death"
    target = int(g.get("return_points", 30000))
    min_riichi = int(g.get("riichi_min_points", 1000))
    repeat_ready = g.get("repeat", "dealer_wins_or_ready") == "dealer_wins_or_ready"
    wind, kyoku, honba, sticks = 0, 0, 0, 0
    hands: list[dict[str, Any]] = []
    logged = []
    busted = False
    gseed = game_seed(seed, game)
    while True:
        seat_players = [(kyoku + i) % n for i in range(n)]
        hseed = derive("game-hand", seed, game, len(hands))
        table = Table("ESWN"[wind], honba, sticks, [points[p] >= min_riichi for p in seat_players])
        e = HandEngine(rs, make_bots([bots[p] for p in seat_players], rs, hseed), hseed, log=log_format is not None, table=table)
        rec = e.play()
        start_points = list(points)
        for i, s in enumerate(rs.seats):
            points[seat_players[i]] += int(rec["net"][s])
        if log_format is not None:
            from mjtools.sim.logs import hand_round

            logged.append(hand_round(e, len(hands), seat_players, kyoku, start_points))
        won = bool(rec["wins"])
        dealer_won = any(w["seat"] == rs.seats[0] for w in rec["wins"])
        dealer_ready = bool(e.draw_results and any(x.get("seat") == rs.seats[0] and x.get("tenpai") for x in e.draw_results.get("results", [])))
        repeat = dealer_won or rec["end"] == "abort" or (not won and repeat_ready and dealer_ready)
        hands.append({"hand": len(hands), "round": f"{'ESWN'[wind]}{kyoku + 1}", "honba": honba, "sticks": sticks, "dealer": kyoku, "hand_seed": hseed, **rec, "points": list(points)})
        sticks = e.sticks if not won else 0
        honba = honba + 1 if (repeat or not won) else 0
        if g.get("busting", True) and min(points) < 0:
            busted = True
            break
        last = wind >= rounds - 1 and kyoku == n - 1
        ext_round = wind >= rounds
        if last or ext_round:
            top = max(range(n), key=lambda p: (points[p], -p))
            if repeat and g.get("agari_yame", True) and top == kyoku and (won or dealer_ready) and not ext_round:
                break  # agari-yame / tenpai-yame: the last dealer in first place stops
            if ext_round and max(points) >= target:
                break  # sudden death: someone has reached the return points
            if not repeat and last and not (extension and max(points) < target):
                break
            if not repeat and ext_round and kyoku == n - 1:
                break  # at most one more round
        if not repeat:
            kyoku += 1
            if kyoku == n:
                kyoku = 0
                wind += 1
    final, place, score = _final(rs, points, sticks)
    out: dict[str, Any] = {
        "game": game,
        "game_seed": gseed,
        "length": length,
        "bots": list(bots),
        "hands": len(hands),
        "final_points": final,
        "placement": place,
        "score": score,
        "busted": busted,
        "leftover_sticks": sticks,
        "hand_records": hands,
    }
    if log_format is not None:
        from mjtools.gamelog.model import Game
        from mjtools.sim.logs import render

        out["_log"] = render(Game(f"game {game}", log_format, n, logged, names=[f"{b} {i}" for i, b in enumerate(bots)]), log_format)
    return out
