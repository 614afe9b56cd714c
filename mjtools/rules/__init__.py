"""Rule files: `load(id_or_path, options)` gives a frozen Ruleset; `available()` lists variants."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from mjtools.rules.loader import _rule_files, find, load_resolved
from mjtools.rules.model import Ruleset, pick

__all__ = ["Ruleset", "available", "load", "pick", "load_path"]

_MEMO: dict[tuple[str, tuple[tuple[str, Any], ...]], Ruleset] = {}


def load_path(path: str | os.PathLike[str], options: Mapping[str, Any] | None = None) -> Ruleset:
    key = (os.path.realpath(path), tuple(sorted((options or {}).items(), key=lambda kv: kv[0])))
    got = _MEMO.get(key)
    if got is None:
        data, origins, files = load_resolved(key[0])
        got = _MEMO[key] = Ruleset.build(data, files, origins, options)
    return got


def load(name: str, options: Mapping[str, Any] | None = None) -> Ruleset:
    """The ruleset a --rules value names, with rule options set."""
    return load_path(find(name), options)


def available(include_abstract: bool = False) -> list[Ruleset]:
    out = []
    for _, f in sorted(_rule_files().items()):
        rs = load_path(f)
        if include_abstract or not rs.abstract:
            out.append(rs)
    return out
