"""A prepared hand: given starting tiles, the first draws, and scripted actions.

Used by `simulate HAND` (the rest of a hand from a position) and by rule-file examples
(`run_simulate_example`), where a rule only shows in play (换三张, 四风连打, 过手胡 ...). Tiles
not given are dealt from the rest of the tile set, shuffled by the hand's generator.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from mjtools.errors import UsageError
from mjtools.sim.config import RED, PlayConfig, kind_of
from mjtools.sim.state import CLAIM_KINDS, TURN_KINDS, Action, code_str


def codes_of(text: str, what: str) -> list[int]:
    """Tile codes from notation ('0m' a red five); melds and other groups are refused."""
    from mjtools.errors import NotationError
    from mjtools.tiles.notation import parse_tiles

    try:
        tiles = parse_tiles(text.replace(" ", "").replace(",", "")) if text else ()
    except NotationError as e:
        raise UsageError(f"{what}: {e.one_line()}") from None
    return [t.kind | (RED if t.red else 0) for t in tiles]


@dataclass
class Setup:
    hands: dict[str, list[int]] = field(default_factory=dict)  # seat -> tiles dealt (may be fewer)
    draws: list[int] = field(default_factory=list)  # the first live tiles, in draw order
    script: dict[str, list[str]] = field(default_factory=dict)  # seat -> actions before its bot
    start: int = 0  # the seat that draws first
    mid_hand: bool = False  # no first-go-around rules (天和, 四风连打, double riichi, ...)
    out_of_play: list[int] = field(default_factory=list)  # tiles already gone (discards elsewhere)
    live: int | None = None  # live tiles left after the deal (None: all of them)
    used: dict[str, int] = field(default_factory=dict)

    @classmethod
    def from_args(cls, args: Mapping[str, Any], seats: str) -> Setup:
        """From an example's args: deal {SEAT: TILES}, draws TILES, script {SEAT: [ACTION]}."""
        s = cls()
        deal = args.get("deal") or {}
        if not isinstance(deal, Mapping):
            raise UsageError("deal is a mapping SEAT: TILES")
        for seat, text in deal.items():
            if seat not in seats:
                raise UsageError(f"deal: {seat!r} is not a seat ({seats})")
            s.hands[seat] = codes_of(str(text), f"deal.{seat}")
        s.draws = codes_of(str(args.get("draws", "")), "draws")
        script = args.get("script") or {}
        if not isinstance(script, Mapping):
            raise UsageError("script is a mapping SEAT: [ACTION, ...]")
        for seat, acts in script.items():
            if seat not in seats:
                raise UsageError(f"script: {seat!r} is not a seat ({seats})")
            if isinstance(acts, str):
                acts = acts.split(";")
            s.script[seat] = [str(a).strip() for a in acts if str(a).strip()]
        return s

    def wall_order(self, cfg: PlayConfig, rng: random.Random) -> list[int]:
        pool = list(cfg.tiles)

        def take(code: int, what: str) -> int:
            for c in (code, code ^ RED if kind_of(code) < 27 and kind_of(code) % 9 == 4 else code):
                if c in pool:
                    pool.remove(c)
                    return c
            raise UsageError(f"{what}: no {code_str(code)} left in the {cfg.rules_id} tile set")

        hands = {seat: [take(c, f"deal.{seat}") for c in tiles] for seat, tiles in self.hands.items()}
        draws = [take(c, "draws") for c in self.draws]
        for c in self.out_of_play:
            take(c, "visible")
        rng.shuffle(pool)
        order: list[int] = []
        for seat in cfg.seats:
            given = hands.get(seat, [])
            if len(given) > cfg.hand_size:
                raise UsageError(f"deal.{seat}: {len(given)} tiles; a hand is dealt {cfg.hand_size}")
            order += given + [pool.pop() for _ in range(cfg.hand_size - len(given))]
        order += draws
        dead = [pool.pop() for _ in range(min(cfg.dead_wall, len(pool)))]
        if self.live is not None:
            keep = max(0, self.live - len(draws)) + cfg.reserve
            if keep > len(pool):
                raise UsageError(f"--wall-left {self.live}: only {len(pool) + len(draws)} tiles are unseen")
            pool = pool[:keep]
        return order + pool + dead

    def scripted(self, seat: str, options: Sequence[Action]) -> Action | None:
        """The seat's next scripted action, if it answers this kind of decision: actions on
        one's own turn and answers to another player's discard are matched separately, so a
        script need not foresee every claim the bots might be offered."""
        todo = self.script.get(seat)
        n = self.used.get(seat, 0)
        if not todo or n >= len(todo):
            return None
        token = todo[n]
        kind, _, tile = token.partition(" ")
        if kind and kind[0].isdigit() and not tile:  # a bare tile is a discard
            kind, tile = "discard", kind
        if kind not in TURN_KINDS + CLAIM_KINDS:
            raise UsageError(f"script for {seat}: unknown action {token!r} (actions: {', '.join(TURN_KINDS + CLAIM_KINDS)})")
        claim = any(a.kind in CLAIM_KINDS for a in options)
        if (kind in CLAIM_KINDS) != claim:
            return None  # this token answers the other kind of decision
        self.used[seat] = n + 1
        want = codes_of(tile, f"script.{seat}")[0] if tile else None
        for a in options:
            if a.kind == kind and (want is None or a.tile == want or (a.tile >= 0 and kind_of(a.tile) == kind_of(want))):
                return a
        raise UsageError(f"script for {seat}: {token!r} is not legal here (legal: {', '.join(map(str, options))})")
