"""Simulate examples of rule files: rules that only play shows (换三张, 四风连打, 过手胡, who
deals next), checked by `expect` like any other example.

    examples:
      four_winds:
        command: simulate
        args:
          seed: 3                      # the run seed (default 0)
          index: 0                     # which hand of that run (default 0)
          hands: 1                     # the run's size (optional; index must be below it)
          bots: efficient              # one name, or one per seat (default efficient)
          deal: {E: 1z..., S: 1z...}   # tiles dealt to some seats (the rest is shuffled)
          draws: 5m7p                  # the first live tiles, in draw order
          script: {E: [discard 1z], S: [1z], W: [1z], N: [1z]}   # actions before the bots
        expect: {event: abort_four_winds, next_dealer: E}

The record is the hand's `--out` record plus `events`, the ids of what happened in order
(deal, exchange, void, riichi, pon, chi, kongs, kita, flower, counted_discard (a 红中杠 or 赖子杠,
play.discard_situations), pass_lock / furiten, win and the
fans of that win, multiple_ron, the abortive draw, exhaustive_draw, flower_pig_check,
ready_check_at_draw, kong_payment_refund), and `log`, every event with its seat and tile.
`expect: {event: X}` (or a list) holds when X is among the events.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mjtools.errors import UsageError
from mjtools.rules.model import Ruleset

ARG_KEYS = {"seed", "index", "hands", "bots", "deal", "draws", "script"}

# Ledger reasons of a draw's table case -> the special rule they show.
_DRAW_RULES = (("查花猪", "flower_pig_check"), ("查大叫", "ready_check_at_draw"), ("退税", "kong_payment_refund"), ("noten", "noten_payment"))


def run_simulate_example(rules: Ruleset, example: Mapping[str, Any]) -> dict[str, Any]:
    """Play the example's hand (seed, index, prepared tiles, scripted actions) and return its
    record with the events that occurred."""
    from mjtools.sim.bots import parse_bots
    from mjtools.sim.runner import Job, play_hand
    from mjtools.sim.setup import Setup

    args = dict(example.get("args") or {})
    unknown = set(args) - ARG_KEYS
    if unknown:
        raise UsageError(f"simulate example: unknown args {', '.join(sorted(unknown))} (args: {', '.join(sorted(ARG_KEYS))})")
    seed = args.get("seed", 0)
    index = args.get("index", 0)
    hands = args.get("hands", index + 1)
    if not all(isinstance(x, int) and not isinstance(x, bool) for x in (seed, index, hands)) or not 0 <= index < hands:
        raise UsageError("simulate example: seed, index and hands are integers, 0 <= index < hands")
    bots = parse_bots(args.get("bots"), rules.players, allow_path=False)
    setup = Setup.from_args(args, rules.seats) if {"deal", "draws", "script"} & set(args) else None
    job = Job.from_rules(rules, bots, seed, hands, dict(rules.option_values))
    rec = play_hand(job, index, log=True, setup=setup)
    rec["events"] = events_of(rec)
    return rec


def events_of(rec: Mapping[str, Any]) -> list[str]:
    """The ordered ids of what happened in a logged hand."""
    out = ["deal"]
    wins = iter(rec.get("wins", []))
    for e in rec["log"]:
        name = e["event"]
        if name in ("draw", "discard", "indicator", "wildcards", "riichi_accepted"):
            continue
        out.append(name)
        if name == "win":
            w = next(wins, None)
            if w is not None:
                out += [f for f in w["fans"] if f not in out]
    for word, rule in _DRAW_RULES:
        if any(word in str(x.get("reason", "")) for x in rec.get("draw_ledger", [])):
            out.append(rule)
    return out
