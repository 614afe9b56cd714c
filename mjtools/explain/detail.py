"""One rule, option, fan or setting explained: its text and value, what it excludes and what
excludes it, the option values and what each changes, and its worked examples, run live.

Examples run through mjtools/worked_examples.py under the ruleset being explained (with any
`-o` options the user set), so the numbers shown are the engine's, never pasted text; each
example also says whether it still gives what its rule file expects.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from mjtools.errors import MjError
from mjtools.explain.entries import Entry
from mjtools.explain.overview import fan_value, fmt, option_word
from mjtools.explain.terms import Term
from mjtools.messages import text
from mjtools.rules.freeze import is_optref, thaw
from mjtools.rules.model import Ruleset, pick


def _optref_paths(node: Any, name: str, path: tuple[str, ...] = ()) -> Iterator[str]:
    """Key paths of the rule data that take their value from option `name`."""
    if is_optref(node):
        if node["option"] == name:
            yield ".".join(path)
    elif isinstance(node, Mapping):
        for k, v in node.items():
            if path or k not in ("options", "examples"):
                yield from _optref_paths(v, name, path + (str(k),))
    elif isinstance(node, (list, tuple)):
        for i, v in enumerate(node):
            yield from _optref_paths(v, name, path + (str(i),))


def _get(data: Mapping[str, Any], path: str) -> Any:
    node: Any = data
    for part in path.split("."):
        if isinstance(node, Mapping):
            node = node.get(part)
        elif isinstance(node, (list, tuple)) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return None
    return node


def option_values(opt: Mapping[str, Any]) -> list[Any]:
    choices = opt.get("choices")
    if choices is not None:
        return list(choices)
    if isinstance(opt.get("default"), bool):
        return [True, False]
    return [opt.get("default")]


def _option_facts(rs: Ruleset, oid: str, opt: Mapping[str, Any], lang: str) -> tuple[list[str], list[dict[str, Any]]]:
    current = rs.option_values.get(oid)
    facts = [text("detail.option_value", lang, value=option_word(current), default=option_word(opt.get("default")))]
    if opt.get("peer"):
        facts.append(text("detail.peer", lang, peer=opt["peer"]))
    paths = list(_optref_paths(rs.raw, oid))
    if paths:
        facts.append(text("detail.used_by", lang, paths=", ".join(paths)))
    choices = opt.get("choices")
    values = []
    for v in option_values(opt):
        what = pick(choices[v], lang) if isinstance(choices, Mapping) and isinstance(choices.get(v), Mapping) else ""
        try:
            data = rs.with_options({oid: v}).data
            effects = {p: thaw(_get(data, p)) for p in paths}
        except MjError as e:
            effects = {"error": e.one_line()}
        values.append({"value": v, "current": str(v) == str(current), "text": what, "sets": effects})
    return facts, values


def _fan_facts(rs: Ruleset, fid: str, fan: Mapping[str, Any], lang: str) -> tuple[list[str], dict[str, Any]]:
    unit = rs.section("scoring").get("unit", "")
    facts = [text("detail.value", lang, value=fan_value(fan, unit, lang, rs.section("scoring").get("limit_value")))]
    if not fan.get("enabled", True):
        facts.append(text("detail.disabled", lang))
    if fan.get("yaku") is False:
        facts.append(text("detail.not_yaku", lang))
    if fan.get("category"):
        facts.append(text("detail.category", lang, category=fmt(fan["category"], lang, "val.category")))
    if fan.get("max_count"):
        facts.append(text("detail.max_count", lang, n=fan["max_count"]))
    facts.append(text("detail.pattern", lang, pattern=fmt(fan["pattern"], lang)))
    for oid in sorted(_options_used(rs.raw.get("fans", {}).get(fid, {}))):
        facts.append(text("detail.depends", lang, option=oid, value=option_word(rs.option_values.get(oid))))
    fans = rs.section("fans")
    excludes = [_target(x) for x in fan.get("excludes", ())]
    excluded_by = [other for other, f in fans.items() if fid in map(_target, f.get("excludes", ()))]
    name = lambda x: f"{pick(fans[x].get('names'), lang) or x} ({x})" if x in fans else x  # noqa: E731
    if excludes:
        parts = [name(_target(x)) + _partial(x, lang) for x in fan.get("excludes", ())]
        facts.append(text("detail.excludes", lang, fans=", ".join(parts)))
    if fan.get("combine") == "sets":
        facts.append(text("detail.combine", lang))
    if excluded_by:
        facts.append(text("detail.excluded_by", lang, fans=", ".join(name(x) for x in excluded_by)))
    if fan.get("fallback"):
        facts.append(text("detail.fallback", lang))
    return facts, {"value": thaw(fan["value"]), "excludes": excludes, "excluded_by": excluded_by}


def _target(ex: Any) -> str:
    """The fan an `excludes` entry names (an id, or {fan: ..., count | on})."""
    return ex["fan"] if isinstance(ex, Mapping) else ex


def _partial(ex: Any, lang: str) -> str:
    if not isinstance(ex, Mapping):
        return ""
    if ex.get("same_sets"):
        return " " + text("detail.excludes_on_sets", lang)
    return " " + text("detail.excludes_count", lang, n=ex.get("count", 1))


def _options_used(node: Any) -> set[str]:
    if is_optref(node):
        return {node["option"]}
    if isinstance(node, Mapping):
        return set().union(*(_options_used(v) for v in node.values())) if node else set()
    if isinstance(node, (list, tuple)):
        return set().union(*(_options_used(v) for v in node)) if node else set()
    return set()


def _summary(command: str, rec: Mapping[str, Any], lang: str) -> str:
    if command == "score" and "results" in rec:
        results = ", ".join(f"{r.get('seat', '')} {r['points']:g}" for r in rec["results"] if isinstance(r.get("points"), (int, float)))
        net = ", ".join(f"{s} {v:+g}" for s, v in rec["net"].items())
        return text("example.table", lang, event=rec["event"], results=results or "-", net=net)
    if command == "score":
        if not rec.get("valid"):
            return text("example.invalid", lang, reason=rec.get("reason") or "")
        fans = ", ".join(f"{f['id']}" + (f" x{f['count']}" if f["count"] != 1 else "") for f in rec["fans"])
        unit = rec["fans"][0]["unit"] if rec["fans"] else ""
        if unit in ("yakuman", "limit"):
            # A yakuman in yakuman, a limit hand as the count it scores (no misleading han or fu).
            from mjtools.explain.render import score_value

            value = score_value(rec, lang)
        elif rec.get("han") is not None and rec.get("fu"):
            value = f"{rec['han']} han {rec['fu']} fu"
        else:
            value = f"{rec['fan_total']:g} {unit}".strip()
        pays = ", ".join(f"{s} {a:g}" for s, a in rec["payments"].items() if a)
        return text("example.score", lang, fans=fans, value=value, points=f"{rec['points']:g}", pays=pays or "-")
    if command == "wait":
        return text("example.wait", lang, waits=" ".join(rec.get("waits", ())) or "-") if rec.get("tenpai") else text("example.not_ready", lang)
    if command == "shanten":
        return text("example.shanten", lang, n=rec.get("shanten"))
    if command == "simulate":
        return text("example.simulate", lang, events=", ".join(map(str, rec.get("events", ()))) or "-")
    return ", ".join(f"{k}: {fmt(v, lang)}" for k, v in rec.items() if not isinstance(v, (list, Mapping)))


def run(rs: Ruleset, eid: str, ex: Mapping[str, Any], lang: str) -> dict[str, Any]:
    """An example with the record the engine gives now and whether it holds."""
    from mjtools.batch.examples import mismatches, run_example

    command = ex.get("command", "score")
    out: dict[str, Any] = {
        "id": eid, "command": command, "hand": ex.get("hand"), "table": thaw(ex.get("table")), "args": thaw(ex.get("args", {})),
        "options": thaw(ex.get("options", {})), "text": pick(ex.get("text"), lang), "source": ex.get("source"),
        "illustrates": list(ex.get("illustrates", ())), "expect": thaw(ex["expect"]),
    }
    try:
        rec = run_example(rs, ex, lang)
    except ModuleNotFoundError as e:
        if not (e.name or "").startswith("mjtools.sim"):
            raise
        out.update(result=None, holds=None, problems=[text("example.no_simulate", lang)], summary="")
        return out
    except MjError as e:
        out.update(result=None, holds=False, problems=[e.one_line()], summary="")
        return out
    problems = mismatches(rec, ex["expect"])
    try:
        summary = _summary(command, rec, lang)
    except (KeyError, TypeError, ValueError):
        # A record shape this summary does not know (a new command or event): list its scalars.
        summary = ", ".join(f"{k}: {v}" for k, v in rec.items() if isinstance(v, (str, int, float, bool)))
    out.update(result=rec, holds=not problems, problems=problems, summary=summary)
    return out


def illustrating(rs: Ruleset, ids: set[str]) -> list[tuple[str, Mapping[str, Any]]]:
    return [(eid, ex) for eid, ex in rs.examples.items() if ids & set(ex.get("illustrates", ()))]


def detail(rs: Ruleset, entry: Entry, lang: str = "en", term: Term | None = None) -> dict[str, Any]:
    """The explain-rule record of one entry."""
    facts: list[str] = []
    extra: dict[str, Any] = {}
    if entry.kind == "fan":
        facts, extra = _fan_facts(rs, entry.id, entry.data, lang)
    elif entry.kind == "option":
        facts, values = _option_facts(rs, entry.id, entry.data, lang)
        extra = {"value": thaw(rs.option_values.get(entry.id)), "default": thaw(entry.data.get("default")), "values": values}
    elif entry.kind == "special_rule":
        enabled = entry.data.get("enabled", True)
        facts.append(text("detail.enabled" if enabled else "detail.disabled", lang))
    elif entry.kind == "setting":
        facts.append(text("detail.setting", lang, path=entry.path, value=fmt(entry.data, lang, f"val.{entry.path}")))
        extra = {"value": thaw(entry.data)}
    if entry.aliases:
        facts.append(text("detail.aliases", lang, aliases=", ".join(entry.aliases)))
    if term is not None:
        facts.append(text("detail.term", lang, term=" / ".join(term.zh), id=term.id))
    data = entry.data if isinstance(entry.data, Mapping) else {}
    if entry.kind != "setting" and data.get("source"):
        facts.append(text("detail.source", lang, source=data["source"]))
    facts.append(text("detail.origin", lang, file=rs.origin(entry.path)))
    ids = {entry.id} | ({term.id} if term is not None else set())
    examples = [run(rs, eid, ex, lang) for eid, ex in illustrating(rs, ids)]
    name = entry.name(lang) if entry.kind != "setting" else (term.name(lang) if term is not None else entry.id)
    return {
        "rules": rs.id,
        "rule": entry.id,
        "kind": entry.kind,
        "path": entry.path,
        "title": f"{name} ({entry.id})",
        "name": name,
        "text": entry.text(lang),
        "facts": facts,
        **extra,
        "examples": examples,
    }
