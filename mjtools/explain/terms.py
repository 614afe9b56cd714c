"""The seed documents' rule terms (data/terms.yaml) and where each variant's rule file has them.

A term names one glossary id. A ruleset has the rule when a fan, option or special rule has that
id (or an alias or a name spelled like the term), when the id is a key (with a value that is not
false) or a value anywhere in the rule data, when a fan's pattern uses it, when an option offers it
as a choice, when the file lists it as unsupported, or at a path the term's `where` names.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from mjtools.explain.entries import Entry, entries
from mjtools.rules.model import Ruleset

TERMS_PATH = Path(__file__).resolve().parent.parent / "data" / "terms.yaml"
# Top-level keys that hold prose or bookkeeping, not rules: never searched for a term id.
NOT_RULES = ("id", "names", "summary", "sources", "examples", "options", "fans", "special_rules", "situations", "unsupported", "aliases", "status", "schema_version", "abstract")
SEPARATORS = " _-'·・"


@lru_cache(maxsize=1)
def _data() -> dict[str, Any]:
    import yaml

    return yaml.safe_load(TERMS_PATH.read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def _chars() -> dict[str, str]:
    return {pair[0]: pair[1] for pair in _data()["chars"].split()}


@lru_cache(maxsize=8192)
def norm(text: str) -> str:
    """A spelling reduced for matching: NFKC, lower case, traditional -> simplified, no separators."""
    chars = _chars()
    text = unicodedata.normalize("NFKC", str(text)).lower()
    return "".join(chars.get(c, c) for c in text if c not in SEPARATORS)


@dataclass(frozen=True)
class Term:
    id: str
    zh: tuple[str, ...]
    en: tuple[str, ...]
    seeds: tuple[str, ...]
    variants: tuple[str, ...]
    where: tuple[str, ...] = ()
    also: tuple[str, ...] = ()
    zh_hant: tuple[str, ...] = ()
    ja: tuple[str, ...] = ()
    seed_text: str = ""

    @property
    def ids(self) -> frozenset[str]:
        return frozenset((self.id, *self.also))

    @property
    def spellings(self) -> frozenset[str]:
        return frozenset(norm(s) for s in (*self.zh, *self.zh_hant, *self.ja, *self.en, self.id))

    def name(self, lang: str) -> str:
        return self.en[0] if lang == "en" and self.en else self.zh[0]


@lru_cache(maxsize=1)
def all_terms() -> tuple[Term, ...]:
    out = []
    for t in _data()["terms"]:
        out.append(Term(
            id=t["id"], zh=tuple(t["zh"]), en=tuple(t.get("en", ())), seeds=tuple(t.get("seeds", ())),
            variants=tuple(t.get("variants", ())), where=tuple(t.get("where", ())), also=tuple(t.get("also", ())),
            zh_hant=tuple(t.get("zh_hant", ())), ja=tuple(t.get("ja", ())), seed_text=t.get("seed_text", ""),
        ))
    return tuple(out)


def match(query: str) -> list[Term]:
    """Terms spelled exactly like `query`; failing that, terms with a spelling containing it."""
    q = norm(query)
    if not q:
        return []
    exact = [t for t in all_terms() if q in t.spellings]
    if exact:
        return exact
    return [t for t in all_terms() if any(q in s for s in t.spellings)]


def closest(query: str, n: int = 5) -> list[str]:
    import difflib

    names = {norm(s): s for t in all_terms() for s in (*t.zh, *t.en)}
    return [names[k] for k in difflib.get_close_matches(norm(query), list(names), n=n, cutoff=0.5)]


def _truthy(value: Any) -> bool:
    return value not in (False, None, 0, "", (), [], {}) and not (isinstance(value, Mapping) and not value)


def _walk(node: Any, path: tuple[str, ...]) -> Iterator[tuple[tuple[str, ...], Any]]:
    yield path, node
    if isinstance(node, Mapping):
        for k, v in node.items():
            yield from _walk(v, path + (str(k),))
    elif isinstance(node, (list, tuple)):
        for i, v in enumerate(node):
            yield from _walk(v, path + (str(i),))


def get_path(data: Mapping[str, Any], path: str) -> Any:
    node: Any = data
    for part in path.split("."):
        if not isinstance(node, Mapping) or part not in node:
            return None
        node = node[part]
    return node


def _contains(value: Any, want: str) -> bool:
    if isinstance(value, (list, tuple)):
        return any(str(v) == want for v in value)
    return str(value) == want or (isinstance(value, bool) and str(value).lower() == want.lower())


def locate(rs: Ruleset, term: Term) -> list[Entry]:
    """The entries and settings of `rs` that are this term's rule (empty: the variant lacks it)."""
    ids = term.ids
    spell = term.spellings
    found: dict[str, Entry] = {}
    for e in entries(rs):
        names = {norm(v) for v in e.names.values()} if e.kind != "setting" else set()
        choices = e.data.get("choices") if e.kind == "option" else None
        offered = isinstance(choices, (Mapping, list, tuple)) and any(str(c) in ids for c in choices)
        if e.id in ids or ids & set(e.aliases) or spell & set(map(norm, e.aliases)) or names & spell or offered:
            found[e.path] = e
    for fid, fan in rs.section("fans").items():
        for _, node in _walk(fan.get("pattern"), ()):
            used = node if isinstance(node, str) else node.get("id") if isinstance(node, Mapping) else None
            if used in ids and f"fans.{fid}" not in found:
                found[f"fans.{fid}"] = Entry("fan", fid, f"fans.{fid}", fan)
    # An unsupported entry may list several rules in its prose ("四杠和局、四风连打 ... are play,
    # not scoring"): the variant has the rule, mjtools does not implement it.
    chinese = [norm(s) for s in (*term.zh, *term.zh_hant, *term.ja) if len(norm(s)) >= 2]
    for key, why in (rs.get("unsupported") or {}).items():
        prose = norm(" ".join(why.values()) if isinstance(why, Mapping) else str(why))
        if key in ids or any(s in prose for s in chinese):
            found[f"unsupported.{key}"] = Entry("unsupported", key, f"unsupported.{key}", why)
    for w in term.where:
        path, sep, want = w.partition("=")
        value = get_path(rs.data, path)
        raw = get_path(rs.raw, path)
        if (sep and value is not None and _contains(value, want)) or (not sep and _truthy(raw)):
            kind = "unsupported" if path.startswith("unsupported.") else "setting"
            found.setdefault(path, Entry(kind, path.split(".")[-1] if kind == "unsupported" else term.id, path, value))
    for top, node in rs.data.items():
        if top in NOT_RULES:
            continue
        for path, value in _walk(node, (top,)):
            dotted = ".".join(path)
            key_hit = path[-1] in ids and _truthy(value)
            value_hit = isinstance(value, str) and value in ids
            list_hit = isinstance(value, (list, tuple)) and any(isinstance(v, str) and v in ids for v in value)
            if (key_hit or value_hit or list_hit) and not any(dotted.startswith(p + ".") for p in found):
                # Of a list (abortive_draws, win.forms) only the items that are this rule.
                shown = [v for v in value if isinstance(v, str) and v in ids] if list_hit else value
                found.setdefault(dotted, Entry("setting", term.id, dotted, shown))
    return list(found.values())
