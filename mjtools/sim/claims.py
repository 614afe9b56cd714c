"""Kongs, kita, discards and what the others do with them (win > pon, kong > chi), and the
aborts they can trigger. A mixin of `HandEngine`, kept apart to keep each module readable."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mjtools.sim import settle
from mjtools.sim.config import kind_of
from mjtools.sim.options import claim_options
from mjtools.sim.state import Action, MeldRec, Player, code_str
from mjtools.tiles.kinds import kind_str

if TYPE_CHECKING:
    from mjtools.sim.engine import HandEngine

    _Base = HandEngine
else:
    _Base = object


class _End(Exception):
    """The hand is over."""


class Claims(_Base):
    # -- kongs, kita, discards and claims -------------------------------------------------------
    def _break_ippatsu(self) -> None:
        for q in self.players:
            q.ippatsu = False

    def _kong_or_kita(self, p: Player, a: Action) -> tuple[int, str] | None:
        k = a.tile
        # The declaration is an event even when a win on the tile set aside ends the hand:
        # a record of the hand shows the kong (or kita) that was robbed.
        if a.kind == "kita":
            code = p.take_kind(k)
            self.event("kita", p.seat, tile=code_str(code))
            robbed = self._offer_rob(p, code, {})
            if robbed is not None:
                return robbed
            p.kita.append(code)
            self.vis[k] += 1
            self._break_ippatsu()
            p.kong_turn = False
            p._waits = None
            return None
        if a.kind == "added_kong":
            code = p.take_kind(k)
            self.event(a.kind, p.seat, tile=kind_str(k), code=code_str(code))
            robbed = self._offer_rob(p, code, {"robbing_kong": 1})
            if robbed is not None:
                return robbed
            for m in p.melds:
                if m.kind == "pung" and m.tiles[0] & 63 == k:
                    m.kind = "added_kong"
                    m.tiles.append(code)
                    p.last_kong = m
                    break
            self.vis[k] += 1
            extra = None
        else:
            p.melds.append(MeldRec("concealed_kong", [p.take_kind(k) for _ in range(4)]))
            p.last_kong = p.melds[-1]
            self.vis[k] += 4
            extra = {"tiles": [code_str(c) for c in p.last_kong.tiles]}
        p._melds_info = None
        p._waits = None
        self.kong_seats.append(p.seat)
        self.wall.kongs += 1
        self.interrupted = True
        self._break_ippatsu()
        if a.kind == "concealed_kong" or self.cfg.kong_indicator == "immediate":
            self._kong_indicator()
        elif self.cfg.kong_indicator == "after_discard":
            self.pending_indicator += 1
        p.kong_turn = True
        if extra is not None:
            self.event(a.kind, p.seat, tile=kind_str(k), **extra)
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
        """q let a tile of its waits go by: furiten (riichi) or 过手胡 (pass_lock) from now."""
        rule = self.cfg.furiten
        if rule == "riichi":
            q.furiten_temp = True
            if q.riichi:
                q.furiten_locked = True
        if could_win:
            q.pass_lock = True
        if rule in ("riichi", "pass_lock") and (could_win or rule == "riichi"):
            self.event("furiten" if rule == "riichi" else "pass_lock", q.seat, tile=kind_str(k))

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
            elif n and self.honba and not self.cfg.honba_each:  # and so do the honba
                rec = self._win(q, code, False, p, extra, honba=0) or rec
            self._record_win(q, rec, code, p)
        self._table_extras({q.seat: str(settle.hand_of(q, extra=code)) for q, _ in claims}, p, bool(extra.get("kong_discard_win")))
        for q, _ in claims:
            q.won_tiles.append(code)
        self._after_wins([q for q, _ in claims])
        return self.next_active(claims[-1][0].index), "draw"

    def _discard(self, p: Player, a: Action) -> tuple[int, str]:
        code = a.tile
        k = kind_of(code)
        p.remove(code)
        if p.drawn is not None:  # one tile drawn and one let go since the hand before the draw:
            # its shanten fell by one at most (the waits skip hands two or more from ready)
            p.floor = p.draw_shanten - 1
        p.drawn = None
        p.river.append(code)
        self.vis[k] += 1
        self.turns += 1
        p.river_turns.append(self.turns)
        riichi = a.kind == "riichi"
        if p.ippatsu and not riichi:
            p.ippatsu = False
        p.furiten_temp = False
        if riichi:
            p.riichi = True
            p.double_riichi = p.draws == 1 and not self.interrupted
            p.ippatsu = True
            p.riichi_turn = self.turns
            self.event("riichi", p.seat, tile=code_str(code))
        kong_turn, p.kong_turn = p.kong_turn, False
        while self.pending_indicator:
            self.pending_indicator -= 1
            self._kong_indicator()
        if not self.interrupted and len(self.first_discards) < self.cfg.players:
            self.first_discards.append(k)
        if self.log_all:
            self.event("discard", p.seat, tile=code_str(code))
        counted = self.counted.get(k)
        if counted is not None:  # play.discard_situations: a 红中杠 / 赖子杠 for p's later wins
            p.counted[counted.situation] = p.counted.get(counted.situation, 0) + 1
            self.event("counted_discard", p.seat, tile=code_str(code), situation=counted.situation)
        extra = {"kong_discard_win": 1} if kong_turn else {}
        if self.wall.left <= 0:
            extra["last_tile"] = 1
        rons: list[tuple[Player, dict[str, Any]]] = []
        calls: list[tuple[int, Player, Action]] = []
        j = p.index
        first = self.next_active(j)
        chi = self.cfg.chi and k < 27
        others = self.cfg.players if counted is None or counted.claimable else 1  # a 红中杠 is no discard to claim
        nxt = self._next_seat  # (`next_active`)
        for _ in range(1, others):
            j = nxt[j]
            q = self.players[j]
            if q is p:
                break
            w = q._waits  # (`waits`, remembered until the hand changes)
            in_waits = k in (w if w is not None else self.waits(q))
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
            self.event("riichi_accepted", p.seat)
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
        self.interrupted = True
        self._break_ippatsu()
        self.event(a.kind, q.seat, tile=code_str(a.tile), tiles=[code_str(c) for c in a.tiles], **{"from": p.seat})
        p.called_away = True
        if a.kind == "exposed_kong":
            q.last_kong = q.melds[-1]
            self.kong_seats.append(q.seat)
            self.wall.kongs += 1
            if self.cfg.kong_indicator == "immediate":
                self._kong_indicator()
            elif self.cfg.kong_indicator == "after_discard":
                self.pending_indicator += 1
            q.kong_turn = True
            return q.index, "replacement"
        return q.index, "call"

