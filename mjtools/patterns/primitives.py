"""Documented primitives for composing fans in YAML without code.

    {win_tile_in: [5m, 5p, 5s]}     the winning tile is one of these kinds
    {pair_in: [2m, 5m, 8m]}         the pair is one of these kinds
    {wait: closed}                  the wait kind: two_sided closed edge pair pung single
    {win_by: tsumo}                 tsumo or ron
    {suits: {min: 1, max: 1}, honors: false}   number suits used (and honors allowed?)
    {melds: {kind: chow, min: 3}}   laid-down melds by kind: chow pung kong exposed concealed_kong any
    {sets: {kind: pung, tiles: [5z], min: 1}}  sets in the decomposition, optionally of kinds
    {situation: kong_bloom}         a --situation or flag was given
    {option: name, equals: value}   a rule option has a value
    {fan: id}                       another fan of the rule file applies
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from mjtools.patterns.ctx import Ctx
from mjtools.tiles.kinds import parse_kind


def _kinds(tiles: list[str]) -> set[int]:
    return {parse_kind(t) for t in tiles}


def _in_range(n: int, r: Mapping[str, int]) -> bool:
    return r.get("min", 0) <= n <= r.get("max", 10**9)


def win_tile_in(ctx: Ctx, spec: Mapping[str, Any]) -> int:
    return int(ctx.win_kind is not None and ctx.win_kind in _kinds(spec["win_tile_in"]))


def pair_in(ctx: Ctx, spec: Mapping[str, Any]) -> int:
    return int(ctx.pair is not None and ctx.pair.first in _kinds(spec["pair_in"]))


def wait(ctx: Ctx, spec: Mapping[str, Any]) -> int:
    return int(ctx.d.wait == spec["wait"])


def win_by(ctx: Ctx, spec: Mapping[str, Any]) -> int:
    return int(ctx.tsumo == (spec["win_by"] == "tsumo"))


def suits(ctx: Ctx, spec: Mapping[str, Any]) -> int:
    if "honors" in spec and bool(spec["honors"]) != ctx.has_honors:
        return 0
    return int(_in_range(len(ctx.suits), spec["suits"]))


def melds(ctx: Ctx, spec: Mapping[str, Any]) -> int:
    r = spec["melds"]
    kind = r.get("kind", "any")
    n = 0
    for m in ctx.hand.melds:
        if kind == "any" or m.kind == kind or (kind == "kong" and m.is_kong) or (kind == "exposed" and m.is_open):
            n += 1
    return int(_in_range(n, r))


def sets(ctx: Ctx, spec: Mapping[str, Any]) -> int:
    r = spec["sets"]
    kind = r.get("kind")
    kinds = _kinds(r["tiles"]) if "tiles" in r else None
    n = 0
    for b in ctx.sets:
        if kind == "pung_or_kong" and not b.is_pung_like:
            continue
        if kind == "concealed_pung" and not ctx.concealed_pung(b):
            continue
        if kind in ("chow", "pung", "kong") and b.shape != kind:
            continue
        if kinds is not None and not (set(b.kinds) & kinds):
            continue
        n += 1
    if "min" in r or "max" in r:
        return int(_in_range(n, r))
    return n


def situation(ctx: Ctx, spec: Mapping[str, Any]) -> int:
    return ctx.win.has(spec["situation"])


def option(ctx: Ctx, spec: Mapping[str, Any]) -> int:
    value = ctx.options.get(spec["option"])
    if "equals" in spec:
        return int(value == spec["equals"])
    return int(bool(value))


def fan(ctx: Ctx, spec: Mapping[str, Any]) -> int:
    return ctx.awarded.get(spec["fan"], 0)


PRIMITIVES: dict[str, Callable[[Ctx, Mapping[str, Any]], int]] = {
    "win_tile_in": win_tile_in,
    "pair_in": pair_in,
    "wait": wait,
    "win_by": win_by,
    "suits": suits,
    "melds": melds,
    "sets": sets,
    "situation": situation,
    "option": option,
    "fan": fan,
}
