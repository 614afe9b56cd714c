"""The `defensive` bot: plays as `efficient` until an opponent is, or is likely, ready; then
it weighs each discard's own value x chance against the chance of dealing in x what that
costs, and folds when its own chance is poor.

Readiness of an opponent: certain after a declaration (riichi, 报听); otherwise it grows with
its calls and its draws, and a flush shown in its melds counts extra. Danger of a tile against
a ready opponent, relative to a middle suit tile of unknown safety (1):

- 0 when that opponent discarded the kind (where passing a win makes a player furiten) or, after
  its declaration, anyone discarded it since and it let it go; a third of that elsewhere;
- honors by copies in sight: 4 none, 3 almost none, 2 less, 1 or none nearly as much;
- terminals less than 2 / 8, which are less than 3-7; suji (the tile three away already
  discarded by that opponent) and kabe (every copy of a neighbour in sight, so no two-sided
  wait can hold the tile) lower it;
- against a flush shown in calls: tiles of other suits almost none, its suit more.

The chance of dealing in is the sum over opponents of readiness x WAIT_SHARE x danger, and
the cost the variant's ron value of a plain hand (scored, as `plans.Values` does).
`docs/bots.md` gives the constants.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from mjtools.analysis.tables import INF
from mjtools.rules.model import Ruleset
from mjtools.sim.config import kind_of
from mjtools.sim.efficient import ANY, Decision, EfficientBot
from mjtools.sim.state import Action, Player, View

WAIT_SHARE = 0.12  # the chance a middle tile of unknown safety completes a ready hand
THREAT = 0.45  # readiness from which an opponent is guarded against
LOSS_FACTOR = 2.5  # a hand that deals in usually pays more than a plain hand's value
OWN_WEIGHT = 1.0  # own value x chance against the cost of dealing in
LATE_CAP = 0.3  # readiness an undeclared opponent gets from its draws alone, at most


class DefensiveBot(EfficientBot):
    """Efficient until danger, then value x chance against the chance of dealing in."""

    name = "defensive"

    def __init__(self, seat: str, rules: Ruleset, rng: random.Random):
        super().__init__(seat, rules, rng)
        self.furiten = self.cfg.furiten == "riichi"
        self._loss: dict[bool, float] = {}

    # -- reading the table ------------------------------------------------------------------
    def readiness(self, view: View, q: Player) -> float:
        """How likely opponent q is ready (1 after a declaration)."""
        if q.out:
            return 0.0
        if q.riichi:
            return 1.0
        shown = sum(1 for m in q.melds if m.kind != "concealed_kong")
        # undeclared: its calls say most; the draws alone never make it a threat
        p = 0.12 * shown + min(LATE_CAP, 0.03 * max(0, q.draws - 8))
        if shown >= 3:
            p = max(p, 0.6)
        if self._flush_suit(q) is not None:  # (with a third call it is 0.6 above)
            p = max(p, 0.4 + 0.05 * max(0, q.draws - 8))
        return min(0.85, p)

    @staticmethod
    def _flush_suit(q: Player) -> int | None:
        """The suit of a flush two or more calls show (every called suit tile of one suit)."""
        if sum(1 for m in q.melds if m.kind != "concealed_kong") < 2:
            return None
        suits = {kind_of(t) // 9 for m in q.melds for t in m.tiles if kind_of(t) < 27}
        return next(iter(suits)) if len(suits) == 1 else None

    def safe_kinds(self, view: View, q: Player) -> frozenset[int]:
        """Kinds q cannot win on (furiten rules) or is unlikely to wait on (its own discards)."""
        own = {kind_of(t) for t in q.river}
        if self.furiten and q.riichi:
            for p in view.players:
                if p is q:
                    continue
                own.update(kind_of(t) for t, turn in zip(p.river, p.river_turns) if turn > q.riichi_turn)
        return frozenset(own)

    def danger(self, k: int, q: Player, safe: frozenset[int], seen: Sequence[int]) -> float:
        """Danger of discarding kind k against a ready q (1: a middle tile of unknown safety)."""
        if k >= 34:
            return 0.0
        factor = 1.0
        if k in safe:
            if self.furiten:
                return 0.0
            factor = 0.33
        if k >= 27:
            n = seen[k]
            return factor * (0.0 if n >= 4 else 0.06 if n == 3 else 0.35 if n == 2 else 0.75)
        r = k % 9
        d = 0.45 if r in (0, 8) else 0.75 if r in (1, 7) else 1.0
        river = {kind_of(t) for t in q.river}
        sides = [k - 3] if r >= 3 else []
        sides += [k + 3] if r <= 5 else []
        covered = sum(1 for x in sides if x in river)
        if sides and covered == len(sides):
            d *= 0.35 if self.furiten else 0.7
        elif covered:
            d *= 0.7 if self.furiten else 0.85
        # kabe: a two-sided wait on k needs k+1 and k+2, or k-1 and k-2
        up = r <= 6 and seen[k + 1] < 4 and seen[k + 2] < 4
        down = r >= 2 and seen[k - 1] < 4 and seen[k - 2] < 4
        if not up and not down:
            d *= 0.4
        flush = self._flush_suit(q)
        if flush is not None:
            d *= 1.5 if k // 9 == flush else 0.1
        return factor * d

    def loss(self, laid: bool) -> float:
        """What dealing in usually costs: the variant's ron value of a plain hand (or of the
        cheapest hand it pays for), times LOSS_FACTOR."""
        got = self._loss.get(laid)
        if got is None:
            rons = [self.values.value(f, 0, laid)[1] for f in ("any", "pungs", "half", "full")]
            paid = [v for v in rons if v > 0]
            got = self._loss[laid] = LOSS_FACTOR * (rons[0] if rons[0] > 0 else min(paid, default=1.0))
        return got

    def threats(self, view: View) -> list[tuple[Player, float, frozenset[int]]]:
        """(opponent, readiness, its safe kinds) for the opponents worth guarding against."""
        out = []
        for q in view.players:
            if q is view.me:
                continue
            r = self.readiness(view, q)
            if r >= THREAT:
                out.append((q, r, self.safe_kinds(view, q)))
        return out

    def deal_in(self, view: View, k: int, threats, seen: Sequence[int]) -> float:
        """The chance that discarding k deals in, and what that costs."""
        chance = cost = 0.0
        for q, r, safe in threats:
            p = r * WAIT_SHARE * self.danger(k, q, safe, seen)
            chance += p
            cost += p * self.loss(bool(q.melds))
        return cost

    # -- decisions ------------------------------------------------------------------------------
    def act(self, view: View, actions: Sequence[Action]) -> Action:
        if view.phase == "turn" and any(a.kind == "discard" for a in actions):
            threats = self.threats(view)
            if threats and not any(a.kind == "tsumo" for a in actions):
                got = self._guarded(view, actions, threats)
                if got is not None:
                    return got
        if view.phase == "claim" and not any(a.kind == "ron" for a in actions):
            threats = self.threats(view)
            if threats and self._far(view):
                return next(a for a in actions if a.kind == "pass")
        return super().act(view, actions)

    def _far(self, view: View) -> bool:
        """Two or more tiles from ready: no call while guarding."""
        an = view.analyzer()
        nat, wild = an.natural(view.counts)
        return an.shanten(nat, wild, view.melds_info()) >= 2

    def _guarded(self, view: View, actions: Sequence[Action], threats) -> Action | None:
        by: dict[str, list[Action]] = {}
        for a in actions:
            by.setdefault(a.kind, []).append(a)
        d = Decision(view, self.hazard)
        allowed = self.allowed_discards(view, by)
        # own value x chance: under the plan it plays (the variant's shapes if the melds
        # no longer allow it), for every discard
        plan = self.plan if self.plan.fits(d.m, d.an.spec) else ANY
        pa, counts = self._plan_hand(d, plan)
        rows = pa.discard_rows(counts, d.m, d.held, d.unseen, allowed.__contains__, False)
        if plan.name == "simples" or not rows:
            plan, rows = ANY, d.an.discard_rows(d.counts, d.m, d.held, d.unseen, allowed.__contains__, False)
        if not rows:
            return None
        seen = [v + c for v, c in zip(view.visible(), view.counts)]
        honors = self._honors(d, d.counts)
        best = None
        after = list(view.counts)
        for r in rows:
            after[r.kind] -= 1
            own = self._ev(d, plan, r.shanten, r.live, self._honors(d, after) if r.kind in self.value_kinds else honors, after) if r.shanten < INF else 0.0
            after[r.kind] += 1
            score = OWN_WEIGHT * own - self.deal_in(view, r.kind, threats, seen)
            key = (-score, r.shanten, -r.live, self._tie(r.kind, view.counts))
            if best is None or key < best[0]:
                best = (key, r)
        row = best[1]
        riichi = {kind_of(a.tile): a for a in by.get("riichi", ())}
        if row.kind in riichi and row.shanten == 0 and (row.live > 0 or self.declare_always):
            return riichi[row.kind]
        return next(a for a in by["discard"] if kind_of(a.tile) == row.kind)
