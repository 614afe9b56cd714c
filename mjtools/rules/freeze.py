"""Deep-freezing of resolved rule data: mappings become read-only, lists become tuples."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any


def freeze(value: Any) -> Any:
    if isinstance(value, dict):
        return MappingProxyType({k: freeze(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(freeze(v) for v in value)
    return value


def thaw(value: Any) -> Any:
    """A plain (JSON-able) copy of frozen data."""
    if isinstance(value, Mapping):
        return {k: thaw(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return [thaw(v) for v in value]
    return value


def is_optref(value: Any) -> bool:
    return isinstance(value, Mapping) and "option" in value and set(value) <= {"option", "map"}


def apply_options(value: Any, options: Mapping[str, Any], skip: tuple[str, ...] = ()) -> Any:
    """Replace every {option: NAME[, map: {...}]} by the option's (mapped) value."""
    if is_optref(value):
        v = options[value["option"]]
        if "map" in value:
            m = value["map"]
            # Map keys come back as strings from the JSON cache (None -> 'null').
            for key in (v, str(v), str(v).lower(), "null" if v is None else str(v)):
                if key in m:
                    return m[key]
            from mjtools.errors import UsageError

            raise UsageError(f"option {value['option']}={v!r} has no entry in its map")
        return v
    if isinstance(value, dict):
        return {k: (v if k in skip else apply_options(v, options)) for k, v in value.items()}
    if isinstance(value, list):
        return [apply_options(v, options) for v in value]
    return value
