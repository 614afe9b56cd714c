"""The `defensive` bot (placeholder while the efficient bot is tuned)."""

from __future__ import annotations

from mjtools.sim.efficient import EfficientBot


class DefensiveBot(EfficientBot):
    name = "defensive"
