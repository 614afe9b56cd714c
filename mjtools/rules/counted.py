"""Tiles put out that count for the player's later wins (play.discard_situations).

Wuhan: each 红中 put out is a 红中杠, each 赖子 a 赖子杠, and (claimable false) nobody may claim
it. The simulator counts them per player; hand validation refuses the melds such a rule makes
impossible. Both read the rule section through this module.
"""

from __future__ import annotations

from mjtools.rules.model import Ruleset
from mjtools.tiles.frozen import Record
from mjtools.tiles.kinds import parse_kind


class Counted(Record):
    """One play.discard_situations entry. (A plain class: a NamedTuple compiles its
    constructor when the module is imported, on every call.)"""

    __slots__ = ("kinds", "wildcard", "situation", "claimable")
    FIELDS = __slots__

    def __init__(self, kinds: frozenset[int], wildcard: bool, situation: str, claimable: bool = False) -> None:
        object.__setattr__(self, "kinds", kinds)  # fixed kinds (7z for Wuhan's 红中)
        object.__setattr__(self, "wildcard", wildcard)  # this hand's wildcards count too (赖子)
        object.__setattr__(self, "situation", situation)
        object.__setattr__(self, "claimable", claimable)


def counted_entries(rs: Ruleset) -> tuple[Counted, ...]:
    """The ruleset's entries, read once (hand validation asks for every hand)."""
    got = rs.__dict__.get("_counted")
    if got is None:
        got = rs.__dict__["_counted"] = tuple(
            Counted(frozenset(parse_kind(t) for t in e["tiles"] if t != "wildcard"), "wildcard" in e["tiles"], e["situation"], bool(e.get("claimable", False)))
            for e in rs.section("play").get("discard_situations") or ()
        )
    return got


def counted_kinds(entries: tuple[Counted, ...], wild: frozenset[int]) -> dict[int, Counted]:
    """Kind -> the entry it counts under in a hand with these wildcards. A wildcard counts only
    under a `wildcard` entry (a 红中 turned 赖子 is a 赖子); otherwise the first entry wins."""
    out: dict[int, Counted] = {}
    for c in entries:
        for k in sorted(wild if c.wildcard else ()):
            out.setdefault(k, c)
        for k in sorted(c.kinds - wild):
            out.setdefault(k, c)
    return out
