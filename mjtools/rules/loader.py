"""Find, read, merge and validate rule files.

Resolution of `--rules X`: an existing path (a user's file), else a shipped or search-path id
(`X.yaml`, case-insensitive), else an alias declared in a rule file. `extends:` resolves
relative to the extending file, then `$MJTOOLS_RULES_PATH`, then the shipped `rules.d/`; the
target, symlinks resolved, must be a regular `.yaml` file (rules/files.py says what a rule file
can make mjtools read). Merging: mappings merge recursively, lists replace, `null` deletes a key.

Validated results are cached as JSON (rules/rulecache.py), keyed by the content of every file of
the extends chain as it resolves now (under today's search path) and the mjtools version, so
that a single-hand command never imports yaml or jsonschema; the check is made once per process.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping, Sequence
from types import MappingProxyType
from typing import Any

from mjtools.errors import RuleFileError, UnknownRulesError
from mjtools.rules import rulecache
from mjtools.rules.files import SUFFIXES, read_bytes
from mjtools.rules.freeze import frozen_object

# The path a single-hand command takes (find a shipped id, read the JSON cache, check the
# chain's files) uses os.path and plain strings: pathlib and hashlib cost more to import than
# the rest of that lookup.
MAX_DEPTH = 8
MAX_EXTENDS_CHARS = 255
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
    """id (lower case) -> file, earlier search-path entries winning. Only regular files count
    (symlinks followed): a directory, FIFO, device or dangling link named X.yaml on the search
    path is ignored, so it cannot break `rules list` or the lookup of other files."""
    out: dict[str, str] = {}
    for d in reversed(search_path()):
        try:
            entries = sorted((e.name, e.path) for e in os.scandir(d) if e.name.endswith(".yaml") and _is_file(e))
        except OSError:
            continue
        for name, path in entries:
            out[name[:-5].lower()] = path
    return out


def _is_file(entry: os.DirEntry) -> bool:
    try:
        return entry.is_file()
    except OSError:  # a symlink loop
        return False


def _looks_like_path(name: str) -> bool:
    return "/" in name or os.sep in name or name.endswith(SUFFIXES)


def find(name: str) -> str:
    """The file a --rules value names."""
    if _looks_like_path(name):
        if os.path.isfile(name):
            return name
        if os.path.lexists(name):
            raise UnknownRulesError(f"{name}: not a rule file (a regular .yaml file, symbolic links resolved)")
        raise UnknownRulesError(f"no such rule file: {name}")
    files = _rule_files()
    got = files.get(name.lower())
    if got is not None:
        return got
    aliases = alias_index(files)
    alias = aliases.get(name.lower())
    if alias is not None and alias in files:
        return files[alias]
    import difflib  # only for the hint of an unknown name

    close = difflib.get_close_matches(name.lower(), list(files) + list(aliases), n=3)
    hint = f" (did you mean {', '.join(close)}?)" if close else ""
    raise UnknownRulesError(f"unknown variant {name!r}{hint}; `mjtools rules list` shows them")


_ALIASES: dict[tuple[tuple[str, str], ...], dict[str, str]] = {}


def alias_index(files: dict[str, str] | None = None) -> dict[str, str]:
    """alias (lower case) -> id, read from every rule file on the search path (cached, keyed
    by the content of every file; once per process and search path). A file that cannot be
    read declares no alias."""
    files = _rule_files() if files is None else files
    memo = tuple(sorted(files.items()))
    got = _ALIASES.get(memo)
    if got is None:
        got = _ALIASES[memo] = _alias_index(files)
    return got


def _alias_index(files: dict[str, str]) -> dict[str, str]:
    contents: dict[str, bytes] = {}
    for rid, f in files.items():
        try:
            contents[rid] = read_bytes(f)
        except RuleFileError:
            pass
    deps = [[rid, files[rid], rulecache.digest(b)] for rid, b in sorted(contents.items())]
    got = rulecache.read("aliases", _search_stamp(), lambda d: d == deps)
    if got is not None and isinstance(got[0], dict) and all(isinstance(v, str) for v in got[0].values()):
        return got[0]
    from mjtools.rules.files import parse

    out: dict[str, str] = {}
    for rid, data in contents.items():
        try:
            parsed = parse(data, files[rid])
        except RuleFileError:
            continue
        aliases = parsed.get("aliases")
        for a in aliases if isinstance(aliases, list) else ():
            if isinstance(a, str):
                out.setdefault(a.lower(), rid)
    rulecache.write("aliases", _search_stamp(), deps, out)
    return out


_READ: dict[tuple[str, str], dict[str, Any]] = {}


def _parsed(path: str, data: bytes) -> dict[str, Any]:
    """A rule file's mapping, parsed once per process and content (shared: not to be changed)."""
    from mjtools.rules.files import parse

    key = (path, rulecache.digest(data))
    got = _READ.get(key)
    if got is None:
        got = _READ[key] = parse(data, path)
    return got


def read_yaml(path: str | os.PathLike[str]) -> dict[str, Any]:
    """A rule file's mapping (a copy the caller may change)."""
    import copy

    p = os.path.realpath(path)
    return copy.deepcopy(_parsed(p, read_bytes(path)))


def resolve_extends(name: Any, base: str) -> str:
    """The file `extends: name` in file `base` names (a real path): a relative path to a .yaml
    file, or a variant id (next to `base`, then on the search path); the target, symlinks
    resolved, must be a regular .yaml file."""
    if not isinstance(name, str):
        raise RuleFileError(f"expected a string, got {_describe(name)}", base, "extends")
    if not name or len(name) > MAX_EXTENDS_CHARS or "\0" in name:
        raise RuleFileError(f"a variant id or a relative path to a .yaml file, of at most {MAX_EXTENDS_CHARS} characters", base, "extends")
    here = os.path.dirname(base)
    if _looks_like_path(name):
        if os.path.isabs(name):
            raise RuleFileError("a variant id or a relative path, not an absolute one", base, "extends")
        if not name.endswith(SUFFIXES):
            raise RuleFileError("a path names a .yaml file", base, "extends")
        target = os.path.join(here, name)
    else:
        target = os.path.join(here, f"{name}.yaml")
        if not os.path.isfile(target):
            got = _rule_files().get(name.lower())
            if got is None:
                raise RuleFileError(f"unknown variant {name!r}", base, "extends")
            target = got
    real = os.path.realpath(target)
    try:
        st = os.stat(real)
    except OSError as e:
        problem = "no such file" if e.strerror is None or isinstance(e, FileNotFoundError) else e.strerror
        raise RuleFileError(f"{name!r}: {problem}", base, "extends") from None
    import stat

    if not real.endswith(SUFFIXES) or not stat.S_ISREG(st.st_mode):
        raise RuleFileError(f"{name!r} is not a rule file (a regular .yaml file, symbolic links resolved)", base, "extends")
    return real


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


class Chain:
    """A rule file and everything it extends, read and merged."""

    __slots__ = ("merged", "origins", "files", "datas", "links")

    def __init__(self, merged: dict[str, Any], origins: Origins, files: list[str], datas: list[dict[str, Any]], links: list[list[Any]]) -> None:
        self.merged = merged
        self.origins = origins
        self.files = files  # real paths, leaf first
        self.datas = datas  # each file's own mapping (shared: not to be changed), leaf first
        self.links = links  # [file, its extends value or None, digest of its bytes], leaf first


def resolve_chain(path: str | os.PathLike[str], deleted: set | None = None) -> Chain:
    """Read `path` and everything it extends, and merge them. Key paths deleted with `null`
    are added to `deleted`."""
    chain: list[str] = []
    datas: list[dict[str, Any]] = []
    links: list[list[Any]] = []
    current = os.path.realpath(path)
    while True:
        if current in chain:
            cycle = " -> ".join(os.path.basename(p) for p in chain + [current])
            raise RuleFileError(f"extends cycle: {cycle}", str(path), "extends")
        if len(chain) >= MAX_DEPTH:
            raise RuleFileError(f"extends chain deeper than {MAX_DEPTH}", str(path), "extends")
        raw = read_bytes(current)
        data = _parsed(current, raw)
        chain.append(current)
        datas.append(data)
        ext = data.get("extends")
        links.append([current, ext if isinstance(ext, str) else None, rulecache.digest(raw)])
        if ext is None:
            break
        current = resolve_extends(ext, current)
    import copy

    origins: Origins = {}
    merged: dict[str, Any] = {}
    for file, data in zip(reversed(chain), reversed(datas)):
        merged = merge(merged, copy.deepcopy(data), origins, file, (), deleted)
    merged.pop("extends", None)
    merged.pop("abstract", None)
    if datas[0].get("abstract"):
        merged["abstract"] = True
    return Chain(merged, origins, chain, datas, links)


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
        got = _validators[partial] = jsonschema.Draft202012Validator(_inlined(sch))
    return got


def _inlined(sch: dict[str, Any]) -> dict[str, Any]:
    """The schema with each `$ref` replaced by the definition it names (one shared object per
    definition, so recursive ones become cycles): the validator then follows no references,
    about a quarter of its time on a whole rule file. Same errors, same messages. A `$ref`'s
    sibling keys are descriptions, which validate nothing."""
    defs = sch.get("$defs", {})
    done: dict[str, dict[str, Any]] = {}

    def inline(node: Any) -> Any:
        if isinstance(node, list):
            return [inline(v) for v in node]
        if not isinstance(node, dict):
            return node
        if "$ref" in node:
            name = node["$ref"].rsplit("/", 1)[-1]
            if name not in done:
                done[name] = {}
                done[name].update(inline(defs[name]))
            return done[name]
        return {k: inline(v) for k, v in node.items()}

    return inline({k: v for k, v in sch.items() if k != "$defs"})


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


_VALID: set[tuple[str, str]] = set()  # (file, digest) of files that passed on their own


def validate_files(chain: Chain) -> None:
    """Each file of a chain against the schema on its own (`required` aside), so that an error
    names the file that made it; once per process and file content. A file that extends
    nothing is the merged result itself: validate_resolved checks it."""
    if len(chain.files) == 1:
        return
    for f, data, link in zip(chain.files, chain.datas, chain.links):
        if (f, link[2]) not in _VALID:
            _validate(_strip_nulls(data), True, f, None)
            _VALID.add((f, link[2]))


def validate_resolved(merged: dict[str, Any], origins: Origins, leaf: str) -> None:
    _validate(merged, False, leaf, {k: v for k, v in origins.items()} | {(): leaf})


# -- cache ------------------------------------------------------------------------------------


def _search_stamp() -> str:
    return os.pathsep.join(search_path())


def _schema_stamp() -> str:
    """The schema ships with mjtools (the version is in every entry's stamp); its size and
    mtime cover an edit in a development checkout."""
    try:
        st = os.stat(SCHEMA_PATH)
    except OSError:
        return ""
    return f"{st.st_size}|{st.st_mtime_ns}"


def _chain_holds(key: str, deps: Any) -> bool:
    """Whether a cached ruleset's chain is still what `key` resolves to, file by file, with the
    same content (and the schema unchanged). Each `extends` is resolved again, under today's
    search path: a changed $MJTOOLS_RULES_PATH, or a new sibling file, that changes what a
    link names is a miss; one that changes nothing in the chain is not."""
    if not isinstance(deps, dict) or deps.get("schema") != _schema_stamp():
        return False
    links = deps.get("chain")
    if not isinstance(links, list):
        return False
    expect = key
    for i, link in enumerate(links):
        if not (isinstance(link, list) and len(link) == 3 and link[0] == expect and (link[1] is None or isinstance(link[1], str))):
            return False
        try:
            if rulecache.digest(read_bytes(expect)) != link[2]:
                return False
            if link[1] is None:
                return i == len(links) - 1
            expect = resolve_extends(link[1], expect)
        except RuleFileError:
            return False
    return False


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


_RESOLVED: dict[str, tuple[Mapping[str, Any], Mapping[str, str], Sequence[str]]] = {}


def load_resolved(path: str | os.PathLike[str]) -> tuple[Mapping[str, Any], Mapping[str, str], Sequence[str]]:
    """The validated, merged data of a rule file, its origins ('a.b' -> file) and its chain;
    frozen when it comes from the cache (`Ruleset.build` freezes the rest). Once per process
    and file."""
    key = os.path.realpath(path)
    got = _RESOLVED.get(key)
    if got is None:
        got = _RESOLVED[key] = _cached(key) or _load(key)
    return got


def _cached(key: str) -> tuple[Mapping[str, Any], Mapping[str, str], Sequence[str]] | None:
    got = rulecache.read("rules", key, lambda deps: _chain_holds(key, deps), frozen=True)
    if got is None:
        return None
    entry, tail = got
    if not (isinstance(entry, Mapping) and isinstance(entry.get("data"), Mapping) and isinstance(entry.get("origins"), Mapping)):
        return None
    files = entry.get("files")
    if not (isinstance(files, tuple) and files and all(isinstance(f, str) for f in files)):
        return None
    data = entry["data"]
    if not isinstance(data.get("id"), str):
        return None
    if data.get(LAZY_KEY) == 0:  # a placeholder: the examples are on the next line
        if not tail:
            return None
        data = MappingProxyType({k: LazyFrozen(tail) if k == LAZY_KEY else v for k, v in data.items()})
    return data, entry["origins"], entry["files"]


def _load(key: str) -> tuple[dict[str, Any], dict[str, str], list[str]]:
    deleted: set = set()
    chain = resolve_chain(key, deleted)
    merged, origins, files = chain.merged, chain.origins, chain.files
    validate_files(chain)
    validate_resolved(merged, origins, files[0])
    from mjtools.rules.checks import check_semantics
    from mjtools.rules.option_types import check_options

    check_semantics(merged, origins, files[0], deleted)
    check_options(merged, origins, chain, schema())
    flat = {".".join(k): v for k, v in origins.items()}
    # The examples go on the cache file's last line (decoded on first use); the key stays in
    # place, so the data keeps its key order.
    lazy = merged.get(LAZY_KEY)
    head = {k: 0 if k == LAZY_KEY else v for k, v in merged.items()} if isinstance(lazy, dict) else merged
    deps = {"schema": _schema_stamp(), "chain": chain.links}
    rulecache.write("rules", key, deps, {"data": head, "origins": flat, "files": files}, lazy if head is not merged else None)
    return merged, flat, files
