"""A game record in one neutral form, whatever format it came from.

Tiles are codes: the kind (0-8 m, 9-17 p, 18-26 s, 27-33 z) plus RED (64) for a red five, as
in the simulator. Players are indices 0..n-1 in the record's seat order; the dealer of a hand
is `Round.dealer`, so player i sits at wind (i - dealer) mod n.

Events, in order (plain tuples: a 1,000-hand record holds ~150,000 of them):

    ("draw", p, code)                  a live-wall or replacement draw
    ("discard", p, code, riichi)       riichi: True on the tile that declares riichi
    ("riichi_accepted", p)             the declaration stood (its stick is on the table)
    ("chi" | "pon" | "daiminkan", p, called code, (codes from the hand), from player)
    ("ankan", p, (four codes))
    ("kakan", p, added code)
    ("kita", p, code)                  sanma: a North set aside
    ("dora", code)                     a new dora indicator
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mjtools.errors import MjError

RED = 64
WINDS = "ESWN"


class RecordError(MjError):
    """A record that cannot be read or does not add up; `where` names the place."""

    def __init__(self, message: str, where: str = ""):
        super().__init__(f"{where}: {message}" if where else message)
        self.where = where
        self.detail = message


def kind_of(code: int) -> int:
    return code & 63


@dataclass
class Result:
    """What the record says happened at the end of a hand (one per winner on a multiple ron)."""

    kind: str  # win | draw
    who: int | None = None
    from_: int | None = None  # the discarder (None: self-draw)
    pao: int | None = None
    win_tile: int | None = None
    ura: list[int] = field(default_factory=list)
    han: int | None = None
    fu: int | None = None
    points: int | None = None  # the hand's value without honba and sticks
    limit: str | None = None
    yaku: dict[str, int] | None = None  # fan id -> han (yakuman: 13 per yakuman)
    deltas: list[int] | None = None  # each player's change of points
    draw_type: str | None = None  # exhaustive_draw, nagashi, abort_* (the engine's ids)
    tenpai: list[int] | None = None  # players shown ready at an exhaustive draw
    honba: int | None = None  # honba / sticks this winner was paid for (mjlog ba=)
    sticks: int | None = None
    unknown: tuple[str, ...] = ()  # fields the format does not record (not compared)
    where: str = ""


@dataclass
class Round:
    """One hand of a game."""

    index: int  # in the file
    round_wind: int  # 0 E, 1 S, 2 W, 3 N
    kyoku: int  # 0-based hand number within the round
    honba: int
    sticks: int
    dealer: int
    scores: list[int]
    dora: list[int]
    deal: list[list[int]]
    events: list[tuple] = field(default_factory=list)
    results: list[Result] = field(default_factory=list)
    where: str = ""

    @property
    def label(self) -> str:
        return f"{WINDS[self.round_wind]}{self.kyoku + 1}-{self.honba}"


@dataclass
class Game:
    source: str  # file name or "-"
    format: str  # mjlog | tenhou6 | mjai
    players: int
    rounds: list[Round] = field(default_factory=list)
    rules: str | None = None  # a rule file id the record implies (tenhou, tenhou-sanma)
    options: dict[str, Any] = field(default_factory=dict)  # rule options the record implies
    names: list[str] = field(default_factory=list)
    final: list[int] | None = None  # final points (owari), when the record has them
    final_score: list[float] | None = None  # final scores after uma / oka (owari)
    error: RecordError | None = None  # the record broke off here (the rounds before are whole)
