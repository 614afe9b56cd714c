"""The frozen Ruleset: a validated, merged rule file with its option values applied."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from functools import cached_property
from types import MappingProxyType
from typing import Any

from mjtools.analysis.shapes import ShapeSpec
from mjtools.errors import UsageError
from mjtools.rules.freeze import apply_options, freeze
from mjtools.tiles.frozen import Frozen
from mjtools.tiles.kinds import SUIT_OFFSET, parse_kind

_EMPTY: Mapping[str, Any] = freeze({})
# The keys of a text in each output language. A text missing in the language is shown in
# English (never in another language: Chinese rule text is no Japanese text); the CLI says so
# once (`lacks_text`).
LANG_KEYS = {"en": ("en",), "zh": ("zh_hans", "zh_hant"), "ja": ("ja",)}


def pick(text: Mapping[str, str] | None, lang: str = "en") -> str:
    """The text in `lang` (en | zh | ja | zh_hans | zh_hant), falling back to English."""
    if not text:
        return ""
    for key in LANG_KEYS.get(lang, (lang,)) + ("en", "zh_hans"):
        if text.get(key):
            return text[key]
    return next(iter(text.values()), "")


def _texts(node: Any) -> Iterator[Mapping[str, Any]]:
    """The language maps (names, text, an option choice's text) in a rule-file section."""
    if isinstance(node, Mapping):
        if "en" in node and all(isinstance(v, str) for v in node.values()):
            yield node
            return
        for v in node.values():
            yield from _texts(v)


def lacks_text(rs: Ruleset, lang: str) -> bool:
    """Whether some fan, option, special rule or unsupported note of `rs` has no text in `lang`
    (it is then shown in English)."""
    keys = LANG_KEYS.get(lang, (lang,))
    sections = (rs.raw.get(k) for k in ("fans", "options", "special_rules", "unsupported", "names"))
    return any(not any(t.get(k) for k in keys) for sec in sections for t in _texts(sec))


def parse_option_value(raw: str) -> Any:
    """A command-line option value: true/false/null, an int, a float, else the string."""
    low = raw.strip().lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    if low in ("null", "none", "~"):
        return None
    for conv in (int, float):
        try:
            return conv(raw)
        except ValueError:
            pass
    return raw


class Ruleset(Frozen):
    """Resolved rules. `data` has option references replaced by the chosen values; `raw` keeps them.

    Read-only, compared by identity. A plain class rather than a frozen dataclass: defining
    the dataclass (its generated methods compiled) was a measurable part of every command's
    start-up, and nothing uses a Ruleset with dataclasses.replace or fields."""

    id: str
    raw: Mapping[str, Any]
    files: tuple[str, ...]
    origins: Mapping[str, str]
    option_values: Mapping[str, Any]

    def __init__(self, id: str, raw: Mapping[str, Any], files: tuple[str, ...], origins: Mapping[str, str], option_values: Mapping[str, Any] | None = None) -> None:
        self.__dict__.update(id=id, raw=raw, files=files, origins=origins, option_values={} if option_values is None else option_values)

    def __repr__(self) -> str:
        return f"Ruleset(id={self.id!r}, raw={self.raw!r}, files={self.files!r}, origins={self.origins!r}, option_values={self.option_values!r})"

    @classmethod
    def build(cls, raw: Mapping[str, Any], files: Sequence[str], origins: Mapping[str, str], options: Mapping[str, Any] | None = None) -> Ruleset:
        # Data read from the rules cache is frozen already; freeze leaves it as it is.
        rs = cls(raw["id"], freeze(raw), tuple(files), freeze(origins))
        return rs.with_options(options or {})

    def with_options(self, values: Mapping[str, Any]) -> Ruleset:
        """A ruleset with some options set (unknown options and bad values are UsageErrors)."""
        opts = self.raw.get("options", {})
        chosen = {k: v["default"] for k, v in opts.items()}
        chosen.update(self.option_values)
        for name, value in values.items():
            if name not in opts:
                known = ", ".join(sorted(opts)) or "none"
                raise UsageError(f"{self.id} has no option {name!r} (options: {known})")
            chosen[name] = _coerce(self.id, name, opts[name], value)
        return Ruleset(self.id, self.raw, self.files, self.origins, freeze(chosen))

    # -- the data, options applied --------------------------------------------------------------
    @cached_property
    def data(self) -> Mapping[str, Any]:
        # `options` and `examples` keep their option references; the rest has them replaced,
        # sharing with `raw` whatever refers to no option.
        opts = self.option_values
        return MappingProxyType({k: v if k in ("options", "examples") else apply_options(v, opts) for k, v in self.raw.items()})

    def __getitem__(self, key: str) -> Any:
        return self.data[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.data.get(key, default)

    def section(self, key: str) -> Mapping[str, Any]:
        # Memoized: scoring reads a few sections for every hand.
        got = self._sections.get(key)
        if got is None:
            got = self._sections[key] = self.data.get(key) or _EMPTY
        return got

    @cached_property
    def _sections(self) -> dict[str, Mapping[str, Any]]:
        return {}

    @property
    def abstract(self) -> bool:
        return bool(self.raw.get("abstract"))

    def name(self, lang: str = "en") -> str:
        return pick(self.raw["names"], lang)

    @property
    def names(self) -> Mapping[str, str]:
        return self.raw["names"]

    # Read for every scored hand: kept once computed (a ruleset never changes).
    @cached_property
    def players(self) -> int:
        return self.data["players"]

    @cached_property
    def seats(self) -> str:
        return "ESWN"[: self.players]

    @cached_property
    def hand_size(self) -> int:
        return self.data["hand"]["size"]

    # -- tiles ----------------------------------------------------------------------------------
    @cached_property
    def playable_kinds(self) -> frozenset[int]:
        t = self.data["tiles"]
        kinds = {SUIT_OFFSET[s] + i for s in t.get("suits", ()) for i in range(9)}
        kinds |= {26 + n for n in t.get("honors", ())}
        kinds -= {parse_kind(x) for x in t.get("exclude", ())}
        return frozenset(kinds)

    @cached_property
    def bonus_kinds(self) -> frozenset[int]:
        t = self.data["tiles"]
        out = {33 + n for n in t.get("flowers", ())}
        out |= {parse_kind(x) for x in t.get("bonus", ())}
        return frozenset(out)

    @cached_property
    def joker_kinds(self) -> frozenset[int]:
        return frozenset(range(42, 42 + self.data["tiles"].get("jokers", 0)))

    @cached_property
    def copies(self) -> tuple[int, ...]:
        """Copies of each of the 50 kinds in the tile set (0 if absent)."""
        t = self.data["tiles"]
        spec = t.get("copies", {})
        default = spec.get("default", 4)
        out = [0] * 50
        for k in self.playable_kinds | self.bonus_kinds - {33 + n for n in range(1, 9)}:
            out[k] = default
        for n in t.get("flowers", ()):
            out[33 + n] = 1
        for k in self.joker_kinds:
            out[k] = 1
        for tile, c in spec.items():
            if tile != "default":
                out[parse_kind(tile)] = c
        return tuple(out)

    @cached_property
    def red_fives(self) -> Mapping[str, int]:
        return self.data["tiles"].get("red_fives", {})

    # -- shapes ---------------------------------------------------------------------------------
    @cached_property
    def requirements(self) -> frozenset[str]:
        return frozenset(self.data["win"].get("require", ()))

    @cached_property
    def _shape_specs(self) -> dict[tuple, ShapeSpec]:
        return {}

    def shape_spec(self, wild_kinds: frozenset[int] = frozenset(), stand_ins: tuple[tuple[int, int], ...] = ()) -> ShapeSpec:
        """The variant's shapes with these wildcards: one instance per wildcard set, since the
        analysis caches are keyed by spec and an equal spec of another instance is compared
        field by field on every lookup (and a win under an indicated wildcard builds its group
        layout once)."""
        key = (wild_kinds, stand_ins)
        got = self._shape_specs.get(key)
        if got is None:
            got = self._shape_specs[key] = self._new_shape_spec(wild_kinds, stand_ins)
        return got

    def _new_shape_spec(self, wild_kinds: frozenset[int], stand_ins: tuple[tuple[int, int], ...]) -> ShapeSpec:
        win = self.data["win"]
        req = self.requirements
        wc = self.section("wildcards")
        # Kinds a shape may hold: not bonus tiles, not stand-ins (they play the wildcard's
        # kind), not tiles that block a win while held (those must leave the hand).
        blocked = {parse_kind(t) for t in win.get("no_win_holding", ())}
        kinds = (self.playable_kinds - (self.bonus_kinds - wild_kinds) - {p for p, n in stand_ins if p != n} - blocked) | (self.playable_kinds & wild_kinds)
        return ShapeSpec(
            hand_size=self.hand_size,
            forms=tuple(win["forms"]),
            quads_as_pairs=bool(win.get("seven_pairs_quads", False)),
            kinds=frozenset(kinds),
            pair_258="pair_258" in req,
            pair_258_exempt=tuple(win.get("pair_258_exempt", ())),
            max_suits=2 if "missing_suit" in req else None,
            min_tiles_one_suit=win.get("min_tiles_one_suit") if "min_tiles_one_suit" in req else None,
            all_three_suits="all_three_suits_required" in req,
            wild_kinds=wild_kinds,
            stand_ins=stand_ins,
            wild_fifth_copy=bool(wc.get("fifth_copy", False)),
            wild_in_pair=bool(wc.get("in_pair", True)),
            wild_discardable=bool(wc.get("discardable", True)),
            face_value_forms=tuple(wc.get("face_value_forms", ())),
            honor_chows=bool(win.get("honor_chow", False)),
        )

    @cached_property
    def base_spec(self) -> ShapeSpec:
        """The shape spec with the wildcards that need no indicator (fixed ones)."""
        from mjtools.analysis.wildcards import fixed_wild_kinds

        return self.shape_spec(fixed_wild_kinds(self))

    # -- fans and options -----------------------------------------------------------------------
    @cached_property
    def fans(self) -> Mapping[str, Mapping[str, Any]]:
        """Enabled fans, in file order."""
        # The section is frozen already (options applied): filtering needs no copy of it.
        return MappingProxyType({k: v for k, v in self.section("fans").items() if v.get("enabled", True)})

    @property
    def options(self) -> Mapping[str, Mapping[str, Any]]:
        return self.raw.get("options", {})

    @property
    def examples(self) -> Mapping[str, Mapping[str, Any]]:
        return self.raw.get("examples", {})

    def origin(self, path: str) -> str:
        """The file that set a key path ('fans.full_flush.value')."""
        parts = path.split(".")
        for n in range(len(parts), 0, -1):
            got = self.origins.get(".".join(parts[:n]))
            if got:
                return got
        return self.files[0]


_UNSET: Any = object()


def option_kind(spec: Mapping[str, Any], declared_default: Any = _UNSET) -> str:
    """An option's type: its `type`, else "choice" when it lists choices, else the type of its
    default as first declared (a file that overrides the default does not change the type)."""
    kind = spec.get("type")
    if isinstance(kind, str):
        return kind
    if spec.get("choices") is not None:
        return "choice"
    d = spec.get("default") if declared_default is _UNSET else declared_default
    if isinstance(d, bool):
        return "boolean"
    if isinstance(d, int):
        return "integer"
    if isinstance(d, float):
        return "number"
    if isinstance(d, str):
        return "string"
    return "any"


def _same(a: Any, b: Any) -> bool:
    return a == b and isinstance(a, bool) == isinstance(b, bool)


def _coerce(rid: str, name: str, spec: Mapping[str, Any], value: Any, kind: str | None = None, parse: bool = True) -> Any:
    """The value option `name` takes for `value` (a choice key read back as its value), or a
    UsageError. The one check of -o, a batch case's "option" and a rule file's own defaults
    (`parse`: a string from the command line may spell a number, true, false or null)."""
    kind = kind or option_kind(spec)
    raw = value
    if parse and isinstance(value, str):
        value = parse_option_value(value)
    if kind == "choice":
        choices = spec.get("choices")
        keys = list(choices) if isinstance(choices, (Mapping, Sequence)) and not isinstance(choices, str) else []
        default = spec.get("default")
        for k in keys:
            # Choice keys are strings when they come from a rule file (null -> 'null', 3 -> '3').
            if _same(k, value) or (isinstance(k, str) and (_same(parse_option_value(k), value) if not isinstance(value, str) else k.lower() == value.lower())):
                if isinstance(k, str) and not isinstance(default, str):
                    return parse_option_value(k)
                return k
        raise UsageError(f"option {name} of {rid} takes one of {', '.join(map(str, keys))}; got {raw!r}")
    if kind == "string" and isinstance(raw, str):
        return raw
    ok = {
        "boolean": lambda v: isinstance(v, bool),
        "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
        "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool) and v == v and abs(v) != float("inf"),
        "string": lambda v: isinstance(v, str),
    }.get(kind, lambda v: v is None or isinstance(v, (str, int, float, bool)))
    if not ok(value):
        what = {"boolean": "true or false", "integer": "an integer", "number": "a number", "string": "a string"}.get(kind, "a string, number, true, false or null")
        raise UsageError(f"option {name} of {rid} is {what}; got {raw!r}")
    return value
