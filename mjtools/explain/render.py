"""The table (terminal) form of explain-rule records and of `score --explain`."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from mjtools.messages import has, text, unit_word, yakuman_word
from mjtools.output import table


def listing_table(rows: list[dict[str, Any]], lang: str) -> str:
    cols = ("id", "zh", "en", "players", "tiles", "hand", "wildcards", "model")
    headers = [text(f"list.{c}", lang) for c in cols]
    return table([[r[c] for c in cols] for r in rows], headers) + "\n"


def overview_text(rec: dict[str, Any], lang: str) -> str:
    return rec["title"] + "\n\n" + rec["text"] + "\n"


def _example_input(ex: Mapping[str, Any]) -> str:
    parts = [ex["hand"]] if ex.get("hand") else []
    if ex.get("table"):
        parts.append(json.dumps(ex["table"], ensure_ascii=False))
    parts += [f"--{k.replace('_', '-')} {' '.join(map(str, v)) if isinstance(v, list) else v}" if v is not True else f"--{k.replace('_', '-')}" for k, v in ex.get("args", {}).items()]
    parts += [f"-o {k}={v}" for k, v in ex.get("options", {}).items()]
    return " ".join(str(p) for p in parts) or ex.get("command", "")


def examples_text(examples: list[dict[str, Any]], lang: str) -> list[str]:
    if not examples:
        return [text("detail.no_examples", lang)]
    lines = [text("detail.examples", lang)]
    for ex in examples:
        if ex["holds"] is None:
            mark = text("example.not_run", lang)
        else:
            mark = text("example.holds" if ex["holds"] else "example.fails", lang)
        lines.append(f"  {ex['id']} [{ex['command']}]: {_example_input(ex)}")
        if ex.get("text"):
            lines.append(f"    {ex['text']}")
        if ex.get("summary"):
            lines.append(f"    -> {ex['summary']}  ({mark})")
        else:
            lines.append(f"    ({mark})")
        for p in ex.get("problems", ()):
            lines.append(f"    ! {p}")
        steps = (ex.get("result") or {}).get("explain", {}).get("steps", [])
        lines += [f"      {s}" for s in steps]
    return lines


def detail_text(rec: dict[str, Any], lang: str) -> str:
    lines = [f"{rec['title']} - {text('kind.' + rec['kind'], lang)} [{rec['rules']}]"]
    if rec.get("text"):
        lines.append(f"  {rec['text']}")
    lines += [f"  {f}" for f in rec["facts"]]
    if rec.get("values"):
        lines.append(text("detail.values", lang))
        for v in rec["values"]:
            mark = "*" if v["current"] else "-"
            sets = "; ".join(f"{p} = {json.dumps(x, ensure_ascii=False)}" for p, x in v["sets"].items())
            shown = v["value"] if isinstance(v["value"], str) else json.dumps(v["value"])
            lines.append(f"  {mark} {shown}" + (f": {v['text']}" if v["text"] else "") + (f"  -> {sets}" if sets else ""))
    lines += examples_text(rec["examples"], lang)
    return "\n".join(lines) + "\n"


WIDE = 110  # a search table cell longer than this is cut (JSON keeps it whole)


def _cut(value: str) -> str:
    return value if len(value) <= WIDE else value[: WIDE - 1] + "…"


def search_text(rec: dict[str, Any], lang: str) -> str:
    out = []
    for t in rec["terms"]:
        head = f"{' / '.join(t['zh'])} ({t['id']}) - {', '.join(t['en'])}"
        rows = [[f["variant"], text("kind." + f["kind"], lang), f["path"], f["name"], _cut(f["what"])] for f in t["found"]]
        block = [head]
        if rows:
            block.append(table(rows, [text(f"search.{c}", lang) for c in ("variant", "kind", "path", "name", "what")]))
        else:
            block.append("  " + text("search.none_shipped", lang))
        if t["not_shipped"]:
            block.append("  " + text("search.not_shipped", lang, variants=", ".join(t["not_shipped"])))
        if t["missing"]:
            block.append("  " + text("search.missing", lang, variants=", ".join(t["missing"])))
        out.append("\n".join(block))
    if rec["rules"]:
        rows = [[f["variant"], text("kind." + f["kind"], lang), f["path"], f["name"], _cut(f["what"])] for f in rec["rules"]]
        out.append(table(rows, [text(f"search.{c}", lang) for c in ("variant", "kind", "path", "name", "what")]))
    return "\n\n".join(out) + "\n"


def score_explain_lines(explain: Mapping[str, Any], lang: str) -> list[str]:
    """The explain block under a score table: decomposition, fans and their rules, exclusions, steps."""
    lines = ["  " + text("score.how", lang)]
    wait = f" ({text('wait.' + explain['wait'], lang)})" if explain.get("wait") and _has("wait." + explain["wait"]) else ""
    if explain["decomposition"]:
        lines.append("    " + text("score.decomposition", lang, blocks=" ".join(explain["decomposition"]), wait=wait))
    for a in explain["awarded"]:
        lines.append(f"    + {a['name']} ({a['id']}) {a['value']:g} {unit_word(a['unit'], lang)}: {a['rule']}")
    for x in explain["excluded"]:
        lines.append("    - " + text("score.excluded", lang, name=x["name"], id=x["id"], by=x["by_name"]))
    lines.append("    " + text("score.steps", lang))
    lines += [f"      {i}. {s}" for i, s in enumerate(explain["steps"], 1)]
    return lines


def _has(key: str) -> bool:
    return has(key)


def limit_words(limit: str, lang: str) -> str:
    """A record's limit name in `lang`, word by word ("2x yakuman", "kazoe yakuman", "cap")."""
    words = []
    for w in limit.split():
        if w.endswith("x") and w[:-1].isdigit():
            words.append(text("limit.times", lang, n=w[:-1]))
        else:
            words.append(text(f"limit.{w}", lang) if has(f"limit.{w}") else w)
    return (" " if lang == "en" else "").join(words)


def score_value(rec: Mapping[str, Any], lang: str) -> str:
    """What a valid score record is worth, in words: yakuman counted in yakuman (no fu: it
    does not matter), han and fu, or the fan total, with the limit or tier reached."""
    fans = rec.get("fans", ())
    yakuman = [f for f in fans if f.get("unit") == "yakuman"]
    if yakuman and rec.get("han"):
        return yakuman_word(rec["han"] // 13, lang)
    if any(f.get("unit") == "limit" for f in fans):
        return text("table.total", lang, total=f"{rec['fan_total']:g}") + f" ({text('table.limit_hand', lang, id=rec.get('limit') or '')})"
    if rec.get("han") is not None:
        out = text("table.han_fu", lang, han=rec["han"], fu=rec["fu"]) if rec.get("fu") else text("table.han", lang, han=rec["han"])
    else:
        out = text("table.total", lang, total=f"{rec['fan_total']:g}")
    for extra in (rec.get("limit"), rec.get("tier")):
        if extra:
            out += f" ({limit_words(str(extra), lang)})"
    return out
