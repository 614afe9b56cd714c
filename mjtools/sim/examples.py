"""Simulate examples of rule files: rules that only play shows (换三张, 四风连打, 过手胡, who
deals next), checked by `expect` like any other example.

    examples:
      four_winds:
        command: simulate
        args:
          seed: 3                      # the run seed (default 0)
          index: 0                     # which hand of that run (default 0)
          bots: efficient              # one name, or one per seat (default efficient)
          hands: {E: 1z..., S: 1z...}  # tiles dealt to some seats (the rest is shuffled)
          draws: 5m7p                  # the first live tiles, in draw order
          script: {E: [discard 1z], S: [1z], W: [1z], N: [1z]}   # actions before the bots
        expect: {event: abort_four_winds, next_dealer: E}

The record is the hand's `--out` record plus `log` (every event in order) and `events_seen`
(their names); `expect: {event: NAME}` (or a list of names) holds when those events occurred.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mjtools.errors import UsageError
from mjtools.rules.model import Ruleset

ARG_KEYS = {"seed", "index", "bots", "hands", "draws", "script"}


def run_simulate_example(rules: Ruleset, example: Mapping[str, Any]) -> dict[str, Any]:
    """Play the example's hand (seed, index, prepared tiles, scripted actions) and return its
    record with every event that occurred."""
    from mjtools.sim.bots import parse_bots
    from mjtools.sim.runner import Job, play_hand
    from mjtools.sim.setup import Setup

    args = dict(example.get("args") or {})
    unknown = set(args) - ARG_KEYS
    if unknown:
        raise UsageError(f"simulate example: unknown args {', '.join(sorted(unknown))} (args: {', '.join(sorted(ARG_KEYS))})")
    seed = args.get("seed", 0)
    index = args.get("index", 0)
    if not isinstance(seed, int) or not isinstance(index, int) or index < 0:
        raise UsageError("simulate example: seed and index are integers (index >= 0)")
    bots = parse_bots(args.get("bots"), rules.players, allow_path=False)
    setup = Setup.from_args(args, rules.seats) if {"hands", "draws", "script"} & set(args) else None
    job = Job.from_rules(rules, bots, seed, index + 1, dict(rules.option_values))
    rec = play_hand(job, index, log=True, setup=setup)
    rec["events_seen"] = sorted({e["event"] for e in rec["log"]})
    return rec
