"""WinContext: everything about a win that is not in the hand notation (CLI options)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from mjtools.tiles.frozen import Record
from mjtools.tiles.kinds import SEAT_WIND, Tile

SEATS = "ESWN"

# Flags settable from the command line (score options) -> the situation id patterns read.
FLAG_SITUATIONS = {
    "riichi": "riichi",
    "double_riichi": "double_riichi",
    "ippatsu": "ippatsu",
    "kong_bloom": "kong_bloom",
    "last_tile": "last_tile",
    "robbing_kong": "robbing_kong",
    "first_turn": "first_turn",
}


NO_MAPPING: Mapping = MappingProxyType({})  # an empty read-only mapping every context may share


class WinContext(Record):
    """The circumstances of a win or a hand (seat, round, indicators, situations, ...).

    Read-only, compared field by field; `ctx.replace(tsumo=True)` makes a changed copy. A plain
    class rather than a frozen dataclass: the dataclass compiled its methods at import (about a
    millisecond of every call's start-up) and set each of the 17 fields through
    object.__setattr__, while a batch builds one context per line."""

    FIELDS = ("tsumo", "seat", "round", "discarder", "players", "situations", "indicators", "ura", "wild", "visible", "void", "kita", "honba", "sticks", "streak", "birds", "active")

    tsumo: bool
    seat: str
    round: str
    discarder: str | None  # --from; None: the seat before the winner
    players: int
    situations: Mapping[str, int]
    indicators: Mapping[str, tuple[Tile, ...]]
    ura: tuple[Tile, ...]
    wild: tuple[int, ...]  # --wild: wildcard kinds stated directly
    visible: tuple[Tile, ...]
    void: str | None
    kita: int
    honba: int
    sticks: int
    streak: int
    birds: tuple[Tile, ...]
    active: tuple[str, ...]

    def __init__(
        self,
        tsumo: bool = False,
        seat: str = "E",
        round: str = "E",
        discarder: str | None = None,
        players: int = 4,
        situations: Mapping[str, int] = NO_MAPPING,
        indicators: Mapping[str, tuple[Tile, ...]] = NO_MAPPING,
        ura: tuple[Tile, ...] = (),
        wild: tuple[int, ...] = (),
        visible: tuple[Tile, ...] = (),
        void: str | None = None,
        kita: int = 0,
        honba: int = 0,
        sticks: int = 0,
        streak: int = 0,
        birds: tuple[Tile, ...] = (),
        active: tuple[str, ...] = (),
    ) -> None:
        self.__dict__.update(
            tsumo=tsumo, seat=seat, round=round, discarder=discarder, players=players, situations=situations, indicators=indicators, ura=ura,
            wild=wild, visible=visible, void=void, kita=kita, honba=honba, sticks=sticks, streak=streak, birds=birds, active=active,
        )

    @classmethod
    def of_fields(cls, fields: dict[str, object]) -> WinContext:
        """The context whose fields are `fields` (every one of FIELDS, in that order; the dict
        becomes the context's own, so it must be a new one): what __init__ makes, without the
        keyword call."""
        self = object.__new__(cls)
        object.__setattr__(self, "__dict__", fields)
        return self

    def fields(self) -> dict[str, object]:
        """A new dict of the fields, in FIELDS order."""
        return {f: self.__dict__[f] for f in self.FIELDS}

    @property
    def seat_wind(self) -> int:
        return SEAT_WIND[self.seat]

    @property
    def round_wind(self) -> int:
        return SEAT_WIND[self.round]

    @property
    def dealer(self) -> bool:
        return self.seat == "E"

    def seats(self) -> str:
        return SEATS[: self.players]

    @property
    def from_seat(self) -> str:
        """The discarder on a ron (default: the player before the winner)."""
        if self.discarder:
            return self.discarder
        seats = self.seats()
        return seats[(seats.index(self.seat) - 1) % len(seats)]

    def has(self, situation: str) -> int:
        return self.situations.get(situation, 0)
