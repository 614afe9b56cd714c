"""`explain-rule --search TERM`: a rule across variants, by its Chinese or English name.

The term is looked up in data/terms.yaml (simplified, traditional, Japanese or English spelling,
or the glossary id); every shipped variant whose rule file has the rule is listed with the
matching entry. Variants the term names that are not shipped yet are reported as such, and a
shipped variant that should have the rule but does not is reported as missing. A query that is
no term is looked up as a rule name in every variant.
"""

from __future__ import annotations

from typing import Any

from mjtools.errors import UsageError
from mjtools.explain.entries import Entry, find
from mjtools.explain.overview import fan_value, fmt, option_word
from mjtools.explain.terms import Term, closest, locate, match
from mjtools.messages import text
from mjtools.rules.model import Ruleset


def describe(rs: Ruleset, e: Entry, lang: str, term: Term | None = None) -> dict[str, Any]:
    """A found entry as a search row: variant, kind, path, name and value or text."""
    if e.kind == "fan":
        what = fan_value(e.data, rs.section("scoring").get("unit", ""), lang, rs.section("scoring").get("limit_value"))
    elif e.kind == "option":
        what = text("detail.option_value", lang, value=option_word(rs.option_values.get(e.id)), default=option_word(e.data.get("default")))
    elif e.kind == "setting":
        what = f"{e.path} = {fmt(e.data, lang, f'val.{e.path}')}"
    else:
        what = e.text(lang)
    name = e.name(lang) if e.kind != "setting" else (term.name(lang) if term else e.id)
    return {"variant": rs.id, "variant_name": rs.name(lang), "kind": e.kind, "id": e.id, "path": e.path, "name": name, "what": what}


def _term_record(term: Term, variants: list[Ruleset], lang: str) -> dict[str, Any]:
    shipped = {rs.id for rs in variants}
    found = [describe(rs, e, lang, term) for rs in variants for e in locate(rs, term)]
    have = {f["variant"] for f in found}
    return {
        "term": term.zh[0],
        "name": term.name(lang),
        "id": term.id,
        "zh": list(term.zh),
        "en": list(term.en),
        "seeds": list(term.seeds),
        "variants": list(term.variants),
        "found": found,
        "not_shipped": [v for v in term.variants if v not in shipped],
        "missing": [v for v in term.variants if v in shipped and v not in have],
    }


def search(query: str, variants: list[Ruleset], lang: str = "en") -> dict[str, Any]:
    terms = match(query)
    if terms:
        return {"query": query, "terms": [_term_record(t, variants, lang) for t in terms], "rules": []}
    rows = []
    for rs in variants:
        try:
            entry, _ = find(rs, query)
        except UsageError:
            continue
        rows.append(describe(rs, entry, lang))
    if not rows:
        close = closest(query)
        hint = f" (closest terms: {', '.join(close)})" if close else ""
        raise UsageError(f"no rule term or rule named {query!r} in any variant{hint}")
    return {"query": query, "terms": [], "rules": rows}
