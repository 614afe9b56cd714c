"""The pattern registry: small pure predicates keyed by pattern id.

A pattern reads a `Ctx` (one decomposition of one win) and returns how many times it occurs
(0 = absent; most patterns return 0 or 1). Parametrised patterns take keyword parameters that
a rule file gives as `{id: outside_hand, honors: false}`. Rule files compose patterns with
`all_of` / `any_of` / `none_of` and the primitives in `primitives.py`.

May import analysis and tiles only: rules read patterns, never the reverse.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from typing import Any

from mjtools.patterns.ctx import Ctx

PatternFn = Callable[..., int]
InstancesFn = Callable[..., "tuple[tuple[int, ...], ...]"]
PATTERNS: dict[str, PatternFn] = {}
NEEDS: dict[str, int] = {}  # pattern id -> feature bits it cannot occur without (patterns/ctx.py)
# pattern id -> its occurrences as groups of sets (indices into ctx.sets), for the patterns that
# are made of sets: a fan with `combine: sets` (the account-once principle) and an exclusion
# `on: sets` read them (scoring/fans.py). Same keyword parameters as the pattern.
INSTANCES: dict[str, InstancesFn] = {}
# pattern id -> the feature bits it needs with given parameters, beyond NEEDS (the numbers of
# 全大 and 全小, the shape of a sole wait): called once per fan when a plan is compiled.
NEEDS_OF: dict[str, Callable[..., int]] = {}
# pattern id -> a function of the reading that several patterns share, a mapping holding the
# pattern's id whenever the pattern occurs (combos.relations: every set combination of the
# reading), as a TableValue. The fan plan reads it once per reading and skips the patterns it
# does not hold.
TABLES: dict[str, Callable[[Ctx], TableValue]] = {}


class TableValue(dict):
    """A shared table's value (TABLES: pattern id -> count), kept by its function for the
    readings it recurs in. `bits_of` / `bits`: the fan plan's bits of the ids it holds, under
    the last plan that read it (`bits_of`, that plan's map of ids to bits, compared by
    identity), so that the plan reads a value it has seen without going over its ids."""

    __slots__ = ("bits_of", "bits")

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.bits_of: Any = None
        self.bits = 0
# pattern id -> a function of TABLES that holds the pattern's id whenever the pattern occurs,
# though the pattern is not read from it (pure_straight and combos.relations). A plan that reads
# that table for other fans anyway also skips this pattern on readings whose table lacks it; a
# plan that does not read it calls the pattern as before (the table costs more than the call).
HELD_IN: dict[str, Callable[[Ctx], TableValue]] = {}
# pattern id -> whether the bits it needs (NEEDS with NEEDS_OF) are also sufficient: True for
# any parameters, or a function of the parameters saying so (True; or "nonzero": the bits say
# the pattern is not 0, not that it is 1, which is enough for a fan that does not count
# instances). Such a pattern is 1 on every
# reading without wildcards that has those bits, so the fan plan counts it without a call. A
# declaration, checked against the predicates on seeded hands (tests/test_fan_gates.py).
EXACT: dict[str, bool | Callable[..., bool | str]] = {}
# pattern ids that read the fans found before them on the reading (ctx.awarded): a plan with
# one keeps ctx.awarded up to date fan by fan; the others fill it in once the fans are found.
READS_FANS: set[str] = set()
# pattern id -> what it reads of where the winning tile sits among the reading's blocks (the
# placement: `Decomposition.win_block` and `wait`): "pung" (whether a concealed pung was
# completed by a discard, which makes it an exposed one), "pair" (whether the tile completed
# the pair), "any" (the wait's shape or the block itself), "none" (it reads the wait, or
# needs the `pair_wait` bit, only where no two such readings can differ: see golden_hook). A
# pattern not listed reads none of it, so readings that differ only in where the winning tile
# sits count it alike; the scorer then evaluates such readings once (scoring/__init__.py). A
# function of the pattern's parameters where they decide it (平和 reads the wait only with
# `two_sided_wait`).
PLACEMENT: dict[str, str | Callable[..., str]] = {}
# pattern id -> a function of the reading whose (hashable) value, with the reading's
# concealment, says the pattern's occurrences (INSTANCES) whatever its parameters: the set
# combinations read from combos.relations are said by the key relations is remembered by. The
# account-once passes are then remembered by that key instead of the occurrences themselves.
INSTANCES_KEY: dict[str, Callable[[Ctx], Any]] = {}
PLACEMENT_ASPECTS = ("pung", "pair", "any", "none")


def pattern(*ids: str, needs: tuple[str, ...] = (), needs_of: Callable[..., int] | None = None, table: Callable[[Ctx], TableValue] | None = None, exact: bool | Callable[..., bool | str] = False, reads_fans: bool = False, placement: str | Callable[..., str] = "") -> Callable[[PatternFn], PatternFn]:
    """Register a function under one or more pattern ids (glossary ids). `needs` names
    reading features (`ctx.FEATURES`) without which the pattern is always 0, whatever its
    parameters; fans over it are skipped on readings that lack them. `needs_of(**params)`:
    the bits it needs with those parameters (the same keywords as the pattern). `table`: a
    function of the reading whose TableValue holds the pattern's id whenever the pattern occurs
    (also a necessary condition: fans over it are skipped on readings whose table lacks it).
    `exact`: the bits it needs are also sufficient (it is 1 on every reading that has them),
    for any parameters (True) or for those `exact(**params)` accepts; a plan then counts it
    without calling it. `reads_fans`: it reads the fans found before it (ctx.awarded).
    `placement`: what it reads of where the winning tile sits (PLACEMENT), "" for nothing, or
    a function of its parameters saying which."""
    from mjtools.patterns.features import BIT, situation_bit

    mask = 0
    for n in needs:
        mask |= BIT[n] if n in BIT or not n.startswith("sit_") else situation_bit(n[4:])
        if n.startswith("sit_"):
            # A flag implies some situation: an any_of over situation patterns keeps this bit.
            mask |= BIT["situation"]

    if isinstance(placement, str) and placement and placement not in PLACEMENT_ASPECTS:
        raise ValueError(f"placement {placement!r} is not one of {PLACEMENT_ASPECTS}")

    def deco(fn: PatternFn) -> PatternFn:
        for pid in ids:
            if pid in PATTERNS:
                raise ValueError(f"pattern {pid!r} registered twice")
            PATTERNS[pid] = fn
            if mask:
                NEEDS[pid] = mask
            if needs_of is not None:
                NEEDS_OF[pid] = needs_of
            if table is not None:
                TABLES[pid] = table
            if exact:
                EXACT[pid] = exact
            if reads_fans:
                READS_FANS.add(pid)
            if placement:
                PLACEMENT[pid] = placement
        return fn

    return deco


def placement_of(pid: str, params: Mapping[str, Any]) -> str:
    """What pattern `pid` with these parameters reads of the winning tile's placement ("" for
    nothing; see PLACEMENT; "none" where declared so)."""
    how = PLACEMENT.get(pid, "")
    if isinstance(how, str):
        return how
    try:
        got = how(**params)
    except TypeError:  # parameters the declaration does not know: assume the worst
        return "any"
    return got if got in PLACEMENT_ASPECTS else "any" if got else ""


def instances(*ids: str, key: Callable[[Ctx], Any] | None = None) -> Callable[[InstancesFn], InstancesFn]:
    """Register how a pattern's occurrences are made of sets: a function of the same `Ctx` and
    parameters returning one tuple of `ctx.sets` indices per occurrence (a pung: one index; a
    pure straight: three). The pattern itself must be registered under the same id. `key`: a
    function of the reading whose value (with the concealment) says the occurrences
    (INSTANCES_KEY)."""

    def deco(fn: InstancesFn) -> InstancesFn:
        for pid in ids:
            if pid in INSTANCES:
                raise ValueError(f"instances of {pid!r} registered twice")
            INSTANCES[pid] = fn
            if key is not None:
                INSTANCES_KEY[pid] = key
        return fn

    return deco


def _load() -> None:
    # Importing the modules registers their patterns.
    from mjtools.patterns import (  # noqa: F401
        combos,
        flags,
        honors,
        knitted,
        melds,
        primitives,
        ranks,
        shapes,
        sole_wait,
        special,
        suits,
        waits,
    )


_loaded = False


def registry() -> dict[str, PatternFn]:
    # A flag, not `if not PATTERNS`: importing one pattern module directly (validity.py does)
    # registers its patterns and would otherwise leave the others unloaded.
    global _loaded
    if not _loaded:
        _load()
        _loaded = True
    return PATTERNS


def params_of(pid: str) -> dict[str, Any]:
    """The keyword parameters a pattern accepts, with their defaults."""
    fn = registry()[pid]
    return {
        n: p.default
        for n, p in inspect.signature(fn).parameters.items()
        if p.kind is inspect.Parameter.KEYWORD_ONLY
    }


# What a parameter's annotation lets a rule file give it (an annotation not listed: anything).
_TAKES: dict[str, tuple[str, Callable[[Any], bool]]] = {
    "bool": ("true or false", lambda v: isinstance(v, bool)),
    "int": ("an integer", lambda v: isinstance(v, int) and not isinstance(v, bool)),
    "str": ("a string", lambda v: isinstance(v, str)),
    "dict | None": ("a mapping or null", lambda v: v is None or isinstance(v, Mapping)),
    "tuple[str, ...] | list[str]": ("a list of strings", lambda v: isinstance(v, (list, tuple)) and all(isinstance(x, str) for x in v)),
}


def param_problem(pid: str, name: str, value: Any) -> str | None:
    """Why `value` cannot be parameter `name` of pattern `pid` (None: it can)."""
    param = inspect.signature(registry()[pid]).parameters.get(name)
    ann = param.annotation if param is not None else None
    what, ok = _TAKES.get(ann if isinstance(ann, str) else getattr(ann, "__name__", ""), ("", lambda v: True))
    return None if ok(value) else f"pattern {pid!r} takes {what} as {name!r}, not {value!r}"


def _is_optref(v: Any) -> bool:
    return isinstance(v, Mapping) and "option" in v and set(v) <= {"option", "map"}


COMPOSERS = ("all_of", "any_of", "none_of")


def evaluate(spec: Any, ctx: Ctx) -> int:
    """Count a pattern spec (an id, {id: ..., params}, or a composition) on a context."""
    if isinstance(spec, str):
        return registry()[spec](ctx)
    if isinstance(spec, Mapping):
        if "id" in spec:
            params = {k: v for k, v in spec.items() if k != "id"}
            return registry()[spec["id"]](ctx, **params)
        if "all_of" in spec:
            counts = [evaluate(s, ctx) for s in spec["all_of"]]
            return min(counts) if all(counts) else 0
        if "any_of" in spec:
            return max(evaluate(s, ctx) for s in spec["any_of"])
        if "none_of" in spec:
            return int(not any(evaluate(s, ctx) for s in spec["none_of"]))
        (key, value), *_ = spec.items()
        from mjtools.patterns.primitives import PRIMITIVES

        return PRIMITIVES[key](ctx, spec)
    raise TypeError(f"not a pattern: {spec!r}")


def check_spec(spec: Any, fan_ids: set[str]) -> str | None:
    """Why a pattern spec is invalid (None if valid); used by rule-file validation."""
    reg = registry()
    if isinstance(spec, str):
        return None if spec in reg else f"unknown pattern id {spec!r}"
    if isinstance(spec, Mapping):
        if "id" in spec:
            pid = spec["id"]
            if pid not in reg:
                return f"unknown pattern id {pid!r}"
            allowed = params_of(pid)
            for k, v in spec.items():
                if k != "id" and k not in allowed:
                    names = ", ".join(sorted(allowed)) or "none"
                    return f"pattern {pid!r} has no parameter {k!r} (parameters: {names})"
                if k != "id" and not _is_optref(v):  # an option's values: rules/option_types.py
                    why = param_problem(pid, k, v)
                    if why:
                        return why
            return None
        for c in COMPOSERS:
            if c in spec:
                for sub in spec[c]:
                    why = check_spec(sub, fan_ids)
                    if why:
                        return why
                return None
        if "fan" in spec and spec["fan"] not in fan_ids:
            return f"unknown fan {spec['fan']!r}"
        from mjtools.patterns.primitives import PRIMITIVES

        # evaluate() dispatches on the first key, so it must name a primitive.
        first = next(iter(spec), None)
        if first not in PRIMITIVES:
            return f"{first!r} is not a pattern primitive ({', '.join(PRIMITIVES)})"
        return None
    return f"not a pattern: {spec!r}"
