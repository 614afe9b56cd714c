"""Ctx: what a pattern sees — one decomposition of one win, with its hand and context."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from mjtools.context import WinContext
from mjtools.decompose import CHOW, KONG, PUNG, Block, Decomposition
from mjtools.hand import Hand
from mjtools.shapes import ShapeSpec

SUIT_OF_GROUP = "mps"


def group(kind: int) -> int:
    """0 m, 1 p, 2 s, 3 honors."""
    return kind // 9 if kind < 27 else 3


@dataclass
class Ctx:
    hand: Hand
    d: Decomposition
    win: WinContext
    wild_kinds: frozenset[int] = frozenset()
    dora: tuple[int, ...] = ()  # dora kinds, one entry per indicator (repeats count twice)
    ura: tuple[int, ...] = ()
    options: Mapping[str, Any] = field(default_factory=dict)
    awarded: dict[str, int] = field(default_factory=dict)  # fans found so far ({fan: id})
    spec: ShapeSpec | None = None

    # -- blocks ---------------------------------------------------------------------------------
    @property
    def blocks(self) -> tuple[Block, ...]:
        return self.d.blocks

    @cached_property
    def sets(self) -> tuple[Block, ...]:
        return tuple(b for b in self.d.blocks if b.shape in (CHOW, PUNG, KONG))

    @cached_property
    def pungs(self) -> tuple[Block, ...]:
        """Pungs and kongs."""
        return tuple(b for b in self.d.blocks if b.shape in (PUNG, KONG))

    @cached_property
    def chows(self) -> tuple[Block, ...]:
        return tuple(b for b in self.d.blocks if b.shape == CHOW)

    @cached_property
    def kongs(self) -> tuple[Block, ...]:
        return tuple(b for b in self.d.blocks if b.shape == KONG)

    @property
    def pair(self) -> Block | None:
        return self.d.pair

    @property
    def form(self) -> str:
        return self.d.form

    @property
    def standard(self) -> bool:
        return self.d.form == "standard"

    @cached_property
    def win_block(self) -> Block | None:
        return None if self.d.win_block is None else self.d.blocks[self.d.win_block]

    @property
    def win_kind(self) -> int | None:
        last = self.hand.last
        return None if last is None else last.kind

    @property
    def tsumo(self) -> bool:
        return self.win.tsumo

    def concealed_pung(self, b: Block) -> bool:
        """A pung or kong held concealed; one completed by a discard (ron) counts as open."""
        if b.shape not in (PUNG, KONG) or not b.concealed:
            return False
        if b.meld is not None:  # a concealed kong
            return True
        return not (b is self.win_block and not self.win.tsumo)

    # -- tiles ----------------------------------------------------------------------------------
    @cached_property
    def kinds(self) -> tuple[int, ...]:
        """Every represented kind, kongs counting four (wildcards as what they stand for)."""
        out: list[int] = []
        for b in self.d.blocks:
            out.extend(b.kinds)
        return tuple(out)

    @cached_property
    def kind_set(self) -> frozenset[int]:
        return frozenset(self.kinds)

    @cached_property
    def groups(self) -> frozenset[int]:
        return frozenset(group(k) for k in self.kinds)

    @cached_property
    def suits(self) -> frozenset[int]:
        """The number suits (0 m, 1 p, 2 s) present."""
        return frozenset(g for g in self.groups if g < 3)

    @property
    def has_honors(self) -> bool:
        return 3 in self.groups

    @property
    def concealed_hand(self) -> bool:
        return self.hand.is_concealed

    @cached_property
    def flowers(self) -> list[int]:
        """Flower numbers held (1-8), from the count vector; several flower patterns read it."""
        counts = self.hand.counts
        return [k - 33 for k in range(34, 42) for _ in range(counts[k])]

    @cached_property
    def free_wild(self) -> int:
        return sum(b.free for b in self.d.blocks)

    @cached_property
    def wild_used(self) -> int:
        return sum(b.wild for b in self.d.blocks)

    def kind_count(self, kind: int) -> int:
        return sum(1 for k in self.kinds if k == kind)
