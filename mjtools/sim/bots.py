"""How bots are found: the shipped ones (`random`, `efficient`, `defensive`), the
`mjtools.bots` entry-point group (a name -> a Bot subclass) and, on the command line only,
`--bots module:Class`. The interface is in `bot.py`; `docs/bots.md` describes the shipped
bots."""

from __future__ import annotations

import importlib
import random
from collections.abc import Sequence
from typing import Any

from mjtools.errors import UsageError
from mjtools.rules.model import Ruleset
from mjtools.sim.bot import Bot, RandomBot
from mjtools.sim.defensive import DefensiveBot
from mjtools.sim.efficient import EfficientBot

__all__ = ["Bot", "RandomBot", "EfficientBot", "DefensiveBot", "BUILTIN", "bot_class", "parse_bots", "make_bots"]

ENTRY_POINT_GROUP = "mjtools.bots"

BUILTIN: dict[str, type[Bot]] = {"random": RandomBot, "efficient": EfficientBot, "defensive": DefensiveBot}


def _entry_points() -> dict[str, Any]:
    from importlib.metadata import entry_points

    return {ep.name: ep for ep in entry_points(group=ENTRY_POINT_GROUP)}


def bot_class(name: str, allow_path: bool = True) -> type[Bot]:
    """The bot class for a name: shipped, from the `mjtools.bots` entry points, or (command
    line only) `module:Class`."""
    if name in BUILTIN:
        return BUILTIN[name]
    eps = _entry_points()
    if name in eps:
        cls = eps[name].load()
    elif ":" in name and allow_path:
        module, _, attr = name.partition(":")
        try:
            cls = getattr(importlib.import_module(module), attr)
        except (ImportError, AttributeError) as e:
            raise UsageError(f"--bots {name}: cannot load it ({e})") from None
    else:
        known = ", ".join(sorted(set(BUILTIN) | set(eps)))
        hint = "; module:Class paths only on the command line" if ":" in name else ""
        raise UsageError(f"unknown bot {name!r} (bots: {known}{hint})")
    if not (isinstance(cls, type) and callable(getattr(cls, "act", None))):
        raise UsageError(f"bot {name!r} is not a class with an act(view, actions) method")
    return cls


def parse_bots(spec: str | Sequence[str] | None, players: int, allow_path: bool = True) -> list[str]:
    """One name for every seat, or one per seat in seat order (comma-separated)."""
    if spec is None:
        names = ["efficient"]
    elif isinstance(spec, str):
        names = [s.strip() for s in spec.split(",") if s.strip()]
    else:
        names = [str(s) for s in spec]
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise UsageError(f"--bots takes one name or {players} (one per seat), got {len(names)}")
    for n in names:
        bot_class(n, allow_path)
    return names


def make_bots(names: Sequence[str], rules: Ruleset, seed: int) -> list[Bot]:
    from mjtools.sim.seeding import derive

    return [bot_class(n)(rules.seats[i], rules, random.Random(derive(seed, "bot", i))) for i, n in enumerate(names)]
