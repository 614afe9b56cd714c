"""One hand from the deal to the last payment, under a rule file's `wall`, `calls` and `play`.

    deal -> flowers replaced -> 换三张 -> 定缺 -> turns: draw (or a call), then tsumo / kong /
    kita / riichi / discard; every discard is offered to the others: win > pon, kong > chi.

Wins are valued by `mjtools.scoring.score`, exhaustive draws by a table case; the engine only
decides who plays what. `HandEngine(...).play()` returns the hand's record (see `record()`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from mjtools.errors import MjError
from mjtools.rules.model import Ruleset
from mjtools.sim import settle
from mjtools.sim.config import PlayConfig, config, kind_of
from mjtools.sim.fastshape import Analyzer, Melds, melds_info
from mjtools.sim.options import claim_options, turn_options
from mjtools.sim.state import Action, MeldRec, Player, View, code_str
from mjtools.sim.wall import Wall
from mjtools.tiles import kind_str

_ANALYZERS: dict[tuple[int, int | None, frozenset[int]], tuple[Ruleset, Analyzer]] = {}


class BotError(MjError):
    """A bot returned something that is not one of the legal actions."""


class _End(Exception):
    """The hand is over."""


def _num(x: float) -> float | int:
    return int(x) if float(x).is_integer() else round(x, 4)


class HandEngine:
    def __init__(self, rs: Ruleset, bots: Sequence[Any], seed: int, setup: Any = None, log: bool = False):
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
        self.calls_made = False
        self.indicators: dict[str, list[int]] = {}
        self.ura: list[int] = []
        self.pending_indicator = 0
        self.sticks = 0
        self.birds: list[int] = []
        self.wild: frozenset[int] = frozenset()
        self.vis = [0] * 50
        self.first_discards: list[int] = []
        self.end = "exhaustive_draw"
        self.abort: str | None = None
        self.draw_result: dict[str, Any] | None = None
        self.unsettled: list[str] = []

    # -- helpers --------------------------------------------------------------------------------
    def event(self, name: str, seat: str | None = None, **kw: Any) -> None:
        ev: dict[str, Any] = {"event": name}
        if seat is not None:
            ev["seat"] = seat
        ev.update(kw)
        self.events.append(ev)

    def analyzer(self, void: int | None) -> Analyzer:
        key = (id(self.rs), void, self.wild)
        got = _ANALYZERS.get(key)
        if got is None or got[0] is not self.rs:
            from mjtools.wildcards import stand_ins

            spec = self.rs.shape_spec(self.wild, stand_ins(self.rs, self.wild)) if self.wild else self.rs.base_spec
            got = _ANALYZERS[key] = (self.rs, Analyzer(spec, self.rs.copies, void))
        return got[1]

    def melds_info(self, p: Player) -> Melds:
        if p._melds_info is None:
            p._melds_info = melds_info(p.meld_kinds())
        return p._melds_info

    def visible_counts(self) -> list[int]:
        return self.vis

    def next_active(self, i: int) -> int:
        n = self.cfg.players
        for step in range(1, n + 1):
            j = (i + step) % n
            if not self.players[j].out:
                return j
        return i

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
            an = self.analyzer(p.void)
            counts, wild = an.natural(p.counts)
            m = self.melds_info(p)
            if an.distance(counts, m) - wild - 1 != 0:
                p._waits = []
            else:
                p._waits = an.waits(counts, wild, m, p.held())
        return p._waits

    def ready_discards(self, p: Player, codes: list[int]) -> list[int]:
        """The discards (codes) after which p's hand is ready."""
        an = self.analyzer(p.void)
        m = self.melds_info(p)
        counts, wild = an.natural(p.counts)
        if an.distance(counts, m) - wild - 1 > 0:  # no discard can leave it ready
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
        if len(options) == 1:
            return options[0]
        if self.setup is not None:
            got = self.setup.scripted(p.seat, options)
            if got is not None:
                return got
        if self.cfg.forced_win_last and self.wall.left < self.cfg.forced_win_last:
            for a in options:
                if a.kind in ("ron", "tsumo"):
                    return a  # 最后四张必胡: a possible win is taken
        a = self.bots[p.index].act(View(self, p, phase, tile, source), options)
        if a not in options:
            raise BotError(f"bot {type(self.bots[p.index]).__name__} at {p.seat} chose {a}, not one of {', '.join(map(str, options))}")
        return a

    # -- setting up -----------------------------------------------------------------------------
    def _deal(self) -> None:
        cfg = self.cfg
        for p in self.players:
            for _ in range(cfg.hand_size):
                p.add(self.wall.draw())

    def _turn_start_indicators(self) -> None:
        for role in self.cfg.roles:
            t, under = self.wall.turn_indicator()
            self.indicators.setdefault(role, []).append(t)
            if under is not None:
                self.ura.append(under)
            self.vis[kind_of(t)] += 1
            self.event("indicator", role=role, tile=code_str(t))
        wind = self.indicators.get("wild")
        if wind:
            from mjtools.context import WinContext
            from mjtools.wildcards import wild_kinds

            ctx = WinContext(indicators={"wild": tuple(settle.tile(c) for c in wind)})
            self.wild = wild_kinds(self.rs, ctx)
            self.event("wildcards", tiles=[kind_str(k) for k in sorted(self.wild)])
        else:
            from mjtools.wildcards import fixed_wild_kinds

            self.wild = fixed_wild_kinds(self.rs)

    def _kong_indicator(self) -> None:
        role = self.cfg.kong_role
        if role is None:
            return
        t, under = self.wall.turn_indicator()
        self.indicators.setdefault(role, []).append(t)
        if under is not None:
            self.ura.append(under)
        self.vis[kind_of(t)] += 1

    def _replace_flowers(self, p: Player, code: int) -> int:
        """Set a drawn bonus tile aside and draw again until a playable tile comes."""
        while kind_of(code) in self.cfg.bonus and kind_of(code) not in self.wild and self.cfg.flower_replacement:
            p.remove(code)
            p.flowers.append(code)
            self.vis[kind_of(code)] += 1
            self.event("flower", p.seat, tile=code_str(code))
            if not self.wall.can_replace():
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
            self._loop()
        except _End:
            pass
        return self.record()

    def _loop(self) -> None:
        i, mode = 0, "draw"
        while True:
            p = self.players[i]
            if mode == "draw":
                if self.wall.left <= 0:
                    self._exhaustive()
                    raise _End
                self._draw(p, self.wall.draw(), "live")
            elif mode == "replacement":
                self._draw(p, self.wall.replacement(), "replacement")
            i, mode = self._turn(p, mode)

    def _draw(self, p: Player, code: int, how: str) -> None:
        p.pre_waits = self.waits(p) if not p.out else []
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
        if p.riichi:
            s["double_riichi" if p.double_riichi else "riichi"] = 1
            if p.double_riichi:
                s["riichi"] = 1
        if p.ippatsu:
            s["ippatsu"] = 1
        if tsumo:
            if getattr(p, "draw_kind", "") == "replacement" and p.kong_turn:
                s["kong_bloom"] = 1
            if getattr(p, "flower_draw", False):
                s["flower_bloom"] = 1
            if getattr(p, "draw_kind", "") == "live" and getattr(p, "last_tile", False):
                s["last_tile"] = 1
            if p.draws == 1 and not self.calls_made and not p.melds and getattr(p, "draw_kind", "") == "live":
                s["first_turn"] = 1
        return s

    def _win(self, p: Player, code: int, tsumo: bool, discarder: Player | None, extra: dict[str, int] | None = None, sticks: int = 0) -> dict[str, Any] | None:
        hand = settle.hand_of(p, last=code) if tsumo else settle.hand_of(p, extra=code)
        ctx = settle.win_context(self, p, tsumo, None if discarder is None else discarder.seat, self._situations(p, tsumo, extra), sticks)
        return settle.score_win(self, p, hand, ctx)

    def _record_win(self, p: Player, rec: dict[str, Any], code: int, discarder: Player | None) -> None:
        self.ledger.extend(rec.get("ledger", []))
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
        p.remove(code)
        p.won_tiles.append(code)
        p.drawn = None
        self._after_wins([p])
        return self.next_active(p.index), "draw"

    def _after_wins(self, winners: list[Player]) -> None:
        """End the hand, or (血战 / 血流) play on."""
        end = self.cfg.end
        self.end = "win"
        if end == "first_win":
            self._finish_wins()
            raise _End
        if end == "bloody_battle":
            for w in winners:
                w.out = True
            if sum(1 for q in self.players if not q.out) <= 1:
                self._finish_wins()
                raise _End

    def _finish_wins(self) -> None:
        if self.cfg.birds:
            self.birds = self.wall.take_birds(self.cfg.birds)

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
        self.ledger.extend(ledger)
        self.draw_result = res

    # -- kongs, kita, discards and claims -------------------------------------------------------
    def _break_ippatsu(self) -> None:
        for q in self.players:
            q.ippatsu = False

    def _kong_or_kita(self, p: Player, a: Action) -> tuple[int, str] | None:
        k = a.tile
        if a.kind == "kita":
            code = p.take_kind(k)
            robbed = self._offer_rob(p, code, {})
            if robbed is not None:
                return robbed
            p.kita.append(code)
            self.vis[k] += 1
            self._break_ippatsu()
            p.kong_turn = False
            p._waits = None
            self.event("kita", p.seat)
            return None
        if a.kind == "added_kong":
            code = p.take_kind(k)
            robbed = self._offer_rob(p, code, {"robbing_kong": 1})
            if robbed is not None:
                return robbed
            for m in p.melds:
                if m.kind == "pung" and m.tiles[0] & 63 == k:
                    m.kind = "added_kong"
                    m.tiles.append(code)
                    break
            self.vis[k] += 1
        else:
            p.melds.append(MeldRec("concealed_kong", [p.take_kind(k) for _ in range(4)]))
            self.vis[k] += 4
        p._melds_info = None
        p._waits = None
        self.kong_seats.append(p.seat)
        self.wall.kongs += 1
        self.calls_made = True
        self._break_ippatsu()
        if a.kind == "concealed_kong" or self.cfg.kong_indicator == "immediate":
            self._kong_indicator()
        elif self.cfg.kong_indicator == "after_discard":
            self.pending_indicator += 1
        p.kong_turn = True
        self.event(a.kind, p.seat, tile=kind_str(k))
        return None

    def _can_ron(self, q: Player, k: int) -> bool:
        """Whether q's waits hold k and no furiten / 过手胡 rule blocks a win on a discard."""
        if q.out or k not in self.waits(q):
            return False
        rule = self.cfg.furiten
        if rule == "riichi":
            if q.furiten_temp or q.furiten_locked:
                return False
            w = self.waits(q)
            if any(kind_of(t) in w for t in q.river):
                return False
        elif rule == "pass_lock" and q.pass_lock:
            return False
        return True

    def _passed(self, q: Player, k: int, could_win: bool) -> None:
        """q let a tile of its waits go by."""
        if self.cfg.furiten == "riichi":
            q.furiten_temp = True
            if q.riichi:
                q.furiten_locked = True
        if could_win:
            q.pass_lock = True
            self.event("pass_win", q.seat, tile=kind_str(k))

    def _offer_rob(self, p: Player, code: int, extra: dict[str, int]) -> tuple[int, str] | None:
        """Others may win on a tile set aside for a kong or kita (抢杠)."""
        k = kind_of(code)
        claims = []
        j = p.index
        for _ in range(self.cfg.players - 1):
            j = self.next_active(j)
            q = self.players[j]
            if q is p or k not in self.waits(q):
                continue
            rec = self._win(q, code, False, p, extra) if self._can_ron(q, k) else None
            if rec is None:
                self._passed(q, k, False)
                continue
            a = self._choose(q, "claim", [Action("ron", code), Action("pass")], code, p.seat)
            if a.kind == "ron":
                claims.append((q, rec))
            else:
                self._passed(q, k, True)
        if not claims:
            return None
        return self._ron(p, code, claims, extra)

    def _ron(self, p: Player, code: int, claims: list[tuple[Player, dict[str, Any]]], extra: dict[str, int]) -> tuple[int, str]:
        if len(claims) > 1 and self.cfg.claims == "head_bump":
            claims = claims[:1]  # claims are listed nearest the discarder first
        if len(claims) >= 3 and "abort_triple_ron" in self.cfg.abortive:
            self._abort("abort_triple_ron", p.seat)
        if len(claims) > 1:
            self.event("multiple_ron", p.seat, winners=[q.seat for q, _ in claims])
        for n, (q, rec) in enumerate(claims):
            if n == 0 and self.sticks:  # the sticks on the table go to the nearest winner
                rec = self._win(q, code, False, p, extra, sticks=self.sticks) or rec
                self.sticks = 0
            self._record_win(q, rec, code, p)
            q.won_tiles.append(code)
        self._after_wins([q for q, _ in claims])
        return self.next_active(claims[-1][0].index), "draw"

    def _discard(self, p: Player, a: Action) -> tuple[int, str]:
        code = a.tile
        k = kind_of(code)
        p.remove(code)
        p.drawn = None
        p.river.append(code)
        self.vis[k] += 1
        self.turns += 1
        riichi = a.kind == "riichi"
        if p.ippatsu and not riichi:
            p.ippatsu = False
        p.furiten_temp = False
        if riichi:
            p.riichi = True
            p.double_riichi = p.draws == 1 and not self.calls_made
            p.ippatsu = True
            self.event("riichi", p.seat, tile=code_str(code))
        kong_turn, p.kong_turn = p.kong_turn, False
        while self.pending_indicator:
            self.pending_indicator -= 1
            self._kong_indicator()
        if not self.calls_made and len(self.first_discards) < self.cfg.players:
            self.first_discards.append(k)
        if self.log_all:
            self.event("discard", p.seat, tile=code_str(code))
        extra = {"kong_discard_win": 1} if kong_turn else {}
        if self.wall.left <= 0:
            extra["last_tile"] = 1
        rons: list[tuple[Player, dict[str, Any]]] = []
        calls: list[tuple[int, Player, Action]] = []
        j = p.index
        first = self.next_active(j)
        chi = self.cfg.chi and k < 27
        for _ in range(1, self.cfg.players):
            j = self.next_active(j)
            q = self.players[j]
            if q is p:
                break
            in_waits = k in self.waits(q)
            if not in_waits and q.counts[k] < 2 and not (chi and j == first):
                continue  # nothing to claim: skip building options
            rec = self._win(q, code, False, p, extra) if in_waits and self._can_ron(q, k) else None
            opts = claim_options(self, q, p, code, rec is not None)
            if not opts:
                if in_waits:
                    self._passed(q, k, False)
                continue
            choice = self._choose(q, "claim", opts, code, p.seat)
            if choice.kind == "ron":
                assert rec is not None
                rons.append((q, rec))
                continue
            if in_waits:
                self._passed(q, k, rec is not None)
            if choice.kind != "pass":
                calls.append((0 if choice.kind in ("pon", "exposed_kong") else 1, q, choice))
        if rons:
            return self._ron(p, code, rons, extra)
        if riichi and self.cfg.riichi_stick:
            self.ledger.append({"from": p.seat, "to": "pot", "amount": self.cfg.riichi_stick, "reason": "riichi stick"})
            self.sticks += 1
        self._check_aborts()
        if calls:
            calls.sort(key=lambda c: c[0])  # pon and kong before chi; otherwise nearest first
            _, q, choice = calls[0]
            return self._call(q, p, choice)
        return self.next_active(p.index), "draw"

    def _check_aborts(self) -> None:
        ab = self.cfg.abortive
        n = self.cfg.players
        if "abort_four_winds" in ab and n == 4 and len(self.first_discards) == n and self.turns == n:
            first = self.first_discards[0]
            if 27 <= first <= 30 and all(x == first for x in self.first_discards):
                self._abort("abort_four_winds")
        if "abort_four_riichi" in ab and n == 4 and all(q.riichi for q in self.players):
            self._abort("abort_four_riichi")
        if "abort_four_kongs" in ab and len(self.kong_seats) >= 4 and len(set(self.kong_seats)) > 1:
            self._abort("abort_four_kongs")

    def _call(self, q: Player, p: Player, a: Action) -> tuple[int, str]:
        for c in a.tiles:
            q.remove(c)
            self.vis[kind_of(c)] += 1
        kind = {"chi": "chow", "pon": "pung", "exposed_kong": "exposed_kong"}[a.kind]
        q.melds.append(MeldRec(kind, sorted(a.tiles + (a.tile,), key=lambda c: (c & 63, c)), p.seat, a.tile))
        q._melds_info = None
        q._waits = None
        q.pass_lock = False
        self.calls_made = True
        self._break_ippatsu()
        self.event(a.kind, q.seat, tile=code_str(a.tile), **{"from": p.seat})
        if a.kind == "exposed_kong":
            self.kong_seats.append(q.seat)
            self.wall.kongs += 1
            if self.cfg.kong_indicator == "immediate":
                self._kong_indicator()
            elif self.cfg.kong_indicator == "after_discard":
                self.pending_indicator += 1
            q.kong_turn = True
            return q.index, "replacement"
        return q.index, "call"

    # -- the record -----------------------------------------------------------------------------
    def next_dealer(self) -> str:
        seats = self.cfg.seats
        nd = self.cfg.next_dealer
        if self.end == "abort":
            return seats[0]
        if not self.wins:
            rule = self.cfg.exhaustive_dealer
            if rule == "repeat" or (rule == "ready_repeat" and self.waits(self.players[0])):
                return seats[0]
            return seats[1 % len(seats)]
        rule = nd.get("after_win", "dealer_repeats")
        first = self.wins[0]
        if rule == "first_winner":
            same = [w for w in self.wins if w["from"] is not None and w["from"] == first["from"]]
            if first["from"] is not None and len(same) > 1 and nd.get("after_multiple_ron") == "discarder":
                return first["from"]
            return first["seat"]
        if rule == "rotate":
            return seats[1 % len(seats)]
        return seats[0] if any(w["seat"] == seats[0] for w in self.wins) else seats[1 % len(seats)]

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
            if name not in ("draw", "discard", "indicator"):
                counts[name] = counts.get(name, 0) + 1
        rec: dict[str, Any] = {
            "end": self.end,
            "abort": self.abort,
            "turns": self.turns,
            "wall_left": self.wall.left,
            "wins": self.wins,
            "net": {s: _num(v) for s, v in net.items()},
            "pot": _num(pot),
            "next_dealer": self.next_dealer(),
            "events": dict(sorted(counts.items())),
        }
        if self.unsettled:
            rec["unsettled"] = self.unsettled
        return rec
