"""Who pays whom for one win: payments by seat, the pot, and the ledger."""

from __future__ import annotations

from mjtools.context import WinContext
from mjtools.errors import UsageError
from mjtools.rules.model import Ruleset
from mjtools.scoring.result import HandValue, Settled


def _num(x: float) -> float | int:
    return int(x) if float(x).is_integer() else round(x, 4)


def settle(value: HandValue, rs: Ruleset, ctx: WinContext) -> Settled:
    if value.payments is not None:
        ledger = value.ledger if value.ledger is not None else [
            {"from": s, "to": ctx.seat, "amount": a, "reason": "hand"} for s, a in value.payments.items() if a
        ]
        return Settled(dict(value.payments), value.pot, ledger, [])
    st = rs.section("settlement")
    seats = [s for s in rs.seats if s != ctx.seat]
    active = [s for s in seats if not ctx.active or s in ctx.active]
    payments = {s: 0.0 for s in rs.seats if s != ctx.seat}
    steps: list[str] = []
    dealer = st.get("dealer", {})
    mult = dealer.get("multiplier", 1)
    when = set(dealer.get("when", ()))

    def dealer_factor(payer: str) -> float:
        if mult == 1:
            return 1
        if ("wins" in when and ctx.dealer) or ("pays" in when and payer == "E"):
            return mult
        return 1

    if ctx.tsumo:
        share = st.get("tsumo_share", 1)
        for s in active:
            amount = value.points * share * dealer_factor(s)
            payments[s] += amount
            steps.append(f"{s} pays {_num(amount)} (self-draw)")
    else:
        discarder = ctx.from_seat
        if discarder == ctx.seat or discarder not in rs.seats:
            raise UsageError(f"--from {discarder}: the discarder must be another seat of {rs.seats}")
        mode = st.get("ron", "discarder")
        shares = st.get("ron_shares", {})
        if mode == "discarder":
            amount = value.points * shares.get("discarder", 1) * dealer_factor(discarder)
            payments[discarder] += amount
            steps.append(f"{discarder} pays {_num(amount)} (dealt in)")
        elif mode == "all":
            for s in active:
                key = "discarder" if s == discarder else "others"
                amount = value.points * shares.get(key, 1) * dealer_factor(s)
                payments[s] += amount
                steps.append(f"{s} pays {_num(amount)}")
        else:  # discarder_for_all
            total = sum(value.points * dealer_factor(s) for s in active)
            payments[discarder] += total
            steps.append(f"{discarder} pays for everyone: {_num(total)}")
    payments = {s: _num(a) for s, a in payments.items()}
    ledger = [{"from": s, "to": ctx.seat, "amount": a, "reason": "hand"} for s, a in payments.items() if a]
    return Settled(payments, 0, ledger, steps)
