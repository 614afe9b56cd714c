"""Settlement at an exhaustive draw (table case event "draw"): settlement.exhaustive.

Only the players still in the hand (`active`, default every seat) are checked; each needs a
hand of hand-size tiles. In order:

- noten_penalty (riichi): split between the players who are not ready and those who are;
- kong money of every checked hand (unless kong_money: cancel or kong_paid_only_by_winner),
  then 退税 (kong_payment_refund): a kong-maker who is not ready or is a flower pig gives it back;
- 查花猪 (flower_pig): a hand holding all three suits pays every other checked player who is
  not a pig base x 2^fan (or amount x base);
- 查大叫 (ready_check): a player who is not ready (pigs too only with pigs_pay) pays every ready
  player that player's highest hand value over his waits, scored as a discard win.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mjtools.errors import UsageError
from mjtools.rules.model import Ruleset
from mjtools.scoring.models import num
from mjtools.tiles.hand import Hand


def ready(hand_text: str, rs: Ruleset, opts: dict[str, Any]) -> bool:
    return bool(_waits(hand_text, rs, opts))


def _waits(hand_text: str, rs: Ruleset, opts: dict[str, Any], parsed: Hand | None = None) -> list[str]:
    """`wait`'s waits, without what `wait` adds: most hands at a draw are not ready (the
    shanten says so at once) and `wait` would also score every wait."""
    from mjtools.analysis.shanten import shanten_of_state, state_of
    from mjtools.analysis.waits import waits_of
    from mjtools.rules.hand_options import build_context
    from mjtools.rules.validate import SUIT_GROUP, prepare
    from mjtools.tiles.kinds import kind_str
    from mjtools.tiles.notation import parse_hand

    hand = parsed if parsed is not None else parse_hand(hand_text)
    if hand.last is not None:
        raise UsageError(f"a player who has not won holds {rs.hand_size} tiles and no + tile: {hand_text}")
    ctx = build_context(opts, rs)
    hand, spec = prepare(hand, rs, ctx, hand_text)
    if hand.size != rs.hand_size:
        raise UsageError(f"a player who has not won holds {rs.hand_size} tiles: {hand_text}")
    st = state_of(hand, spec)
    void = None if ctx.void is None else SUIT_GROUP[ctx.void]
    if shanten_of_state(st, spec, void)[0] != 0:
        return []
    return [kind_str(k) for k in waits_of(st, spec, list(rs.copies), void)]


def flower_pig(hand: Hand) -> bool:
    """花猪: still holding tiles of all three number suits."""
    return {t.suit for t in hand.all_tiles()} >= {"m", "p", "s"}


def best_ready_value(hand: Hand, waits: list[str], rs: Ruleset, opts: dict[str, Any]) -> float:
    """The most one payer would pay for this ready hand over its waits (a discard win)."""
    from mjtools.rules.hand_options import build_context
    from mjtools.scoring import best_value
    from mjtools.tiles.notation import parse_tile

    ctx = build_context({k: v for k, v in opts.items() if k not in ("tsumo", "from")}, rs)
    best = 0.0
    for w in waits:
        v = best_value(hand.with_last(parse_tile(w)), rs, ctx)
        if v is not None:
            best = max(best, v.points)
    return best


def _kong_money(hands: dict[str, Hand], rs: Ruleset, opts: dict[str, Any], out_of_hand: set[str]) -> list[dict[str, Any]]:
    from mjtools.rules.hand_options import build_context
    from mjtools.scoring.kongs import kong_entries

    st = rs.section("settlement")
    ex = st.get("exhaustive", {})
    if not st.get("kong_payments") or st.get("kong_paid_only_by_winner") or ex.get("kong_money") == "cancel":
        return []
    ledger: list[dict[str, Any]] = []
    for seat, hand in hands.items():
        paid = kong_entries(hand, seat, rs, build_context(dict(opts, seat=seat), rs))
        ledger += paid
        if st.get("kong_payment_refund") and seat in out_of_hand:
            ledger += [{"from": e["to"], "to": e["from"], "amount": e["amount"], "reason": f"退税: {seat} is not ready, {e['reason']} returned"} for e in paid]
    return ledger


def settle_draw(hands: dict[str, str], rs: Ruleset, opts: dict[str, Any], known_waits: Mapping[str, list[str]] | None = None) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """`known_waits`: seat -> the waits `_waits` would find, from a caller that has them
    already (the simulator's analysis); seats not in it are worked out here."""
    from mjtools.tiles.notation import parse_hand

    st = rs.section("settlement")
    ex = st.get("exhaustive")
    if not ex:
        raise UsageError(f"{rs.id} settles nothing at an exhaustive draw")
    active = [s for s in rs.seats if not opts.get("active") or s in opts["active"]]
    for seat in active:
        if seat not in hands:
            raise UsageError(f"a draw needs the hand of every player still in ({', '.join(active)}); {seat} is missing")
    base = rs.section("scoring").get("base", 1)
    parsed = {s: parse_hand(hands[s]) for s in active}
    known = known_waits or {}
    waits = {s: known[s] if s in known else _waits(hands[s], rs, dict(opts, seat=s), parsed[s]) for s in active}
    tenpai = {s: bool(waits[s]) for s in active}
    pig_rule = ex.get("flower_pig") if (ex.get("flower_pig") or {}).get("enabled", True) else None
    pigs = {s for s in active if pig_rule and flower_pig(parsed[s])}
    results: list[dict[str, Any]] = []
    for s in active:
        rec: dict[str, Any] = {"seat": s, "hand": hands[s], "tenpai": tenpai[s]}
        if pig_rule:
            rec["flower_pig"] = s in pigs
        results.append(rec)
    ledger: list[dict[str, Any]] = []
    penalty = ex.get("noten_penalty")
    if penalty:
        up = [s for s in active if tenpai[s]]
        down = [s for s in active if not tenpai[s]]
        if up and down:
            for d in down:
                for u in up:
                    ledger.append({"from": d, "to": u, "amount": num(penalty / len(down) / len(up)), "reason": "noten payment"})
    ledger += _kong_money(parsed, rs, opts, {s for s in active if not tenpai[s] or s in pigs})
    if pig_rule:
        amount = pig_rule["amount"] * base if "amount" in pig_rule else base * 2 ** pig_rule.get("fan", 0)
        for p in sorted(pigs, key=rs.seats.index):
            for other in active:
                if other not in pigs:
                    ledger.append({"from": p, "to": other, "amount": num(amount), "reason": f"查花猪: {p} holds all three suits"})
    check = ex.get("ready_check")
    if check and check.get("enabled", True):
        for r in results:
            if r["tenpai"]:
                r["best"] = num(best_ready_value(parsed[r["seat"]], waits[r["seat"]], rs, dict(opts, seat=r["seat"])))
        payers = [s for s in active if not tenpai[s] and (s not in pigs or check.get("pigs_pay"))]
        for r in results:
            if r["tenpai"] and r["best"]:
                for p in payers:
                    ledger.append({"from": p, "to": r["seat"], "amount": r["best"], "reason": f"查大叫: {p} is not ready; {r['seat']} is ready for {r['best']}"})
    return results, ledger
