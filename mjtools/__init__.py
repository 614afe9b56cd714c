"""mjtools: mahjong analysis across regional variants (score, wait, shanten, simulate, explain)."""

__version__ = "0.1.0"
