"""The state of one hand in play: actions, players, and what a bot may see (`View`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from operator import sub
from typing import TYPE_CHECKING, Any

from mjtools.sim.config import RED, kind_of
from mjtools.tiles.kinds import kind_str

if TYPE_CHECKING:
    from mjtools.rules.model import Ruleset
    from mjtools.sim.engine import HandEngine
    from mjtools.sim.fastshape import Melds

# Action kinds in the order legal options are listed (bots that pick "the first" get this order).
TURN_KINDS = ("tsumo", "abort", "concealed_kong", "added_kong", "kita", "riichi", "discard")
CLAIM_KINDS = ("ron", "exposed_kong", "pon", "chi", "pass")
ORDER = {k: i for i, k in enumerate(TURN_KINDS + CLAIM_KINDS)}


def code_str(code: int) -> str:
    """A tile code in notation ('0m' for a red five)."""
    s = kind_str(kind_of(code))
    return "0" + s[1] if code & RED else s


@dataclass(frozen=True, slots=True)
class Action:
    """One legal choice. `tile` is a tile code (kind, + 64 for a red five); `tiles` the hand
    tiles a call uses (chi: the two tiles beside the claimed one)."""

    kind: str
    tile: int = -1
    tiles: tuple[int, ...] = ()

    def sort_key(self) -> tuple[int, int, tuple[int, ...]]:
        return (ORDER[self.kind], self.tile, self.tiles)

    def __str__(self) -> str:
        if self.tile < 0:
            return self.kind
        extra = "".join(code_str(t) for t in self.tiles)
        return f"{self.kind} {code_str(self.tile)}" + (f" with {extra}" if extra else "")


PASS = Action("pass")
# Shared discard / riichi actions by tile code: immutable, and a turn lists a dozen of them.
DISCARD = tuple(Action("discard", c) for c in range(128))
RIICHI = tuple(Action("riichi", c) for c in range(128))


@dataclass
class MeldRec:
    kind: str  # chow, pung, exposed_kong, added_kong, concealed_kong
    tiles: list[int]  # codes, the called tile included
    source: str | None = None  # the seat the tile came from
    called: int | None = None

    @property
    def kinds(self) -> tuple[int, ...]:
        return tuple(kind_of(t) for t in self.tiles)

    @property
    def is_open(self) -> bool:
        return self.kind != "concealed_kong"


@dataclass
class Player:
    index: int
    seat: str
    hand: list[int] = field(default_factory=list)  # concealed tile codes, the drawn one included
    counts: list[int] = field(default_factory=lambda: [0] * 50)  # concealed, per kind
    melds: list[MeldRec] = field(default_factory=list)
    flowers: list[int] = field(default_factory=list)
    kita: list[int] = field(default_factory=list)
    river: list[int] = field(default_factory=list)  # every tile this player discarded
    river_turns: list[int] = field(default_factory=list)  # the hand's discard count at each (1 = the first discard)
    riichi_turn: int = 0  # the discard count at the declaration (riichi / 报听)
    counted: dict[str, int] = field(default_factory=dict)  # situation -> tiles put out (play.discard_situations)
    won_tiles: list[int] = field(default_factory=list)  # tiles won on (血战/血流)
    drawn: int | None = None
    draws: int = 0
    riichi: bool = False
    double_riichi: bool = False
    ippatsu: bool = False
    void: int | None = None  # declared void suit (0 m, 1 p, 2 s)
    wins: int = 0
    called_away: bool = False  # one of its discards was called (no nagashi mangan)
    out: bool = False  # left the table after winning (血战到底)
    furiten_temp: bool = False
    furiten_locked: bool = False  # riichi: a passed win blocks ron for the rest of the hand
    pass_lock: bool = False  # 过手胡: a passed win blocks ron until the next draw
    kong_turn: bool = False  # the last action was a kong (杠上炮 on the next discard)
    last_kong: MeldRec | None = None  # the kong made last (呼叫转移 pays out its money)
    pre_waits: list[int] | None = None  # waits before the tile just drawn (tsumo check)
    draw_kind: str = ""  # live | replacement
    flower_draw: bool = False  # the drawn tile replaced a flower
    last_tile: bool = False  # the drawn tile was the last of the live wall
    tsumo_rec: dict | None = None  # the score record of a self-draw win on the drawn tile
    shanten: int = 99  # of the hand-size hand the waits were worked out for (or its `floor`, from 2 up)
    draw_shanten: int = 99  # the shanten before the tile just drawn (or a lower bound of it: `floor`)
    floor: int = 0  # a lower bound of the hand's shanten, from the discard that made it (0: none)
    _waits: list[int] | None = None
    _melds_info: Melds | None = None

    def add(self, code: int) -> None:
        self.hand.append(code)
        self.counts[code & 63] += 1
        self._waits = None
        self.floor = 0

    def remove(self, code: int) -> None:
        self.hand.remove(code)
        self.counts[code & 63] -= 1
        self._waits = None
        self.floor = 0

    def take_kind(self, kind: int) -> int:
        """Remove one tile of a kind (a plain five before a red one) and return its code."""
        code = kind if kind in self.hand else kind | RED
        self.remove(code)
        return code

    @property
    def concealed(self) -> bool:
        return not any(m.is_open for m in self.melds)

    def held(self) -> list[int]:
        """Physical copies per kind held or shown (melds, flowers and kita included)."""
        h = list(self.counts)
        for m in self.melds:
            for t in m.tiles:
                h[t & 63] += 1
        for t in self.flowers + self.kita:
            h[t & 63] += 1
        return h

    def meld_kinds(self) -> list[tuple[int, ...]]:
        return [m.kinds for m in self.melds]


class View:
    """What the player `seat` may see when choosing: its own tiles, everything public."""

    def __init__(self, engine: HandEngine, player: Player, phase: str, tile: int | None = None, source: str | None = None):
        self._e = engine
        self.me = player
        self.phase = phase  # turn | claim | exchange | void
        self.tile = tile  # the claimed tile (claim phase) or the drawn one (turn phase)
        self.source = source  # the seat that discarded the claimed tile

    @property
    def rules(self) -> Ruleset:
        return self._e.rs

    @property
    def seat(self) -> str:
        return self.me.seat

    @property
    def hand(self) -> list[int]:
        return self.me.hand

    @property
    def counts(self) -> list[int]:
        return self.me.counts

    @property
    def wall_left(self) -> int:
        return self._e.wall.left

    @property
    def players(self) -> Sequence[Player]:
        return self._e.players

    @property
    def turn(self) -> int:
        return self._e.turns

    @property
    def wild_kinds(self) -> frozenset[int]:
        return self._e.wild

    @property
    def counted_kinds(self) -> frozenset[int]:
        """Kinds whose putting out counts for a later win this hand (play.discard_situations)."""
        counted = self._e.counted
        return frozenset(counted) if counted else frozenset()

    def analyzer(self):
        """The shape analyser for this player's rules and declared void suit."""
        return self._e.analyzer(self.me.void)

    def melds_info(self) -> Melds:
        return self._e.melds_info(self.me)

    def visible(self) -> list[int]:
        """Copies per kind this player can see outside its own hand (rivers, melds, flowers,
        kita, indicators), its own melds included."""
        return self._e.visible_counts()

    def unseen(self) -> list[int]:
        """Copies per kind not in sight of this player (the tiles it may still draw)."""
        # every tile in sight is one of the copies, so the difference is never negative
        return list(map(sub, map(sub, self._e.rs.copies, self._e.vis), self.me.counts))

    def info(self) -> dict[str, Any]:
        """A plain summary (for user bots that prefer dicts)."""
        return {
            "seat": self.seat,
            "phase": self.phase,
            "hand": [code_str(t) for t in sorted(self.hand)],
            "melds": [[code_str(t) for t in m.tiles] for m in self.me.melds],
            "tile": None if self.tile is None else code_str(self.tile),
            "wall_left": self.wall_left,
            "riichi": {p.seat: p.riichi for p in self.players},
        }
