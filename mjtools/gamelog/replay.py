"""Play a record's events again and score every result with the engine.

Each hand's state is rebuilt from its events: concealed tiles, melds (with the seat they came
from), rivers, riichi, the live wall, dora indicators. The situational flags come from the
events, never from the record's result: riichi and double riichi (declared on a first discard
with no call before), ippatsu (won before the riichi player's next discard with no call in
between), haitei / houtei (the live wall is empty), rinshan (a kong's replacement draw), chankan
(a ron on an added kong's tile), tenhou / chiihou (a win on the first draw, no call before).
A tile that is not where the events say is a `RecordError` naming the hand and the event.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from mjtools.gamelog.model import RED, WINDS, Game, RecordError, Result, Round, kind_of
from mjtools.rules.model import Ruleset
from mjtools.tiles.context import WinContext
from mjtools.tiles.hand import Aside, Hand, Meld
from mjtools.tiles.kinds import Tile

_TILES = [Tile(k) for k in range(34)]
_RED = {k: Tile(k, red=True) for k in (4, 13, 22)}
_TERMINALS = frozenset(k for k in range(34) if k >= 27 or k % 9 in (0, 8))


def tile(code: int) -> Tile:
    return _RED[code & 63] if code & RED else _TILES[code]


def _sorted(codes: list[int] | tuple[int, ...]) -> tuple[Tile, ...]:
    return tuple(sorted((tile(c) for c in codes), key=Tile.sort_key))


@dataclass
class _Player:
    hand: list[int] = field(default_factory=list)
    melds: list[Meld] = field(default_factory=list)
    river: list[int] = field(default_factory=list)
    called_away: bool = False  # a discard of his was called (no nagashi mangan)
    kita: list[int] = field(default_factory=list)
    draws: int = 0
    discards: int = 0
    riichi: bool = False
    double_riichi: bool = False
    declaring: bool = False  # riichi declared, not yet accepted
    declared_double: bool = False
    ippatsu: bool = False
    drawn: int | None = None
    replacement: bool = False  # the tile drawn was a kong's replacement
    last_live: bool = False  # the tile drawn was the last of the live wall
    kong_turn: bool = False  # a kong was just made: the next draw is its replacement
    kita_turn: bool = False
    rinshan: bool = False  # the tile drawn replaced a kong
    discarded: list[int] = field(default_factory=list)  # every discard, those called away too (furiten)
    passed: list[int] = field(default_factory=list)  # others' discards since his own last one
    passed_riichi: list[int] | None = None  # others' discards since his riichi stood


class HandReplay:
    """One hand's events applied in order; `win_case` / `draw_case` give what the engine needs."""

    def __init__(self, rnd: Round, players: int, rs: Ruleset):
        self.r = rnd
        self.n = players
        self.rs = rs
        dead = int(rs.section("wall").get("dead_wall", 14) or 0)
        self.live_left = len(self.wall_tiles(rs)) - dead - 13 * players
        self.p = [_Player(hand=list(d)) for d in rnd.deal]
        self.dora = list(rnd.dora)
        self.sticks = rnd.sticks
        self.interrupted = False
        self.first_discards: list[int] = []
        self.kongs: list[int] = []  # who made each kong
        self.last_discard: tuple[int, int] | None = None  # (player, code)
        self.robbable: tuple[int, int, str] | None = None  # (player, code, kakan|ankan)
        self.step = 0
        self.copies = list(rs.copies[:34])
        self.reds = {k: int(rs.red_fives.get("mps"[k // 9], 0) or 0) for k in (4, 13, 22)}
        for c in [c for d in rnd.deal for c in d] + list(rnd.dora):
            self.seen(c)

    @staticmethod
    def wall_tiles(rs: Ruleset) -> list[int]:
        return [k for k in range(34) for _ in range(rs.copies[k])]

    def seen(self, code: int) -> None:
        """One more physical tile out of the wall: never more copies than the set has."""
        k = code & 63
        self.copies[k] -= 1
        if self.copies[k] < 0:
            raise self.fail(f"more copies of {tile(k)} than {self.rs.id} has")
        if code & RED:
            self.reds[k] -= 1
            if self.reds[k] < 0:
                raise self.fail(f"more red fives {tile(code)} than {self.rs.id} has")

    def seat(self, p: int) -> str:
        return WINDS[(p - self.r.dealer) % self.n]

    def fail(self, message: str) -> RecordError:
        return RecordError(message, f"{self.r.where} ({self.r.label}), event {self.step}")

    def take(self, p: int, code: int, what: str) -> None:
        hand = self.p[p].hand
        if code in hand:
            hand.remove(code)
            return
        raise self.fail(f"{what}: player {p} ({self.seat(p)}) does not hold {tile(code)}")

    # -- events ---------------------------------------------------------------------------------
    def run(self, events: list[tuple] | None = None) -> None:
        for ev in self.r.events if events is None else events:
            self.step += 1
            self.apply(ev)

    def apply(self, ev: tuple) -> None:
        kind = ev[0]
        if kind == "draw":
            self.draw(ev[1], ev[2])
        elif kind == "discard":
            self.discard(ev[1], ev[2], ev[3])
        elif kind == "riichi_accepted":
            q = self.p[ev[1]]
            if not q.declaring:
                raise self.fail(f"player {ev[1]}'s riichi is accepted but was not declared")
            q.declaring = False
            q.riichi = True
            q.double_riichi = q.declared_double
            q.ippatsu = True
            q.passed_riichi = []
            self.sticks += 1
        elif kind in ("chi", "pon", "daiminkan"):
            self.call(kind, ev[1], ev[2], ev[3], ev[4])
        elif kind == "ankan":
            self.ankan(ev[1], ev[2])
        elif kind == "kakan":
            self.kakan(ev[1], ev[2])
        elif kind == "kita":
            p = ev[1]
            self.take(p, ev[2], "kita")
            self.p[p].kita.append(ev[2])
            self.p[p].kita_turn = True
            self.robbable = (p, ev[2], "kita")  # a win on it is possible; ippatsu ends at the replacement draw
        elif kind == "dora":
            self.seen(ev[1])
            self.dora.append(ev[1])
        else:
            raise self.fail(f"unknown event {kind!r}")

    def break_ippatsu(self) -> None:
        for q in self.p:
            q.ippatsu = False

    def draw(self, p: int, code: int) -> None:
        q = self.p[p]
        if len(q.hand) + 3 * len(q.melds) != 13:
            raise self.fail(f"player {p} ({self.seat(p)}) draws holding {len(q.hand) + 3 * len(q.melds)} tiles")
        if self.live_left <= 0 and not (q.kong_turn or q.kita_turn):
            raise self.fail("a draw from an empty wall")
        self.live_left -= 1  # a replacement draw moves the end of the live wall too
        if (q.kong_turn or q.kita_turn) and self.robbable is not None and self.robbable[2] in ("kakan", "kita"):
            self.break_ippatsu()  # the added kong (or kita) stood
        q.replacement = q.kong_turn or q.kita_turn
        q.rinshan = q.kong_turn  # a kita's replacement is no rinshan (as in the simulator)
        q.kong_turn = q.kita_turn = False
        q.last_live = not q.replacement and self.live_left == 0
        if not q.replacement:
            q.draws += 1
        self.seen(code)
        q.hand.append(code)
        q.drawn = code
        self.robbable = None

    def discard(self, p: int, code: int, riichi: bool) -> None:
        q = self.p[p]
        self.take(p, code, "discard")
        if q.ippatsu and not riichi:
            q.ippatsu = False
        if riichi:
            if q.riichi or any(m.is_open for m in q.melds):
                raise self.fail(f"player {p} declares riichi {'again' if q.riichi else 'with an open hand'}")
            q.declaring = True
            q.declared_double = q.discards == 0 and not self.interrupted
        q.discards += 1
        q.river.append(code)
        q.discarded.append(code)
        q.passed = []
        for i, o in enumerate(self.p):
            if i != p:
                o.passed.append(code)
                if o.passed_riichi is not None:
                    o.passed_riichi.append(code)
        q.drawn = None
        q.replacement = False
        q.kong_turn = False
        if not self.interrupted and len(self.first_discards) < self.n:
            self.first_discards.append(kind_of(code))
        self.last_discard = (p, code)
        self.robbable = None

    def call(self, kind: str, p: int, called: int, used: tuple[int, ...], frm: int) -> None:
        if self.last_discard is None or self.last_discard != (frm, called):
            raise self.fail(f"{kind} of {tile(called)} from player {frm}, who did not just discard it")
        for c in used:
            self.take(p, c, kind)
        shape = {"chi": "chow", "pon": "pung", "daiminkan": "exposed_kong"}[kind]
        kinds = sorted(kind_of(c) for c in used + (called,))
        if kind == "chi" and (kinds[0] >= 27 or kinds[1] != kinds[0] + 1 or kinds[2] != kinds[1] + 1 or kinds[0] // 9 != kinds[2] // 9):
            raise self.fail(f"chi of {tile(called)} with {', '.join(map(str, map(tile, used)))} is no chow")
        if kind != "chi" and len(set(kinds)) != 1:
            raise self.fail(f"{kind} of {tile(called)} with {', '.join(map(str, map(tile, used)))}: not one kind")
        q = self.p[p]
        q.melds.append(Meld(_sorted(used + (called,)), shape, self.seat(frm)))
        self.p[frm].called_away = True
        self.p[frm].river.pop()
        self.interrupted = True
        self.break_ippatsu()
        self.last_discard = None
        if kind == "daiminkan":
            self.kongs.append(p)
            q.kong_turn = True

    def ankan(self, p: int, codes: tuple[int, ...]) -> None:
        for c in codes:
            self.take(p, c, "concealed kong")
        q = self.p[p]
        q.melds.append(Meld(_sorted(codes), "concealed_kong", None, True))
        self.kongs.append(p)
        q.kong_turn = True
        self.interrupted = True
        self.break_ippatsu()
        self.robbable = (p, codes[0], "ankan")

    def kakan(self, p: int, code: int) -> None:
        self.take(p, code, "added kong")
        q = self.p[p]
        for i, m in enumerate(q.melds):
            if m.kind == "pung" and m.tiles[0].kind == kind_of(code):
                q.melds[i] = Meld(_sorted([*(_code(t) for t in m.tiles), code]), "added_kong", m.source, False, "added")
                break
        else:
            raise self.fail(f"player {p} adds {tile(code)} to a pung he does not have")
        self.kongs.append(p)
        q.kong_turn = True
        # the added kong breaks ippatsu only once nobody robs it (a chankan keeps ippatsu)
        self.robbable = (p, code, "kakan")

    # -- results --------------------------------------------------------------------------------
    def win_hand(self, res: Result) -> tuple[Hand, WinContext, int]:
        """(hand, context, winning tile code) of a recorded win, from the state."""
        who = res.who
        assert who is not None
        q = self.p[who]
        situ: dict[str, int] = {}
        if res.from_ is None:
            if q.drawn is None:
                raise self.fail(f"player {who} wins by self-draw without a tile just drawn")
            code = q.drawn
            concealed = list(q.hand)
            concealed.remove(code)
            if q.rinshan:
                situ["kong_bloom"] = 1
            if q.last_live:
                situ["last_tile"] = 1
            if q.draws == 1 and not q.replacement and not self.interrupted and not q.melds:
                situ["first_turn"] = 1
        else:
            frm = res.from_
            if self.robbable is not None and self.robbable[0] == frm:
                code = self.robbable[1]
                if self.robbable[2] == "kakan":
                    situ["robbing_kong"] = 1
            elif self.last_discard is not None and self.last_discard[0] == frm:
                code = self.last_discard[1]
                if self.live_left <= 0:
                    situ["last_tile"] = 1
            else:
                raise self.fail(f"player {who} wins on a tile of player {frm}, who did not just put one out")
            concealed = list(q.hand)
        if q.riichi:
            situ["double_riichi" if q.double_riichi else "riichi"] = 1
            if q.ippatsu:
                situ["ippatsu"] = 1
        aside = (Aside(_sorted(q.kita), "kita"),) if q.kita else ()
        hand = Hand(_sorted(concealed), tuple(q.melds), aside, tile(code))
        ctx = WinContext(
            tsumo=res.from_ is None,
            seat=self.seat(who),
            round=WINDS[self.r.round_wind],
            discarder=None if res.from_ is None else self.seat(res.from_),
            players=self.n,
            situations=MappingProxyType(situ),
            indicators=MappingProxyType({"dora": tuple(tile(c) for c in self.dora)}),
            ura=tuple(tile(c) for c in res.ura) if q.riichi else (),
            honba=self.r.honba,
            sticks=self.sticks,
        )
        return hand, ctx, code

    def furiten(self, p: int, win_code: int) -> bool:
        """Whether a ron by p on win_code breaks the furiten rules (play.furiten: riichi): a wait
        among his own discards, a winning tile let pass since his last discard, or since his
        riichi. The winning discard itself was not let pass."""
        if self.rs.section("play").get("furiten") != "riichi":
            return False
        from mjtools.analysis.engine import waits_of
        from mjtools.analysis.state import state_of

        q = self.p[p]
        spec = self.rs.base_spec
        waits = set(waits_of(state_of(self.held(p), spec), spec, list(self.rs.copies)))
        if not waits:
            return False
        passed = q.passed[:-1] if q.passed and q.passed[-1] == win_code and self.robbable is None else q.passed
        since = q.passed_riichi or []
        since = since[:-1] if since and since[-1] == win_code and self.robbable is None else since
        return any((c & 63) in waits for c in (*q.discarded, *passed, *since))

    def held(self, p: int) -> Hand:
        q = self.p[p]
        aside = (Aside(_sorted(q.kita), "kita"),) if q.kita else ()
        return Hand(_sorted(q.hand), tuple(q.melds), aside, None)

    def nagashi(self) -> list[int]:
        """Players whose every discard is a terminal or honor, none called away."""
        return [i for i, q in enumerate(self.p) if q.river and not q.called_away and all(kind_of(c) in _TERMINALS for c in q.river)]


def _code(t: Tile) -> int:
    return t.kind | RED if t.red else t.kind


def rules_for(game: Game, rules: str | None, options: dict[str, Any] | None, env: str | None) -> Ruleset:
    """--rules wins over what the record says, which wins over $MJTOOLS_RULES; a record that
    says nothing (mjai) plays under tenhou / tenhou-sanma."""
    from mjtools.rules import load

    opts: dict[str, Any] = {}
    if rules:
        name = rules
    else:
        name = game.rules or env or ("tenhou-sanma" if game.players == 3 else "tenhou")
        if game.rules:
            opts.update(game.options)
    opts.update(options or {})
    rs = load(name, opts)
    if rs.players != game.players:
        raise RecordError(f"the record has {game.players} players; {rs.id} is for {rs.players}", game.source)
    return rs
