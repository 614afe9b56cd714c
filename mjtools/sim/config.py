"""What the hand engine reads from a rule file, read once per ruleset.

Every behaviour of the engine comes from here: the rule file is data, the engine never asks
which variant it plays. Keys and their meaning are documented in `rules/schema.json`
(`wall`, `calls`, `play`, `wildcards`, `indicators`, `settlement.birds`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from mjtools.rules.counted import Counted, counted_entries
from mjtools.rules.model import Ruleset
from mjtools.tiles.kinds import parse_kind

RED = 64  # a tile code is its kind, plus RED for a red five


def kind_of(code: int) -> int:
    return code & 63


def _bool(value: Any, default: bool = False) -> bool:
    return default if value is None else bool(value)


@dataclass(frozen=True)
class Exchange:
    """换三张: how many tiles, whether of one suit, and the directions the dice choose from."""

    count: int = 3
    same_suit: bool = True
    directions: tuple[str, ...] = ("left", "right", "opposite")


@dataclass(frozen=True)
class PlayConfig:
    rules_id: str
    players: int
    seats: str
    hand_size: int
    tiles: tuple[int, ...]  # every tile code of the wall, in a fixed order before shuffling
    bonus: frozenset[int]
    dead_wall: int
    replacement_from: str  # dead_wall | tail
    kong_indicator: str  # immediate | after_discard | none
    reserve: int
    reserve_per_kong: int
    reserve_first_kong_free: bool
    chi: bool
    pon: bool
    exposed_kong: bool
    exposed_kong_from_left: bool
    added_kong: bool
    concealed_kong: bool
    max_kongs: int
    kita: int | None  # the kind set aside for a replacement draw (拔北)
    claims: str  # multiple_ron | head_bump
    locked_after_win: bool
    locked_after_ready: bool
    end: str  # first_win | bloody_battle | bloody_river
    furiten: str  # riichi | pass_lock | none
    forced_win_last: int
    abortive: frozenset[str]
    declare_ready: bool  # riichi, or 报听 where a win needs a declaration
    riichi_stick: int
    flower_replacement: bool
    exchange: Exchange | None
    void_declaration: bool
    void_discard_first: bool
    roles: tuple[str, ...]  # indicator roles, each turned once at the start
    kong_role: str | None  # the role a kong turns a new indicator for
    ura: bool  # indicators have a tile under them (a dead wall holds them)
    birds: int
    exhaustive: bool  # the rule file settles something at an exhaustive draw
    next_dealer: str = "dealer_wins_repeat"
    exhaustive_dealer: str = "rotate"
    wild_discardable: bool = True
    table_chickens: bool = False  # chickens are settled for every hand at the table
    kong_transfer: bool = False  # 呼叫转移 on a 杠上炮
    end_roles: tuple[str, ...] = ()  # indicators turned after a win (翻牌鸡), not at the start
    opening_wins: tuple[str, ...] = ()  # 起手胡 fans checked on the dealt hands
    dealer_extra: int = 1
    counted: tuple[Counted, ...] = ()  # play.discard_situations
    honba_each: bool = False  # several winners on one discard each take the honba


_CACHE: dict[int, tuple[Ruleset, PlayConfig]] = {}


def config(rs: Ruleset) -> PlayConfig:
    got = _CACHE.get(id(rs))
    if got is not None and got[0] is rs:
        return got[1]
    cfg = _build(rs)
    _CACHE[id(rs)] = (rs, cfg)
    return cfg


def _wall_tiles(rs: Ruleset) -> tuple[int, ...]:
    out: list[int] = []
    reds = rs.red_fives
    for k in range(50):
        n = rs.copies[k]
        if not n:
            continue
        red = 0
        if k < 27 and k % 9 == 4:
            red = int(reds.get("mps"[k // 9], 0) or 0)
        out.extend([k | 64] * min(red, n) + [k] * (n - min(red, n)))
    return tuple(out)


def _build(rs: Ruleset) -> PlayConfig:
    wall = rs.section("wall")
    calls = rs.section("calls")
    play = rs.section("play")
    settle = rs.section("settlement")
    from mjtools.analysis.wildcards import indicator_roles

    kita = calls.get("kita")
    kita_kind = None
    if kita is True:
        kita_kind = parse_kind("4z")
    elif isinstance(kita, str):
        kita_kind = parse_kind(kita)
    exchange = None
    if play.get("tile_exchange"):
        way = play.get("tile_exchange_direction", "dice") or "dice"
        exchange = Exchange(directions=("left", "right", "opposite") if way == "dice" else (way,))
    roles = tuple(indicator_roles(rs))
    dead = int(wall.get("dead_wall", 0) or 0)
    repl = wall.get("replacement_from", "dead_wall" if dead else "tail")
    kong_ind = wall.get("kong_indicator", "none")
    section_roles = list(rs.section("indicators"))
    birds = settle.get("birds") or {}
    riichi_settle = settle.get("riichi") or {}
    return PlayConfig(
        rules_id=rs.id,
        players=rs.players,
        seats=rs.seats,
        hand_size=rs.hand_size,
        tiles=_wall_tiles(rs),
        bonus=frozenset(rs.bonus_kinds),
        dead_wall=dead,
        replacement_from=repl if dead else "tail",
        kong_indicator=kong_ind if section_roles else "none",
        reserve=int(wall.get("reserve", 0) or 0),
        reserve_per_kong=int(wall.get("reserve_per_kong", 0) or 0),
        reserve_first_kong_free=bool(wall.get("reserve_first_kong_free", False)),
        chi=_bool(calls.get("chi")),
        pon=_bool(calls.get("pon"), True),
        exposed_kong=_bool(calls.get("exposed_kong"), True),
        exposed_kong_from_left=_bool(calls.get("exposed_kong_from_left"), True),
        added_kong=_bool(calls.get("added_kong"), True),
        concealed_kong=_bool(calls.get("concealed_kong"), True),
        max_kongs=int(calls.get("max_kongs", 4) if calls.get("max_kongs") is not None else 4),
        kita=kita_kind,
        claims=calls.get("claims", "multiple_ron") or "multiple_ron",
        locked_after_win=_bool(calls.get("locked_after_win")),
        locked_after_ready=_bool(calls.get("locked_after_ready"), bool(play.get("riichi"))),
        end=play.get("end", "first_win") or "first_win",
        furiten=play.get("furiten", "none") or "none",
        forced_win_last=int(play.get("forced_win_last", 0) or 0),
        abortive=frozenset(play.get("abortive_draws", ()) or ()),
        declare_ready=bool(play.get("riichi")) or bool(rs.section("win").get("ready_declaration")),
        riichi_stick=int(riichi_settle.get("stick", 0) or 0) if play.get("riichi") else 0,
        flower_replacement=_bool(play.get("flower_replacement"), True),
        exchange=exchange,
        void_declaration=bool(play.get("void_declaration")),
        void_discard_first=bool(play.get("void_discard_first")),
        roles=roles,
        kong_role=section_roles[0] if section_roles and kong_ind != "none" else None,
        ura=bool(dead),
        birds=int(birds.get("count", 0) or 0) if isinstance(birds, Mapping) else 0,
        exhaustive=bool(settle.get("exhaustive")),
        next_dealer=play.get("next_dealer", "dealer_wins_repeat") or "dealer_wins_repeat",
        exhaustive_dealer=wall.get("exhaustive_dealer", "rotate") or "rotate",
        wild_discardable=bool(rs.section("wildcards").get("discardable", True)),
        table_chickens=bool(settle.get("chickens")),
        opening_wins=tuple(play.get("opening_wins") or ()),
        dealer_extra=int(rs.section("hand").get("dealer_extra", 0) or 0),
        kong_transfer=bool(settle.get("kong_payment_transfer")),
        counted=counted_entries(rs),
        honba_each=(riichi_settle.get("multiple_ron_honba") == "each"),
        end_roles=tuple(r for r in roles if (rs.section("indicators").get(r) or {}).get("turned") == "end"),
    )
