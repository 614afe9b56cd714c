"""A fan's pattern spec as a rule file writes it, read once when a plan is built: compiled
into one callable with the feature bits it cannot occur without, and what the spec declares
(exact, a shared table, alternatives, occurrences, what it reads of the fans found before it
and of the winning tile's placement). `scoring/fans.py` builds its plan from these."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from functools import partial
from types import FunctionType
from typing import Any

from mjtools.patterns import EXACT, HELD_IN, INSTANCES, INSTANCES_KEY, NEEDS, NEEDS_OF, READS_FANS, TABLES, TableValue, placement_of, registry
from mjtools.patterns.ctx import Ctx
from mjtools.patterns.features import BIT, SUIT_COUNT_BITS, situation_bit

Fn = Callable[[Ctx], int]


def fan_value(fan: Mapping[str, Any], concealed: bool) -> float | None:
    v = fan["value"]
    if type(v) is not int and type(v) is not float and isinstance(v, Mapping):  # (most values are a number)
        got = v.get("closed") if concealed else v.get("open", v.get("closed"))
        return got
    return v


def compile_spec(spec: Any) -> tuple[Fn, int]:
    """A pattern spec as one callable, with the feature bits it cannot occur without."""
    reg = registry()
    if isinstance(spec, str):
        return reg[spec], _needs(spec, {})
    if isinstance(spec, Mapping):
        if "id" in spec:
            fn = reg[spec["id"]]
            params = {k: v for k, v in spec.items() if k != "id"}
            if not params:
                return fn, _needs(spec["id"], params)
            return bind(fn, params), _needs(spec["id"], params)
        if "all_of" in spec:
            parts = [compile_spec(s) for s in spec["all_of"]]
            fns = [f for f, _ in parts]
            needs = 0
            for _, n in parts:
                needs |= n

            def all_of(c: Ctx) -> int:
                least = None
                for f in fns:
                    n = f(c)
                    if not n:
                        return 0
                    least = n if least is None else min(least, n)
                return least or 0

            return all_of, needs
        if "any_of" in spec:
            parts = [compile_spec(s) for s in spec["any_of"]]
            needs = -1
            for _, n in parts:
                needs &= n
            # An alternative is tried only on a reading with the bits it needs (they are
            # necessary: without them it is 0); a wildcard reading has every bit.
            gated = tuple((f, n) for f, n in parts)

            def any_of(c: Ctx) -> int:
                best = 0
                bits = c.features
                for f, need in gated:
                    if need & bits == need:
                        n = f(c)
                        if n > best:
                            best = n
                return best

            return any_of, max(needs, 0)
        if "none_of" in spec:
            fns = [compile_spec(s)[0] for s in spec["none_of"]]
            return (lambda c: int(not any(f(c) for f in fns))), 0
        from mjtools.patterns.primitives import PRIMITIVES

        key = next(iter(spec))
        if key == "suits" and set(spec) <= {"suits", "honors"}:
            return _suits_fn(spec), (BIT["no_honor"] if spec.get("honors") is False else 0) | _suit_count_needs(spec["suits"])
        prim = PRIMITIVES[key]
        needs = 0
        if key == "situation":
            needs = BIT["situation"] | situation_bit(spec["situation"])
        elif key == "win_by":
            needs = BIT["tsumo"] if spec["win_by"] == "tsumo" else BIT["ron"]
        elif key == "suits" and spec.get("honors") is False:
            needs = BIT["no_honor"]
        return (lambda c: prim(c, spec)), needs
    raise TypeError(f"not a pattern: {spec!r}")


# (code flags: a *args, a **kwargs parameter; inspect's values, without importing inspect)
CO_VARARGS, CO_VARKEYWORDS = 0x04, 0x08


def bind(fn: Callable[..., Any], params: Mapping[str, Any]) -> Callable[..., Any]:
    """`fn` with its parameters from the rule file set: a copy of the function whose keyword
    defaults are the parameters (made positional ones with defaults where it can), so that a
    call passes the reading alone and runs the same code (a partial with keywords copies its
    dict and unpacks it on every call, about as much as a small pattern's body); a partial
    where `fn` is no plain function or some parameter is not one of its keyword-only ones."""
    code = getattr(fn, "__code__", None)
    if type(fn) is not FunctionType or code is None:
        return partial(fn, **params)
    kwonly = code.co_varnames[code.co_argcount : code.co_argcount + code.co_kwonlyargcount]
    if not set(params) <= set(kwonly):
        return partial(fn, **params)
    kwdefaults = {**(fn.__kwdefaults__ or {}), **params}
    if not code.co_flags & (CO_VARARGS | CO_VARKEYWORDS) and set(kwonly) <= set(kwdefaults):
        # The keyword-only parameters made positional ones with defaults (they follow the
        # positional ones among the code's names, so the body reads the same slots): the
        # interpreter specializes a call to such a function (CPython 3.11's
        # CALL_PY_WITH_DEFAULTS), never one to a function with keyword-only parameters (about
        # 75 ns a call against 32: Chinese Official's sole_wait fans, on many readings).
        code = code.replace(co_argcount=code.co_argcount + len(kwonly), co_kwonlyargcount=0)
        defaults = (*(fn.__defaults__ or ()), *[kwdefaults[k] for k in kwonly])
        bound = FunctionType(code, fn.__globals__, fn.__name__, defaults, fn.__closure__)
    else:
        bound = FunctionType(code, fn.__globals__, fn.__name__, fn.__defaults__, fn.__closure__)
        bound.__kwdefaults__ = kwdefaults
    bound.__dict__.update(fn.__dict__)
    bound.__doc__, bound.__qualname__, bound.__module__ = fn.__doc__, fn.__qualname__, fn.__module__
    return bound


def _needs(pid: str, params: Mapping[str, Any]) -> int:
    """The feature bits a pattern needs with these parameters."""
    got = NEEDS.get(pid, 0)
    more = NEEDS_OF.get(pid)
    return got | more(**params) if more is not None else got


def _suit_count_needs(suits: Mapping[str, int]) -> int:
    """{min: n, max: n}: exactly n suits, a bit of its own (缺一门: two)."""
    lo, hi = suits.get("min", 0), suits.get("max", 10**9)
    return SUIT_COUNT_BITS[lo] if lo == hi and 0 <= lo < len(SUIT_COUNT_BITS) else 0


def is_exact(spec: Any, counted: bool = True) -> bool:
    """Whether the bits a pattern spec needs are also sufficient (it is 1 on every reading
    without wildcards that has them): a pattern declared `exact` for its parameters, or a
    suit-count condition whose bits say it all (缺一门: two suits; 无字: no honor).
    `counted=False` (a fan that does not count instances, which reads only whether the pattern
    is nonzero): also a pattern declared "nonzero" (its bits say some count, not which)."""
    registry()
    if isinstance(spec, str):
        spec = {"id": spec}
    if not isinstance(spec, Mapping):
        return False
    if "id" in spec:
        how = EXACT.get(spec["id"])
        if how is None or how is False:
            return False
        params = {k: v for k, v in spec.items() if k != "id"}
        got = how if how is True else how(**params)
        return got is True or (got == "nonzero" and not counted)
    if next(iter(spec), None) == "suits" and set(spec) <= {"suits", "honors"} and isinstance(spec["suits"], Mapping) and set(spec["suits"]) <= {"min", "max"}:
        lo, hi = spec["suits"].get("min", 0), spec["suits"].get("max", 3)
        if type(lo) is not int or type(hi) is not int:
            return False
        honors = spec.get("honors")
        if honors is None:  # exactly n suits: the bit of n
            return lo == hi and 0 <= lo < len(SUIT_COUNT_BITS)
        # no honors and any number of suits from one up (a reading without honors holds one)
        return honors is False and lo <= 1 and hi >= 3
    return False


def table_of(spec: Any) -> Callable[[Ctx], TableValue] | None:
    """For a spec that is one pattern without parameters, the shared table of the reading
    that holds the pattern's id whenever it occurs (`patterns.TABLES`), if it has one."""
    registry()
    if isinstance(spec, Mapping) and set(spec) == {"id"}:
        spec = spec["id"]
    return TABLES.get(spec) if isinstance(spec, str) else None


def held_in_of(spec: Any) -> Callable[[Ctx], TableValue] | None:
    """For a spec that is one pattern without parameters, the table that holds its id whenever
    it occurs though it is not read from it (`patterns.HELD_IN`), if any."""
    registry()
    if isinstance(spec, Mapping) and set(spec) == {"id"}:
        spec = spec["id"]
    return HELD_IN.get(spec) if isinstance(spec, str) else None


def nested_needs(spec: Any) -> int:
    """The bits every part of a spec needs, at any depth: an any_of tries an alternative only on
    a reading with its bits, so the hand bits of each must be worked out (Plan.uses)."""
    out = compile_spec(spec)[1]
    if isinstance(spec, Mapping):
        for key in ("all_of", "any_of", "none_of"):
            for part in spec.get(key, ()):
                out |= nested_needs(part)
    return out


def alternatives(spec: Any) -> tuple[int, ...]:
    """For a pattern spec that is an any_of, the bits each alternative needs (a reading needs
    those of one of them); () for any other spec."""
    if isinstance(spec, Mapping) and "any_of" in spec:
        return tuple(compile_spec(s)[1] for s in spec["any_of"])
    return ()


def compile_instances(spec: Any) -> Callable[[Ctx], tuple[tuple[int, ...], ...]] | None:
    """The occurrence function of a pattern spec (an id or {id: ..., params}), if it has one."""
    registry()
    if isinstance(spec, str):
        return INSTANCES.get(spec)
    if isinstance(spec, Mapping) and "id" in spec and spec["id"] in INSTANCES:
        params = {k: v for k, v in spec.items() if k != "id"}
        fn = INSTANCES[spec["id"]]
        return bind(fn, params) if params else fn
    return None


def _suits_fn(spec: Mapping[str, Any]) -> Fn:
    """{suits: {min, max}, honors: bool} as one closure (the primitive reads the spec each time)."""
    lo, hi = spec["suits"].get("min", 0), spec["suits"].get("max", 10**9)
    honors = spec.get("honors")
    if honors is None:
        return lambda c: int(lo <= len(c.suits) <= hi)
    want = bool(honors)
    return lambda c: int(c.has_honors == want and lo <= len(c.suits) <= hi)


def reads_fans_of(spec: Any) -> bool:
    """Whether a pattern spec reads the fans found before it: a pattern declared so, or the
    `fan` primitive, anywhere in it."""
    registry()
    if isinstance(spec, str):
        return spec in READS_FANS
    if isinstance(spec, Mapping):
        if "id" in spec:
            return spec["id"] in READS_FANS
        if "fan" in spec:
            return True
        return any(reads_fans_of(part) for key in ("all_of", "any_of", "none_of") for part in spec.get(key, ()))
    return False


# The places of a rule file that hold a pattern other than a fan's (rules/schema.json's
# `pattern` places less `fans.*.pattern`; tests/test_fan_memos.py checks them against the
# schema): stakes, discarder surcharges and liability read the reading's fans after they are
# found (`ev.pctx`), win.forbid before.
OTHER_PATTERN_PLACES: tuple[tuple[str, ...], ...] = (
    ("scoring", "stakes", "[]", "when"),
    ("settlement", "discarder_multipliers", "[]", "when"),
    ("settlement", "liability", "*", "pattern"),
    ("win", "forbid", "*", "pattern"),
)


def specs_at(node: Any, place: tuple[str, ...]) -> Iterator[Any]:
    """The pattern specs at one place ('*': every key, '[]': every item) of a rule file's data."""
    if not place:
        yield node
        return
    key, rest = place[0], place[1:]
    if key == "*":
        if isinstance(node, Mapping):
            for v in node.values():
                yield from specs_at(v, rest)
    elif key == "[]":
        if isinstance(node, (list, tuple)):
            for v in node:
                yield from specs_at(v, rest)
    elif isinstance(node, Mapping) and key in node:
        yield from specs_at(node[key], rest)


def fans_read_elsewhere(data: Mapping[str, Any]) -> bool:
    """Whether a pattern of the rule file outside its fans reads the fans found (the `fan`
    primitive in a stake, a surcharge, a liability or a forbidden hand)."""
    return any(reads_fans_of(spec) for place in OTHER_PATTERN_PLACES for spec in specs_at(data, place))


def placement_read(spec: Any) -> set[str]:
    """What a pattern spec reads of the winning tile's placement, anywhere in it."""
    registry()
    if isinstance(spec, str):
        return {placement_of(spec, {})} - {""}
    if isinstance(spec, Mapping):
        if "id" in spec:
            return {placement_of(spec["id"], {k: v for k, v in spec.items() if k != "id"})} - {""}
        if any(key in spec for key in ("all_of", "any_of", "none_of")):
            return set().union(*(placement_read(part) for key in ("all_of", "any_of", "none_of") for part in spec.get(key, ())))
        if "wait" in spec:
            return {"any"}
        if "sets" in spec and isinstance(spec["sets"], Mapping) and spec["sets"].get("kind") == "concealed_pung":
            return {"pung"}
        return set()
    return {"any"}


def instances_key_of(spec: Any) -> Callable[[Ctx], Any] | None:
    """INSTANCES_KEY of a spec that is one pattern (with parameters or not)."""
    registry()
    pid = spec if isinstance(spec, str) else spec.get("id") if isinstance(spec, Mapping) else None
    return INSTANCES_KEY.get(pid) if isinstance(pid, str) else None


def pattern_id(spec: Any) -> str:
    return spec["id"] if isinstance(spec, Mapping) else spec
