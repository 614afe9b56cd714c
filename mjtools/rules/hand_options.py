"""The hand-context options (seat, tsumo, indicators, ...): one table that the CLI turns into
Click options (cli/options.py) and that batch JSON cases use as keys; `normalize` types the
values, `build_context` makes the `WinContext` a ruleset accepts."""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from mjtools.analysis.wildcards import indicator_roles
from mjtools.errors import NotationError, UsageError
from mjtools.rules.model import parse_option_value
from mjtools.tiles.context import WinContext
from mjtools.tiles.notation import parse_tile, parse_tiles

SEATS = ("E", "S", "W", "N")


class Opt:
    """One hand-context option: its Click declaration and its batch JSON key. (A plain class:
    a NamedTuple compiles its constructor when the module is imported, on every call.)"""

    __slots__ = ("name", "kind", "help", "multiple", "commands", "short", "metavar", "default", "key")

    def __init__(self, name: str, kind: str, help: str, multiple: bool = False, commands: frozenset[str] = frozenset({"score", "wait", "shanten"}), short: str | None = None, metavar: str | None = None, default: Any = None) -> None:
        self.name = name  # long option name
        self.kind = kind  # flag, int, seat, tile, tiles, str, suit, seats, kv
        self.help = help
        self.multiple = multiple
        self.commands = commands
        self.short = short
        self.metavar = metavar
        self.default = default
        self.key = name.replace("-", "_")

    def __repr__(self) -> str:
        return f"Opt({self.name!r}, {self.kind!r})"


ALL = frozenset({"score", "wait", "shanten"})
SCORE = frozenset({"score"})
OPTIONS: tuple[Opt, ...] = (
    Opt("tsumo", "flag", "Self-drawn win (the + tile was drawn)."),
    Opt("ron", "flag", "Win on a discard (the default)."),
    Opt("seat", "seat", "Seat of the player: E (dealer), S, W, N.", default="E", metavar="E|S|W|N"),
    Opt("round", "seat", "Round (prevailing) wind.", default="E", metavar="E|S|W|N"),
    Opt("indicator", "indicator", "Indicator tile ([ROLE=]TILE): dora, the wildcard indicator, ... (repeatable).", multiple=True, metavar="[ROLE=]TILE"),
    Opt("wild", "tiles", "State the wildcard kinds directly (repeatable).", multiple=True, metavar="TILE"),
    Opt("visible", "tiles", "Tiles seen elsewhere, for live counts.", metavar="TILES"),
    Opt("void", "suit", "Declared void suit (定缺).", metavar="m|p|s"),
    Opt("option", "kv", "Set a rule option: NAME=VALUE (repeatable; `mjtools rules show ID` lists them).", multiple=True, short="-o", metavar="NAME=VALUE"),
    Opt("from", "seat", "The discarder on a ron (default: the seat before the winner).", commands=SCORE, metavar="E|S|W|N"),
    Opt("ura", "tiles", "Ura-dora indicator (repeatable; only with --riichi).", multiple=True, commands=SCORE, metavar="TILE"),
    Opt("riichi", "flag", "The winner declared riichi / ready (报听).", commands=SCORE),
    Opt("double-riichi", "flag", "Riichi on the first discard.", commands=SCORE),
    Opt("ippatsu", "flag", "Won within one go-around after riichi.", commands=SCORE),
    Opt("kong-bloom", "flag", "Won on a kong replacement tile (杠上开花).", commands=SCORE),
    Opt("last-tile", "flag", "Won on the last tile (haitei by tsumo, houtei by ron).", commands=SCORE),
    Opt("robbing-kong", "flag", "Won by robbing a kong (抢杠).", commands=SCORE),
    Opt("first-turn", "flag", "Won in the first go-around before any call (天和/地和/人和).", commands=SCORE),
    Opt("kita", "int", "Norths set aside (sanma kita).", commands=SCORE, default=0),
    Opt("honba", "int", "Honba counters.", commands=SCORE, default=0),
    Opt("sticks", "int", "Riichi sticks on the table (go to the winner as the pot).", commands=SCORE, default=0),
    Opt("streak", "int", "Dealer streak (连庄 count).", commands=SCORE, default=0),
    Opt("birds", "tiles", "Tiles turned for birds / horses (扎鸟, 马).", commands=SCORE, metavar="TILES"),
    Opt("active", "seats", "Players still in the hand (血战), e.g. ESW.", commands=SCORE, metavar="SEATS"),
    Opt("situation", "kv", "Variant-specific event ID[=N] (repeatable), e.g. hongzhong_kong=2.", multiple=True, commands=SCORE, metavar="ID[=N]"),
)
BY_KEY = {o.key: o for o in OPTIONS}
FLAGS = {"riichi", "double_riichi", "ippatsu", "kong_bloom", "last_tile", "robbing_kong", "first_turn"}


# Counters (honba, sticks, streak, kita, a situation's count) beyond this are no hand anyone
# plays; the bound keeps arithmetic on them small.
MAX_COUNT = 10_000


def shown(value: Any) -> str:
    """A value as an error line quotes it: JSON, cut short."""
    import json

    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _strings(value: Any) -> bool:
    """A string, or a list of strings (Click gives a tuple for a repeatable option)."""
    return isinstance(value, str) or (isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value))


def count(value: Any, name: str) -> int:
    """A counter: an integer (or its digits as a string) from 0 to MAX_COUNT."""
    if isinstance(value, str) and value.strip().isdigit() and len(value.strip()) <= 6:
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise UsageError(f"{name} takes an integer, got {shown(value)}")
    if value < 0:
        raise UsageError(f"{name} cannot be negative")
    if value > MAX_COUNT:
        raise UsageError(f"{name} is at most {MAX_COUNT}, got {shown(value)}")
    return value


_TILE_RUNS: dict[str, tuple] = {}


def _tiles(value: Any, name: str) -> tuple:
    if isinstance(value, str):
        got = _TILE_RUNS.get(value)
        if got is None:
            try:
                got = parse_tiles(value.replace(",", "").replace(" ", ""))
            except NotationError as e:
                raise UsageError(f"--{name}: {e.one_line()}") from None
            if len(_TILE_RUNS) < 4096:
                _TILE_RUNS[value] = got  # tiles are values: one tuple per text
        return got
    if not _strings(value):
        raise UsageError(f"--{name} takes tiles (a string, or a list of strings), got {shown(value)}")
    out: tuple = ()
    for v in value:
        out += _tiles(v, name)
    return out


def _tile_list(values: list[str], name: str) -> tuple:
    """_tiles of a list of strings."""
    out: tuple = ()
    runs = _TILE_RUNS
    for v in values:
        got = runs.get(v)
        out += got if got is not None else _tiles(v, name)
    return out


def _seat(value: Any, name: str) -> str:
    if not isinstance(value, str) or value.upper() not in SEATS:
        raise UsageError(f"--{name} is one of E, S, W, N; got {shown(value)}")
    return value.upper()


SCALAR = (str, int, float, bool, type(None))


def kv_pairs(values: Any, name: str) -> dict[str, Any]:
    """NAME=VALUE settings (--option, --situation): strings, a list of them, or a JSON object
    of scalars."""
    if isinstance(values, dict):
        for k, v in values.items():
            if not isinstance(v, SCALAR):
                raise UsageError(f"--{name} {k}: a value is a string, number, true, false or null; got {shown(v)}")
        return dict(values)
    if values is not None and not _strings(values):
        raise UsageError(f"--{name} takes NAME=VALUE (a string, a list of them, or an object), got {shown(values)}")
    if isinstance(values, str):
        values = [values]
    out: dict[str, Any] = {}
    for v in values or ():
        key, sep, raw = v.partition("=")
        if not key:
            raise UsageError(f"--{name} takes NAME=VALUE, got {shown(v)}")
        out[key.strip()] = parse_option_value(raw) if sep else (True if name == "option" else 1)
    return out


# The values a batch case most often holds, typed without the general checks below: a key
# -> its kind ("flag", "int", "seat"; "indicator" and "tiles" given as a list of strings), for
# the keys that need no renaming; a seat as written
# -> the seat. Anything else (another kind, a value of another type, a wrong value) takes the
# general path, which gives the same result or the same error.
_QUICK: dict[str, str] = {
    o.key: o.kind for o in OPTIONS if not o.key.endswith("_") and (o.kind in ("flag", "int", "seat") or (o.kind in ("indicator", "tiles") and o.key == o.name))
}
# The same by command: only the keys that command takes.
_QUICK_FOR: dict[str, dict[str, str]] = {c: {k: kind for k, kind in _QUICK.items() if c in BY_KEY[k].commands} for o in OPTIONS for c in o.commands}
_NO_QUICK: dict[str, str] = {}
_SEAT_OF = {**{s: s for s in SEATS}, **{s.lower(): s for s in SEATS}}


def normalize(raw: dict[str, Any], command: str) -> dict[str, Any]:
    """Typed option values from Click parameters or a batch JSON case (unknown keys refused;
    every value of the wrong JSON type refused, with the option's name)."""
    out: dict[str, Any] = {}
    quick = _QUICK_FOR.get(command, _NO_QUICK)
    for key, value in raw.items():
        kind = quick.get(key)
        if kind is not None:
            t = type(value)
            if kind == "seat":
                if t is str and (seat := _SEAT_OF.get(value)) is not None:
                    out[key] = seat
                    continue
            elif kind == "flag":
                if t is bool:
                    out[key] = value
                    continue
            elif kind == "int":
                if t is int and 0 <= value <= MAX_COUNT:
                    out[key] = value
                    continue
            elif t is list and value:  # indicator, tiles: a list of strings (join refuses any other)
                try:
                    "".join(value)
                except TypeError:
                    pass
                else:
                    out[key] = list(value) if kind == "indicator" else _tile_list(value, key)
                    continue
        if value is None or value == () or value == []:
            continue
        key = key.rstrip("_")
        o = BY_KEY.get(key)
        if o is None or command not in o.commands:
            raise UsageError(f"{command} has no option {key!r}")
        if o.kind == "flag":
            if not isinstance(value, bool):
                raise UsageError(f"{key} is true or false, got {shown(value)}")
            out[key] = value
        elif o.kind == "int":
            out[key] = count(value, f"--{o.name}")
        elif o.kind == "seat":
            out[key] = _seat(value, o.name)
        elif o.kind == "tiles":
            out[key] = _tiles(value, o.name)
        elif o.kind == "indicator":
            if not _strings(value):
                raise UsageError(f"--indicator takes [ROLE=]TILE (a string, or a list of strings), got {shown(value)}")
            out[key] = [value] if isinstance(value, str) else list(value)
        elif o.kind == "suit":
            if value not in ("m", "p", "s"):
                raise UsageError(f"--void is m, p or s; got {shown(value)}")
            out[key] = value
        elif o.kind == "seats":
            if not _strings(value):
                raise UsageError(f"--active takes seats like ESW, got {shown(value)}")
            seats = "".join([value] if isinstance(value, str) else value).upper().replace(",", "")
            if not seats or any(s not in SEATS for s in seats):
                raise UsageError(f"--active takes seats like ESW, got {shown(value)}")
            out[key] = tuple(seats)
        elif o.kind == "kv":
            out[key] = kv_pairs(value, o.name)
    if out.get("tsumo") and out.get("ron"):
        raise UsageError("--tsumo and --ron exclude each other")
    return out


_TILES: dict[str, Any] = {}  # indicator text -> its Tile


def _roles(rs: Any, indicator_roles: Any) -> list[str]:
    """The ruleset's indicator roles, read once (kept on the ruleset, as its plans are)."""
    got = rs.__dict__.get("_indicator_roles")
    if got is None:
        got = rs.__dict__["_indicator_roles"] = indicator_roles(rs)
    return got


def _indicators(opts: dict[str, Any], rs) -> MappingProxyType:
    """--indicator's [ROLE=]TILE texts as {role: tiles} (read-only)."""
    indicators: dict[str, tuple] = {}
    given = opts["indicator"]
    roles = _roles(rs, indicator_roles)
    for spec in given:
        if not isinstance(spec, str):
            raise UsageError(f"--indicator takes [ROLE=]TILE, got {spec!r}")
        role, sep, tile = spec.rpartition("=")
        if not sep:
            if not roles:
                raise UsageError(f"{rs.id} has no indicator tiles")
            role = roles[0]
        elif role not in roles:
            raise UsageError(f"{rs.id} has no indicator role {role!r} (roles: {', '.join(roles) or 'none'})")
        t = _TILES.get(tile)
        if t is None:
            try:
                t = parse_tile(tile)
            except NotationError as e:
                raise UsageError(f"--indicator: {e.one_line()}") from None
            if len(_TILES) < 4096:
                _TILES[tile] = t  # tiles are values: one per text
        indicators[role] = indicators.get(role, ()) + (t,)
    return MappingProxyType(indicators)


def build_context(opts: dict[str, Any], rs) -> Any:
    """A WinContext from normalized options, indicator roles resolved against the ruleset."""
    given = opts.get("indicator", ())
    if given:
        # The indicators as a read-only mapping, kept per ruleset by the texts given (a batch
        # repeats them: 34 kinds, one or two indicators a case).
        memo = rs.__dict__.get("_indicator_memo")
        if memo is None:
            memo = rs.__dict__["_indicator_memo"] = {}
        try:
            indicators = memo.get(key := tuple(given))
        except TypeError:  # a list in the list: refused below
            indicators = key = None
        if indicators is None:
            indicators = _indicators(opts, rs)
            if key is not None and len(memo) < 4096:
                memo[key] = indicators
    else:
        indicators = None
    situations = opts.get("situation")
    situations = dict(situations) if situations else {}
    if situations:
        declared = rs.section("situations")
        for k in situations:
            # A variant that declares its situations refuses others, so a typo is not ignored.
            if declared and k not in declared:
                raise UsageError(f"--situation {k}: {rs.id} knows {', '.join(sorted(declared))}")
    if not FLAGS.isdisjoint(opts):
        for f in FLAGS.intersection(opts):
            if opts[f]:
                situations[f] = 1
    for k, v in situations.items():
        if type(v) is not int or not 0 <= v <= MAX_COUNT:  # (a flag's 1 needs no check)
            count(v, f"--situation {k}")
    if opts.get("ura") and not (opts.get("riichi") or opts.get("double_riichi")):
        raise UsageError("--ura needs --riichi (ura dora count only for a riichi winner)")
    if opts.get("from") and opts.get("tsumo"):
        raise UsageError("--from names the discarder of a ron; it makes no sense with --tsumo")
    seat = opts.get("seat", "E")
    if seat not in rs.seats:
        raise UsageError(f"--seat {seat}: {rs.id} has seats {', '.join(rs.seats)}")
    frm = opts.get("from")
    if frm is not None and (frm == seat or frm not in rs.seats):
        raise UsageError(f"--from {frm}: the discarder is another seat of {', '.join(rs.seats)}")
    # The context's fields, as WinContext's defaults and then what the options set (a batch
    # builds one context per line: a dict filled in place of 17 keyword arguments).
    fields = _CTX_DEFAULTS.copy()
    for key in _CTX_AS_GIVEN.intersection(opts):
        fields[key] = opts[key]
    if "tsumo" in opts:
        fields["tsumo"] = bool(opts["tsumo"])
    fields["discarder"] = frm
    fields["players"] = rs.players
    if situations:
        fields["situations"] = MappingProxyType(situations)
    if indicators:
        fields["indicators"] = indicators
    wild = opts.get("wild")
    if wild:
        fields["wild"] = tuple(sorted({t.kind for t in wild}))
    return WinContext.of_fields(fields)


# WinContext's fields with its defaults, in its order; the options that set a field of the
# same name as they are (the others are renamed or converted above).
_CTX_DEFAULTS: dict[str, Any] = WinContext().fields()
_CTX_AS_GIVEN = frozenset({"seat", "round", "ura", "visible", "void", "kita", "honba", "sticks", "streak", "birds", "active"})
