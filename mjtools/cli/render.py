"""Human-readable tables for the terminal (the machine formats live in output.py)."""

from __future__ import annotations

import sys
from typing import Any

import click

from mjtools.output import table, use_color


def _style(text: str, **kw: Any) -> str:
    return click.style(text, **kw) if use_color(sys.stdout) else text


def glyphs(text: str, unicode: bool) -> str:
    """Tiles in notation -> Unicode glyphs (kinds only; brackets kept)."""
    if not unicode:
        return text
    from mjtools.tiles.kinds import kind_glyph, parse_kind

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


def _shanten_word(s: int | None) -> str:
    if s is None:
        return "impossible"
    if s == -1:
        return _style("complete", fg="green", bold=True)
    if s == 0:
        return _style("ready (tenpai)", fg="green")
    return f"{s}-shanten"


def shanten_table(records: list[dict[str, Any]], unicode: bool = False) -> str:
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
            lines.append(table(rows, ["discard", "shanten", "live", "effective tiles"]))
        elif r.get("effective"):
            # Ready: the tiles that lower the shanten are the ones that complete the hand.
            word = "wins on" if r["shanten"] == 0 else "effective"
            lines.append(f"  {word}: {glyphs(' '.join(r['effective']), unicode)} ({r['effective_count']} live)")
        parts.append("\n".join(lines))
    return "\n\n".join(parts) + "\n" if parts else ""


def _winning(w: dict[str, bool]) -> str:
    """The ways (ron, tsumo) a wait wins; "only" where the other way was checked and fails."""
    ways = [way for way in ("ron", "tsumo") if w.get(way)]
    if not ways:
        return _style("no legal win", fg="red")
    return ", ".join(ways) + (" only" if len(ways) < len(w) else "")


def wait_table(records: list[dict[str, Any]], unicode: bool = False) -> str:
    parts: list[str] = []
    for r in records:
        if "error" in r:
            continue
        head = (f"line {r['line']}: " if "line" in r else "") + f"{glyphs(r['hand'], unicode)}  [{r['rules']}]  " + (_style("ready", fg="green") if r["tenpai"] else "not ready")
        lines = [head]
        if "waits" in r and r["waits"]:
            rows = [[glyphs(k, unicode), r["live"][k], _winning(r["winning"][k])] for k in r["waits"]]
            lines.append(table(rows, ["wait", "live", "legal win"]))
            lines.append(f"  {sum(r['live'].values())} live winning tiles")
            if r.get("improvements"):
                imp = ", ".join(f"{i['draw']} (cut {i['discard']}: {i['live_count']})" for i in r["improvements"][:8])
                lines.append(f"  improves on: {glyphs(imp, unicode)}")
        for d in r.get("discards", []):
            ws = " ".join(f"{k}({d['live'][k]})" for k in d["waits"])
            lines.append(f"  cut {glyphs(d['discard'], unicode)}: waits {glyphs(ws, unicode)} = {d['live_count']} live")
        parts.append("\n".join(lines))
    return "\n\n".join(parts) + "\n" if parts else ""


def score_table(records: list[dict[str, Any]], unicode: bool = False, lang: str = "en") -> str:
    from mjtools.explain.render import score_explain_lines, score_value
    from mjtools.messages import text, unit_word

    parts: list[str] = []
    for r in records:
        if "error" in r:
            continue
        if "results" in r:  # a table case
            parts.append(_table_case(r, unicode, lang))
            continue
        head = (f"line {r['line']}: " if "line" in r else "") + f"{glyphs(r['hand'], unicode)}  [{r['rules']}]"
        if not r["valid"]:
            invalid = [head, "  " + _style(text("table.not_a_win", lang), fg="red") + f": {r['reason']}"]
            if "explain" in r:
                invalid += score_explain_lines(r["explain"], lang)
            parts.append("\n".join(invalid))
            continue
        rows = [[f["name"], f["id"], f"{f['value']:g}" + (f" x{f['count']}" if f["count"] != 1 else ""), unit_word(f["unit"], lang)] for f in r["fans"]]
        headers = [text(f"table.{c}", lang) for c in ("fan", "id", "value", "unit")]
        lines = [head, table(rows, headers), "  " + score_value(r, lang)]
        pays = ", ".join(f"{s} {a:g}" for s, a in r["payments"].items() if a)
        points = _style("  " + text("table.points", lang, points=f"{r['points']:g}"), bold=True)
        lines.append(points + ("  " + text("table.paid_by", lang, pays=pays) if pays else "") + (", " + text("table.pot", lang, pot=f"{r['pot']:g}") if r.get("pot") else ""))
        if "explain" in r:
            lines += score_explain_lines(r["explain"], lang)
        parts.append("\n".join(lines))
    return "\n\n".join(parts) + "\n" if parts else ""


def _table_case(r: dict[str, Any], unicode: bool, lang: str = "en") -> str:
    """A table case: each player's result, every ledger entry with its reason, the net."""
    from mjtools.messages import text

    lines = [(f"line {r['line']}: " if "line" in r else "") + text("table.case", lang, event=r["event"])]
    for sub in r["results"]:
        hand = glyphs(sub.get("hand", ""), unicode)
        if "points" in sub:  # a winner's score record
            fans = ", ".join(f["id"] + (f" x{f['count']}" if f["count"] != 1 else "") for f in sub.get("fans", []))
            what = f"{sub['points']:g} ({fans})" if sub.get("valid") else _style(text("table.not_a_win", lang), fg="red") + f": {sub.get('reason')}"
        else:  # a player at a draw
            if not sub.get("tenpai"):
                bits = [text("table.not_ready", lang)]
            elif sub.get("best") is not None:
                bits = [text("table.ready_best", lang, best=f"{sub['best']:g}")]
            else:
                bits = [text("table.ready", lang)]
            if sub.get("flower_pig"):
                bits.append(text("table.flower_pig", lang))
            what = "; ".join(bits)
        lines.append(f"  {sub.get('seat', '')} {hand}: {what}")
    if r.get("bumped"):
        lines.append("  " + text("table.bumped", lang, seats=", ".join(r["bumped"])))
    for e in r.get("ledger", []):
        lines.append(f"  {e['from']} -> {e['to']} {e['amount']:g}  {e['reason']}")
    lines.append(_style("  " + text("table.net", lang, net=", ".join(f"{s} {v:+g}" for s, v in r["net"].items())), bold=True))
    if r.get("next_dealer"):
        lines.append("  " + text("table.next_dealer", lang, seat=r["next_dealer"]))
    return "\n".join(lines)
