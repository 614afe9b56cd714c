"""Records out: a simulated hand as a `gamelog.model.Round`, written as tenhou.net/6 or mjai.

The engine logs every draw, discard and call with its tiles; this module turns that log, the
dealt tiles and the score records of the hand into the neutral record, with the simulator's
own results (han, fu, value, yaku, payments) as the "recorded" results, so that `mjtools
replay` of the written file recomputes each of them and must agree.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from mjtools.gamelog.check import win_fields
from mjtools.gamelog.model import RED, Game, Result, Round
from mjtools.tiles.kinds import parse_kind

if TYPE_CHECKING:
    from mjtools.sim.engine import HandEngine

WRITERS = ("tenhou6", "mjai")
SUFFIX = {"tenhou6": ".json", "mjai": ".mjai.jsonl"}


def _code(text: str) -> int:
    k = parse_kind(text)
    return k | RED if text[0] == "0" else k


def hand_round(e: HandEngine, index: int, players: Sequence[int], kyoku: int = 0, scores: Sequence[int] | None = None) -> Round:
    """The hand `e` played as a Round; `players[i]` is the player at seat i (E S W N)."""
    n = e.cfg.players
    seat_player = {s: players[i] for i, s in enumerate(e.cfg.seats)}
    deal: list[list[int]] = [[] for _ in range(n)]
    for i, codes in enumerate(e.deal_codes):
        deal[players[i]] = list(codes)
    r = Round(index, "ESWN".index(e.round_wind), kyoku, e.honba, e.start_sticks, players[0], list(scores or [0] * n), [], deal)
    ev = r.events
    riichi_next: set[int] = set()
    for x in e.events:
        name = x["event"]
        p = seat_player.get(x.get("seat", ""), -1)
        if name == "indicator" and x.get("role") == "dora":
            (r.dora if not r.dora else ev).append(_code(x["tile"]) if not r.dora else ("dora", _code(x["tile"])))
        elif name == "draw":
            ev.append(("draw", p, _code(x["tile"])))
        elif name == "riichi":
            riichi_next.add(p)
        elif name == "discard":
            ev.append(("discard", p, _code(x["tile"]), p in riichi_next))
            riichi_next.discard(p)
        elif name == "riichi_accepted":
            ev.append(("riichi_accepted", p))
        elif name in ("chi", "pon", "exposed_kong"):
            kind = {"exposed_kong": "daiminkan"}.get(name, name)
            ev.append((kind, p, _code(x["tile"]), tuple(_code(t) for t in x["tiles"]), seat_player[x["from"]]))
        elif name == "concealed_kong":
            ev.append(("ankan", p, tuple(_code(t) for t in x["tiles"])))
        elif name == "added_kong":
            ev.append(("kakan", p, _code(x["code"])))
        elif name == "kita":
            ev.append(("kita", p, _code(x["tile"])))
    r.results = _results(e, seat_player)
    return r


def _results(e: HandEngine, seat_player: dict[str, int]) -> list[Result]:
    n = e.cfg.players
    out: list[Result] = []
    ura = list(e.ura)
    for i, (seat, rec, code, frm) in enumerate(e.win_recs):
        who = seat_player[seat]
        res = Result("win", who=who, from_=None if frm is None else seat_player[frm], win_tile=code, ura=ura)
        honba = e.honba if (i == 0 or e.cfg.honba_each) else 0
        f = win_fields(rec, e.rs, frm is None, honba, who, seat_player)
        res.han, res.fu, res.points, res.limit, res.yaku, res.deltas = f["han"], f["fu"], f["points"], f["limit"], f["yaku"], f["deltas"]
        if f["pao"]:
            res.pao = seat_player[f["pao"]]
        out.append(res)
    if out:
        return out
    if e.end == "abort":
        return [Result("draw", draw_type=e.abort, deltas=[0] * n)]
    deltas = [0] * n
    for x in e.draw_ledger:
        if x["from"] in seat_player:
            deltas[seat_player[x["from"]]] -= int(x["amount"])
        if x["to"] in seat_player:
            deltas[seat_player[x["to"]]] += int(x["amount"])
    res = Result("draw", draw_type="nagashi" if e.nagashi else "exhaustive_draw", deltas=deltas)
    if e.draw_results is not None:
        res.tenpai = sorted(seat_player[x["seat"]] for x in e.draw_results.get("results", []) if x.get("tenpai"))
    return [res]


def render(game: Game, fmt: str) -> str:
    if fmt == "tenhou6":
        from mjtools.gamelog.tenhou6 import write_tenhou6

        return write_tenhou6(game)
    from mjtools.gamelog.mjai import write_mjai

    return write_mjai(game)
