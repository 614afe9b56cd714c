"""Who pays whom for one win: payments by seat, the pot, and the ledger."""

from __future__ import annotations

from mjtools.context import WinContext
from mjtools.errors import UsageError
from mjtools.messages import Joined, Msg
from mjtools.rules.model import Ruleset
from mjtools.scoring.result import HandValue, Settled


def _num(x: float) -> float | int:
    return int(x) if float(x).is_integer() else round(x, 4)


def _how(points: float, share: float, factor: float) -> Msg:
    """points x share x dealer factor, leaving out the factors that are 1."""
    parts = [Msg("settle.share", x=_num(share))] if share != 1 else []
    if factor != 1:
        parts.append(Msg("settle.dealer_factor", x=_num(factor)))
    return Msg("settle.how", points=_num(points), extra=Joined(parts, ""))


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
            steps.append(Msg("settle.self_draw", seat=s, amount=_num(amount), how=_how(value.points, share, dealer_factor(s))))
    else:
        discarder = ctx.from_seat
        if discarder == ctx.seat or discarder not in rs.seats:
            raise UsageError(f"--from {discarder}: the discarder must be another seat of {rs.seats}")
        mode = st.get("ron", "discarder")
        shares = st.get("ron_shares", {})
        if mode == "discarder":
            amount = value.points * shares.get("discarder", 1) * dealer_factor(discarder)
            payments[discarder] += amount
            steps.append(Msg("settle.dealt_in", seat=discarder, amount=_num(amount), how=_how(value.points, shares.get("discarder", 1), dealer_factor(discarder))))
        elif mode == "all":
            for s in active:
                key = "discarder" if s == discarder else "others"
                amount = value.points * shares.get(key, 1) * dealer_factor(s)
                payments[s] += amount
                steps.append(Msg("settle.pays", seat=s, amount=_num(amount), how=_how(value.points, shares.get(key, 1), dealer_factor(s))))
        else:  # discarder_for_all
            total = sum(value.points * dealer_factor(s) for s in active)
            payments[discarder] += total
            steps.append(Msg("settle.for_everyone", seat=discarder, amount=_num(total)))
    payments = {s: _num(a) for s, a in payments.items()}
    ledger = [{"from": s, "to": ctx.seat, "amount": a, "reason": "hand"} for s, a in payments.items() if a]
    return Settled(payments, 0, ledger, steps)
