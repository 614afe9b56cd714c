"""Find, read, merge and validate rule files.

Resolution of `--rules X`: an existing path (a user's file), else a shipped or search-path id
(`X.yaml`, case-insensitive), else an alias declared in a rule file. `extends:` resolves
relative to the extending file, then `$MJTOOLS_RULES_PATH`, then the shipped `rules.d/`.
Merging: mappings merge recursively, lists replace, `null` deletes a key.

Validated results are cached as JSON (keyed by the files' paths, sizes and mtimes and the
mjtools version) so that a single-hand command never imports yaml or jsonschema.
"""

from __future__ import annotations

import json
import os
import zlib
from collections.abc import Iterator, Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from mjtools import __version__
from mjtools.cache import cache_dir
from mjtools.errors import RuleFileError, UnknownRulesError
from mjtools.rules.freeze import frozen_object

if TYPE_CHECKING:
    from pathlib import Path

# The path a single-hand command takes (find a shipped id, read the JSON cache, check its
# stamp) uses os.path and plain strings: pathlib and hashlib together cost more to import
# than the rest of that lookup. Path objects appear only on a cache miss (resolve_chain).
MAX_DEPTH = 8
SCHEMA_PATH = os.path.join(os.path.dirname(__file__), "schema.json")
Origins = dict[tuple[str, ...], str]
LAZY_KEY = "examples"  # kept out of the single-hand path (see LazyFrozen)


def shipped_dir() -> str:
    here = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
    installed = os.path.join(here, "rules_d")
    if os.path.isdir(installed):
        return installed
    return os.path.join(os.path.dirname(here), "rules.d")


def search_path() -> list[str]:
    dirs = [p for p in os.environ.get("MJTOOLS_RULES_PATH", "").split(os.pathsep) if p]
    dirs.append(shipped_dir())
    return dirs


def _rule_files() -> dict[str, str]:
    """id (lower case) -> file, earlier search-path entries winning."""
    out: dict[str, str] = {}
    for d in reversed(search_path()):
        if os.path.isdir(d):
            for name in sorted(n for n in os.listdir(d) if n.endswith(".yaml")):
                out[os.path.splitext(name)[0].lower()] = os.path.join(d, name)
    return out


def _looks_like_path(name: str) -> bool:
    return "/" in name or os.sep in name or name.endswith((".yaml", ".yml"))


def find(name: str) -> str:
    """The file a --rules value names."""
    if _looks_like_path(name):
        if os.path.isfile(name):
            return name
        raise UnknownRulesError(f"no such rule file: {name}")
    files = _rule_files()
    got = files.get(name.lower())
    if got is not None:
        return got
    alias = alias_index().get(name.lower())
    if alias is not None:
        return files[alias]
    import difflib  # only for the hint of an unknown name

    close = difflib.get_close_matches(name.lower(), list(files) + list(alias_index()), n=3)
    hint = f" (did you mean {', '.join(close)}?)" if close else ""
    raise UnknownRulesError(f"unknown variant {name!r}{hint}; `mjtools rules list` shows them")


def alias_index() -> dict[str, str]:
    """alias (lower case) -> id, read from every rule file on the search path (cached)."""
    files = _rule_files()
    stamp = _stamp(list(files.values()))
    cached = _cache_read("aliases", stamp)
    if cached is not None:
        return cached
    out: dict[str, str] = {}
    for rid, f in files.items():
        try:
            data = read_yaml(f)
        except RuleFileError:
            continue
        for a in data.get("aliases") or []:
            if isinstance(a, str):
                out.setdefault(a.lower(), rid)
    _cache_write("aliases", stamp, out)
    return out


def safe_load(text: str) -> Any:
    """`yaml.safe_load`, using libyaml's C build of the same SafeLoader when present (about 14x
    faster; it constructs exactly the same plain data and never arbitrary objects)."""
    import yaml

    loader = getattr(yaml, "CSafeLoader", None)
    if loader is None:
        return yaml.safe_load(text)
    return yaml.load(text, Loader=loader)  # noqa: S506 - CSafeLoader is the safe loader


_READ: dict[tuple[str, int, int], dict[str, Any]] = {}


def read_yaml(path: str | os.PathLike[str]) -> dict[str, Any]:
    """A rule file's mapping (parsed once per process and file version)."""
    import copy

    try:
        st = os.stat(path)
        key = (os.path.realpath(path), st.st_size, st.st_mtime_ns)
    except OSError:
        key = None
    if key is not None and key in _READ:
        return copy.deepcopy(_READ[key])
    data = _read_yaml(path)
    if key is not None:
        _READ[key] = copy.deepcopy(data)
    return data


def _read_yaml(path: str | os.PathLike[str]) -> dict[str, Any]:
    import yaml

    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except OSError as e:
        raise RuleFileError(f"cannot read: {e.strerror}", str(path)) from None
    except UnicodeDecodeError:
        raise RuleFileError("not UTF-8 text", str(path)) from None
    try:
        data = safe_load(text)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}" if mark else None
        problem = getattr(e, "problem", None) or str(e).splitlines()[0]
        raise RuleFileError(f"invalid YAML: {problem}", str(path), where) from None
    if not isinstance(data, dict):
        raise RuleFileError("a rule file is a YAML mapping", str(path))
    for key in data:
        if not isinstance(key, str):
            raise RuleFileError(f"keys are strings, not {type(key).__name__} {key!r}", str(path))
    return data


def _resolve_extends(name: str, base: Path) -> Path:
    if _looks_like_path(name):
        if os.path.isabs(name):
            raise RuleFileError("extends takes a variant id or a relative path", str(base), "extends")
        p = (base.parent / name).resolve()
        if p.suffix not in (".yaml", ".yml"):
            raise RuleFileError("extends names a .yaml file", str(base), "extends")
        if not p.is_file():
            raise RuleFileError(f"extends: no such file {name!r}", str(base), "extends")
        return p
    local = base.parent / f"{name}.yaml"
    if local.is_file():
        return local.resolve()
    got = _rule_files().get(name.lower())
    if got is None:
        raise RuleFileError(f"extends: unknown variant {name!r}", str(base), "extends")
    from pathlib import Path

    return Path(got).resolve()


def merge(base: Any, over: Any, origins: Origins, file: str, path: tuple[str, ...] = (), deleted: set | None = None) -> Any:
    """Merge `over` onto `base`: mappings recursively, lists and scalars replace, None deletes."""
    if isinstance(base, dict) and isinstance(over, dict):
        out = dict(base)
        for k, v in over.items():
            if v is None:
                if deleted is not None:
                    deleted.add(path + (k,))
                out.pop(k, None)
                for p in [p for p in origins if p[: len(path) + 1] == path + (k,)]:
                    del origins[p]
            elif k in out:
                out[k] = merge(out[k], v, origins, file, path + (k,), deleted)
            else:
                out[k] = v
                origins[path + (k,)] = file
        return out
    for p in [p for p in origins if p[: len(path)] == path and len(p) > len(path)]:
        del origins[p]
    origins[path] = file
    return over


def resolve_chain(path: Path, deleted: set | None = None) -> tuple[dict[str, Any], Origins, list[str]]:
    """Read `path` and everything it extends; returns (merged, origins, files leaf-first).
    Key paths deleted with `null` are added to `deleted`."""
    chain: list[Path] = []
    datas: list[dict[str, Any]] = []
    current = path.resolve()
    while True:
        if current in chain:
            cycle = " -> ".join(p.name for p in chain + [current])
            raise RuleFileError(f"extends cycle: {cycle}", str(path), "extends")
        if len(chain) >= MAX_DEPTH:
            raise RuleFileError(f"extends chain deeper than {MAX_DEPTH}", str(path), "extends")
        data = read_yaml(current)
        chain.append(current)
        datas.append(data)
        ext = data.get("extends")
        if ext is None:
            break
        if not isinstance(ext, str):
            raise RuleFileError(f"expected a string, got {_describe(ext)}", str(current), "extends")
        current = _resolve_extends(ext, current)
    origins: Origins = {}
    merged: dict[str, Any] = {}
    for file, data in zip(reversed(chain), reversed(datas)):
        merged = merge(merged, data, origins, str(file), (), deleted)
    merged.pop("extends", None)
    merged.pop("abstract", None)
    if datas[0].get("abstract"):
        merged["abstract"] = True
    return merged, origins, [str(p) for p in chain]


# -- validation -------------------------------------------------------------------------------

_schema: dict[str, Any] | None = None


def schema() -> dict[str, Any]:
    global _schema
    if _schema is None:
        with open(SCHEMA_PATH, encoding="utf-8") as fh:
            _schema = json.load(fh)
    return _schema


def _without_required(node: Any) -> Any:
    if isinstance(node, dict):
        return {k: _without_required(v) for k, v in node.items() if k != "required" or not isinstance(v, list)}
    if isinstance(node, list):
        return [_without_required(v) for v in node]
    return node


def _strip_nulls(node: Any) -> Any:
    if isinstance(node, dict):
        return {k: _strip_nulls(v) for k, v in node.items() if v is not None}
    return node


def _describe(value: Any) -> str:
    if isinstance(value, bool):
        return f"boolean {str(value).lower()}"
    if isinstance(value, (int, float)):
        return f"number {value}"
    if isinstance(value, str):
        return f"string {value!r}"
    if value is None:
        return "null"
    if isinstance(value, list):
        return "a list"
    return "a mapping"


def _message(err: Any) -> str:
    v = err.validator
    if v == "type":
        want = err.validator_value
        want = " or ".join(want) if isinstance(want, list) else want
        return f"expected {want}, got {_describe(err.instance)}"
    if v == "additionalProperties":
        extra = sorted(set(err.instance) - set(err.schema.get("properties", {})))
        allowed = ", ".join(sorted(err.schema.get("properties", {})))
        return f"unknown key {extra[0]!r}" + (f" (allowed: {allowed})" if allowed else "")
    if v == "required":
        return err.message.replace("is a required property", "is required")
    if v == "enum":
        return f"expected one of {', '.join(map(str, err.validator_value))}; got {_describe(err.instance)}"
    if v == "const":
        return f"expected {err.validator_value!r}, got {_describe(err.instance)}"
    if v == "pattern":
        return f"{_describe(err.instance)} does not match {err.validator_value}"
    if v in ("anyOf", "oneOf"):
        return f"{_describe(err.instance)} is not a valid value here"
    return err.message


def _error_path(err: Any) -> tuple[str, ...]:
    path = tuple(str(p) for p in err.absolute_path)
    if err.validator == "additionalProperties":
        extra = sorted(set(err.instance) - set(err.schema.get("properties", {})))
        if extra:
            path += (extra[0],)
    return path


_validators: dict[bool, Any] = {}


def _validator(partial: bool) -> Any:
    """The compiled schema validator (partial: `required` removed, for single files of a chain)."""
    got = _validators.get(partial)
    if got is None:
        import jsonschema

        sch = _without_required(schema()) if partial else schema()
        got = _validators[partial] = jsonschema.Draft202012Validator(sch)
    return got


def _validate(instance: dict[str, Any], partial: bool, file: str, origins: Origins | None) -> None:
    import jsonschema

    errors = list(_validator(partial).iter_errors(instance))
    if not errors:
        return
    err = min(errors, key=lambda e: (len(e.absolute_path), str(list(e.absolute_path))))
    best = jsonschema.exceptions.best_match([err])
    path = _error_path(best)
    if origins is not None:
        for n in range(len(path), -1, -1):
            if path[:n] in origins:
                file = origins[path[:n]]
                break
    raise RuleFileError(_message(best), file, ".".join(map(str, path)) or None)


def validate_files(files: list[str]) -> None:
    for f in files:
        _validate(_strip_nulls(read_yaml(f)), True, f, None)


def validate_resolved(merged: dict[str, Any], origins: Origins, leaf: str) -> None:
    _validate(merged, False, leaf, {k: v for k, v in origins.items()} | {(): leaf})


# -- cache ------------------------------------------------------------------------------------


def _stat_line(path: str | os.PathLike[str]) -> str:
    try:
        st = os.stat(path)
    except OSError:
        return ""
    return f"{os.path.realpath(path)}|{st.st_size}|{st.st_mtime_ns}\n"


def _stamp(paths: list[str]) -> str:
    """What a cached value depends on: the mjtools version, the schema and each file's path,
    size and mtime (a plain string: compared, never hashed)."""
    return __version__ + "\n" + _stat_line(SCHEMA_PATH) + "".join(_stat_line(p) for p in paths)


def _cache_file(kind: str, key: str) -> str | None:
    # The name only spreads entries over files; the entry records its key, so a checksum
    # collision costs a cache miss, never a wrong value.
    d = cache_dir()
    return os.path.join(d, f"{kind}-{zlib.crc32(key.encode()):08x}.json") if d else None


def _cache_read(kind: str, stamp: str, key: str = "", frozen: bool = False) -> Any:
    """The cached value (frozen: read-only mappings and tuples, as `freeze` makes them), or
    None if absent or stale."""
    got = _cache_read_parts(kind, stamp, key, frozen)
    return None if got is None else got[0]


def _cache_read_parts(kind: str, stamp: str, key: str = "", frozen: bool = False) -> tuple[Any, bytes] | None:
    """(the cached value, the undecoded text after its first line) or None (see _cache_write)."""
    key = key or kind
    f = _cache_file(kind, key)
    if f is None:
        return None
    try:
        with open(f, "rb") as fh:  # json decodes UTF-8 bytes faster than a text file does
            head, _, tail = fh.read().partition(b"\n")
            data = json.loads(head, object_pairs_hook=frozen_object if frozen else None)
    except (OSError, ValueError):
        return None
    if not isinstance(data, Mapping) or data.get("key") != key or data.get("stamp") != stamp:
        return None
    return data.get("value"), tail


def _cache_write(kind: str, stamp: str, value: Any, key: str = "", tail: Any = None) -> None:
    """One JSON line with the key, stamp and value; `tail` (JSON too) follows on a second line,
    which a reader decodes only if it asks for it (json.dumps never writes a raw newline)."""
    key = key or kind
    f = _cache_file(kind, key)
    if f is None:
        return
    try:
        os.makedirs(os.path.dirname(f), exist_ok=True)
        tmp = f"{os.path.splitext(f)[0]}.{os.getpid()}.tmp"
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(json.dumps({"key": key, "stamp": stamp, "value": value}, ensure_ascii=False))
            if tail is not None:
                fh.write("\n" + json.dumps(tail, ensure_ascii=False))
        os.replace(tmp, f)
    except OSError:
        pass


class LazyFrozen(Mapping[str, Any]):
    """A cached JSON object, decoded (frozen) when first read. The rules cache keeps a rule
    file's worked examples this way: over half of the cached riichi data, and read only by
    explain-rule and the example runner, never by a single-hand command."""

    __slots__ = ("_text", "_value")

    def __init__(self, text: bytes) -> None:
        self._text = text
        self._value: Mapping[str, Any] | None = None

    def _get(self) -> Mapping[str, Any]:
        if self._value is None:
            self._value = json.loads(self._text, object_pairs_hook=frozen_object)
            self._text = b""
        return self._value

    def __getitem__(self, key: str) -> Any:
        return self._get()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._get())

    def __len__(self) -> int:
        return len(self._get())

    def __repr__(self) -> str:
        return repr(self._get())


def load_resolved(path: str | os.PathLike[str]) -> tuple[Mapping[str, Any], Mapping[str, str], Sequence[str]]:
    """The validated, merged data of a rule file, its origins ('a.b' -> file) and its chain;
    frozen when it comes from the cache (`Ruleset.build` freezes the rest)."""
    key = os.path.realpath(path)
    got = _cache_read_parts("rules", "", key, frozen=True)
    if got is not None and isinstance(got[0], Mapping):
        entry, tail = got
        data = entry["data"]
        lazy = data.get(LAZY_KEY) == 0  # a placeholder: the examples are on the second line
        if _stamp(entry["files"]) == entry["stamp"] and (tail or not lazy):
            if lazy:
                data = MappingProxyType({k: LazyFrozen(tail) if k == LAZY_KEY else v for k, v in data.items()})
            return data, entry["origins"], entry["files"]
    from pathlib import Path  # a cache miss: reading YAML costs far more than pathlib

    deleted: set = set()
    merged, origins, files = resolve_chain(Path(key), deleted)
    validate_files(files)
    validate_resolved(merged, origins, files[0])
    from mjtools.rules.checks import check_semantics

    check_semantics(merged, origins, files[0], deleted)
    flat = {".".join(k): v for k, v in origins.items()}
    # The examples go on the cache file's second line (decoded on first use); the key stays in
    # place, so the data keeps its key order.
    lazy = merged.get(LAZY_KEY)
    head = {k: 0 if k == LAZY_KEY else v for k, v in merged.items()} if isinstance(lazy, dict) else merged
    _cache_write("rules", "", {"stamp": _stamp(files), "data": head, "origins": flat, "files": files}, key, lazy if head is not merged else None)
    return merged, flat, files
