"""Replay records: each hand's results computed by the engine beside what the record says.

    {"game": SOURCE, "hand": N, "round": "E1-0", "event": "win"|"exhaustive_draw"|"nagashi"|
     "abort_*"|"unfinished", "recorded": {...}, "computed": {...}, "match": bool,
     "mismatches": ["wins[0].han: recorded 3, computed 2", ...]}

`recorded` / `computed`: {"wins": [{"seat", "player", "from", "pao", "han", "fu", "points",
"limit", "yaku": {FAN: han}, "deltas": [...]}], "draw": {"type", "tenpai": [players]},
"deltas": [each player's change]}. `points` is the hand's value without honba and sticks.
"""

from __future__ import annotations

from typing import Any

from mjtools.gamelog.model import WINDS, Game, RecordError, Result, Round
from mjtools.gamelog.replay import HandReplay
from mjtools.rules.model import Ruleset

LIMIT_WORDS = ("mangan", "haneman", "baiman", "sanbaiman", "yakuman")


def _limit(limit: str | None) -> str | None:
    if not limit:
        return None
    last = limit.split()[-1]
    return last if last in LIMIT_WORDS else None


def _yaku(rec: dict[str, Any]) -> dict[str, int]:
    out: dict[str, int] = {}
    for f in rec["fans"]:
        han = f["value"] * f["count"] * (13 if rec.get("limit") and "yakuman" in rec["limit"] and rec["han"] >= 13 and _is_yakuman(f, rec) else 1)
        if han:
            out[f["id"]] = out.get(f["id"], 0) + int(han)
    return out


def _is_yakuman(fan: dict[str, Any], rec: dict[str, Any]) -> bool:
    # a yakuman hand scores only its yakuman (riichi model): every fan left is one
    return rec["han"] % 13 == 0 and not str(rec.get("limit", "")).startswith("kazoe")


class Checker:
    def __init__(self, rs: Ruleset):
        self.rs = rs
        st = rs.section("settlement").get("riichi") or {}
        self.honba_ron = st.get("honba_ron", 300)
        self.honba_tsumo = st.get("honba_tsumo", 100)
        self.each_honba = st.get("multiple_ron_honba", "nearest") == "each"

    def hand(self, game: Game, rnd: Round) -> dict[str, Any]:
        rec: dict[str, Any] = {"game": game.source, "hand": rnd.index, "round": rnd.label}
        rep = HandReplay(rnd, game.players, self.rs)
        rep.run()
        if not rnd.results:
            rec.update(event="unfinished", recorded=None, computed=None, match=True, mismatches=[])
            return rec
        wins = [r for r in rnd.results if r.kind == "win"]
        if wins:
            recorded = {"wins": [self.recorded_win(rep, r) for r in wins]}
            computed = {"wins": self.computed_wins(rep, wins)}
            event = "win"
        else:
            res = rnd.results[0]
            recorded = {"draw": {"type": res.draw_type, "tenpai": res.tenpai}}
            computed = {"draw": self.computed_draw(rep, res)}
            event = res.draw_type
        recorded["deltas"] = _sum([r.deltas or [0] * game.players for r in rnd.results], game.players)
        nagashi = computed.get("draw", {}).pop("wins", [])
        if nagashi:  # nagashi mangan is paid as self-draws, in place of the noten payments
            computed["draw"]["nagashi"] = [w["player"] for w in nagashi]
        computed["deltas"] = _sum([w["deltas"] for w in list(computed.get("wins", [])) + nagashi] + [computed.get("draw", {}).pop("deltas", [0] * game.players)], game.players)
        mismatches = _compare(recorded, computed)
        rec.update(event=event, recorded=recorded, computed=computed, match=not mismatches, mismatches=mismatches)
        return rec

    # -- wins -----------------------------------------------------------------------------------
    def recorded_win(self, rep: HandReplay, r: Result) -> dict[str, Any]:
        return {
            "seat": rep.seat(r.who),  # type: ignore[arg-type]
            "player": r.who,
            "from": None if r.from_ is None else rep.seat(r.from_),
            "pao": None if r.pao is None else rep.seat(r.pao),
            "han": r.han,
            "fu": r.fu,
            "points": r.points,
            "limit": r.limit,
            "yaku": r.yaku,
            "deltas": r.deltas,
            **({"unknown": list(r.unknown)} if r.unknown else {}),
        }

    def computed_wins(self, rep: HandReplay, wins: list[Result]) -> list[dict[str, Any]]:
        from mjtools.scoring import score

        out = []
        for i, r in enumerate(wins):
            hand, ctx, _ = rep.win_hand(r)
            if i:  # a second winner on one discard: the sticks went to the first (nearest)
                ctx = ctx.replace(sticks=0, honba=ctx.honba if self.each_honba else 0)
            rec = score(hand, self.rs, ctx, lang="en")
            w = self.win_record(rep, r, rec, ctx)
            if r.from_ is not None:
                w["furiten"] = rep.furiten(r.who, _code(hand.last))
            out.append(w)
        return out

    def win_record(self, rep: HandReplay, r: Result, rec: dict[str, Any], ctx: Any) -> dict[str, Any]:
        who = r.who
        assert who is not None
        return {
            "seat": rep.seat(who),
            "player": who,
            "from": None if r.from_ is None else rep.seat(r.from_),
            **win_fields(rec, self.rs, ctx.tsumo, ctx.honba, who, {rep.seat(p): p for p in range(rep.n)}),
        }


    # -- draws ----------------------------------------------------------------------------------
    def computed_draw(self, rep: HandReplay, res: Result) -> dict[str, Any]:
        n = rep.n
        kind = self.draw_kind(rep, res)
        out: dict[str, Any] = {"type": kind, "tenpai": None, "deltas": [0] * n}
        if kind not in ("exhaustive_draw", "nagashi"):
            return out
        from mjtools.scoring.exhaustive import settle_draw

        seat_of = {rep.seat(p): p for p in range(n)}
        hands = {rep.seat(p): str(rep.held(p)) for p in range(n)}
        results, ledger = settle_draw(hands, self.rs, {"round": WINDS[rep.r.round_wind]})
        out["tenpai"] = [seat_of[x["seat"]] for x in results if x["tenpai"]]
        out["tenpai"].sort()
        if kind == "nagashi":
            out["wins"] = [self.nagashi_win(rep, p) for p in rep.nagashi()]
            return out
        for e in ledger:
            out["deltas"][seat_of[e["from"]]] -= int(e["amount"])
            out["deltas"][seat_of[e["to"]]] += int(e["amount"])
        return out

    def nagashi_win(self, rep: HandReplay, p: int) -> dict[str, Any]:
        from types import MappingProxyType

        from mjtools.scoring import score
        from mjtools.tiles.context import WinContext

        ctx = WinContext(tsumo=True, seat=rep.seat(p), round=WINDS[rep.r.round_wind], players=rep.n, situations=MappingProxyType({"nagashi": 1}), honba=rep.r.honba, sticks=0)
        rec = score(rep.held(p), self.rs, ctx)
        return self.win_record(rep, Result("win", who=p), rec, ctx)

    def draw_kind(self, rep: HandReplay, res: Result) -> str:
        """What the state says this draw is (the recorded kind, when the state allows it)."""
        kind = res.draw_type or "exhaustive_draw"
        n = rep.n
        if kind in ("exhaustive_draw", "nagashi"):
            if rep.live_left > 0:
                return "not_a_draw"
            return "nagashi" if rep.nagashi() and self.rs.fans.get("nagashi_mangan") else "exhaustive_draw"
        if kind == "abort_four_riichi":
            return kind if all(q.riichi or q.declaring for q in rep.p) and n == 4 else "not_a_draw"
        if kind == "abort_four_winds":
            fd = rep.first_discards
            return kind if len(fd) == n == 4 and 27 <= fd[0] <= 30 and len(set(fd)) == 1 else "not_a_draw"
        if kind == "abort_four_kongs":
            return kind if len(rep.kongs) >= 4 and len(set(rep.kongs)) > 1 else "not_a_draw"
        if kind == "abort_nine_terminals":
            for q in rep.p:
                if q.drawn is not None and q.draws == 1 and len({c & 63 for c in q.hand if (c & 63) >= 27 or (c & 63) % 9 in (0, 8)}) >= 9:
                    return kind
            return "not_a_draw"
        if kind == "abort_triple_ron":
            return kind if self.could_win(rep) >= 3 else "not_a_draw"
        return kind

    def could_win(self, rep: HandReplay) -> int:
        from mjtools.scoring import legal_win
        from mjtools.tiles.context import WinContext

        if rep.last_discard is None:
            return 0
        frm, code = rep.last_discard
        from mjtools.gamelog.replay import tile

        count = 0
        for p in range(rep.n):
            if p == frm:
                continue
            ctx = WinContext(seat=rep.seat(p), round=WINDS[rep.r.round_wind], discarder=rep.seat(frm), players=rep.n)
            if legal_win(rep.held(p).with_last(tile(code)), self.rs, ctx):
                count += 1
        return count


def _code(t: Any) -> int:
    return t.kind | 64 if t.red else t.kind


def _sum(rows: list[list[int]], n: int) -> list[int]:
    out = [0] * n
    for row in rows:
        for i, v in enumerate(row[:n]):
            out[i] += v
    return out


_WIN_FIELDS = ("seat", "from", "han", "fu", "points", "limit", "yaku", "deltas")


def _compare(recorded: dict[str, Any], computed: dict[str, Any]) -> list[str]:
    out: list[str] = []
    rw, cw = recorded.get("wins"), computed.get("wins")
    if rw is not None:
        if len(rw) != len(cw or ()):
            out.append(f"wins: recorded {len(rw)}, computed {len(cw or ())}")
        for i, (a, b) in enumerate(zip(rw, cw or ())):
            if not b.get("valid", True):
                out.append(f"wins[{i}]: not a legal win ({b.get('reason')})")
                continue
            if b.get("furiten"):
                out.append(f"wins[{i}]: a ron in furiten (a wait among {b['seat']}'s discards or let pass)")
            for k in _WIN_FIELDS:
                if k in a.get("unknown", ()):
                    continue
                if k == "fu" and (a.get("limit") == "yakuman" or a.get("fu") is None):
                    continue  # a yakuman's fu do not count; Tenhou still writes a figure
                if k == "limit" and a.get(k) is None and b.get(k) is None:
                    continue
                if a.get(k) != b.get(k) and not (k == "pao" and a.get(k) is None):
                    out.append(f"wins[{i}].{k}: recorded {a.get(k)}, computed {b.get(k)}")
            if a.get("pao") is not None and a.get("pao") != b.get("pao"):
                out.append(f"wins[{i}].pao: recorded {a.get('pao')}, computed {b.get('pao')}")
    if "draw" in recorded:
        a, b = recorded["draw"], computed["draw"]
        if a["type"] != b["type"]:
            out.append(f"draw.type: recorded {a['type']}, computed {b['type']}")
        elif a["type"] == "exhaustive_draw" and a.get("tenpai") is not None and a["tenpai"] != b.get("tenpai"):
            out.append(f"draw.tenpai: recorded {a['tenpai']}, computed {b.get('tenpai')}")
    if recorded.get("deltas") != computed.get("deltas"):
        out.append(f"deltas: recorded {recorded.get('deltas')}, computed {computed.get('deltas')}")
    return out


def prepare(game: Game, rs: Ruleset) -> None:
    """What a format leaves to the rules: tenhou.net/6 kong indicators under rules that turn
    them at once."""
    if game.format == "tenhou6" and rs.section("wall").get("kong_indicator") == "immediate":
        from mjtools.gamelog.tenhou6 import retime_kong_dora

        for rnd in game.rounds:
            retime_kong_dora(rnd)


def check_game(game: Game, rs: Ruleset) -> list[dict[str, Any]]:
    """One record per hand, in order; a hand the record garbles becomes {"game", "hand",
    "error"} and ends the game's records (the record cannot be followed past it)."""
    prepare(game, rs)
    checker = Checker(rs)
    out: list[dict[str, Any]] = []
    for rnd in game.rounds:
        try:
            out.append(checker.hand(game, rnd))
        except RecordError as e:
            out.append({"game": game.source, "hand": rnd.index, "error": str(e)})
            return out
    if game.error is not None:
        out.append({"game": game.source, "hand": len(game.rounds), "error": str(game.error)})
    return out


def win_fields(rec: dict[str, Any], rs: Ruleset, tsumo: bool, honba: int, who: int, seat_of: dict[str, int]) -> dict[str, Any]:
    """What a replay record says of a win, from its score record: han, fu, the value without
    honba and sticks, limit, yaku (fan -> han), each player's change, the liable seat."""
    n = len(seat_of)
    st = rs.section("settlement").get("riichi") or {}
    deltas = [0] * n
    for s, a in rec["payments"].items():
        if s in seat_of:
            deltas[seat_of[s]] -= int(a)
            deltas[who] += int(a)
    deltas[who] += int(rec["pot"])
    extra = honba * (st.get("honba_tsumo", 100) * (n - 1) if tsumo else st.get("honba_ron", 300))
    pao = next((e["reason"].rsplit(": ", 1)[-1].rstrip(")") for e in rec.get("ledger", ()) if "(pao " in e.get("reason", "")), None)
    return {
        "pao": pao,
        "hand": rec["hand"],
        "valid": rec["valid"],
        "han": rec.get("han"),
        "fu": rec.get("fu"),
        "points": int(sum(rec["payments"].values()) - extra) if rec["valid"] else 0,
        "limit": _limit(rec.get("limit")),
        "yaku": _yaku(rec) if rec["valid"] else {},
        "deltas": deltas,
        **({"reason": rec["reason"]} if not rec["valid"] else {}),
    }
