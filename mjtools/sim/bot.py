"""The bot interface and the `random` bot.

A bot is created for each seat of each hand as `Bot(seat, rules, rng)` (rng: its own
`random.Random`, seeded from the hand's seed) and asked `act(view, actions)`, which returns
one of the legal `actions` (listed in a fixed order). Tile exchange (换三张) and the void suit
(定缺) have their own methods with sensible defaults. A bot lives for one hand: it may keep
what it saw during the hand, never anything between hands, which is what makes a run the
same whatever the number of workers.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from mjtools.rules.model import Ruleset
from mjtools.sim.config import kind_of
from mjtools.sim.state import Action, View


class Bot:
    """Base class. Subclasses override `act` (and, if they like, `exchange` / `declare_void`)."""

    name = "bot"

    def __init__(self, seat: str, rules: Ruleset, rng: random.Random):
        self.seat = seat
        self.rules = rules
        self.rng = rng

    def act(self, view: View, actions: Sequence[Action]) -> Action:
        raise NotImplementedError

    def exchange(self, view: View, count: int, same_suit: bool) -> list[int]:
        """Tiles (codes) to pass on (换三张): by default the suit held least (with enough
        tiles), its most isolated tiles."""
        suit = _fewest_suit(view.hand, count)
        pool = [c for c in view.hand if kind_of(c) < 27 and (suit is None or kind_of(c) // 9 == suit)]
        pool.sort(key=lambda c: (_neighbours(view.counts, kind_of(c)), c))
        return pool[:count]

    def declare_void(self, view: View) -> int:
        """The suit declared void (定缺): by default the suit held least."""
        return _fewest_suit(view.hand, 0) or 0


def _fewest_suit(hand: Sequence[int], at_least: int) -> int | None:
    n = [0, 0, 0]
    for c in hand:
        k = kind_of(c)
        if k < 27:
            n[k // 9] += 1
    ok = [s for s in range(3) if n[s] >= at_least]
    if not ok:
        return None
    return min(ok, key=lambda s: (n[s], s))


def _neighbours(counts: Sequence[int], k: int) -> int:
    """How many tiles of the hand sit within two places of k in its suit (k's own copies too)."""
    if k >= 27:
        return counts[k] - 1
    lo, hi = _NEAR[k]
    return sum(counts[lo:hi]) - 1


# per suited kind: the slice of kinds within two places of it in its suit
_NEAR = [(max(k - k % 9, k - 2), min(k - k % 9 + 8, k + 2) + 1) for k in range(27)]


class RandomBot(Bot):
    """Picks uniformly among the legal actions (and passes random tiles, voids a random suit)."""

    name = "random"

    def act(self, view: View, actions: Sequence[Action]) -> Action:
        return actions[self.rng.randrange(len(actions))]

    def exchange(self, view: View, count: int, same_suit: bool) -> list[int]:
        suits = [s for s in range(3) if sum(1 for c in view.hand if kind_of(c) < 27 and kind_of(c) // 9 == s) >= count]
        if same_suit and suits:
            s = self.rng.choice(suits)
            pool = sorted(c for c in view.hand if kind_of(c) < 27 and kind_of(c) // 9 == s)
        else:
            pool = sorted(view.hand)
        return self.rng.sample(pool, count)

    def declare_void(self, view: View) -> int:
        return self.rng.randrange(3)
