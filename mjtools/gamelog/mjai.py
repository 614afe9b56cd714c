"""mjai JSON lines (the protocol riichi bots speak) <-> Game.

One event per line: start_game {names}, start_kyoku {bakaze, kyoku (1-4), honba, kyotaku, oya,
dora_marker, scores, tehais}, tsumo / dahai {actor, pai, tsumogiri}, reach / reach_accepted,
chi / pon / daiminkan {actor, target, pai, consumed}, ankan {consumed}, kakan {pai, consumed},
nukidora {pai} (three players), dora {dora_marker}, hora {actor, target, pai, uradora_markers,
yakus: [[NAME, han]], fu, fan, hora_points, deltas, scores}, ryukyoku {reason, tenpais, deltas},
end_kyoku, end_game. Tiles: 1m-9m, 1p-9p, 1s-9s, E S W N, P F C (White Green Red), a red five
5mr / 5pr / 5sr, ? unknown.
"""

from __future__ import annotations

import json
from typing import Any

from mjtools.gamelog.model import RED, Game, RecordError, Result, Round

_HONORS = "ESWNPFC"
YAKU: dict[str, str] = {
    "menzenchin_tsumoho": "concealed_self_draw", "reach": "riichi", "ippatsu": "ippatsu", "chankan": "robbing_kong",
    "rinshankaiho": "kong_bloom", "haiteiraoyue": "last_tile_draw", "hoteiraoyui": "last_discard_win", "pinfu": "pinfu",
    "tanyaochu": "all_simples", "ipeko": "pure_double_chow", "jikaze": "seat_wind_pung", "bakaze": "round_wind_pung",
    "sangenpai": "dragon_pung", "double_reach": "double_riichi", "chitoitsu": "seven_pairs", "honchantaiyao": "outside_hand",
    "ikkitsukan": "pure_straight", "sanshokudojun": "mixed_triple_chow", "sanshokudoko": "triple_pung", "sankantsu": "three_kongs",
    "toitoiho": "all_pungs", "sananko": "concealed_pungs_3", "shosangen": "little_three_dragons", "honroto": "terminals_and_honors",
    "ryanpeko": "twice_pure_double_chow", "junchantaiyao": "terminal_outside_hand", "honiso": "half_flush", "chiniso": "full_flush",
    "renho": "human_hand", "tenho": "heavenly_hand", "chiho": "earthly_hand", "daisangen": "big_three_dragons", "suanko": "concealed_pungs_4",
    "suanko_tanki": "concealed_pungs_4_pair_wait", "tsuiso": "all_honors", "ryuiso": "all_green", "chinroto": "all_terminals",
    "churenpoton": "nine_gates", "junsei_churenpoton": "nine_gates_9_wait", "kokushimuso": "thirteen_orphans",
    "kokushimuso_13": "thirteen_orphans_13_wait", "daisushi": "big_four_winds", "shosushi": "little_four_winds",
    "sukantsu": "four_kongs", "dora": "dora", "uradora": "ura_dora", "akadora": "red_five", "nukidora": "kita",
}
FAN_NAME = {v: k for k, v in YAKU.items()}
REASONS = {
    "fanpai": "exhaustive_draw", "ryukyoku": "exhaustive_draw", "exhaustive_draw": "exhaustive_draw",
    "nagashimangan": "nagashi", "nagashi": "nagashi",
    "kyushukyuhai": "abort_nine_terminals", "yao9": "abort_nine_terminals",
    "suchareach": "abort_four_riichi", "reach4": "abort_four_riichi",
    "sanchaho": "abort_triple_ron", "ron3": "abort_triple_ron",
    "sukaikan": "abort_four_kongs", "kan4": "abort_four_kongs",
    "sufonrenta": "abort_four_winds", "kaze4": "abort_four_winds",
}
REASON = {"exhaustive_draw": "fanpai", "nagashi": "nagashimangan", "abort_nine_terminals": "kyushukyuhai", "abort_four_riichi": "suchareach",
          "abort_triple_ron": "sanchaho", "abort_four_kongs": "sukaikan", "abort_four_winds": "sufonrenta"}


def code_of(pai: Any, where: str) -> int:
    if not isinstance(pai, str):
        raise RecordError(f"{pai!r} is not a tile", where)
    if pai in _HONORS and len(pai) == 1:
        return 27 + _HONORS.index(pai)
    red = pai.endswith("r")
    body = pai[:-1] if red else pai
    if len(body) == 2 and body[0].isdigit() and body[1] in "mps" and body[0] != "0":
        k = "mps".index(body[1]) * 9 + int(body[0]) - 1
        if red and int(body[0]) != 5:
            raise RecordError(f"{pai!r}: only a five can be red", where)
        return k | RED if red else k
    raise RecordError(f"{pai!r} is not a tile (1m-9m, 1p-9p, 1s-9s, E S W N P F C, 5mr / 5pr / 5sr)", where)


def pai_of(code: int) -> str:
    k = code & 63
    if k >= 27:
        return _HONORS[k - 27]
    return f"{k % 9 + 1}{'mps'[k // 9]}" + ("r" if code & RED else "")


def read_mjai(text: str, source: str) -> Game:
    g = Game(source, "mjai", 4)
    g.rules = None  # mjai says nothing of its rules: tenhou / tenhou-sanma unless told
    r: Round | None = None
    n = 4
    pending_riichi: set[int] = set()
    for lineno, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        where = f"{source}: line {lineno}"
        try:
            e = json.loads(line)
            if not isinstance(e, dict) or not isinstance(e.get("type"), str):
                raise RecordError('an mjai event is a JSON object with "type"', where)
            t = e["type"]
            if t == "start_game":
                g.names = [str(x) for x in e.get("names", [])]
                if len(g.names) == 3:
                    n = g.players = 3
                if "aka_flag" in e:
                    g.options["aka_dora"] = bool(e["aka_flag"])
            elif t == "start_kyoku":
                scores = e.get("scores") or []
                n = g.players = len(scores) if len(scores) in (3, 4) else n
                bakaze = "ESWN".index(e.get("bakaze", "E"))
                r = Round(len(g.rounds), bakaze, int(e.get("kyoku", 1)) - 1, int(e.get("honba", 0)), int(e.get("kyotaku", 0)), int(e.get("oya", 0)),
                          [int(x) for x in scores], [code_of(e.get("dora_marker"), where)], [], where=f"{source}: hand {len(g.rounds)} (line {lineno})")
                tehais = e.get("tehais") or []
                if len(tehais) < n:
                    raise RecordError(f"start_kyoku has {len(tehais)} hands for {n} players", where)
                r.deal = [[code_of(x, where) for x in h] for h in tehais[:n]]
                if any(len(h) != 13 for h in r.deal):
                    raise RecordError("each player is dealt 13 tiles", where)
                g.rounds.append(r)
                pending_riichi = set()
            elif t in ("end_kyoku", "end_game"):
                if t == "end_game" and e.get("scores"):
                    g.final = [int(x) for x in e["scores"]]
                r = None if t == "end_kyoku" else r
            else:
                if r is None:
                    raise RecordError(f"{t} outside a hand", where)
                if r.results and t not in ("hora", "ryukyoku"):
                    raise RecordError(f"{t} after the hand's result", where)
                _event(r, e, t, where, n, pending_riichi)
        except RecordError as err:
            g.error = err
            break
        except ValueError as err:
            g.error = RecordError(f"not valid JSON ({err})", where)
            break
        except (KeyError, TypeError) as err:
            g.error = RecordError(f"malformed {e.get('type') if isinstance(e, dict) else 'event'} event ({err})", where)
            break
    if g.error is not None and r is not None and g.rounds and g.rounds[-1] is r:
        g.rounds.pop()  # the hand the record broke off in (the hands before it are whole)
    return g


def _actor(e: dict[str, Any], key: str, n: int, where: str) -> int:
    a = e.get(key)
    if not isinstance(a, int) or isinstance(a, bool) or not 0 <= a < n:
        raise RecordError(f"{key} {a!r} is not a player 0-{n - 1}", where)
    return a


def _event(r: Round, e: dict[str, Any], t: str, where: str, n: int, pending: set[int]) -> None:
    ev = r.events
    if t == "tsumo":
        ev.append(("draw", _actor(e, "actor", n, where), code_of(e["pai"], where)))
    elif t == "dahai":
        p = _actor(e, "actor", n, where)
        riichi = p in pending
        pending.discard(p)
        ev.append(("discard", p, code_of(e["pai"], where), riichi))
    elif t == "reach":
        pending.add(_actor(e, "actor", n, where))
    elif t == "reach_accepted":
        ev.append(("riichi_accepted", _actor(e, "actor", n, where)))
    elif t in ("chi", "pon", "daiminkan"):
        ev.append((t, _actor(e, "actor", n, where), code_of(e["pai"], where), tuple(code_of(x, where) for x in e["consumed"]), _actor(e, "target", n, where)))
    elif t == "ankan":
        ev.append(("ankan", _actor(e, "actor", n, where), tuple(code_of(x, where) for x in e["consumed"])))
    elif t == "kakan":
        ev.append(("kakan", _actor(e, "actor", n, where), code_of(e["pai"], where)))
    elif t == "nukidora":
        ev.append(("kita", _actor(e, "actor", n, where), code_of(e.get("pai", "N"), where)))
    elif t == "dora":
        ev.append(("dora", code_of(e["dora_marker"], where)))
    elif t == "hora":
        r.results.append(_hora(e, where, n))
    elif t == "ryukyoku":
        reason = e.get("reason", "fanpai")
        if reason not in REASONS:
            raise RecordError(f"unknown ryukyoku reason {reason!r}", where)
        res = Result("draw", draw_type=REASONS[reason], where=where)
        res.deltas = [int(x) for x in (e.get("deltas") or [0] * n)]
        if isinstance(e.get("tenpais"), list) and res.draw_type == "exhaustive_draw":
            res.tenpai = [p for p, v in enumerate(e["tenpais"]) if v]
        r.results.append(res)
    elif t in ("none", "error", "start_game"):
        pass
    else:
        raise RecordError(f"unknown event type {t!r}", where)


def _hora(e: dict[str, Any], where: str, n: int) -> Result:
    who = _actor(e, "actor", n, where)
    target = _actor(e, "target", n, where)
    res = Result("win", who=who, from_=None if target == who else target, where=where)
    if "pai" in e:
        res.win_tile = code_of(e["pai"], where)
    res.ura = [code_of(x, where) for x in e.get("uradora_markers") or []]
    if "pao" in e and e["pao"] is not None:
        res.pao = _actor(e, "pao", n, where)
    if "yakus" in e:
        yaku: dict[str, int] = {}
        for item in e["yakus"]:
            name, han = item[0], int(item[1])
            fid = YAKU.get(name)
            if fid is None:
                raise RecordError(f"unknown yaku {name!r}", where)
            if han:
                yaku[fid] = yaku.get(fid, 0) + han
        res.yaku = yaku
        res.han = sum(yaku.values())
    res.fu = e.get("fu")
    res.points = e.get("hora_points")
    if res.han is not None and res.han >= 13:
        res.limit = "yakuman"
    else:
        res.unknown = ("limit",)  # mjai records han and fu, not the limit's name
    if "deltas" in e:
        res.deltas = [int(x) for x in e["deltas"]]
    return res


# -- writing ------------------------------------------------------------------------------------


def write_mjai(game: Game) -> str:
    """A Game as mjai JSON lines."""
    n = game.players
    out: list[dict[str, Any]] = [{"type": "start_game", "names": game.names or [f"player {i}" for i in range(n)]}]
    scores: list[int] | None = None
    for r in game.rounds:
        scores = list(r.scores)
        out.append({"type": "start_kyoku", "bakaze": "ESWN"[r.round_wind], "kyoku": r.kyoku + 1, "honba": r.honba, "kyotaku": r.sticks, "oya": r.dealer,
                    "dora_marker": pai_of(r.dora[0]), "scores": list(r.scores), "tehais": [[pai_of(c) for c in h] for h in r.deal]})
        drawn: list[int | None] = [None] * n
        for ev in r.events:
            k = ev[0]
            if k == "draw":
                out.append({"type": "tsumo", "actor": ev[1], "pai": pai_of(ev[2])})
                drawn[ev[1]] = ev[2]
            elif k == "discard":
                if ev[3]:
                    out.append({"type": "reach", "actor": ev[1]})
                out.append({"type": "dahai", "actor": ev[1], "pai": pai_of(ev[2]), "tsumogiri": drawn[ev[1]] == ev[2]})
                drawn[ev[1]] = None
            elif k == "riichi_accepted":
                deltas = [0] * n
                deltas[ev[1]] = -1000
                scores[ev[1]] -= 1000
                out.append({"type": "reach_accepted", "actor": ev[1], "deltas": deltas, "scores": list(scores)})
            elif k in ("chi", "pon", "daiminkan"):
                out.append({"type": k, "actor": ev[1], "target": ev[4], "pai": pai_of(ev[2]), "consumed": [pai_of(c) for c in ev[3]]})
                drawn[ev[1]] = None
            elif k == "ankan":
                out.append({"type": "ankan", "actor": ev[1], "consumed": [pai_of(c) for c in ev[2]]})
            elif k == "kakan":
                out.append({"type": "kakan", "actor": ev[1], "pai": pai_of(ev[2]), "consumed": [pai_of(ev[2] & 63)] * 3})
            elif k == "kita":
                out.append({"type": "nukidora", "actor": ev[1], "pai": pai_of(ev[2])})
            elif k == "dora":
                out.append({"type": "dora", "dora_marker": pai_of(ev[1])})
        for res in r.results:
            deltas = list(res.deltas or [0] * n)
            scores = [a + b for a, b in zip(scores, deltas)]
            if res.kind == "win":
                assert res.who is not None
                item: dict[str, Any] = {"type": "hora", "actor": res.who, "target": res.who if res.from_ is None else res.from_,
                                        "uradora_markers": [pai_of(c) for c in res.ura],
                                        "yakus": [[FAN_NAME.get(f, f), h] for f, h in (res.yaku or {}).items()],
                                        "fu": res.fu, "fan": res.han, "hora_points": res.points, "deltas": deltas, "scores": list(scores)}
                if res.win_tile is not None:
                    item["pai"] = pai_of(res.win_tile)
                if res.pao is not None:
                    item["pao"] = res.pao
                out.append(item)
            else:
                item = {"type": "ryukyoku", "reason": REASON.get(res.draw_type or "exhaustive_draw", "fanpai"), "deltas": deltas, "scores": list(scores)}
                if res.tenpai is not None:
                    item["tenpais"] = [p in res.tenpai for p in range(n)]
                out.append(item)
        out.append({"type": "end_kyoku"})
    out.append({"type": "end_game", **({"scores": scores} if scores is not None else {})})
    return "\n".join(json.dumps(x, ensure_ascii=False, separators=(",", ":")) for x in out) + "\n"
