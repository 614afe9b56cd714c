"""The wall of one hand: live draws from the front, replacements and indicators at the back.

With a dead wall (riichi: 14 tiles) the replacement tiles for kongs and kita come from its
front, indicators sit at its back (each with the tile under it for ura), and every
replacement drawn shortens the live wall by one so the dead wall keeps its size. Without one,
replacements, flowers' replacements and turned indicators come from the tail of the live
wall. `reserve` tiles at the end of the live wall are never drawn (Taiwan: 16, one more per
kong).
"""

from __future__ import annotations

import random

from mjtools.sim.config import PlayConfig


class Wall:
    def __init__(self, cfg: PlayConfig, rng: random.Random, order: list[int] | None = None):
        tiles = list(cfg.tiles) if order is None else list(order)
        if order is None:
            rng.shuffle(tiles)
        self.tiles = tiles
        self.cfg = cfg
        self.front = 0
        self.dead = tiles[len(tiles) - cfg.dead_wall :] if cfg.dead_wall else []
        self.back = len(tiles) - cfg.dead_wall  # live tiles are tiles[front:back]
        n_ind = (1 + cfg.max_kongs) if cfg.kong_role else len(cfg.roles)
        self.supply = max(0, len(self.dead) - 2 * max(1, n_ind)) if self.dead else 0
        self.replaced = 0
        self.turned = 0  # indicators turned from the dead wall
        self._kongs = 0
        self.reserve = cfg.reserve
        self.left = 0  # tiles that can still be drawn from the live wall (kept by `_count`: read far more often than changed)
        self._count()

    # -- live wall ------------------------------------------------------------------------------
    @property
    def kongs(self) -> int:
        return self._kongs

    @kongs.setter
    def kongs(self, n: int) -> None:
        cfg = self.cfg
        self._kongs = n
        charged = n - (1 if cfg.reserve_first_kong_free and n else 0)
        self.reserve = cfg.reserve + cfg.reserve_per_kong * max(0, charged)
        self._count()

    def _count(self) -> None:
        n = self.back - self.front - self.reserve
        self.left = n if n > 0 else 0

    def draw(self) -> int:
        t = self.tiles[self.front]
        self.front += 1
        self._count()
        return t

    # -- the back -------------------------------------------------------------------------------
    def can_replace(self) -> bool:
        return self.left > 0

    def replacement(self) -> int:
        """A kong, kita or flower replacement tile."""
        if self.cfg.replacement_from == "dead_wall" and self.replaced < self.supply:
            t = self.dead[self.replaced]
            self.replaced += 1
            self.back -= 1  # the last live tile moves to the dead wall
            self._count()
            return t
        self.back -= 1
        self._count()
        return self.tiles[self.back]

    def turn_indicator(self) -> tuple[int, int | None]:
        """(indicator, the tile under it or None)."""
        if self.dead:
            i = self.turned
            self.turned += 1
            pos = len(self.dead) - 1 - 2 * i
            if pos - 1 >= self.supply:
                return self.dead[pos], self.dead[pos - 1]
        self.back -= 1
        self._count()
        return self.tiles[self.back], None

    def birds(self, n: int) -> list[int]:
        """The tiles turned for birds (扎鸟 / 马) if the hand ended now: the next live tiles,
        the reserve included."""
        return self.tiles[self.front : min(self.front + n, self.back)]
