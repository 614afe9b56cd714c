"""Checks the schema cannot express: pattern ids, fan references, option references."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from mjtools.errors import RuleFileError
from mjtools.rules.files import json_key
from mjtools.rules.freeze import is_optref


def _where(origins: dict[tuple[str, ...], str], path: tuple[str, ...], leaf: str) -> str:
    for n in range(len(path), -1, -1):
        if path[:n] in origins:
            return origins[path[:n]]
    return leaf


def _optrefs(node: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], str, dict]]:
    if is_optref(node):
        yield path, node["option"], node
    elif isinstance(node, dict):
        for k, v in node.items():
            if k in ("options", "examples") and not path:
                continue
            yield from _optrefs(v, path + (str(k),))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _optrefs(v, path + (str(i),))


def check_semantics(data: dict[str, Any], origins: dict[tuple[str, ...], str], leaf: str, deleted: set | None = None) -> None:
    """Raise RuleFileError on the first problem. A fan deleted with null may still be named in
    `excludes` (the exclusion then has nothing to remove)."""
    gone = {p[1] for p in (deleted or ()) if len(p) == 2 and p[0] == "fans"}
    deleted_entries = {p[1] for p in (deleted or ()) if len(p) == 2 and p[0] in ("fans", "options", "special_rules")}
    from mjtools.patterns import check_spec

    def fail(msg: str, path: tuple[str, ...]) -> None:
        raise RuleFileError(msg, _where(origins, path, leaf), ".".join(path))

    fans = data.get("fans", {}) or {}
    options = data.get("options", {}) or {}
    specials = data.get("special_rules", {}) or {}
    for path, spec in pattern_specs(data):  # fans, win.forbid, stakes, multipliers, liability
        why = check_spec(spec, set(fans))
        if why:
            fail(why, path)
    for fid, fan in fans.items():
        excludes = fan.get("excludes", [])
        # An option reference picks one of several lists: check every list it can pick.
        lists = list(excludes["map"].values()) if is_optref(excludes) and isinstance(excludes.get("map"), dict) else [] if is_optref(excludes) else [excludes]
        for lst in lists:
            if lst is not None and not (isinstance(lst, list) and all(isinstance(e, str) or (isinstance(e, dict) and isinstance(e.get("fan"), str)) for e in lst)):
                fail(f"excludes lists fans (ids, or {{fan: ID, ...}}), got {lst!r}", ("fans", fid, "excludes"))
        every = [e for lst in lists for e in lst or ()]
        for i, ex in enumerate(every):
            target = ex["fan"] if isinstance(ex, dict) else ex
            if target not in fans and target not in gone:
                fail(f"excludes unknown fan {target!r}", ("fans", fid, "excludes", str(i)))
            if isinstance(ex, dict) and ex.get("same_sets"):
                for who in (fid, target):
                    if who in fans and not _has_instances(fans[who]["pattern"]):
                        fail(f"excludes {target!r} on the same sets, but the pattern of {who!r} has no occurrences made of sets", ("fans", fid, "excludes", str(i)))
        if fan.get("combine") == "sets" and not _has_instances(fan["pattern"]):
            fail("combine: sets needs a pattern whose occurrences are made of sets (an id with patterns.INSTANCES)", ("fans", fid, "combine"))
    for path, name, ref in _optrefs(data):
        if not isinstance(name, str):
            fail("an option reference is {option: NAME} with NAME a string", path + ("option",))
        if name not in options:
            fail(f"refers to unknown option {name!r}", path)
        if "map" in ref and not isinstance(ref["map"], dict):
            fail("the map of an option reference is a mapping {VALUE: RESULT}", path + ("map",))
        if "map" in ref:
            opt = options[name]
            values = list(opt["choices"]) if opt.get("choices") is not None else [True, False] if isinstance(opt["default"], bool) else [opt["default"]]
            keys = {json_key(k).lower() for k in ref["map"]}
            for v in values:
                if json_key(v).lower() not in keys:
                    fail(f"the map of option {name!r} has no entry for {v!r}", path + ("map",))
    # An option's default against its type or choices: rules/option_types.py.
    for i, fid in enumerate((data.get("play", {}) or {}).get("opening_wins", []) or []):
        if fid not in fans:
            fail(f"opening win {fid!r} is not a fan of the file", ("play", "opening_wins", str(i)))
    for i, entry in enumerate((data.get("play", {}) or {}).get("discard_situations", []) or []):
        where = ("play", "discard_situations", str(i))
        for j, t in enumerate(entry["tiles"]):
            if t != "wildcard" and not _is_tile(t):
                fail(f"not a tile: {t!r}", where + ("tiles", str(j)))
        name = entry["situation"]
        if name not in (data.get("situations") or {}) and not _mentions({k: data.get(k) for k in ("fans", "win", "settlement")}, name):
            fail(f"no fan or rule of the file reads situation {name!r}", where + ("situation",))
    exempt = (data.get("win", {}) or {}).get("pair_258_exempt", [])
    lists = list(exempt["map"].values()) if is_optref(exempt) and "map" in exempt else [exempt] if isinstance(exempt, list) else []
    for lst in lists:
        for i, ex in enumerate(lst or []):
            if ex not in fans and ex not in ("all_pungs", "full_flush", "seven_pairs"):
                fail(f"pair_258_exempt names {ex!r}, neither a fan nor all_pungs, full_flush, seven_pairs", ("win", "pair_258_exempt", str(i)))
    ids = set(fans) | set(options) | set(specials)
    for eid, ex in (data.get("examples", {}) or {}).items():
        for i, ref in enumerate(ex.get("illustrates", [])):
            # An example inherited from a base file may illustrate a fan the extending file
            # deleted with null (a house rule without iipeikou); it just illustrates nothing here.
            if ref not in ids and ref not in deleted_entries:
                fail(f"illustrates unknown fan, option or special rule {ref!r}", ("examples", eid, "illustrates", str(i)))
        for name in ex.get("options", {}) or {}:
            if name not in options:
                fail(f"sets unknown option {name!r}", ("examples", eid, "options", name))
        if "hand" not in ex and "table" not in ex and ex.get("command") != "simulate":
            fail("an example needs a hand or a table", ("examples", eid))
    tiles = data.get("tiles", {})

    for key in ("exclude", "bonus"):
        value = tiles.get(key, []) or []
        # An option reference: check every list it can map to.
        lists = list(value["map"].values()) if isinstance(value, dict) and "map" in value else [value] if isinstance(value, list) else []
        for lst in lists:
            if lst is not None and not isinstance(lst, list):
                fail(f"expected a list of tiles, got {lst!r}", ("tiles", key))
            for i, t in enumerate(lst or []):
                if not _is_tile(t):
                    fail(f"not a tile: {t!r}", ("tiles", key, str(i)))


def pattern_specs(data: dict[str, Any]) -> Iterator[tuple[tuple[str, ...], Any]]:
    """(key path, pattern spec) of every place the schema says holds a pattern."""
    for generic in _pattern_places():
        yield from _expand(data, generic, ())


def _expand(node: Any, generic: tuple[str, ...], path: tuple[str, ...]) -> Iterator[tuple[tuple[str, ...], Any]]:
    if not generic:
        yield path, node
        return
    key, rest = generic[0], generic[1:]
    if key == "*" and isinstance(node, dict):
        for k, v in node.items():
            yield from _expand(v, rest, path + (str(k),))
    elif key == "[]" and isinstance(node, list):
        for i, v in enumerate(node):
            yield from _expand(v, rest, path + (str(i),))
    elif isinstance(node, dict) and key in node:
        yield from _expand(node[key], rest, path + (key,))


_PLACES: list[tuple[str, ...]] = []


def _pattern_places() -> list[tuple[str, ...]]:
    """The schema's places for a pattern, as key paths with '*' (any key) and '[]' (any item)."""
    if not _PLACES:
        from mjtools.rules.loader import schema

        found: set[tuple[str, ...]] = set()
        root = schema()
        defs = root["$defs"]
        stack: list[tuple[Any, tuple[str, ...], frozenset[str]]] = [(root, (), frozenset())]
        while stack:
            node, path, seen = stack.pop()
            if not isinstance(node, dict):
                continue
            ref = node.get("$ref", "")
            if ref == "#/$defs/pattern":
                found.add(path)
                continue
            if ref.startswith("#/$defs/"):
                name = ref.rsplit("/", 1)[-1]
                if name not in seen:
                    stack.append((defs[name], path, seen | {name}))
                continue
            for branch in node.get("anyOf", ()):
                stack.append((branch, path, seen))
            for k, v in (node.get("properties") or {}).items():
                stack.append((v, path + (k,), seen))
            if isinstance(node.get("additionalProperties"), dict):
                stack.append((node["additionalProperties"], path + ("*",), seen))
            if isinstance(node.get("items"), dict):
                stack.append((node["items"], path + ("[]",), seen))
        _PLACES.extend(sorted(found))
    return _PLACES


def _has_instances(spec: Any) -> bool:
    from mjtools.patterns import INSTANCES, registry

    registry()
    pid = spec if isinstance(spec, str) else spec.get("id") if isinstance(spec, dict) else None
    return pid in INSTANCES


def _is_tile(t: Any) -> bool:
    from mjtools.tiles.kinds import parse_kind

    if not isinstance(t, str):
        return False
    try:
        parse_kind(t)
    except ValueError:
        return False
    return True


def _mentions(node: Any, name: str) -> bool:
    """Whether a value somewhere in node is the string name (a {situation: NAME} pattern, or a
    pattern id that reads a situation of that name)."""
    if isinstance(node, dict):
        return any(_mentions(v, name) for v in node.values())
    if isinstance(node, list):
        return any(_mentions(v, name) for v in node)
    return node == name
