"""The entries of a ruleset a player can ask about, and finding one by what the player typed.

An entry is a fan, an option or a special rule (or, found through a glossary term, a setting such
as `calls.claims`). It is found by id, alias, a name in any language (简体, 繁體 or Japanese
spellings match through the character table in data/terms.yaml), a glossary term, or a unique
prefix of any of these.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mjtools.errors import UsageError
from mjtools.rules.model import Ruleset, pick

if TYPE_CHECKING:
    from mjtools.explain.terms import Term

SECTIONS = (("fans", "fan"), ("options", "option"), ("special_rules", "special_rule"), ("situations", "situation"))
# Name parts: "All simples (tanyao)" is also found as "tanyao", "役牌（三元牌）" as "三元牌".
PART_SPLIT = re.compile(r"[()（）/／、,，;；]")


@dataclass(frozen=True)
class Entry:
    kind: str  # fan | option | special_rule | situation | setting | unsupported
    id: str
    path: str  # where it lives in the rule file: fans.pinfu, options.kazoe, calls.claims
    data: Any  # the entry's mapping (options applied), or a setting's value

    @property
    def names(self) -> Mapping[str, str]:
        if isinstance(self.data, Mapping) and self.kind != "setting":
            return self.data.get("names") or {}
        return {}

    @property
    def aliases(self) -> tuple[str, ...]:
        if isinstance(self.data, Mapping) and self.kind != "setting":
            return tuple(self.data.get("aliases") or ())
        return ()

    def name(self, lang: str = "en") -> str:
        return pick(self.names, lang) or self.id

    def text(self, lang: str = "en") -> str:
        if self.kind == "unsupported":
            return pick(self.data, lang) if isinstance(self.data, Mapping) else str(self.data)
        return pick(self.data.get("text"), lang) if isinstance(self.data, Mapping) and self.kind != "setting" else ""


def entries(rs: Ruleset) -> list[Entry]:
    """Every fan (enabled or not), option, special rule and situation (--situation), in file order."""
    out = []
    for section, kind in SECTIONS:
        items = rs.options if section == "options" else rs.section(section)
        for key, value in items.items():
            out.append(Entry(kind, key, f"{section}.{key}", value))
    return out


def _keys(e: Entry) -> set[str]:
    from mjtools.explain.terms import norm

    keys = {norm(e.id), norm(e.path), *(norm(a) for a in e.aliases)}
    for name in e.names.values():
        keys.add(norm(name))
        keys |= {norm(p) for p in PART_SPLIT.split(name) if p.strip()}
    keys.discard("")
    return keys


def find(rs: Ruleset, query: str) -> tuple[Entry, Term | None]:
    """The one entry `query` names, and the glossary term it was found through (or None);
    a UsageError naming the closest matches otherwise."""
    from mjtools.explain.terms import locate, match, norm

    q = norm(query)
    if not q:
        raise UsageError("RULE is empty")
    all_entries = entries(rs)
    keyed = [(e, _keys(e)) for e in all_entries]
    exact = [e for e, keys in keyed if q in keys]
    by_id = [e for e in exact if norm(e.id) == q]
    if len(by_id) == 1 or len(exact) == 1:
        return (by_id or exact)[0], None
    if exact:
        raise UsageError(f"{query!r} names several rules of {rs.id}: {', '.join(e.path for e in exact)}; give one of these paths")
    # A glossary term spelled exactly (partial spellings are --search's job) may name a setting.
    for term in (t for t in match(query) if q in t.spellings):
        hits = locate(rs, term)
        if hits:
            return next((h for h in hits if h.kind != "setting"), hits[0]), term
    prefixed = [e for e, keys in keyed if any(k.startswith(q) for k in keys)]
    if len(prefixed) == 1:
        return prefixed[0], None
    if prefixed:
        shown = ", ".join(e.id for e in prefixed[:8]) + (", ..." if len(prefixed) > 8 else "")
        raise UsageError(f"{query!r} is the start of several rules of {rs.id}: {shown}; be more specific")
    back = {k: e.id for e, keys in keyed for k in keys}
    close = []
    for k in difflib.get_close_matches(q, list(back), n=8, cutoff=0.5):
        if back[k] not in close:
            close.append(back[k])
    hint = f" (closest: {', '.join(close[:5])})" if close else ""
    raise UsageError(f"{rs.id} has no rule, option or fan {query!r}{hint}; `mjtools explain-rule {rs.id}` lists them")
