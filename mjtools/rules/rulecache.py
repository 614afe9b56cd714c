"""Cache entries of validated rulesets and of the alias index, one file each under cache_dir().

An entry is a first line saying what it is and what it depends on, then its value (JSON), then
optionally a tail (JSON, decoded on first use: a rule file's worked examples). The first line
starts with a fixed stamp (format and mjtools version), compared as bytes before anything is
decoded; the caller then checks the dependencies (for a ruleset: the content of every file of
its resolved extends chain and the search path). An entry that cannot be read, is malformed,
or was written by another version is a miss, never an error: the value is rebuilt.
"""

from __future__ import annotations

import json
import os
import zlib
from collections.abc import Callable
from typing import Any

from mjtools import __version__
from mjtools.cache import cache_dir
from mjtools.rules.freeze import frozen_object

MAGIC = "mjtools-cache"
FORMAT = 2
MAX_HEAD = 1 << 16  # the first line: a few paths and checksums
MAX_ENTRY = 64 << 20  # far above any ruleset (riichi: about 300 KB)


def digest(data: bytes) -> str:
    """A file's content as the cache compares it: length and two checksums (zlib's crc32 and
    adler32; a cache key, not a defence against someone who can write the cache directory)."""
    return f"{len(data)}:{zlib.crc32(data):08x}:{zlib.adler32(data):08x}"


def _prefix(kind: str) -> bytes:
    return json.dumps([MAGIC, FORMAT, __version__, kind])[:-1].encode() + b", "


def _file(kind: str, key: str) -> str | None:
    # The name only spreads entries over files; the entry records its key, so a checksum
    # collision costs a cache miss, never a wrong value.
    d = cache_dir()
    return os.path.join(d, f"{kind}-{zlib.crc32(key.encode()):08x}.json") if d else None


def read(kind: str, key: str, holds: Callable[[Any], bool], frozen: bool = False) -> tuple[Any, bytes] | None:
    """(value, undecoded tail) of the entry for `key` if its dependencies still `hold`, else
    None. `frozen`: mappings decode read-only and lists as tuples (as `freeze` makes them)."""
    f = _file(kind, key)
    if f is None:
        return None
    try:
        with open(f, "rb") as fh:
            head = fh.readline(MAX_HEAD)
            if not head.startswith(_prefix(kind)) or not head.endswith(b"\n"):
                return None
            meta = json.loads(head)
            if not (isinstance(meta, list) and len(meta) == 6 and meta[4] == key and holds(meta[5])):
                return None
            rest = fh.read(MAX_ENTRY + 1)
        if len(rest) > MAX_ENTRY:
            return None
        body, _, tail = rest.partition(b"\n")
        return json.loads(body, object_pairs_hook=frozen_object if frozen else None), tail
    except (OSError, ValueError, RecursionError, TypeError):  # unreadable or malformed: a miss
        return None


def write(kind: str, key: str, deps: Any, value: Any, tail: Any = None) -> None:
    """Write an entry (atomically: a reader sees the old entry or the new one, never a part)."""
    f = _file(kind, key)
    if f is None:
        return
    tmp = f"{os.path.splitext(f)[0]}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(f), exist_ok=True)
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(json.dumps([MAGIC, FORMAT, __version__, kind, key, deps], ensure_ascii=False) + "\n")
            fh.write(json.dumps(value, ensure_ascii=False))
            if tail is not None:
                fh.write("\n" + json.dumps(tail, ensure_ascii=False))
        os.replace(tmp, f)
    except (OSError, ValueError, TypeError):  # a full disk, a value JSON cannot hold: no cache
        try:
            os.unlink(tmp)
        except OSError:
            pass
