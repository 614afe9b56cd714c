"""Rule options checked where the schema cannot see them: a default (and a worked example's
option value) against the option's declared type or choices, with the same check as `-o`
(`model._coerce`); and every value an option can take against the schema at each place that
refers to it (`{option: NAME}`, through its `map`), so that no option value can put a string
where the engine counts.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mjtools.errors import RuleFileError, UsageError
from mjtools.rules.checks import _optrefs, _where
from mjtools.rules.files import json_key
from mjtools.rules.model import _coerce, option_kind


def check_options(merged: dict[str, Any], origins: dict[tuple[str, ...], str], chain: Any, schema: dict[str, Any]) -> None:
    """Raise RuleFileError (file and key path) on the first option value that does not fit."""
    rid = str(merged.get("id"))
    options = merged.get("options") or {}
    leaf = chain.files[0]
    kinds: dict[str, str] = {}
    for name, spec in options.items():
        declared = spec.get("default")
        for data in reversed(chain.datas):  # base first: the file that declared the option
            own = data.get("options")
            if isinstance(own, dict) and isinstance(own.get(name), dict) and "default" in own[name]:
                declared = own[name]["default"]
                break
        kinds[name] = kind = option_kind(spec, declared)
        path = ("options", name, "default")
        try:
            _coerce(rid, name, spec, spec.get("default"), kind, parse=False)
        except UsageError as e:
            raise RuleFileError(f"the default does not fit: {e}", _where(origins, path, leaf), ".".join(path)) from None
    for eid, ex in (merged.get("examples") or {}).items():
        for name, value in (ex.get("options") or {}).items():
            if name in options:
                path = ("examples", eid, "options", name)
                try:
                    _coerce(rid, name, options[name], value, kinds[name])
                except UsageError as e:
                    raise RuleFileError(str(e), _where(origins, path, leaf), ".".join(path)) from None
    slots = _SLOTS.get(id(schema))
    if slots is None or slots.root is not schema:
        slots = _SLOTS[id(schema)] = _Slots(schema)  # its compiled validators serve every load
    for path, name, ref in _optrefs(merged):
        if name not in options:
            continue  # check_semantics names it
        for value in _values(rid, name, options[name], kinds[name]):
            if "map" in ref:
                key = json_key(value)
                entries = {json_key(k).lower(): v for k, v in ref["map"].items()}
                if key.lower() not in entries:
                    continue  # check_semantics names a missing map entry
                value = entries[key.lower()]
            why = slots.misfit(path, value) or _param_misfit(merged, path, value)
            if why:
                # (the file that wrote this reference to the option)
                raise RuleFileError(f"option {name} gives {_shown(value)} here: {why}", _where(origins, path + ("option",), leaf), ".".join(path))


def _param_misfit(merged: dict[str, Any], path: tuple[str, ...], value: Any) -> str | None:
    """Why `value` cannot be the pattern parameter at `path` (the schema leaves parameters to
    each pattern's signature)."""
    parent: Any = merged
    for k in path[:-1]:
        parent = parent.get(k) if isinstance(parent, Mapping) else parent[int(k)] if isinstance(parent, list) and k.isdigit() and int(k) < len(parent) else None
    if not (isinstance(parent, Mapping) and isinstance(parent.get("id"), str) and "pattern" in path):
        return None
    from mjtools.patterns import param_problem, registry

    return param_problem(parent["id"], path[-1], value) if parent["id"] in registry() else None


def _values(rid: str, name: str, spec: Mapping[str, Any], kind: str) -> list[Any]:
    """Every value an option can take (for a number or a string: its default)."""
    if kind == "choice":
        return [_coerce(rid, name, spec, k, kind) for k in spec.get("choices") or ()]
    if kind == "boolean":
        return [True, False]
    return [spec.get("default")]


def _shown(value: Any) -> str:
    from mjtools.rules.hand_options import shown

    return shown(value)


_SLOTS: dict[int, _Slots] = {}


class _Slots:
    """The schema at a key path, and whether a value fits there."""

    def __init__(self, schema: dict[str, Any]):
        self.root = schema
        self.defs = schema.get("$defs", {})
        self.optref = self.defs.get("optref")
        self._validators: dict[int, Any] = {}

    def _deref(self, node: Any) -> Any:
        while isinstance(node, dict) and isinstance(node.get("$ref"), str) and node["$ref"].startswith("#/$defs/"):
            node = self.defs[node["$ref"][len("#/$defs/") :]]
        return node

    def at(self, path: tuple[str, ...]) -> list[dict[str, Any]]:
        """The sub-schemas that apply at `path` (every branch of an anyOf; the option reference
        itself left out)."""
        out = []
        stack: list[tuple[Any, int]] = [(self.root, 0)]
        while stack:
            node, i = stack.pop()
            node = self._deref(node)
            if node is self.optref or not isinstance(node, dict):
                continue
            if "anyOf" in node:
                stack.extend((b, i) for b in node["anyOf"])
                continue
            if i == len(path):
                out.append(node)
                continue
            key = path[i]
            if node.get("type") == "object" or "properties" in node:
                props = node.get("properties") or {}
                extra = node.get("additionalProperties", True)
                if key in props:
                    stack.append((props[key], i + 1))
                elif isinstance(extra, dict):
                    stack.append((extra, i + 1))
                elif extra is True:
                    out.append({})  # the schema says nothing about this key
            if node.get("type") == "array" and key.isdigit():
                items = node.get("items", True)
                if isinstance(items, dict):
                    stack.append((items, i + 1))
                elif items is True:
                    out.append({})
        return out

    def misfit(self, path: tuple[str, ...], value: Any) -> str | None:
        """Why `value` fits none of the schemas at `path` (None: it fits one, or the schema
        says nothing there)."""
        import jsonschema

        from mjtools.rules.loader import _message

        first = None
        for sub in self.at(path):
            v = self._validators.get(id(sub))
            if v is None:
                v = self._validators[id(sub)] = jsonschema.Draft202012Validator({**sub, "$defs": self.defs})
            err = jsonschema.exceptions.best_match(v.iter_errors(value))
            if err is None:
                return None
            first = first or _message(err)
        return first
