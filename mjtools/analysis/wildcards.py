"""Which kinds are wild in a hand, and the "next tile" cycles indicators use.

Suits always run n -> n+1 with 9 -> 1. Honors follow a cycle the rule file names:
  dora             E>S>W>N>E, White>Green>Red>White (riichi dora, seed 003)
  reverse_dragons  E>S>W>N>E, Red>Green>White>Red (Luoshan 财神, 钻牌)
  honor_ring       E>S>W>N>Red>Green>White>E (带弟百搭)
Kinds absent from the tile set are skipped (sanma: 1m indicates 9m).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import TYPE_CHECKING

from mjtools.tiles.kinds import parse_kind

if TYPE_CHECKING:
    from mjtools.rules.model import Ruleset
    from mjtools.tiles.context import WinContext

_HONOR_NEXT = {
    "dora": {27: 28, 28: 29, 29: 30, 30: 27, 31: 32, 32: 33, 33: 31},
    "reverse_dragons": {27: 28, 28: 29, 29: 30, 30: 27, 33: 32, 32: 31, 31: 33},
    "honor_ring": {27: 28, 28: 29, 29: 30, 30: 33, 33: 32, 32: 31, 31: 27},
}


def successor(kind: int, cycle: str = "dora", steps: int = 1, present: Iterable[int] | None = None) -> int:
    kinds = set(present) if present is not None else None
    for _ in range(steps):
        while True:
            if kind < 27:
                kind = kind - kind % 9 + (kind % 9 + 1) % 9
            elif kind < 34:
                kind = _HONOR_NEXT[cycle][kind]
            else:
                return kind
            if kinds is None or kind in kinds:
                break
    return kind


_NONE: frozenset[int] = frozenset()


def fixed_wild_kinds(rs: Ruleset) -> frozenset[int]:
    wc = rs.section("wildcards")
    return frozenset(parse_kind(t) for t in wc.get("fixed", ()))


def indicator_roles(rs: Ruleset) -> list[str]:
    roles = list(rs.section("indicators"))
    if rs.section("wildcards").get("indicator") and "wild" not in roles:
        roles.append("wild")
    return roles


def wild_kinds(rs: Ruleset, ctx: WinContext) -> frozenset[int]:
    """Fixed wildcards, those an indicator fixes (--indicator wild=TILE), and --wild kinds."""
    wc = rs.section("wildcards")
    if not wc and not ctx.wild:
        return _NONE
    out = set(fixed_wild_kinds(rs)) | set(ctx.wild)
    ind = wc.get("indicator")
    if ind:
        for t in ctx.indicators.get("wild", ()):
            for tier in ind.get("tiers", (1,)):
                out.add(successor(t.kind, ind.get("cycle", "dora"), tier, rs.playable_kinds) if tier else t.kind)
    return frozenset(out)


def stand_ins(rs: Ruleset, wild: frozenset[int]) -> tuple[tuple[int, int], ...]:
    """(physical kind, natural kind): e.g. 白板 plays the 财神's own kind.

    With several wildcard kinds the stand-in plays the lowest; a stand-in tile that is itself
    wild this hand (the 财神 fell on 白板) stands in for nothing."""
    wc = rs.section("wildcards")
    spec = wc.get("stand_in", {})
    if not spec or not wild:
        return ()
    phys = {parse_kind(t) for t in spec}
    rest = wild - phys
    if not rest:
        return ()
    natural = min(rest)
    return tuple(sorted((p, natural) for p in phys if p not in wild))


def copies_in_play(rs: Ruleset, ctx: WinContext) -> list[int]:
    """Copies of each kind that can be in a hand: the tile set's, less a turned indicator that
    stays on the table (`turned_copy_excluded`, Tianjin's 混儿: three of the turned kind)."""
    out = list(rs.copies)
    ind = rs.section("wildcards").get("indicator") or {}
    if ind.get("turned_copy_excluded"):
        for t in ctx.indicators.get("wild", ()):
            out[t.kind] = max(0, out[t.kind] - 1)
    return out


@lru_cache(maxsize=256)
def _next_memo(rs: Ruleset, role: str) -> tuple[dict[int, int], str, int]:
    """Memo of indicated kinds per (ruleset, role), filled on demand: only kinds actually
    turned are looked up (a cycle may hold no kind of the tile set at all)."""
    spec = rs.section("indicators").get(role, {})
    return {}, spec.get("cycle", "dora"), spec.get("offset", 1)


def dora_kinds(rs: Ruleset, indicators: Iterable, role: str = "dora") -> tuple[int, ...]:
    """The kinds the indicators make dora (one entry per indicator)."""
    memo, cycle, steps = _next_memo(rs, role)
    out = []
    for t in indicators:
        got = memo.get(t.kind)
        if got is None:
            got = memo[t.kind] = successor(t.kind, cycle, steps, rs.playable_kinds)
        out.append(got)
    return tuple(out)
