"""tenhou.net/6 JSON (Tenhou's viewer format, also written by Mahjong Soul exporters) <-> Game.

    {"title": [...], "name": [4 names], "rule": {"disp": "...", "aka": 1},
     "log": [[[kyoku, honba, sticks], [scores], [dora indicators], [ura indicators],
              deal0, takes0, discards0, deal1, takes1, discards1, ..., [result ...]], ...]}

Tiles: 11-19 m, 21-29 p, 31-39 s, 41-47 E S W N White Green Red, 51 / 52 / 53 the red fives.
A take is a tile or a call: chi "c" + the called tile + the two from the hand; pon "p" and an
exposed kong "m" placed before the called tile, at the position that names its giver (first:
the player to the left, middle: opposite, last: to the right). A discard is a tile, 60 for the
tile just drawn, "r" + tile for a riichi declaration, a concealed kong ("a" before the fourth
tile), an added kong ("k" where the pon had "p"), "f44" a North set aside (three players), 0
after an exposed kong. The result: ["和了", deltas, [winner, from, pao, "30符2飜2000点",
"立直(1飜)", ...], ...] or a draw word (["流局", deltas], ["九種九牌"], ...). Kong indicators
have no time in the format: a concealed kong's is turned at once, an exposed or added kong's
after the kong-maker's discard (Tenhou's practice).
"""

from __future__ import annotations

import json
import re
from typing import Any

from mjtools.gamelog.model import RED, Game, RecordError, Result, Round
from mjtools.gamelog.tenhou_ids import BY_NAME, DRAW_WORD, DRAW_WORDS, LIMIT_NAMES, LIMIT_WORDS, YAKU

_SUITS = {1: 0, 2: 9, 3: 18}


def code_of(n: Any, where: str) -> int:
    if not isinstance(n, int) or isinstance(n, bool):
        raise RecordError(f"{n!r} is not a tile number", where)
    if n in (51, 52, 53):
        return ((n - 51) * 9 + 4) | RED
    s, d = divmod(n, 10)
    if s in _SUITS and 1 <= d <= 9:
        return _SUITS[s] + d - 1
    if s == 4 and 1 <= d <= 7:
        return 27 + d - 1
    raise RecordError(f"{n} is not a tile number (11-19, 21-29, 31-39, 41-47, 51-53)", where)


def number_of(code: int) -> int:
    k = code & 63
    if code & RED:
        return 51 + k // 9
    if k >= 27:
        return 41 + k - 27
    return (k // 9 + 1) * 10 + k % 9 + 1


def _tiles_of(text: str, where: str) -> list[int]:
    if len(text) % 2:
        raise RecordError(f"call {text!r} is not pairs of digits", where)
    return [code_of(int(text[i : i + 2]), where) for i in range(0, len(text), 2)]


def _giver(pos: int, caller: int, n: int) -> int:
    """Who gave the called tile, from the letter's position among the tiles (0, 1, 2...)."""
    if pos == 0:
        return (caller - 1) % n  # kamicha
    if pos == 1 and n == 4:
        return (caller + 2) % n  # toimen
    return (caller + 1) % n  # shimocha


def _call(text: str, caller: int, n: int, where: str) -> tuple:
    m = re.fullmatch(r"(\d*)([cpmakf])(\d+)", text)
    if not m:
        raise RecordError(f"{text!r} is not a call", where)
    before, letter, after = m.groups()
    if letter == "c":
        tiles = _tiles_of(after, where)
        if before or len(tiles) != 3:
            raise RecordError(f"chi {text!r} is c + three tiles", where)
        return ("chi", caller, tiles[0], tuple(tiles[1:]), (caller - 1) % n)
    if letter in ("p", "m"):
        tiles = _tiles_of(before + after, where)
        need = 3 if letter == "p" else 4
        if len(tiles) != need:
            raise RecordError(f"{text!r}: {'pon' if letter == 'p' else 'kong'} of {len(tiles)} tiles", where)
        idx = len(before) // 2
        called = tiles[idx]
        rest = tuple(tiles[:idx] + tiles[idx + 1 :])
        pos = 0 if idx == 0 else (2 if idx == need - 1 else 1)
        return ("pon" if letter == "p" else "daiminkan", caller, called, rest, _giver(pos, caller, n))
    if letter == "a":
        tiles = _tiles_of(before + after, where)
        if len(tiles) != 4:
            raise RecordError(f"concealed kong {text!r} is four tiles", where)
        return ("ankan", caller, tuple(tiles))
    if letter == "k":
        tiles = _tiles_of(before + after, where)
        if len(tiles) != 4:
            raise RecordError(f"added kong {text!r} is four tiles", where)
        return ("kakan", caller, tiles[len(before) // 2])
    tiles = _tiles_of(after, where)  # f: kita
    return ("kita", caller, tiles[0])


def _points(text: str, n: int, tsumo: bool, dealer: bool) -> tuple[int | None, int | None, str | None]:
    """(fu, points without honba, limit) from "30符2飜2000点", "満貫2000-4000点", "500点∀"."""
    fu = None
    limit = None
    m = re.match(r"(\d+)符", text)
    if m:
        fu = int(m.group(1))
    for word, name in sorted(LIMIT_NAMES.items(), key=lambda kv: -len(kv[0])):
        if text.startswith(word):
            limit = name
            break
    m = re.search(r"(\d+)(?:-(\d+))?点(∀)?", text)
    if not m:
        return fu, None, limit
    a, b, every = int(m.group(1)), m.group(2), m.group(3)
    if not tsumo:
        return fu, a, limit
    if every:
        return fu, a * (n - 1), limit
    if b is not None:  # non-dealer self-draw: others pay a, the dealer b
        return fu, a * (n - 2) + int(b), limit
    return fu, a, limit


def _yaku(items: list[Any], where: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for item in items:
        m = re.fullmatch(r"(.+?)\((\d+)飜\)|(.+?)\((役満)\)", str(item))
        if not m:
            raise RecordError(f"{item!r} is not a yaku (NAME(N飜) or NAME(役満))", where)
        name = m.group(1) or m.group(3)
        han = int(m.group(2)) if m.group(2) else 13
        fid = BY_NAME.get(name)
        if fid is None:
            raise RecordError(f"unknown yaku {name!r}", where)
        if han:
            out[fid] = out.get(fid, 0) + han
    return out


class _Hand:
    def __init__(self, data: list[Any], index: int, n: int, source: str):
        self.where = f"{source}: hand {index}"
        self.n = n
        if not isinstance(data, list) or len(data) < 4 + 3 * n + 1:
            raise RecordError(f"a hand is [[kyoku, honba, sticks], scores, dora, ura, then deal, takes, discards for each of {n} players, result]", self.where)
        head = data[0]
        if not (isinstance(head, list) and len(head) >= 3 and all(isinstance(x, int) for x in head[:3])):
            raise RecordError("the hand's first entry is [kyoku, honba, sticks]", self.where)
        kyoku, honba, sticks = head[:3]
        self.r = Round(index, kyoku // 4, kyoku % 4, honba, sticks, kyoku % 4 % n, [int(x) for x in data[1][:n]], [], [], where=self.where)
        self.dora = [code_of(x, self.where) for x in data[2]]
        self.ura = [code_of(x, self.where) for x in data[3]]
        self.r.dora = self.dora[:1]
        self.deal = [[code_of(x, self.where) for x in data[4 + 3 * p]] for p in range(n)]
        self.takes = [data[5 + 3 * p] for p in range(n)]
        self.discards = [data[6 + 3 * p] for p in range(n)]
        self.result = data[4 + 3 * n]
        for p, d in enumerate(self.deal):
            if len(d) != 13:
                raise RecordError(f"player {p} is dealt {len(d)} tiles, not 13", self.where)
        self.r.deal = self.deal

    def events(self) -> None:
        n = self.n
        ev = self.r.events
        takes, discards = self.takes, self.discards
        ti = [0] * n
        di = [0] * n
        more_dora = iter(self.dora[1:])
        pending = 0  # kong indicators to turn after the kong-maker's discard

        def flip() -> None:
            nxt = next(more_dora, None)
            if nxt is not None:
                ev.append(("dora", nxt))

        p = self.r.dealer
        while ti[p] < len(takes[p]):
            take = takes[p][ti[p]]
            ti[p] += 1
            drawn: int | None = None
            if isinstance(take, str):
                call = _call(take, p, n, self.where)
                ev.append(call)
                if call[0] == "daiminkan":
                    pending += 1
                    if di[p] < len(discards[p]) and discards[p][di[p]] == 0:
                        di[p] += 1  # the placeholder for the kong's missing discard
                    continue  # the replacement draw is p's next take
            else:
                drawn = code_of(take, self.where)
                ev.append(("draw", p, drawn))
            if di[p] >= len(discards[p]):
                break  # a self-draw win (or the record ends)
            d = discards[p][di[p]]
            di[p] += 1
            if isinstance(d, str) and re.search(r"[akf]", d):
                act = _call(d, p, n, self.where)
                ev.append(act)
                if act[0] == "ankan":
                    while pending:
                        pending -= 1
                        flip()
                    flip()
                elif act[0] == "kakan":
                    pending += 1
                continue  # p draws the replacement
            riichi = isinstance(d, str) and d.startswith("r")
            try:
                t = int(d[1:]) if riichi else d
            except ValueError:
                raise RecordError(f"{d!r} is not a discard", self.where) from None
            if t == 60:
                if drawn is None:
                    raise RecordError(f"player {p} discards the tile just drawn (60) after a call", self.where)
                code = drawn
            else:
                code = code_of(t, self.where)
            ev.append(("discard", p, code, riichi))
            if riichi:
                ev.append(("riichi_accepted", p))
            while pending:
                pending -= 1
                flip()
            p = self.next_player(p, code, ti)
        self.finish()

    def next_player(self, p: int, code: int, ti: list[int]) -> int:
        """Who moves after p's discard: a player whose next take calls it (pon / kong before
        chi), else the next in turn."""
        best = None
        for q in range(self.n):
            if q == p or ti[q] >= len(self.takes[q]):
                continue
            t = self.takes[q][ti[q]]
            if isinstance(t, str):
                call = _call(t, q, self.n, self.where)
                if call[4] == p and (call[2] & 63) == (code & 63):
                    if best is None or call[0] != "chi":
                        best = q
        return best if best is not None else (p + 1) % self.n

    def finish(self) -> None:
        res = self.result
        ev = self.r.events
        if not isinstance(res, list) or not res or not isinstance(res[0], str):
            raise RecordError("the result is [WORD, ...]", self.where)
        word = res[0]
        if word == "和了":
            for i in range(1, len(res) - 1, 2):
                deltas, info = res[i], res[i + 1]
                self.r.results.append(self.win(deltas, info))
            if self.r.results and self.r.results[0].from_ is not None and ev and ev[-1][0] == "riichi_accepted" and ev[-1][1] == self.r.results[0].from_:
                ev.pop()  # the riichi tile was won on: the declaration did not stand
        elif word in DRAW_WORDS:
            r = Result("draw", draw_type=DRAW_WORDS[word], where=self.where)
            deltas = res[1] if len(res) > 1 and isinstance(res[1], list) else [0] * self.n
            r.deltas = [int(x) for x in deltas[: self.n]]
            if word == "全員聴牌":
                r.tenpai = list(range(self.n))
            elif word == "全員不聴":
                r.tenpai = []
            elif r.draw_type == "exhaustive_draw" and any(r.deltas):
                r.tenpai = [p for p in range(self.n) if r.deltas[p] > 0]
            self.r.results.append(r)
        else:
            raise RecordError(f"unknown result {word!r}", self.where)

    def win(self, deltas: Any, info: Any) -> Result:
        if not (isinstance(deltas, list) and isinstance(info, list) and len(info) >= 4):
            raise RecordError("a win is [deltas], [winner, from, pao, points, yaku...]", self.where)
        who, frm, pao = info[0], info[1], info[2]
        r = Result("win", who=who, from_=None if frm == who else frm, pao=None if pao == who else pao, where=self.where)
        r.ura = self.ura
        r.deltas = [int(x) for x in deltas[: self.n]]
        r.fu, r.points, r.limit = _points(str(info[3]), self.n, frm == who, (who - self.r.dealer) % self.n == 0)
        r.yaku = _yaku(info[4:], self.where)
        r.han = sum(r.yaku.values())
        if r.limit is None and r.han >= 13:
            r.limit = "yakuman"
        return r


def read_tenhou6(text: str, source: str) -> Game:
    try:
        data = json.loads(text)
    except ValueError as e:
        raise RecordError(f"not valid JSON (line {e.lineno}, column {e.colno}: {e.msg})", source) from None
    if not isinstance(data, dict) or not isinstance(data.get("log"), list):
        raise RecordError('a tenhou.net/6 record is an object with "log": [hands]', source)
    names = [str(x) for x in data.get("name", [])]
    rule = data.get("rule") or {}
    n = 3 if (len(names) == 3 or "三" in str(rule.get("disp", ""))) else 4
    g = Game(source, "tenhou6", n, names=names)
    g.rules = "tenhou-sanma" if n == 3 else "tenhou"
    if "aka" in rule or "aka51" in rule:
        g.options["aka_dora"] = bool(rule.get("aka", rule.get("aka51", 1)))
    if "喰" in str(rule.get("disp", "")) or "般" not in str(rule.get("disp", "")):
        pass
    for i, hand in enumerate(data["log"]):
        try:
            h = _Hand(hand, i, n, source)
            h.events()
        except RecordError as e:
            g.error = e
            break
        except (TypeError, IndexError, ValueError) as e:
            g.error = RecordError(f"not a tenhou.net/6 hand ({e})", f"{source}: hand {i}")
            break
        g.rounds.append(h.r)
    return g


# -- writing ------------------------------------------------------------------------------------


def write_tenhou6(game: Game) -> str:
    """A Game as tenhou.net/6 JSON (the events in the format's per-player columns)."""
    n = game.players
    log = []
    for r in game.rounds:
        log.append(_hand_json(r, n))
    rule = {"disp": ("三" if n == 3 else "") + "南喰赤", "aka": 1}
    return json.dumps({"title": ["mjtools", ""], "name": game.names or [f"player {i}" for i in range(n)], "rule": rule, "log": log}, ensure_ascii=False, separators=(",", ":"))


def _hand_json(r: Round, n: int) -> list[Any]:
    takes: list[list[Any]] = [[] for _ in range(n)]
    discards: list[list[Any]] = [[] for _ in range(n)]
    dora = list(r.dora)
    drawn: list[int | None] = [None] * n
    pons: dict[tuple[int, int], str] = {}
    for ev in r.events:
        kind = ev[0]
        if kind == "draw":
            takes[ev[1]].append(number_of(ev[2]))
            drawn[ev[1]] = ev[2]
        elif kind == "discard":
            p, code, riichi = ev[1], ev[2], ev[3]
            t = 60 if drawn[p] == code else number_of(code)
            discards[p].append(f"r{t}" if riichi else t)
            drawn[p] = None
        elif kind in ("chi", "pon", "daiminkan"):
            p, called, used, frm = ev[1], ev[2], ev[3], ev[4]
            takes[p].append(_call_text(kind, p, called, used, frm, n))
            if kind == "pon":
                pons[(p, called & 63)] = takes[p][-1]
            if kind == "daiminkan":
                discards[p].append(0)
            drawn[p] = None
        elif kind == "ankan":
            nums = [number_of(c) for c in ev[2]]
            discards[ev[1]].append("".join(map(str, nums[:3])) + "a" + str(nums[3]))
        elif kind == "kakan":
            p, code = ev[1], ev[2]
            pon = pons.get((p, code & 63), "p" + str(number_of(code)) * 3)
            discards[p].append(pon.replace("p", "k" + str(number_of(code))))
        elif kind == "kita":
            discards[ev[1]].append(f"f{number_of(ev[2])}")
        elif kind == "dora":
            dora.append(ev[1])
    ura = next((res.ura for res in r.results if res.ura), [])
    out: list[Any] = [[r.round_wind * 4 + r.kyoku, r.honba, r.sticks], list(r.scores), [number_of(c) for c in dora], [number_of(c) for c in ura]]
    for p in range(n):
        out += [[number_of(c) for c in r.deal[p]], takes[p], discards[p]]
    out.append(_result_json(r, n))
    return out


def _call_text(kind: str, p: int, called: int, used: tuple[int, ...], frm: int, n: int) -> str:
    c = str(number_of(called))
    rest = [str(number_of(x)) for x in used]
    if kind == "chi":
        return "c" + c + "".join(rest)
    letter = "p" if kind == "pon" else "m"
    rel = (frm - p) % n
    pos = 0 if rel == n - 1 else (len(rest) if rel == 1 else 1)  # left, right, opposite
    return "".join(rest[:pos]) + letter + c + "".join(rest[pos:])


def _result_json(r: Round, n: int) -> list[Any]:
    if not r.results:
        return ["流局", [0] * n]
    if r.results[0].kind == "draw":
        res = r.results[0]
        return [DRAW_WORD.get(res.draw_type or "exhaustive_draw", "流局"), list(res.deltas or [0] * n)]
    out: list[Any] = ["和了"]
    for res in r.results:
        assert res.who is not None
        frm = res.who if res.from_ is None else res.from_
        pao = res.who if res.pao is None else res.pao
        out += [list(res.deltas or [0] * n), [res.who, frm, pao, _point_text(res, n, r), *_yaku_texts(res)]]
    return out


def _point_text(res: Result, n: int, r: Round) -> str:
    """"30符2飜2000点", or for a self-draw what each pays ("300-500点", dealer "500点∀"),
    read from the deltas less the honba."""
    pts = res.points or 0
    limit = LIMIT_WORDS.get(res.limit or "")
    head = limit if limit else f"{res.fu}符{res.han}飜"
    if res.from_ is not None:
        return f"{head}{pts}点"
    if res.pao is not None:  # the deltas show the liable player's payment: use the value
        if res.who == r.dealer:
            return f"{head}{pts // (n - 1)}点∀"
        return f"{head}{pts // (n if n == 4 else 3)}-{pts // (2 if n == 4 else 3) * (1 if n == 4 else 2)}点"
    deltas = res.deltas or [0] * n
    honba = 100 * r.honba
    others = [p for p in range(n) if p != res.who]
    if res.who == r.dealer:
        return f"{head}{-deltas[others[0]] - honba}点∀"
    child = next((p for p in others if p != r.dealer), others[0])
    return f"{head}{-deltas[child] - honba}-{-deltas[r.dealer] - honba}点"


def _yaku_texts(res: Result) -> list[str]:
    names = {fid: name for _, (fid, name) in sorted(YAKU.items(), reverse=True)}
    out = []
    for fid, han in (res.yaku or {}).items():
        name = names.get(fid, fid)
        out.append(f"{name}(役満)" if han >= 13 and res.limit == "yakuman" and fid not in ("dora", "ura_dora", "red_five") else f"{name}({han}飜)")
    return out


def retime_kong_dora(r: Round) -> None:
    """tenhou.net/6 gives kong indicators no time; the reader turns an exposed or added kong's
    after the kong-maker's discard (Tenhou's practice). Under rules that turn it at once
    (wall.kong_indicator: immediate), each such indicator moves back to just after its kong."""
    out: list[tuple] = []
    waiting: list[int] = []  # where the indicator of each open kong belongs
    for ev in r.events:
        if ev[0] == "dora" and waiting:
            pos = waiting.pop(0)
            out.insert(pos, ev)
            waiting = [w + 1 for w in waiting]
            continue
        out.append(ev)
        if ev[0] in ("daiminkan", "kakan"):
            waiting.append(len(out))
    r.events[:] = out
