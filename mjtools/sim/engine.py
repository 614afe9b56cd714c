"""One hand from the deal to the last payment, under a rule file's `wall`, `calls` and `play`.

    deal -> flowers replaced -> 换三张 -> 定缺 -> turns: draw (or a call), then tsumo / kong /
    kita / riichi / discard; every discard is offered to the others: win > pon, kong > chi.

Wins are valued by `mjtools.scoring.score`, exhaustive draws by a table case; the engine only
decides who plays what. `HandEngine(...).play()` returns the hand's record (see `record()`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import repeat
from operator import is_
from typing import Any

from mjtools.errors import MjError
from mjtools.rules.counted import Counted, counted_kinds
from mjtools.rules.model import Ruleset
from mjtools.sim import settle
from mjtools.sim.claims import Claims, _End
from mjtools.sim.config import PlayConfig, config, kind_of
from mjtools.sim.fastshape import Analyzer, Melds
from mjtools.sim.options import turn_options
from mjtools.sim.state import Action, MeldRec, Player, View, code_str
from mjtools.sim.wall import Wall
from mjtools.tiles.kinds import kind_str

_ANALYZERS: dict[tuple[int, int | None, frozenset[int]], tuple[Ruleset, Analyzer]] = {}


class BotError(MjError):
    """A bot returned something that is not one of the legal actions."""


def _num(x: float) -> float | int:
    return int(x) if float(x).is_integer() else round(x, 4)


class HandEngine(Claims):
    def __init__(self, rs: Ruleset, bots: Sequence[Any], seed: int, setup: Any = None, log: bool = False, table: Any = None):
        self.rs = rs
        self.cfg: PlayConfig = config(rs)
        self.rng = random.Random(seed)
        self.seed = seed
        self.bots = list(bots)
        self.setup = setup
        self.log_all = log
        self.players = [Player(i, s) for i, s in enumerate(self.cfg.seats)]
        self.wall = Wall(self.cfg, self.rng, setup.wall_order(self.cfg, self.rng) if setup else None)
        self.events: list[dict[str, Any]] = []
        self.ledger: list[dict[str, Any]] = []
        self.wins: list[dict[str, Any]] = []
        self.turns = 0
        self.kong_seats: list[str] = []
        # a call (or a start in mid-hand) ends the uninterrupted first go-around that double
        # riichi, 天和/地和, 四风连打 and 九种九牌 need
        self.interrupted = bool(setup is not None and setup.mid_hand)
        self.indicators: dict[str, list[int]] = {}
        self.ura: list[int] = []
        self.pending_indicator = 0
        self.sticks = 0
        self.wild: frozenset[int] = frozenset()
        self.counted: dict[int, Counted] = {}  # kinds whose putting out counts (play.discard_situations)
        self.vis = [0] * 50
        self._waits_memo: dict[tuple, tuple[int, list[int]]] = {}  # (`waits`)
        self._an_cache: dict[int | None, tuple[frozenset[int], Analyzer]] = {}  # (`analyzer`)
        self.first_discards: list[int] = []
        self.end = "exhaustive_draw"
        self.abort: str | None = None
        self.draw_ledger: list[dict[str, Any]] = []
        self.unsettled: list[str] = []
        self.end_turned = False
        self.anyone_out = False  # 血战: a winner has left the table
        self._next_seat = [(i + 1) % self.cfg.players for i in range(self.cfg.players)]  # seat -> the next still in (`next_active`)
        self.openings: list[dict[str, Any]] = []  # 起手胡 shown after the deal
        # A hand of a whole game (sim/game.py): round wind, honba, sticks on the table, who may
        # still declare riichi (points); an independent hand has none of these.
        self.round_wind = getattr(table, "round_wind", "E")
        self.honba = getattr(table, "honba", 0)
        self.sticks = getattr(table, "sticks", 0)
        self.may_riichi = list(getattr(table, "may_riichi", None) or [True] * self.cfg.players)
        self.deal_codes: list[list[int]] = []  # the tiles each seat was dealt (records out)
        self.win_recs: list[tuple[str, dict[str, Any], int, str | None]] = []  # (seat, score record, tile, discarder)
        self.start_sticks = self.sticks
        self.draw_results: dict[str, Any] | None = None  # the exhaustive draw's table record
        self.nagashi: list[dict[str, Any]] = []  # nagashi mangan score records

    # -- helpers --------------------------------------------------------------------------------
    def event(self, name: str, seat: str | None = None, **kw: Any) -> None:
        ev: dict[str, Any] = {"event": name}
        if seat is not None:
            ev["seat"] = seat
        ev.update(kw)
        self.events.append(ev)

    def analyzer(self, void: int | None) -> Analyzer:
        mine = self._an_cache.get(void)  # (this hand's, per void suit, for the wildcards it was made for)
        if mine is not None and mine[0] is self.wild:
            return mine[1]
        key = (id(self.rs), void, self.wild)
        got = _ANALYZERS.get(key)
        if got is None or got[0] is not self.rs:
            from mjtools.analysis.wildcards import stand_ins

            spec = self.rs.shape_spec(self.wild, stand_ins(self.rs, self.wild)) if self.wild else self.rs.base_spec
            got = _ANALYZERS[key] = (self.rs, Analyzer(spec, self.rs.copies, void))
        self._an_cache[void] = (self.wild, got[1])
        return got[1]

    def melds_info(self, p: Player) -> Melds:
        if p._melds_info is None:
            hidden = sum(1 for m in p.melds if m.kind == "concealed_kong")
            p._melds_info = self.analyzer(p.void).melds(p.meld_kinds(), hidden)
        return p._melds_info

    def visible_counts(self) -> list[int]:
        return self.vis

    def next_active(self, i: int) -> int:
        return self._next_seat[i]

    def _reseat(self) -> None:
        """`next_active`'s table, after players left the hand (血战)."""
        n = self.cfg.players
        for i in range(n):
            self._next_seat[i] = next((j for j in ((i + s) % n for s in range(1, n + 1)) if not self.players[j].out), i)

    def prev_active(self, i: int) -> int:
        n = self.cfg.players
        for step in range(1, n + 1):
            j = (i - step) % n
            if not self.players[j].out:
                return j
        return i

    def waits(self, p: Player) -> list[int]:
        """Kinds completing p's hand of hand-size tiles (cached until the hand changes)."""
        if p._waits is None:
            if p.floor > 1:  # (shanten two or more: no waits, nothing worked out)
                p.shanten, p._waits = p.floor, []
                return p._waits
            an = self.analyzer(p.void)
            m = self.melds_info(p)
            held = p.held()
            # a hand met again this hand (a discard weighed for riichi, then made) is not
            # worked out again: the answer depends on the analysis, the tiles and the melds only
            key = (an, bytes(p.counts), m, bytes(held))
            got = self._waits_memo.get(key)
            if got is None:
                counts, wild = an.natural(p.counts)
                sh = an.shanten(counts, wild, m)
                got = self._waits_memo[key] = (sh, an.waits(counts, wild, m, held) if sh == 0 else [])
            p.shanten, p._waits = got
        return p._waits

    def ready_discards(self, p: Player, codes: list[int]) -> list[int]:
        """The discards (codes) after which p's hand is ready."""
        if p.drawn is not None and p.draw_shanten > 1:
            return []  # one tile lowers the shanten by one at most: no discard leaves it ready
        an = self.analyzer(p.void)
        m = self.melds_info(p)
        counts, wild = an.natural(p.counts)
        if an.shanten(counts, wild, m) > 0:  # no discard can leave it ready
            return []
        sh = an.discard_shanten(p.counts, m, sorted({kind_of(c) for c in codes}))
        out = []
        for c in codes:
            if sh[kind_of(c)] == 0:
                p.remove(c)
                if self.waits(p):
                    out.append(c)
                p.add(c)
        return out

    def kong_keeps_waits(self, p: Player, k: int) -> bool:
        """A declared-ready player may kong only if the waits stay the same (the drawn tile,
        of kind k, is set aside with three held ones)."""
        code = p.drawn
        assert code is not None
        p.remove(code)
        before = list(self.waits(p))
        p.add(code)
        saved = (list(p.hand), list(p.counts))
        for _ in range(p.counts[k]):
            p.take_kind(k)
        extra = MeldRec("concealed_kong", [k] * 4)
        p.melds.append(extra)
        p._melds_info = None
        after = self.waits(p)
        p.melds.pop()
        p._melds_info = None
        p.hand, p.counts = saved
        p._waits = None
        return bool(before) and after == before

    def can_tsumo(self, p: Player) -> bool:
        """Whether the drawn tile completes a legal win (the score record is kept for _tsumo)."""
        p.tsumo_rec = None
        if p.drawn is None or not p.pre_waits or kind_of(p.drawn) not in p.pre_waits:
            return False
        p.tsumo_rec = self._win(p, p.drawn, True, None, sticks=self.sticks)
        return p.tsumo_rec is not None

    def _choose(self, p: Player, phase: str, options: list[Action], tile: int | None = None, source: str | None = None) -> Action:
        if self.setup is not None:  # scripted actions come first, even a forced one
            got = self.setup.scripted(p.seat, options)
            if got is not None:
                return got
        if len(options) == 1:
            return options[0]
        if self.cfg.forced_win_last and self.wall.left < self.cfg.forced_win_last:
            for a in options:
                if a.kind in ("ron", "tsumo"):
                    return a  # 最后四张必胡: a possible win is taken
        a = self.bots[p.index].act(View(self, p, phase, tile, source), options)
        if not any(map(is_, options, repeat(a))) and a not in options:  # (identity first, in C)
            raise BotError(f"bot {type(self.bots[p.index]).__name__} at {p.seat} chose {a}, not one of {', '.join(map(str, options))}")
        return a

    # -- setting up -----------------------------------------------------------------------------
    def _deal(self) -> None:
        cfg = self.cfg
        for p in self.players:
            for _ in range(cfg.hand_size):
                p.add(self.wall.draw())
            self.deal_codes.append(list(p.hand))

    def _turn_start_indicators(self) -> None:
        for role in self.cfg.roles:
            if role in self.cfg.end_roles:
                continue  # turned after the win (翻牌鸡)
            t, under = self.wall.turn_indicator()
            self.indicators.setdefault(role, []).append(t)
            if under is not None:
                self.ura.append(under)
            self.vis[kind_of(t)] += 1
            self.event("indicator", role=role, tile=code_str(t))
        wind = self.indicators.get("wild")
        if wind:
            from mjtools.analysis.wildcards import wild_kinds
            from mjtools.tiles.context import WinContext

            ctx = WinContext(indicators={"wild": tuple(settle.tile(c) for c in wind)})
            self.wild = wild_kinds(self.rs, ctx)
            self.event("wildcards", tiles=[kind_str(k) for k in sorted(self.wild)])
        else:
            from mjtools.analysis.wildcards import fixed_wild_kinds

            self.wild = fixed_wild_kinds(self.rs)
        if self.cfg.counted:
            self.counted = counted_kinds(self.cfg.counted, self.wild)

    def _kong_indicator(self) -> None:
        role = self.cfg.kong_role
        if role is None:
            return
        t, under = self.wall.turn_indicator()
        self.indicators.setdefault(role, []).append(t)
        if under is not None:
            self.ura.append(under)
        self.vis[kind_of(t)] += 1
        self.event("indicator", role=role, tile=code_str(t))

    def _replace_flowers(self, p: Player, code: int) -> int:
        """Set a drawn bonus tile aside and draw again until a playable tile comes."""
        while kind_of(code) in self.cfg.bonus and kind_of(code) not in self.wild and self.cfg.flower_replacement:
            p.remove(code)
            p.flowers.append(code)
            self.vis[kind_of(code)] += 1
            self.event("flower", p.seat, tile=code_str(code))
            if not self.wall.can_replace():  # the wall ran out on a flower
                self._exhaustive()
                raise _End
            code = self.wall.replacement()
            p.add(code)
            p.flower_draw = True
        return code

    def _deal_flowers(self) -> None:
        if not self.cfg.bonus or not self.cfg.flower_replacement:
            return
        changed = True
        while changed:  # dealer first, then in turn, until nobody holds a bonus tile
            changed = False
            for p in self.players:
                for code in [c for c in p.hand if kind_of(c) in self.cfg.bonus and kind_of(c) not in self.wild]:
                    p.remove(code)
                    p.flowers.append(code)
                    self.vis[kind_of(code)] += 1
                    self.event("flower", p.seat, tile=code_str(code))
                    p.add(self.wall.replacement())
                    changed = True
        for p in self.players:
            p.flower_draw = False

    def _exchange(self) -> None:
        ex = self.cfg.exchange
        assert ex is not None
        chosen = []
        for p in self.players:
            picked = list(self.bots[p.index].exchange(View(self, p, "exchange"), ex.count, ex.same_suit))
            self._check_exchange(p, picked, ex.count, ex.same_suit)
            chosen.append(picked)
        direction = self.rng.choice(ex.directions)
        shift = {"left": -1, "right": 1, "opposite": 2}[direction] % self.cfg.players
        for p, picked in zip(self.players, chosen):
            for c in picked:
                p.remove(c)
        for i, picked in enumerate(chosen):
            to = self.players[(i + shift) % self.cfg.players]
            for c in picked:
                to.add(c)
        self.event("exchange", direction=direction)

    def _check_exchange(self, p: Player, picked: list[int], count: int, same_suit: bool) -> None:
        hand = list(p.hand)
        ok = len(picked) == count
        for c in picked:
            if c in hand:
                hand.remove(c)
            else:
                ok = False
        if same_suit and ok:
            ok = len({kind_of(c) // 9 if kind_of(c) < 27 else 9 + kind_of(c) for c in picked}) == 1 and kind_of(picked[0]) < 27
        if not ok:
            raise BotError(f"bot at {p.seat} passed {[code_str(c) for c in picked]}: not {count} of its tiles" + (" of one suit" if same_suit else ""))

    def _declare_voids(self) -> None:
        for p in self.players:
            suit = self.bots[p.index].declare_void(View(self, p, "void"))
            if suit not in (0, 1, 2):
                raise BotError(f"bot at {p.seat} declared void suit {suit!r} (0 m, 1 p, 2 s)")
            p.void = suit
            p._waits = None
            self.event("void", p.seat, suit="mps"[suit])

    # -- the hand -------------------------------------------------------------------------------
    def play(self) -> dict[str, Any]:
        try:
            self._deal()
            self._turn_start_indicators()
            self._deal_flowers()
            if self.cfg.exchange:
                self._exchange()
            if self.cfg.void_declaration:
                self._declare_voids()
            mode = "draw"
            if self.cfg.opening_wins and (self.setup is None or not self.setup.mid_hand):
                if self.cfg.dealer_extra:  # the dealer is dealt his first draw (14 tiles)
                    self._draw(self.players[0], self.wall.draw(), "live")
                    mode = "drawn"
                self._opening_wins()
            self._loop(mode)
        except _End:
            pass
        return self.record()

    def _opening_wins(self) -> None:
        """起手胡 (play.opening_wins): every player holding one shows it right after the deal
        and is paid as a self-draw of those fans (scored with situation opening_win); the hand
        goes on. Showing costs nothing, so every bot shows."""
        for p in self.players:
            ctx = settle.win_context(self, p, True, None, {"opening_win": 1}, 0)
            rec = settle.score_win(self, p, settle.hand_of(p), ctx)
            if rec is not None:
                self.ledger.extend(rec.get("ledger", []))
                self.event("opening_win", p.seat, fans=[f["id"] for f in rec["fans"]])
                self.openings.append({"seat": p.seat, "fans": {f["id"]: f["count"] for f in rec["fans"]}, "points": rec["points"]})

    def _loop(self, mode: str = "draw") -> None:
        i = self.setup.start if self.setup is not None else 0
        while True:
            p = self.players[i]
            if mode == "draw":
                if self.wall.left <= 0:
                    self._exhaustive()
                    raise _End
                self._draw(p, self.wall.draw(), "live")
            elif mode == "replacement":
                self._draw(p, self.wall.replacement(), "replacement")
            i, mode = self._turn(p, mode)  # mode "drawn": the tile is already in the hand

    def _draw(self, p: Player, code: int, how: str) -> None:
        p.pre_waits = self.waits(p) if not p.out else []
        p.draw_shanten = p.shanten if not p.out else 99  # of the hand before this draw
        p.add(code)
        p.flower_draw = False
        p.draws += how == "live"
        p.pass_lock = False
        p.draw_kind = how
        if how == "live":
            p.last_tile = self.wall.left == 0
        p.drawn = self._replace_flowers(p, code)  # the 13 tiles before the draw are unchanged
        if self.log_all:
            self.event("draw", p.seat, tile=code_str(p.drawn))

    def _turn(self, p: Player, mode: str) -> tuple[int, str]:
        after_call = mode == "call"
        while True:
            opts = turn_options(self, p, after_call)
            a = self._choose(p, "turn", opts, p.drawn)
            if a.kind == "tsumo":
                return self._tsumo(p)
            if a.kind == "abort":
                self._abort("abort_nine_terminals", p.seat)
            if a.kind in ("concealed_kong", "added_kong", "kita"):
                robbed = self._kong_or_kita(p, a)
                if robbed is not None:
                    return robbed
                self._draw(p, self.wall.replacement(), "replacement")
                continue
            return self._discard(p, a)

    def _situations(self, p: Player, tsumo: bool, extra: dict[str, int] | None = None) -> dict[str, int]:
        s: dict[str, int] = dict(extra or {})
        s.update(p.counted)  # tiles p put out that count for its wins (红中杠, 赖子杠)
        if p.riichi:
            s["double_riichi" if p.double_riichi else "riichi"] = 1
            if p.double_riichi:
                s["riichi"] = 1
        if p.ippatsu:
            s["ippatsu"] = 1
        if tsumo:
            if p.draw_kind == "replacement" and p.kong_turn:
                s["kong_bloom"] = 1
            if p.flower_draw:
                s["flower_bloom"] = 1
            if p.draw_kind == "live" and p.last_tile:
                s["last_tile"] = 1
            if p.draws == 1 and not self.interrupted and not p.melds and p.draw_kind == "live":
                s["first_turn"] = 1
        return s

    def _win(self, p: Player, code: int, tsumo: bool, discarder: Player | None, extra: dict[str, int] | None = None, sticks: int = 0, honba: int | None = None) -> dict[str, Any] | None:
        hand = settle.hand_of(p, last=code) if tsumo else settle.hand_of(p, extra=code)
        ctx = settle.win_context(self, p, tsumo, None if discarder is None else discarder.seat, self._situations(p, tsumo, extra), sticks, honba)
        return settle.score_win(self, p, hand, ctx)

    def _record_win(self, p: Player, rec: dict[str, Any], code: int, discarder: Player | None) -> None:
        self.ledger.extend(rec.get("ledger", []))
        self.win_recs.append((p.seat, rec, code, None if discarder is None else discarder.seat))
        self.wins.append(
            {
                "seat": p.seat,
                "from": None if discarder is None else discarder.seat,
                "tile": code_str(code),
                "hand": rec["hand"],
                "fans": {f["id"]: f["count"] for f in rec["fans"]},
                "fan_total": rec["fan_total"],
                "points": rec["points"],
            }
        )
        p.wins += 1
        self.event("win", p.seat, tile=code_str(code), **({"from": discarder.seat} if discarder else {"tsumo": True}))

    def _tsumo(self, p: Player) -> tuple[int, str]:
        code = p.drawn
        assert code is not None
        rec = p.tsumo_rec
        assert rec is not None  # offered only when legal
        self.sticks = 0
        self._record_win(p, rec, code, None)
        self._table_extras({p.seat: str(settle.hand_of(p, last=code))}, None, False)
        p.remove(code)
        p.won_tiles.append(code)
        p.drawn = None
        self._after_wins([p])
        return self.next_active(p.index), "draw"

    def _table_extras(self, winners: dict[str, str], discarder: Player | None, kong_discard: bool) -> None:
        if self.cfg.end_roles and not self.end_turned:  # 翻牌鸡: turned once, after the (first) win
            self.end_turned = True
            for role in self.cfg.end_roles:
                t, _ = self.wall.turn_indicator()
                self.indicators.setdefault(role, []).append(t)
                self.vis[kind_of(t)] += 1
                self.event("indicator", role=role, tile=code_str(t))
        if self.cfg.table_chickens or (discarder is not None and kong_discard and self.cfg.kong_transfer):
            self.ledger.extend(settle.table_extras(self, winners, discarder, kong_discard))

    def _after_wins(self, winners: list[Player]) -> None:
        """End the hand, or (血战 / 血流) play on."""
        end = self.cfg.end
        self.end = "win"
        if end == "first_win":
            raise _End
        if end == "bloody_battle":
            for w in winners:
                w.out = True
            self.anyone_out = True
            self._reseat()
            if sum(1 for q in self.players if not q.out) <= 1:
                raise _End

    def _abort(self, reason: str, seat: str | None = None) -> None:
        self.end = "abort"
        self.abort = reason
        self.event(reason, seat)
        raise _End

    def _exhaustive(self) -> None:
        if self.wins:
            self.end = "win"
        self.event("exhaustive_draw")
        if not self.cfg.exhaustive:
            return
        try:
            ledger, res = settle.settle_draw(self)
        except MjError as e:  # the scoring side cannot settle this draw (reported in the record)
            self.unsettled.append(f"exhaustive_draw: {e.one_line()}")
            return
        self.draw_results = res
        paid = self._nagashi()
        if paid is not None:  # nagashi mangan is paid in place of the noten payments
            ledger = paid
        self.ledger.extend(ledger)
        self.draw_ledger = ledger

    def _nagashi(self) -> list[dict[str, Any]] | None:
        """Nagashi mangan at an exhaustive draw: every discard of a player a terminal or honor
        and none called away; each such player is paid as a self-drawn mangan."""
        if "nagashi_mangan" not in self.rs.fans:
            return None
        ledger: list[dict[str, Any]] = []
        for p in self.players:
            if p.river and not p.called_away and all(kind_of(c) >= 27 or kind_of(c) % 9 in (0, 8) for c in p.river):
                ctx = settle.win_context(self, p, True, None, {"nagashi": 1}, 0)
                rec = settle.score_win(self, p, settle.hand_of(p), ctx)
                if rec is not None:
                    self.nagashi.append({"seat": p.seat, **rec})
                    ledger += rec.get("ledger", [])
                    self.event("nagashi", p.seat)
        return ledger or None

    # -- the record -----------------------------------------------------------------------------
    def next_dealer(self) -> str:
        """Who deals the next hand (play.next_dealer; after a draw wall.exhaustive_dealer)."""
        seats = self.cfg.seats
        nxt = seats[1 % len(seats)]
        if self.end == "abort":
            return seats[0]
        if not self.wins:
            rule = self.cfg.exhaustive_dealer
            if rule == "repeat" or (rule == "ready_repeat" and self.waits(self.players[0])):
                return seats[0]
            return nxt
        rule = self.cfg.next_dealer
        first = self.wins[0]
        if rule in ("first_winner", "winner"):
            shared = first["from"] is not None and sum(1 for w in self.wins if w["from"] == first["from"] and w["tile"] == first["tile"]) > 1
            if rule == "first_winner" and shared:
                return first["from"]  # several won on the first winning discard: its discarder deals
            return first["seat"]
        if rule == "rotate":
            return nxt
        return seats[0] if any(w["seat"] == seats[0] for w in self.wins) else nxt

    def record(self) -> dict[str, Any]:
        net = {s: 0.0 for s in self.cfg.seats}
        pot = 0.0
        for e in self.ledger:
            amount = float(e["amount"])
            if e["from"] == "pot":
                pot -= amount
            else:
                net[e["from"]] -= amount
            if e["to"] == "pot":
                pot += amount
            else:
                net[e["to"]] += amount
        counts: dict[str, int] = {}
        for ev in self.events:
            name = ev["event"]
            if name not in ("draw", "discard", "indicator", "riichi_accepted"):
                counts[name] = counts.get(name, 0) + 1
        rec: dict[str, Any] = {
            "end": self.end,
            "abort": self.abort,
            "turns": self.turns,
            "wall_left": self.wall.left,
            "wins": self.wins,
            **({"opening_wins": self.openings} if self.openings else {}),
            "net": {s: _num(v) for s, v in net.items()},
            "pot": _num(pot),
            "next_dealer": self.next_dealer(),
            "event_counts": dict(sorted(counts.items())),
        }
        if self.unsettled:
            rec["unsettled"] = self.unsettled
        return rec
