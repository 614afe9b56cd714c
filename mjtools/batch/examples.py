"""Run a rule file's worked examples through the engine and compare with what they expect.

Used by the test suite (every example of every rule file is a test) and by explain-rule
(examples are computed live, never pasted).

Commands: score (a hand, or a `table` case), wait, shanten, and simulate:

    {command: simulate, args: {hands: 1, seed: S, index: I}, options: {...},
     expect: {event: kong_bloom}, illustrates: [kong_bloom], source: ...}

replays hand I of `simulate --seed S` under the rule file (options applied) through
`mjtools.sim.examples.run_simulate_example(rules, example)`, which returns a record with
`events` (the ids of what happened in that hand, in order: fans won, abortive draws, 一炮多响,
查花猪 ...); `expect: {event: X}` (or a list) holds when X is among them. Other expected keys
are compared with the record as for the other commands.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mjtools.rules.freeze import thaw
from mjtools.rules.model import Ruleset


def run_example(rs: Ruleset, ex: Mapping[str, Any], lang: str = "en") -> dict[str, Any]:
    """The record the example's command produces (its rule options applied)."""
    from mjtools.rules.hand_options import build_context, normalize
    from mjtools.tiles.notation import parse_hand

    ex = thaw(ex)
    command = ex.get("command", "score")
    rules = rs.with_options(ex.get("options", {}))
    if command == "simulate":
        from mjtools.sim.examples import run_simulate_example

        return run_simulate_example(rules, ex)
    args = dict(ex.get("args", {}))
    if "table" in ex:
        from mjtools.scoring.table import settle_table

        return settle_table({"table": ex["table"], **args}, rules, lang)
    opts = normalize(args, command)
    ctx = build_context(opts, rules)
    hand = parse_hand(ex["hand"])
    if command == "score":
        from mjtools.scoring import score

        return score(hand, rules, ctx, ex["hand"], explain=True, lang=lang)
    from mjtools.batch.records import shanten_record, wait_record

    return (shanten_record if command == "shanten" else wait_record)(hand, rules, ctx, ex["hand"])


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b or a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return abs(a - b) < 1e-9
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        return set(a) == set(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return a == b


def mismatches(record: Mapping[str, Any], expect: Mapping[str, Any]) -> list[str]:
    """Where the record differs from `expect` (a subset of its fields)."""
    out = []
    for key, want in thaw(expect).items():
        got = record.get(key, "<absent>")
        if key == "fans" and isinstance(got, list):
            have = {f["id"]: f["count"] for f in got}
            if isinstance(want, list):
                ok = set(want) == set(have)
            else:
                ok = have == want
            if not ok:
                out.append(f"fans: expected {want}, got {have}")
            continue
        if key == "event" and isinstance(record.get("events"), list):
            # A simulate example names one event (or several) the replayed hand must show.
            wanted = want if isinstance(want, list) else [want]
            missing = [w for w in wanted if w not in record["events"]]
            if missing:
                out.append(f"event: expected {', '.join(map(str, missing))} among {record['events']}")
            continue
        if key == "ledger" and isinstance(got, list) and isinstance(want, list):
            norm = lambda lst: sorted((e["from"], e["to"], float(e["amount"])) for e in lst)  # noqa: E731
            if norm(got) != norm(want):
                out.append(f"ledger: expected {want}, got {got}")
            continue
        if not _same(got, want):
            out.append(f"{key}: expected {want!r}, got {got!r}")
    return out
