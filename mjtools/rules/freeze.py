"""Deep-freezing of resolved rule data: mappings become read-only, lists become tuples."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

_NESTED = (dict, list, tuple)


def freeze(value: Any) -> Any:
    # Scalars (most of a rule file) are kept without a call each: freezing the cached riichi
    # data is part of every single-hand command.
    if isinstance(value, dict):
        return MappingProxyType({k: freeze(v) if isinstance(v, _NESTED) else v for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple([freeze(v) if isinstance(v, _NESTED) else v for v in value])
    return value


def frozen_object(pairs: list[tuple[str, Any]]) -> Mapping[str, Any]:
    """A JSON object as `freeze` would leave it, for `json.loads(object_pairs_hook=...)`:
    decoding straight to frozen data saves a second pass over a whole cached rule file."""
    return MappingProxyType({k: _frozen_list(v) if type(v) is list else v for k, v in pairs})


def _frozen_list(items: list[Any]) -> tuple[Any, ...]:
    return tuple([_frozen_list(v) if type(v) is list else v for v in items])


def thaw(value: Any) -> Any:
    """A plain (JSON-able) copy of frozen data."""
    if isinstance(value, Mapping):
        return {k: thaw(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return [thaw(v) for v in value]
    return value


def is_optref(value: Any) -> bool:
    return isinstance(value, Mapping) and "option" in value and set(value) <= {"option", "map"}


def _option_value(ref: Mapping[str, Any], options: Mapping[str, Any]) -> Any:
    """The value an option reference {option: NAME[, map: {...}]} stands for."""
    v = options[ref["option"]]
    if "map" in ref:
        m = ref["map"]
        # Map keys come back as strings from the JSON cache (None -> 'null').
        for key in (v, str(v), str(v).lower(), "null" if v is None else str(v)):
            if key in m:
                return m[key]
        from mjtools.errors import UsageError

        raise UsageError(f"option {ref['option']}={v!r} has no entry in its map")
    return v


def apply_options(value: Any, options: Mapping[str, Any]) -> Any:
    """Frozen `value` with every {option: NAME[, map: {...}]} replaced by the option's (mapped,
    frozen) value. Parts that hold no reference are returned as they are: frozen data cannot
    change, so sharing it is safe and saves a copy of the whole rule file."""
    if type(value) is MappingProxyType:
        if "option" in value and is_optref(value):
            return _option_value(value, options)
        out: dict[str, Any] | None = None
        for k, v in value.items():
            if type(v) is MappingProxyType or type(v) is tuple:
                new = apply_options(v, options)
                if new is not v:
                    if out is None:
                        out = dict(value)
                    out[k] = new
        return value if out is None else MappingProxyType(out)
    if type(value) is tuple:
        items = [apply_options(v, options) if type(v) is MappingProxyType or type(v) is tuple else v for v in value]
        return value if all(a is b for a, b in zip(items, value)) else tuple(items)
    return value
