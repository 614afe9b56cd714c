"""What a rule file can make mjtools read, and how it is read. Rule files are data:

- A rule file is a regular file (symlinks resolved) whose resolved name ends in `.yaml` or
  `.yml`, of at most MAX_BYTES; nothing else is opened (not a FIFO, a device, a directory,
  /etc/passwd behind a `.yaml` symlink), so no error can quote a file that is not a rule file.
- It is UTF-8 YAML read with the safe loader, and bounded before the tree is built or walked:
  at most MAX_NESTING levels, MAX_NODES nodes, aliases adding at most ALIAS_BUDGET nodes in
  all (a recursive alias is refused), integers of at most MAX_INT_DIGITS digits.
- What it holds is JSON's data: strings, finite numbers, booleans, null, lists and mappings
  (no dates, binary, sets or ordered maps); mapping keys that are not strings (`true`, `3`,
  `null` as a choice) read as JSON spells them ("true", "3", "null"), as the JSON cache
  gives them back.
"""

from __future__ import annotations

import os
import stat
from typing import Any

from mjtools.errors import RuleFileError

MAX_BYTES = 1 << 20  # the largest shipped file (riichi) is about 90 KB
MAX_NESTING = 32  # shipped files nest at most 11 levels
MAX_NODES = 100_000  # riichi has about 8,000
ALIAS_BUDGET = 10_000  # nodes that aliases may add (a `<<: *defaults` merge is a few dozen)
MAX_INT_DIGITS = 15
SUFFIXES = (".yaml", ".yml")


def read_bytes(path: str | os.PathLike[str], rule_file: bool = True, limit: int = MAX_BYTES) -> bytes:
    """The bytes of a rule file (or, not `rule_file`, of another input such as a scenario file
    or a game record: any name), or a RuleFileError that says why it is not one (never its
    contents). Only a regular file, of at most `limit` bytes, is read."""
    name = str(path)
    real = os.path.realpath(name)
    if rule_file and not real.endswith(SUFFIXES):
        raise RuleFileError("not a rule file (a .yaml file)" + ("" if real == os.path.abspath(name) else ", after symbolic links"), name)
    try:
        # O_NONBLOCK: opening a FIFO must not wait for a writer (it is refused just below).
        fd = os.open(real, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as e:
        raise RuleFileError(f"cannot read: {e.strerror}", name) from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise RuleFileError("not a regular file", name)
        if st.st_size > limit:
            raise RuleFileError(f"{st.st_size} bytes; at most {limit} are read", name)
        parts = []
        left = limit + 1
        while left > 0:
            got = os.read(fd, min(left, 1 << 20))
            if not got:
                break
            parts.append(got)
            left -= len(got)
    except OSError as e:
        raise RuleFileError(f"cannot read: {e.strerror}", name) from None
    finally:
        os.close(fd)
    data = b"".join(parts)
    if len(data) > limit:
        raise RuleFileError(f"more than {limit} bytes; at most {limit} are read", name)
    return data


def parse(data: bytes, file: str) -> dict[str, Any]:
    """A rule file's mapping from its bytes (see the module's docstring for the bounds)."""
    data_ = load_yaml(data, file)
    if not isinstance(data_, dict):
        raise RuleFileError("a rule file is a YAML mapping", file)
    return data_


def load_yaml(data: bytes, file: str) -> Any:
    """UTF-8 YAML bytes as JSON data, bounded as the module's docstring says."""
    import yaml

    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise RuleFileError(f"not UTF-8 text (byte {e.start + 1})", file) from None
    loader_cls = getattr(yaml, "CSafeLoader", None) or yaml.SafeLoader  # libyaml: same data, ~14x faster
    try:
        _check_events(loader_cls, text, file)  # streamed, so a huge file is refused early and small
        loader = loader_cls(text)
        try:
            node = loader.get_single_node()
            data_ = None if node is None else loader.construct_document(node)
        finally:
            loader.dispose()
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}" if mark else None
        problem = getattr(e, "problem", None) or str(e).splitlines()[0]
        raise RuleFileError(f"invalid YAML: {problem}", file, where) from None
    if isinstance(data_, dict):
        for key in data_:
            if not isinstance(key, str):
                raise RuleFileError(f"keys are strings, not {type(key).__name__} {key!r}", file)
    return plain(data_, file)


def _where(event: Any) -> str:
    mark = event.start_mark
    return f"line {mark.line + 1}, column {mark.column + 1}"


def _check_events(loader_cls: Any, text: str, file: str) -> None:
    """Bound the YAML before anything builds it, from its event stream (one pass, stopped at
    the first problem, constant memory): nesting, node count, what aliases add (an alias counts
    its anchor's whole expansion, aliases inside it included), an alias inside its own anchor,
    integers too long to read."""
    from yaml import AliasEvent, MappingEndEvent, MappingStartEvent, ScalarEvent, ScalarNode, SequenceEndEvent, SequenceStartEvent

    loader = loader_cls(text)
    try:
        frames: list[list[Any]] = [[None, 0, 0]]  # per open collection: [anchor, expanded nodes, height below]
        anchors: dict[str, tuple[int, int]] = {}  # anchor -> (expanded nodes, height)
        open_anchors: set[str] = set()
        nodes = added = 0
        while loader.check_event():
            ev = loader.get_event()
            kind = type(ev)
            if kind is ScalarEvent or kind is AliasEvent or kind is SequenceStartEvent or kind is MappingStartEvent:
                depth = len(frames)  # this node's level (the document is level 0)
                if kind is AliasEvent:
                    if ev.anchor in open_anchors:
                        raise RuleFileError("a YAML alias refers to a node that contains it", file, _where(ev))
                    size, height = anchors.get(ev.anchor, (1, 1))
                    added += size
                    if added > ALIAS_BUDGET:
                        raise RuleFileError(f"YAML aliases expand to more than {ALIAS_BUDGET} nodes", file, _where(ev))
                else:
                    size, height = 1, 1
                    nodes += 1
                    if nodes > MAX_NODES:
                        raise RuleFileError(f"more than {MAX_NODES} YAML nodes", file, _where(ev))
                if depth + height - 1 > MAX_NESTING:
                    raise RuleFileError(f"nested deeper than {MAX_NESTING} levels", file, _where(ev))
                if kind is ScalarEvent:
                    if len(ev.value) > MAX_INT_DIGITS + 5 and ev.implicit[0] and loader.resolve(ScalarNode, ev.value, ev.implicit) == "tag:yaml.org,2002:int":
                        raise RuleFileError(f"an integer of more than {MAX_INT_DIGITS} digits", file, _where(ev))
                    if ev.anchor:
                        anchors[ev.anchor] = (1, 1)
                elif kind is not AliasEvent:
                    frames.append([ev.anchor, 1, 0])
                    if ev.anchor:
                        open_anchors.add(ev.anchor)
                    continue
                frames[-1][1] += size
                frames[-1][2] = max(frames[-1][2], height)
            elif kind is SequenceEndEvent or kind is MappingEndEvent:
                anchor, size, below = frames.pop()
                if anchor:
                    anchors[anchor] = (size, below + 1)
                    open_anchors.discard(anchor)
                frames[-1][1] += size
                frames[-1][2] = max(frames[-1][2], below + 1)
    finally:
        loader.dispose()


def json_key(key: Any) -> str:
    """A mapping key as JSON writes it (True -> "true", None -> "null", 3 -> "3")."""
    if isinstance(key, str):
        return key
    if key is None or isinstance(key, bool):
        return {None: "null", True: "true", False: "false"}[key]
    return repr(key)


def describe(value: Any) -> str:
    names = {bytes: "binary data (!!binary)", set: "a set (!!set)", tuple: "an ordered map (!!omap or !!pairs)"}
    for kind, text in names.items():
        if isinstance(value, kind):
            return text
    if hasattr(value, "isoformat"):
        return "a date or time (quote it to make it text)"
    return type(value).__name__


def plain(value: Any, file: str, path: tuple[str, ...] = ()) -> Any:
    """`value` as JSON data (keys as JSON spells them), or a RuleFileError naming the key path
    of the first value JSON cannot hold. (Depth is bounded by MAX_NESTING already.)"""
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for k, v in value.items():
            if not isinstance(k, (str, int, float, bool)) and k is not None:
                raise RuleFileError(f"a key that is {describe(k)}", file, ".".join(path) or None)
            key = json_key(k)
            if key in out:
                raise RuleFileError(f"the key {key!r} is given twice", file, ".".join(path + (key,)))
            out[key] = plain(v, file, path + (key,))
        return out
    if isinstance(value, list):
        return [plain(v, file, path + (str(i),)) for i, v in enumerate(value)]
    if value is None or isinstance(value, (str, bool, int)):
        return value
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise RuleFileError(f"{value} is not a finite number", file, ".".join(path) or None)
        return value
    raise RuleFileError(f"{describe(value)} is not a value a rule file may hold", file, ".".join(path) or None)
