"""Tenhou's mjlog XML (gzipped or not) -> model.Game.

The tags (public descriptions cited in docs/records.md): <GO type=...> (rule flags),
<UN> (names), <TAIKYOKU>, <INIT seed="round,honba,sticks,dice,dice,dora" ten= oya= haiN=>,
draws <T|U|V|W id> and discards <D|E|F|G id> for players 0-3, <N who= m=> (a call, the meld
code), <REACH who= step=1|2>, <DORA hai=>, <AGARI ...> and <RYUUKYOKU ...> (with owari= on the
last). Tile ids are 0-135: kind = id // 4; ids 16, 52 and 88 are the red fives when the game has
them.
"""

from __future__ import annotations

import re
from typing import Any

from mjtools.gamelog.model import RED, Game, RecordError, Result, Round
from mjtools.gamelog.tenhou_ids import DRAW_TYPES, LIMITS, YAKU

_TAG = re.compile(r"<\s*(/?)([A-Za-z]+)(\d*)((?:\s+[A-Za-z0-9_]+\s*=\s*\"[^\"]*\")*)\s*/?\s*>")
_ATTR = re.compile(r"([A-Za-z0-9_]+)\s*=\s*\"([^\"]*)\"")
_DRAW = {"T": 0, "U": 1, "V": 2, "W": 3}
_DISCARD = {"D": 0, "E": 1, "F": 2, "G": 3}
_RED_IDS = (16, 52, 88)
_IGNORED = {"mjloggm", "SHUFFLE", "TAIKYOKU", "UN", "BYE"}


def _ints(text: str, what: str, where: str) -> list[int]:
    try:
        return [int(x) for x in text.split(",")] if text else []
    except ValueError:
        raise RecordError(f"{what}={text!r} is not a list of integers", where) from None


class _Reader:
    def __init__(self, text: str, source: str):
        self.text = text
        self.source = source
        self.aka = True
        self.players = 4
        self.game = Game(source, "mjlog", 4)
        self.round: Round | None = None
        self.last_draw: list[int | None] = [None] * 4
        self.riichi_pending: set[int] = set()

    # -- tiles ----------------------------------------------------------------------------------
    def code(self, tid: int, where: str) -> int:
        if not 0 <= tid < 136:
            raise RecordError(f"tile id {tid} is not a tile (0-135)", where)
        k = tid // 4
        if self.players == 3 and 1 <= k <= 7:
            raise RecordError(f"tile id {tid} ({k + 1}m) is not in a three-player game", where)
        return k | RED if self.aka and tid in _RED_IDS else k

    def codes(self, text: str, what: str, where: str) -> list[int]:
        return [self.code(t, where) for t in _ints(text, what, where)]

    # -- the file -------------------------------------------------------------------------------
    def read(self) -> Game:
        pos = 0
        closed = False
        for m in _TAG.finditer(self.text):
            gap = self.text[pos : m.start()]
            if gap.strip():
                self.fail(f"unreadable text {gap.strip()[:30]!r}", m.start())
            pos = m.end()
            slash, name, num, attrs = m.group(1), m.group(2), m.group(3), m.group(4)
            if slash:
                if name == "mjloggm":
                    closed = True
                continue
            try:
                self.tag(name, num, dict(_ATTR.findall(attrs)), m.start())
            except RecordError as e:
                self.broken(e)
                return self.game
        rest = self.text[pos:].strip()
        if rest or not closed:
            self.fail("the record breaks off (truncated file)" if not rest or rest.startswith("<") else f"unreadable text {rest[:30]!r}", pos)
        # A closed record may end in the middle of a hand (an excerpt): that hand has no
        # result and nothing to check; a record without its closing tag is cut off.
        return self.game

    def fail(self, message: str, offset: int) -> None:
        try:
            raise RecordError(message, self.where(offset))
        except RecordError as e:
            self.broken(e)

    def broken(self, e: RecordError) -> None:
        """The hand in progress is dropped: the hands before it are whole."""
        if self.game.error is None:
            self.game.error = e
        if self.round is not None and (not self.round.results or e.where.startswith(self.round.where)):
            if self.game.rounds and self.game.rounds[-1] is self.round:
                self.game.rounds.pop()
        self.round = None

    def where(self, offset: int) -> str:
        hand = f"hand {len(self.game.rounds)}" if self.round is not None else "header"
        return f"{self.source}: {hand}, byte {offset}"

    # -- tags -----------------------------------------------------------------------------------
    def tag(self, name: str, num: str, a: dict[str, str], offset: int) -> None:
        where = self.where(offset)
        if num:
            if name in _DRAW or name in _DISCARD:
                self.tile_move(name, int(num), where)
                return
            raise RecordError(f"unknown tag <{name}{num}>", where)
        if name in _DRAW or name in _DISCARD:
            raise RecordError(f"<{name}> without a tile id", where)
        if name == "GO":
            self.go(a, where)
        elif name == "INIT":
            self.init(a, offset)
        elif name == "N":
            self.call(a, where)
        elif name == "REACH":
            self.reach(a, where)
        elif name == "DORA":
            self.need_round(name, where).events.append(("dora", self.code(int(a.get("hai", "-1")), where)))
        elif name == "AGARI":
            self.agari(a, where)
        elif name == "RYUUKYOKU":
            self.ryuukyoku(a, where)
        elif name in _IGNORED:
            if name == "UN" and "n0" in a and not self.game.names:
                from urllib.parse import unquote

                self.game.names = [unquote(a.get(f"n{i}", "")) for i in range(4) if a.get(f"n{i}")]
        else:
            raise RecordError(f"unknown tag <{name}>", where)

    def go(self, a: dict[str, str], where: str) -> None:
        t = _ints(a.get("type", "0"), "type", where)[0]
        self.aka = not t & 0x02
        self.players = 3 if t & 0x10 else 4
        g = self.game
        g.players = self.players
        g.rules = "tenhou-sanma" if self.players == 3 else "tenhou"
        g.options = {"aka_dora": self.aka, "open_tanyao": not t & 0x04}
        g.length = "south" if t & 0x08 else "east"  # type: ignore[attr-defined]

    def need_round(self, name: str, where: str) -> Round:
        if self.round is None or self.round.results:
            raise RecordError(f"<{name}> outside a hand", where)
        return self.round

    def init(self, a: dict[str, str], offset: int) -> None:
        self.round = None
        where = self.where(offset)
        seed = _ints(a.get("seed", ""), "seed", where)
        if len(seed) != 6:
            raise RecordError("INIT seed is round,honba,sticks,dice,dice,dora", where)
        n = self.players
        ten = _ints(a.get("ten", ""), "ten", where)
        r = Round(len(self.game.rounds), seed[0] // 4, seed[0] % 4, seed[1], seed[2], int(a.get("oya", seed[0] % 4)), [x * 100 for x in ten[:n]], [], [], where=f"{self.source}: hand {len(self.game.rounds)}")
        self.game.rounds.append(r)
        self.round = r
        r.dora = [self.code(seed[5], where)]
        for p in range(n):
            deal = self.codes(a.get(f"hai{p}", ""), f"hai{p}", where)
            if len(deal) != 13:
                raise RecordError(f"hai{p} deals {len(deal)} tiles, not 13", where)
            r.deal.append(deal)
        self.last_draw = [None] * 4
        self.riichi_pending = set()

    def tile_move(self, letter: str, tid: int, where: str) -> None:
        r = self.need_round(letter, where)
        code = self.code(tid, where)
        if letter in _DRAW:
            p = _DRAW[letter]
            self.check_player(p, where)
            self.last_draw[p] = tid
            r.events.append(("draw", p, code))
        else:
            p = _DISCARD[letter]
            self.check_player(p, where)
            riichi = p in self.riichi_pending
            self.riichi_pending.discard(p)
            r.events.append(("discard", p, code, riichi))

    def check_player(self, p: int, where: str) -> None:
        if p >= self.players:
            raise RecordError(f"player {p} in a {self.players}-player game", where)

    def reach(self, a: dict[str, str], where: str) -> None:
        r = self.need_round("REACH", where)
        p = int(a.get("who", "-1"))
        self.check_player(p, where)
        if a.get("step") == "1":
            self.riichi_pending.add(p)
        elif a.get("step") == "2":
            r.events.append(("riichi_accepted", p))
        else:
            raise RecordError(f"REACH step={a.get('step')!r}", where)

    def call(self, a: dict[str, str], where: str) -> None:
        r = self.need_round("N", where)
        who = int(a.get("who", "-1"))
        self.check_player(who, where)
        m = _ints(a.get("m", ""), "m", where)
        if len(m) != 1:
            raise RecordError("N needs one meld code m=", where)
        r.events.append(self.decode(m[0], who, where))

    def decode(self, m: int, who: int, where: str) -> tuple:
        n = self.players
        frm = (who + (m & 3)) % n
        if m & 0x4:  # chi: the three tiles from a base and offsets
            t, called = divmod(m >> 10, 3)
            base = (t // 7) * 9 + t % 7
            ids = [(base + i) * 4 + ((m >> (3 + 2 * i)) & 3) for i in range(3)]
            return self.meld("chi", who, ids, ids[called], frm, where)
        if m & 0x18:  # pon (0x8) or added kong (0x10): three of a kind, one copy left out
            t, called = divmod(m >> 9, 3)
            unused = (m >> 5) & 3
            ids = [t * 4 + i for i in range(4) if i != unused]
            if m & 0x8:
                return self.meld("pon", who, ids, ids[called], frm, where)
            return ("kakan", who, self.code(t * 4 + unused, where))
        if m & 0x20:  # kita (three-player North set aside)
            return ("kita", who, self.code(m >> 8, where))
        tid = m >> 8
        ids = [tid // 4 * 4 + i for i in range(4)]
        if m & 3 == 0:
            return ("ankan", who, tuple(self.code(i, where) for i in ids))
        return self.meld("daiminkan", who, ids, tid, frm, where)

    def meld(self, kind: str, who: int, ids: list[int], called: int, frm: int, where: str) -> tuple:
        if frm == who:
            raise RecordError(f"a {kind} called from the caller himself", where)
        rest = list(ids)
        rest.remove(called)
        return (kind, who, self.code(called, where), tuple(self.code(i, where) for i in rest), frm)

    # -- results --------------------------------------------------------------------------------
    def owari(self, a: dict[str, str], where: str) -> None:
        if "owari" in a:
            vals = a["owari"].split(",")
            try:
                self.game.final = [int(vals[i]) * 100 for i in range(0, len(vals), 2)][: self.players]
                self.game.final_score = [float(vals[i]) for i in range(1, len(vals), 2)][: self.players]
            except (ValueError, IndexError):
                raise RecordError(f"owari={a['owari']!r}", where) from None

    def deltas(self, a: dict[str, str], where: str) -> list[int]:
        sc = _ints(a.get("sc", ""), "sc", where)
        if len(sc) < 2 * self.players:
            raise RecordError(f"sc= has {len(sc)} numbers, not {2 * self.players}", where)
        return [sc[2 * i + 1] * 100 for i in range(self.players)]

    def agari(self, a: dict[str, str], where: str) -> None:
        r = self.round
        if r is None:
            raise RecordError("<AGARI> outside a hand", where)
        res = Result("win", where=where)
        res.who = int(a.get("who", "-1"))
        fw = int(a.get("fromWho", "-1"))
        self.check_player(res.who, where)
        self.check_player(fw, where)
        res.from_ = None if fw == res.who else fw
        if "paoWho" in a:
            res.pao = int(a["paoWho"])
        res.win_tile = self.code(int(a.get("machi", "-1")), where)
        res.ura = self.codes(a.get("doraHaiUra", ""), "doraHaiUra", where)
        ten = _ints(a.get("ten", ""), "ten", where)
        if len(ten) != 3:
            raise RecordError("ten= is fu,points,limit", where)
        res.fu, res.points = ten[0], ten[1]
        res.limit = LIMITS.get(ten[2])
        yaku: dict[str, int] = {}
        pairs = _ints(a.get("yaku", ""), "yaku", where)
        for i in range(0, len(pairs) - 1, 2):
            self.add_yaku(yaku, pairs[i], pairs[i + 1], where)
        for y in _ints(a.get("yakuman", ""), "yakuman", where):
            self.add_yaku(yaku, y, 13, where)
        res.yaku = yaku
        res.han = sum(yaku.values())
        ba = _ints(a.get("ba", "0,0"), "ba", where)
        res.honba, res.sticks = (ba + [0, 0])[:2]
        res.deltas = self.deltas(a, where)
        r.results.append(res)
        self.owari(a, where)

    def add_yaku(self, yaku: dict[str, int], yid: int, han: int, where: str) -> None:
        if yid not in YAKU:
            raise RecordError(f"unknown yaku id {yid}", where)
        if han:
            fid = YAKU[yid][0]
            yaku[fid] = yaku.get(fid, 0) + han

    def ryuukyoku(self, a: dict[str, str], where: str) -> None:
        r = self.round
        if r is None:
            raise RecordError("<RYUUKYOKU> outside a hand", where)
        kind = a.get("type")
        if kind not in DRAW_TYPES:
            raise RecordError(f"unknown draw type {kind!r}", where)
        res = Result("draw", draw_type=DRAW_TYPES[kind], where=where)
        res.deltas = self.deltas(a, where)
        res.tenpai = [p for p in range(self.players) if f"hai{p}" in a]
        r.results.append(res)
        self.owari(a, where)


def read_mjlog(text: str, source: str) -> Game:
    return _Reader(text, source).read()


def read_attrs(text: str) -> list[tuple[str, dict[str, Any]]]:
    """(tag, attributes) of every tag (tests and tools)."""
    return [(m.group(2) + m.group(3), dict(_ATTR.findall(m.group(4)))) for m in _TAG.finditer(text)]
