"""`mjtools replay`: a game record played again through the engine, every result checked."""

from __future__ import annotations

import os
import sys
from typing import Any

import click

from mjtools.cli.common import format_option, rules_option


def _table(records: list[dict[str, Any]]) -> str:
    lines = []
    for r in records:
        if "error" in r:
            lines.append(f"{r['game']} hand {r['hand']}: ERROR {r['error']}")
            continue
        if "review" in r:
            v = r["review"]
            lines.append(f"{os.path.basename(r['game'])}: player {v['player']}" + (f" ({v['name']})" if v.get("name") else "")
                         + f": {v['agreed']} of {v['decisions']} discards agree with the most efficient ({v['agreement']}%),"
                         + f" {v['effective_given_up']} live effective tiles given up, shanten lost {v['shanten_lost']} times")
            continue
        if "chosen" in r:
            best = ", ".join(b["tile"] for b in r["best"])
            lines.append(f"{os.path.basename(r['game'])} {r['round']:>6} turn {r['turn']:>2}  {r['held']}: discarded {r['discard']}"
                         + f" (shanten {r['chosen']['shanten']}, {r['chosen']['effective_count']} live), best {best}"
                         + f" (shanten {r['best'][0]['shanten']}, {r['best'][0]['effective_count']} live)")
            continue
        what = r["event"]
        comp = r.get("computed") or {}
        if what == "win":
            parts = []
            for w in comp.get("wins", []):
                how = "tsumo" if w["from"] is None else f"ron from {w['from']}"
                yaku = ", ".join(f"{k} {v}" for k, v in (w.get("yaku") or {}).items())
                parts.append(f"{w['seat']} {how}: {w.get('han')} han {w.get('fu')} fu {w.get('points')} ({yaku})")
            what = "; ".join(parts)
        elif comp.get("draw", {}).get("tenpai") is not None:
            what += f" (ready: {', '.join(map(str, comp['draw']['tenpai'])) or 'none'})"
        mark = "ok" if r["match"] else "MISMATCH " + "; ".join(r["mismatches"])
        lines.append(f"{os.path.basename(r['game'])} {r['round']:>6}  {what}  {mark}")
    return "\n".join(lines) + "\n"


@click.command()
@click.argument("logs", nargs=-1, metavar="[LOG]...")
@rules_option
@format_option
@click.option("-o", "--option", "rule_options", multiple=True, metavar="NAME=VALUE", help="Set a rule option (repeatable).")
@click.option("--review", "review_seat", default=None, metavar="PLAYER", help="Compare this player's discards (0-3, or a name in the record) with the most efficient choice.")
def replay(logs: tuple[str, ...], rules: str | None, fmt: str, rule_options: tuple[str, ...], review_seat: str | None) -> None:
    """Replay game records (mjlog XML, gzipped or not, tenhou.net/6 JSON, mjai JSON lines;
    files, or stdin with `-` or no LOG) and check every win and payment against the record.

    Situational flags (riichi, ippatsu, haitei / houtei, rinshan, chankan, tenhou / chiihou)
    come from the events. Rules: --rules, else what the record says (Tenhou's rule flags),
    else $MJTOOLS_RULES, else tenhou (tenhou-sanma for three players). Exit status 1 when a
    result differs from the record, 2 when a record is malformed (the hands before it are
    printed).

    \b
    Examples:
      mjtools replay examples/game.mjlog
      mjtools replay game.json --format jsonl
      mjtools replay game.mjlog --review 0
    """
    from mjtools.gamelog.check import check_game
    from mjtools.gamelog.read import parse, read_sources
    from mjtools.gamelog.replay import rules_for
    from mjtools.output import Renderer
    from mjtools.rules.hand_options import kv_pairs

    opts = kv_pairs(list(rule_options), "option")
    out = Renderer(fmt, "replay", batch=True, table=_table)
    broken = differs = False
    env = os.environ.get("MJTOOLS_RULES") or None
    for name, text in read_sources(logs):
        game = parse(text, name)
        rs = rules_for(game, rules, opts, env)
        if review_seat is not None:
            from mjtools.gamelog.review import review_game

            records = review_game(game, rs, review_seat)
        else:
            records = check_game(game, rs)
        for rec in records:
            broken |= "error" in rec
            differs |= rec.get("match") is False
            out.emit(rec)
    out.close()
    if broken:
        sys.exit(2)
    if differs:
        sys.exit(1)
