"""Table cases: settle a whole table at once (several winners, exhaustive draws).

    {"table": {"E": HAND, "S": HAND, ...}, "event": "win"|"draw", "winners": ["S", "W"],
     "from": "E", ...context options (active, birds, streak, indicator, situation, ...)}

A win scores each winner's hand (ron from `from`, else tsumo). Several winners on one discard
all win under `calls.claims: multiple_ron` (一炮多响); under `head_bump` only the claimant
nearest the discarder in turn order wins (seed 003: South beats North when East discards).
After the winners' records: 呼叫转移 (the discarder's last kong money goes to the winner on a
杠上炮) and chickens for every hand at the table. A draw applies settlement.exhaustive
(scoring/exhaustive.py). `net` sums to zero with the pot.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mjtools.errors import UsageError
from mjtools.rules.model import Ruleset
from mjtools.scoring.models import num

CASE_KEYS = ("table", "event", "winners", "from", "offender", "seat_options")


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


def _winners(case: Mapping[str, Any], hands: dict[str, str], rs: Ruleset) -> tuple[list[str], str | None, list[str]]:
    """(winners after head bump, discarder, bumped claimants)."""
    winners = case.get("winners")
    if not isinstance(winners, list) or not winners or any(w not in hands for w in winners) or len(set(winners)) != len(winners):
        raise UsageError('a win needs "winners": distinct seats that are in the table')
    frm = case.get("from")
    if frm is not None and frm not in rs.seats:
        raise UsageError(f"from: {frm!r} is not a seat")
    if frm in winners:
        raise UsageError(f"from: {frm} is the discarder and cannot be among the winners")
    if frm is None and len(winners) > 1:
        raise UsageError('several winners need a discarder: give "from"')
    bumped: list[str] = []
    if frm is not None and len(winners) > 1 and rs.section("calls").get("claims", "multiple_ron") == "head_bump":
        ordered = nearest_first(frm, rs.seats, winners)
        winners, bumped = ordered[:1], ordered[1:]
    return winners, frm, bumped


def _transfer(rs: Ruleset, hands: dict[str, str], frm: str, winner: str, ctx_opts: dict[str, Any]) -> list[dict[str, Any]]:
    """呼叫转移: the money the discarder's last kong collected goes to the winner."""
    from mjtools.rules.hand_options import build_context
    from mjtools.scoring.kongs import kong_entries, last_kong
    from mjtools.tiles.notation import parse_hand

    if frm not in hands:
        raise UsageError(f"呼叫转移 (settlement.kong_payment_transfer) needs the discarder's hand: add {frm} to the table")
    hand = parse_hand(hands[frm])
    kong = last_kong(hand)
    if kong is None:
        raise UsageError(f"呼叫转移: the last meld of {frm} ({hands[frm]}) is not a kong, so this is no 杠上炮")
    from mjtools.tiles.hand import Hand

    paid = kong_entries(Hand(melds=(kong,)), frm, rs, build_context(dict(ctx_opts, seat=frm), rs))
    total = sum(e["amount"] for e in paid)
    return [{"from": frm, "to": winner, "amount": num(total), "reason": f"呼叫转移: the money of kong {kong} goes to the winner"}] if total else []


def _chickens(rs: Ruleset, hands: dict[str, str], winners: list[str], ctx_opts: dict[str, Any]) -> list[dict[str, Any]]:
    from mjtools.rules.hand_options import build_context
    from mjtools.scoring.bonuses import chicken_entries
    from mjtools.scoring.exhaustive import ready
    from mjtools.tiles.notation import parse_hand

    cfg = rs.section("settlement").get("chickens")
    if not cfg:
        return []
    parsed = {s: parse_hand(h) for s, h in hands.items()}
    readiness = None
    if cfg.get("penalty", "none") == "not_ready":
        readiness = {s: ready(h, rs, dict(ctx_opts, seat=s, tsumo=False)) for s, h in hands.items() if s not in winners}
    ctx = build_context(ctx_opts, rs)
    return chicken_entries(parsed, rs, ctx, winners, readiness)


def follow_dealer_entries(rs: Ruleset, ctx_opts: Mapping[str, Any]) -> list[dict[str, Any]]:
    """跟庄 (situation follow_dealer=N): the dealer pays each other player amount x base, N times."""
    n = (ctx_opts.get("situation") or {}).get("follow_dealer", 0)
    if not n:
        return []
    cfg = rs.section("settlement").get("follow_dealer")
    if not cfg:
        raise UsageError(f"situation follow_dealer: {rs.id} has no 跟庄 (settlement.follow_dealer)")
    amount = cfg.get("amount", 1) * rs.section("scoring").get("base", 1) * n
    return [{"from": "E", "to": s, "amount": num(amount), "reason": f"跟庄 x{n}: the dealer pays"} for s in rs.seats if s != "E"]


def false_win_entries(case: Mapping[str, Any], rs: Ruleset) -> list[dict[str, Any]]:
    """诈胡 (event false_win, "offender": SEAT): the offender pays each other player."""
    cfg = rs.section("settlement").get("false_win")
    if not cfg:
        raise UsageError(f"event false_win: {rs.id} has no 诈胡 penalty (settlement.false_win)")
    who = case.get("offender")
    if not isinstance(who, str) or who not in rs.seats:
        raise UsageError(f'event false_win needs "offender": one of {", ".join(rs.seats)}')
    dealer = rs.section("settlement").get("dealer", {})
    base = cfg.get("amount", 1) * rs.section("scoring").get("base", 1)
    out = []
    for s in rs.seats:
        if s == who:
            continue
        factor = dealer.get("multiplier", 1) if "E" in (s, who) else 1
        out.append({"from": who, "to": s, "amount": num(base * factor), "reason": f"诈胡: {who} declared a false win"})
    return out


def next_dealer(rs: Ruleset, event: str, winners: list[str], frm: str | None, results: list[dict[str, Any]]) -> str | None:
    """Who deals the next hand after this table case (East deals it), from play.next_dealer
    (after a win) and wall.exhaustive_dealer (after a draw); None when the file does not say."""
    seats = rs.seats
    if event == "draw":
        how = rs.section("wall").get("exhaustive_dealer")
        if how == "ready_repeat":
            east = next((r for r in results if r.get("seat") == "E"), None)
            return None if east is None else "E" if east.get("tenpai") else seats[1]
        return {"repeat": "E", "rotate": seats[1]}.get(how)
    how = rs.section("play").get("next_dealer")
    if event != "win" or not winners or how is None:
        return None
    if how == "first_winner":
        # 血战 / 长沙: the first winner deals; after several wins on one discard, the discarder.
        return frm if frm is not None and len(winners) > 1 else winners[0]
    if how == "winner":
        return nearest_first(frm, seats, winners)[0] if frm is not None else winners[0]
    if how == "dealer_wins_repeat":
        return "E" if "E" in winners else seats[1]
    return seats[1]  # rotate


def seat_options(case: Mapping[str, Any], rs: Ruleset) -> dict[str, dict[str, Any]]:
    """`"seat_options": {SEAT: {option: value}}`: options of one seat's hand (a winner in
    riichi, another not), normalised like the case's own options."""
    from mjtools.rules.hand_options import normalize

    raw = case.get("seat_options") or {}
    if not isinstance(raw, Mapping):
        raise UsageError('seat_options is {SEAT: {option: value, ...}}')
    out: dict[str, dict[str, Any]] = {}
    for seat, opts in raw.items():
        if seat not in rs.seats:
            raise UsageError(f"seat_options: {seat!r} is not a seat of {rs.id} ({', '.join(rs.seats)})")
        if not isinstance(opts, Mapping):
            raise UsageError(f"seat_options.{seat} is a JSON object of options")
        bad = [k for k in opts if k in ("seat", "tsumo", "ron", "from")]
        if bad:
            raise UsageError(f"seat_options.{seat} takes no {bad[0]!r}: the seats come from \"table\" and \"winners\", ron from \"from\"")
        out[seat] = normalize(dict(opts), "score")
    return out


def _bonus_for(rs: Ruleset, order: list[str], w: str, ctx_opts: Mapping[str, Any]) -> dict[str, Any]:
    """Honba and riichi sticks of a win on a discard with several winners: the sticks (one
    pot) go to the winner nearest the discarder; the honba to him too, or to each winner
    (settlement.riichi.multiple_ron_honba)."""
    if len(order) < 2 or w == order[0]:
        return {}
    each = (rs.section("settlement").get("riichi") or {}).get("multiple_ron_honba", "nearest") == "each"
    out: dict[str, Any] = {"sticks": 0}
    if not each:
        out["honba"] = 0
    return out


def settle_table(case: Mapping[str, Any], rs: Ruleset, lang: str = "en", names: bool = False, known_waits: Mapping[str, list[str]] | None = None) -> dict[str, Any]:
    """`known_waits`: at a draw, seat -> the hand's waits where the caller has them already
    (`exhaustive.settle_draw`)."""
    from mjtools.rules.hand_options import build_context, normalize
    from mjtools.scoring import score
    from mjtools.tiles.notation import parse_hand

    hands = _hands(case, rs)
    event = case.get("event", "win")
    opts = {k: v for k, v in case.items() if k not in CASE_KEYS}
    seat_options(case, rs)  # checked up front, whatever the event
    ctx_opts = normalize(opts, "score")
    for key in ("seat", "tsumo", "ron"):
        if key in ctx_opts:
            raise UsageError(f"a table case takes no {key!r}: the seats come from \"table\" and \"winners\", ron from \"from\"")
    net = {s: 0.0 for s in rs.seats}
    ledger: list[dict[str, Any]] = []
    results: list[dict[str, Any]] = []
    out: dict[str, Any] = {"event": event}
    if event == "win":
        winners, frm, bumped = _winners(case, hands, rs)
        if bumped:
            out["bumped"] = bumped
        order = nearest_first(frm, rs.seats, winners) if frm is not None else winners
        if frm is not None and len(winners) >= 3 and "abort_triple_ron" in (rs.section("play").get("abortive_draws") or ()):
            # 三家和: three winners on one discard end the hand without a payment.
            out.update(event="abort", abort="abort_triple_ron", winners=order, results=[], ledger=[], net={s: 0 for s in rs.seats}, pot=0, next_dealer="E")
            return out
        st = rs.section("settlement")
        with_chickens = bool(st.get("chickens"))
        per_seat = seat_options(case, rs)
        for w in winners:  # in the case's order; the sticks and honba go by nearness
            o = dict(ctx_opts, **per_seat.get(w, {}), **_bonus_for(rs, order, w, ctx_opts), seat=w)
            if frm is None:
                o["tsumo"] = True
            else:
                o["from"] = frm
            rec = score(parse_hand(hands[w]), rs, build_context(o, rs), hands[w], lang=lang, chickens=not with_chickens, names=names)
            results.append({"seat": w, **rec})
            ledger += rec.get("ledger", [])
        if frm is not None and st.get("kong_payment_transfer") and ctx_opts.get("situation", {}).get("kong_discard_win"):
            valid = [r["seat"] for r in results if r.get("valid")]
            if valid:
                ledger += _transfer(rs, hands, frm, valid[0], ctx_opts)
        if with_chickens:
            ledger += _chickens(rs, hands, [r["seat"] for r in results if r.get("valid")], dict(ctx_opts, tsumo=frm is None))
    elif event == "draw":
        from mjtools.scoring.exhaustive import settle_draw

        results, ledger = settle_draw(hands, rs, ctx_opts, known_waits)
    elif event == "false_win":
        ledger = false_win_entries(case, rs)
    else:
        raise UsageError(f"event is win, draw or false_win, got {event!r}")
    ledger += follow_dealer_entries(rs, ctx_opts)
    if event in ("win", "draw"):
        valid = [r["seat"] for r in results if r.get("valid")] if event == "win" else []
        nxt = next_dealer(rs, event, valid, case.get("from"), results)
        if nxt is not None:
            out["next_dealer"] = nxt
    pot = 0.0
    for e in ledger:
        # pot: the change of the riichi sticks on the table (taken: negative), so that
        # sum(net) + pot == 0 as in a simulate record
        if e["from"] == "pot":
            pot -= e["amount"]
        else:
            net[e["from"]] -= e["amount"]
        if e["to"] == "pot":
            pot += e["amount"]
        else:
            net[e["to"]] += e["amount"]
    out.update(results=results, ledger=ledger, net={s: num(v) for s, v in net.items()}, pot=num(pot))
    return out
