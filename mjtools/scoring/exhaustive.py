"""Settlement at an exhaustive draw: noten payments (riichi) and the variants' checks."""

from __future__ import annotations

from typing import Any

from mjtools.errors import UsageError
from mjtools.rules.model import Ruleset


def ready(hand_text: str, rs: Ruleset, opts: dict[str, Any]) -> bool:
    """Whether the hand waits on some tile (`wait`'s `tenpai`). Checked through the shanten
    first: most hands at a draw are not ready, and `wait` also scores every wait (slow)."""
    from mjtools.analysis import SUIT_GROUP, prepare, wait_record
    from mjtools.cli.options import build_context
    from mjtools.notation import parse_hand
    from mjtools.shanten import shanten_of_state, state_of
    from mjtools.waits import waits_of

    ctx = build_context(opts, rs)
    hand = parse_hand(hand_text)
    if hand.size != rs.hand_size:
        return bool(wait_record(hand, rs, ctx, hand_text)["tenpai"])
    hand, spec = prepare(hand, rs, ctx, hand_text)
    st = state_of(hand, spec)
    void = None if ctx.void is None else SUIT_GROUP[ctx.void]
    if shanten_of_state(st, spec, void)[0] != 0:
        return False
    return bool(waits_of(st, spec, list(rs.copies), void))


def settle_draw(hands: dict[str, str], rs: Ruleset, opts: dict[str, Any]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    ex = rs.section("settlement").get("exhaustive")
    if not ex:
        raise UsageError(f"{rs.id} settles nothing at an exhaustive draw")
    results = []
    tenpai = {}
    for seat in rs.seats:
        if seat not in hands:
            raise UsageError(f"a draw needs every seat's hand ({', '.join(rs.seats)})")
        tenpai[seat] = ready(hands[seat], rs, dict(opts, seat=seat))
        results.append({"seat": seat, "hand": hands[seat], "tenpai": tenpai[seat]})
    ledger: list[dict[str, Any]] = []
    penalty = ex.get("noten_penalty")
    if penalty:
        up = [s for s in rs.seats if tenpai[s]]
        down = [s for s in rs.seats if not tenpai[s]]
        if up and down:
            receive = penalty / len(up)
            pay = penalty / len(down)
            for d in down:
                for u in up:
                    ledger.append({"from": d, "to": u, "amount": pay / len(up), "reason": "noten payment"})
            assert abs(receive * len(up) - pay * len(down)) < 1e-9
    return results, ledger
