"""Human-readable tables for the terminal (the machine formats live in output.py)."""

from __future__ import annotations

import sys
from typing import Any

import click

from mjtools.output import use_color


def _style(text: str, **kw: Any) -> str:
    return click.style(text, **kw) if use_color(sys.stdout) else text


def glyphs(text: str, unicode: bool) -> str:
    """Tiles in notation -> Unicode glyphs (kinds only; brackets kept)."""
    if not unicode:
        return text
    from mjtools.tiles import kind_glyph, parse_kind

    out: list[str] = []
    digits = ""
    for ch in text:
        if ch.isdigit():
            digits += ch
        elif ch in "mpszfj" and digits:
            out.extend(kind_glyph(parse_kind(f"{d}{ch}") if not (d == "0") else parse_kind(f"5{ch}")) for d in digits)
            digits = ""
        else:
            out.append(digits + ch)
            digits = ""
    return "".join(out) + digits


def _error_rows(records: list[dict[str, Any]]) -> list[str]:
    return [f"line {r['line']}: error: {r['error']}" for r in records if "error" in r]


def _shanten_word(s: int | None) -> str:
    if s is None:
        return "impossible"
    if s == -1:
        return _style("complete", fg="green", bold=True)
    if s == 0:
        return _style("ready (tenpai)", fg="green")
    return f"{s}-shanten"


def shanten_table(records: list[dict[str, Any]], unicode: bool = False) -> str:
    from tabulate import tabulate

    parts: list[str] = []
    for r in records:
        if "error" in r:
            continue
        head = (f"line {r['line']}: " if "line" in r else "") + f"{glyphs(r['hand'], unicode)}  [{r['rules']}]  {_shanten_word(r['shanten'])}"
        forms = ", ".join(f"{k} {('-' if v is None else v)}" for k, v in r["forms"].items())
        lines = [head, f"  forms: {forms}"]
        if r.get("unmet"):
            lines.append("  not decided by shape: " + ", ".join(r["unmet"]))
        if "discards" in r:
            rows = [[glyphs(d["tile"], unicode), d["shanten"], d["effective_count"], glyphs(" ".join(d["effective"]), unicode)] for d in r["discards"]]
            lines.append(tabulate(rows, headers=["discard", "shanten", "live", "effective tiles"], tablefmt="simple"))
        elif r.get("effective"):
            lines.append(f"  effective: {glyphs(' '.join(r['effective']), unicode)} ({r['effective_count']} live)")
        parts.append("\n".join(lines))
    parts += _error_rows(records)
    return "\n\n".join(parts) + "\n" if parts else ""


def _winning(w: dict[str, bool]) -> str:
    if w["ron"] and w["tsumo"]:
        return "ron, tsumo"
    if w["tsumo"]:
        return "tsumo only"
    if w["ron"]:
        return "ron only"
    return _style("no legal win", fg="red")


def wait_table(records: list[dict[str, Any]], unicode: bool = False) -> str:
    from tabulate import tabulate

    parts: list[str] = []
    for r in records:
        if "error" in r:
            continue
        head = (f"line {r['line']}: " if "line" in r else "") + f"{glyphs(r['hand'], unicode)}  [{r['rules']}]  " + (_style("ready", fg="green") if r["tenpai"] else "not ready")
        lines = [head]
        if "waits" in r and r["waits"]:
            rows = [[glyphs(k, unicode), r["live"][k], _winning(r["winning"][k])] for k in r["waits"]]
            lines.append(tabulate(rows, headers=["wait", "live", "legal win"], tablefmt="simple"))
            lines.append(f"  {sum(r['live'].values())} live winning tiles")
            if r.get("improvements"):
                imp = ", ".join(f"{i['draw']} (cut {i['discard']}: {i['live_count']})" for i in r["improvements"][:8])
                lines.append(f"  improves on: {glyphs(imp, unicode)}")
        for d in r.get("discards", []):
            ws = " ".join(f"{k}({d['live'][k]})" for k in d["waits"])
            lines.append(f"  cut {glyphs(d['discard'], unicode)}: waits {glyphs(ws, unicode)} = {d['live_count']} live")
        parts.append("\n".join(lines))
    parts += _error_rows(records)
    return "\n\n".join(parts) + "\n" if parts else ""


def score_table(records: list[dict[str, Any]], unicode: bool = False, lang: str = "en") -> str:
    from tabulate import tabulate

    parts: list[str] = []
    for r in records:
        if "error" in r:
            continue
        if "results" in r:  # a table case
            lines = [f"line {r.get('line', '-')}: table {r['event']}"]
            for sub in r["results"]:
                lines.append(f"  {sub.get('seat', '')} {sub['hand']}: {sub['points']} ({'valid' if sub['valid'] else sub['reason']})")
            lines.append("  net: " + ", ".join(f"{s} {v:+g}" for s, v in r["net"].items()))
            parts.append("\n".join(lines))
            continue
        head = (f"line {r['line']}: " if "line" in r else "") + f"{glyphs(r['hand'], unicode)}  [{r['rules']}]"
        if not r["valid"]:
            invalid = [head, "  " + _style("not a legal win", fg="red") + f": {r['reason']}"]
            if "explain" in r:
                from mjtools.explain.render import score_explain_lines

                invalid += score_explain_lines(r["explain"], lang)
            parts.append("\n".join(invalid))
            continue
        rows = [[f["name"], f["id"], f"{f['value']:g}" + (f" x{f['count']}" if f["count"] != 1 else ""), f["unit"]] for f in r["fans"]]
        lines = [head, tabulate(rows, headers=["fan", "id", "value", "unit"], tablefmt="simple")]
        total = f"  total: {r['fan_total']:g}"
        if "han" in r:
            total = f"  {r['han']} han {r['fu']} fu" if r.get("fu") else f"  {r['han']} han"
        if r.get("limit"):
            total += f" ({r['limit']})"
        lines.append(total)
        pays = ", ".join(f"{s} {a:g}" for s, a in r["payments"].items() if a)
        lines.append(_style(f"  points: {r['points']:g}", bold=True) + (f"  paid by {pays}" if pays else "") + (f", pot {r['pot']:g}" if r.get("pot") else ""))
        if "explain" in r:
            from mjtools.explain.render import score_explain_lines

            lines += score_explain_lines(r["explain"], lang)
        parts.append("\n".join(lines))
    parts += _error_rows(records)
    return "\n\n".join(parts) + "\n" if parts else ""
