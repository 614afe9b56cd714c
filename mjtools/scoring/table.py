"""Table cases: settle a whole table at once (several winners, exhaustive draws).

    {"table": {"E": HAND, "S": HAND, ...}, "event": "win"|"draw", "winners": ["S", "W"],
     "from": "E", ...context options...}

A win scores each winner's hand (ron from `from`, else tsumo); under `head_bump` only the
claimant nearest the discarder in turn order wins. A draw applies the variant's exhaustive
rules (noten payments, 查大叫, 查花猪). `net` sums to zero with the pot.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mjtools.errors import UsageError
from mjtools.rules.model import Ruleset


def _num(x: float) -> float | int:
    return int(x) if float(x).is_integer() else round(x, 4)


def _hands(case: Mapping[str, Any], rs: Ruleset) -> dict[str, str]:
    table = case.get("table")
    if not isinstance(table, Mapping) or not table:
        raise UsageError('a table case has "table": {SEAT: HAND, ...}')
    for seat, hand in table.items():
        if seat not in rs.seats:
            raise UsageError(f"table: {seat!r} is not a seat of {rs.id} ({', '.join(rs.seats)})")
        if not isinstance(hand, str):
            raise UsageError(f"table: the hand of {seat} is a string")
    return dict(table)


def nearest_first(discarder: str, seats: str, claimants: list[str]) -> list[str]:
    order = [seats[(seats.index(discarder) + i) % len(seats)] for i in range(1, len(seats))]
    return sorted(claimants, key=order.index)


def settle_table(case: Mapping[str, Any], rs: Ruleset, lang: str = "en") -> dict[str, Any]:
    from mjtools.cli.options import build_context, normalize
    from mjtools.notation import parse_hand
    from mjtools.scoring import score

    hands = _hands(case, rs)
    event = case.get("event", "win")
    opts = {k: v for k, v in case.items() if k not in ("table", "event", "winners", "from")}
    ctx_opts = normalize(opts, "score")
    net = {s: 0.0 for s in rs.seats}
    ledger: list[dict[str, Any]] = []
    results: list[dict[str, Any]] = []
    if event == "win":
        winners = case.get("winners")
        if not isinstance(winners, list) or not winners or any(w not in hands for w in winners):
            raise UsageError('a win needs "winners": seats that are in the table')
        frm = case.get("from")
        if frm is not None and frm not in rs.seats:
            raise UsageError(f"from: {frm!r} is not a seat")
        if frm is None and len(winners) > 1:
            raise UsageError("several winners need a discarder: give \"from\"")
        if frm is not None and len(winners) > 1 and rs.section("calls").get("claims", "multiple_ron") == "head_bump":
            winners = nearest_first(frm, rs.seats, winners)[:1]
        for w in winners:
            o = dict(ctx_opts, seat=w)
            if frm is None:
                o["tsumo"] = True
            else:
                o["from"] = frm
            rec = score(parse_hand(hands[w]), rs, build_context(o, rs), hands[w], lang=lang)
            results.append({"seat": w, **rec})
            for entry in rec.get("ledger", []):
                ledger.append(entry)
    elif event == "draw":
        from mjtools.scoring.exhaustive import settle_draw

        results, ledger = settle_draw(hands, rs, ctx_opts)
    else:
        raise UsageError(f"event is win or draw, got {event!r}")
    pot = 0.0
    for e in ledger:
        if e["from"] == "pot":
            pot += e["amount"]
        else:
            net[e["from"]] -= e["amount"]
        if e["to"] == "pot":
            pot -= e["amount"]
        else:
            net[e["to"]] += e["amount"]
    return {"event": event, "results": results, "ledger": ledger, "net": {s: _num(v) for s, v in net.items()}, "pot": _num(pot)}
