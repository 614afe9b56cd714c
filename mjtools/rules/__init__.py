"""Rule files: `load(id_or_path, options)` gives a frozen Ruleset; `available()` lists variants.

May import patterns (to check pattern ids), analysis and tiles; never scoring or above.

    loader.py        find, read (safe YAML), merge `extends`, validate against schema.json, cache
    checks.py        checks the schema cannot state (pattern ids, exclusions, options)
    freeze.py        frozen data (MappingProxyType) and back
    model.py         the frozen `Ruleset` and its derived facts (shape spec, copies, seats)
    hand_options.py  the hand-context options (seat, tsumo, indicators ...) and the WinContext they make
    validate.py      a hand against a variant: tile set, copies, red fives, size, meld kinds
    counted.py       play.discard_situations: tiles put out that count for later wins
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from mjtools.rules.loader import _rule_files, find, load_resolved
from mjtools.rules.model import Ruleset, pick

__all__ = ["Ruleset", "available", "load", "pick", "load_path", "names"]

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


def names() -> list[str]:
    """Every name --rules accepts on the search path: variant ids and their aliases (abstract
    base files aside), for shell completion."""
    from mjtools.rules.loader import alias_index

    files = _rule_files()
    ids = {rid for rid, f in files.items() if not load_path(f).abstract}
    return sorted(ids | {alias for alias, rid in alias_index().items() if rid in ids})

