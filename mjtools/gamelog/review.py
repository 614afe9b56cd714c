"""`replay --review PLAYER`: each of a player's discards beside the most efficient one.

At every discard the player chose (not the tiles a riichi forces out), the hand before it is
read as `mjtools shanten HAND --visible TILES` reads it — the same shanten and live effective
tiles, counting as seen everything the player could see: every river, every meld, the dora
indicators and the Norths set aside. A discard agrees when it keeps the best shanten with as
many live effective tiles as the best discard (ties agree). Records:

    {"game", "hand", "round", "turn", "player", "held": NOTATION, "discard": TILE,
     "chosen": {"tile", "shanten", "effective_count"}, "best": [{...}, ...], "given_up": int}

for each discard that differs, then {"game", "review": {"player", "decisions", "agreed",
"agreement", "effective_given_up", "shanten_lost"}}.
"""

from __future__ import annotations

from typing import Any

from mjtools.errors import UsageError
from mjtools.gamelog.model import Game, RecordError
from mjtools.gamelog.replay import HandReplay, tile
from mjtools.rules.model import Ruleset


def player_index(game: Game, who: str) -> int:
    if who.isdigit() and int(who) < game.players:
        return int(who)
    if who in game.names:
        return game.names.index(who)
    raise UsageError(f"--review {who}: give a player 0-{game.players - 1}" + (f" or a name ({', '.join(game.names)})" if game.names else ""))


def _visible(rep: HandReplay, me: int) -> list[int]:
    seen = [0] * 34
    for i, q in enumerate(rep.p):
        for c in q.river:
            seen[c & 63] += 1
        for c in q.kita:
            seen[c & 63] += 1
        if i != me:  # his own melds are in his hand's counts
            for m in q.melds:
                for t in m.tiles:
                    seen[t.kind] += 1
    for c in rep.dora:
        seen[c & 63] += 1
    return seen


def _rows(rep: HandReplay, me: int, rs: Ruleset) -> list[dict[str, Any]]:
    from mjtools.analysis.engine import discard_table
    from mjtools.analysis.state import state_of

    hand = rep.held(me)
    st = state_of(hand, rs.base_spec)
    seen = _visible(rep, me)
    copies = list(rs.copies)
    unseen = [max(0, copies[k] - hand.counts[k] - (seen[k] if k < 34 else 0)) for k in range(len(copies))]
    return discard_table(st, rs.base_spec, copies, unseen)


def review_game(game: Game, rs: Ruleset, who: str) -> list[dict[str, Any]]:
    from mjtools.gamelog.check import prepare

    me = player_index(game, who)
    prepare(game, rs)
    out: list[dict[str, Any]] = []
    decisions = agreed = given_up = lost = 0
    for rnd in game.rounds:
        rep = HandReplay(rnd, game.players, rs)
        turn = 0
        try:
            for ev in rnd.events:
                rep.step += 1
                if ev[0] == "discard" and ev[1] == me and not rep.p[me].riichi:
                    turn += 1
                    rows = _rows(rep, me, rs)
                    chosen = next((r for r in rows if r["tile"] == str(tile(ev[2] & 63))), None)
                    if chosen is not None and rows:
                        best = rows[0]
                        decisions += 1
                        same = (chosen["shanten"], chosen["effective_count"]) == (best["shanten"], best["effective_count"])
                        if same:
                            agreed += 1
                        else:
                            gap = best["effective_count"] - chosen["effective_count"] if chosen["shanten"] == best["shanten"] else 0
                            given_up += max(0, gap)
                            lost += chosen["shanten"] > best["shanten"]
                            tops = [{k: r[k] for k in ("tile", "shanten", "effective_count")} for r in rows if (r["shanten"], r["effective_count"]) == (best["shanten"], best["effective_count"])]
                            out.append({
                                "game": game.source, "hand": rnd.index, "round": rnd.label, "turn": turn, "player": me,
                                "held": str(rep.held(me)), "discard": str(tile(ev[2])),
                                "chosen": {k: chosen[k] for k in ("tile", "shanten", "effective_count")},
                                "best": tops, "given_up": max(0, gap),
                            })
                rep.apply(ev)
        except RecordError as e:
            out.append({"game": game.source, "hand": rnd.index, "error": str(e)})
            break
    if game.error is not None:
        out.append({"game": game.source, "hand": len(game.rounds), "error": str(game.error)})
    out.append({"game": game.source, "review": {
        "player": me, "name": game.names[me] if me < len(game.names) else None, "decisions": decisions, "agreed": agreed,
        "agreement": round(100 * agreed / decisions, 1) if decisions else None, "effective_given_up": given_up, "shanten_lost": lost,
    }})
    return out
