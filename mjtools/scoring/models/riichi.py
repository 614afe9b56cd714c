"""Riichi's han/fu model: fu from the decomposition, limits, and payments by seat."""

from __future__ import annotations

import math

from mjtools.context import WinContext
from mjtools.decompose import KONG, PAIR, PUNG
from mjtools.hand import Hand
from mjtools.messages import Joined, Msg
from mjtools.rules.model import Ruleset
from mjtools.scoring.models import model
from mjtools.scoring.result import Evaluation, HandValue

LIMITS = ((13, "yakuman", 8000), (11, "sanbaiman", 6000), (8, "baiman", 4000), (6, "haneman", 3000), (5, "mangan", 2000))


def _up(x: float, step: int = 100) -> int:
    return int(math.ceil(x / step) * step)


def _is_outside(k: int) -> bool:
    return k >= 27 or k % 9 in (0, 8)


def fu_of(ev: Evaluation, rs: Ruleset, ctx: WinContext, hand: Hand, params) -> tuple[int, list[tuple[str, int]]]:
    d = ev.decomposition
    ids = {a.id for a in ev.fans}
    if d.form == "seven_pairs":
        return 25, [(Msg("fu.seven_pairs"), 25)]
    concealed = hand.is_concealed
    parts: list[tuple[str, int]] = [(Msg("fu.base"), 20)]
    win_block = None if d.win_block is None else d.blocks[d.win_block]
    for b in d.blocks:
        if b.shape in (PUNG, KONG):
            fu = 2
            if _is_outside(b.first):
                fu *= 2
            closed = b.concealed and not (b is win_block and not ctx.tsumo and b.meld is None)
            if closed:
                fu *= 2
            if b.shape == KONG:
                fu *= 4
            parts.append((Msg("fu.meld", state=Msg("fu.concealed" if closed else "fu.open"), shape=Msg("fu.kong" if b.shape == KONG else "fu.pung"), block=str(b)), fu))
        elif b.shape == PAIR:
            k = b.first
            fu = 0
            if k >= 31:
                fu += 2
            if k == ctx.seat_wind and k == ctx.round_wind:
                fu += params.get("double_wind_pair_fu", 4)
            elif k in (ctx.seat_wind, ctx.round_wind):
                fu += 2
            if fu:
                parts.append((Msg("fu.value_pair", block=str(b)), fu))
    if d.wait in ("closed", "edge", "pair"):
        parts.append((Msg("fu.wait", wait=Msg(f"wait.{d.wait}")), 2))
    pinfu = "pinfu" in ids
    if ctx.tsumo:
        if not (pinfu and not params.get("pinfu_tsumo_fu", False)):
            parts.append((Msg("fu.self_draw"), 2))
    elif concealed:
        parts.append((Msg("fu.concealed_ron"), 10))
    raw = sum(f for _, f in parts)
    if not concealed and not ctx.tsumo and raw == 20 and params.get("open_pinfu_fu", True):
        parts.append((Msg("fu.open_pinfu"), 10))
        raw = 30
    return _up(raw, 10) if raw != 25 else 25, parts


@model("riichi")
def riichi(ev: Evaluation, rs: Ruleset, ctx: WinContext, hand: Hand) -> HandValue:
    params = rs.section("scoring").get("riichi", {})
    yakuman = [a for a in ev.fans if a.limit == "yakuman"]
    steps: list[str] = []
    extra: dict = {}
    if yakuman:
        ev.fans[:] = yakuman
        mult = sum(a.total for a in yakuman)
        if not params.get("double_yakuman", True):
            mult = len(yakuman)
        han = mult * 13
        basic = 8000 * mult
        limit = "yakuman" if mult == 1 else f"{int(mult)}x yakuman"
        fu, parts = 0, []
        steps.append(Msg("riichi.yakuman", mult=f"{mult:g}", basic=basic))
        rank = (2, han, 0)
    else:
        han = int(sum(a.total for a in ev.fans))
        fu, parts = fu_of(ev, rs, ctx, hand, params)
        steps.append(Msg("riichi.fu", parts=Joined([Msg("fu.part", name=n, fu=f) for n, f in parts], " + "), fu=fu))
        basic = fu * 2 ** (han + 2)
        limit = None
        kazoe = params.get("kazoe", "yakuman")
        if han >= 13 and kazoe != "sanbaiman":
            times = han // 13 if kazoe == "multiple" else 1
            basic, limit = 8000 * times, "yakuman" if times == 1 else f"{times}x yakuman"
        else:
            for need, name, value in LIMITS[1:]:
                if han >= need:
                    basic, limit = value, name
                    break
            if han >= 13 and kazoe == "sanbaiman":
                basic, limit = 6000, "sanbaiman"
            if limit is None and basic >= 2000:
                basic, limit = 2000, "mangan"
            if limit is None and params.get("kiriage") and ((han == 4 and fu == 30) or (han == 3 and fu == 60)):
                basic, limit = 2000, "mangan"
        step = Msg("riichi.basic", han=han, fu=fu, basic=basic) if not limit else Msg("riichi.basic_limit", han=han, fu=fu, basic=basic, limit=_limit_word(limit))
        steps.append(step)
        rank = (1 if limit and "yakuman" in limit else 0, han, fu)
    extra = {"han": han, "fu": fu, "fu_breakdown": [{"reason": n, "fu": f} for n, f in parts]}
    payments, pot, ledger, pay_steps = _pay(basic, rs, ctx)
    steps += pay_steps
    points = sum(payments.values()) + pot
    return HandValue(han, points, base=None, limit=limit, unit="han", extra=extra, steps=steps, payments=payments, pot=pot, ledger=ledger, rank=rank)


def _limit_word(limit: str) -> Msg:
    """A limit name for a step: mangan ... yakuman, or "N x yakuman"."""
    times, sep, rest = limit.partition("x ")
    if sep and times.isdigit():
        return Msg("limit.multi", n=times, limit=Msg(f"limit.{rest}"))
    return Msg(f"limit.{limit}")


def _paid(seat: str, mult: int, basic: int, honba: int, counters: int) -> Msg:
    """How one payment is worked out: basic points x multiple, rounded up to 100, + honba."""
    rounded = _up(basic * mult)
    if honba:
        return Msg("riichi.pays_honba", seat=seat, mult=mult, basic=basic, raw=basic * mult, rounded=rounded, honba=honba, n=counters, amount=rounded + honba)
    return Msg("riichi.pays", seat=seat, mult=mult, basic=basic, raw=basic * mult, rounded=rounded)


def _pay(basic: int, rs: Ruleset, ctx: WinContext):
    st = rs.section("settlement").get("riichi", {})
    honba_ron = st.get("honba_ron", 300) * ctx.honba
    honba_each = st.get("honba_tsumo", 100) * ctx.honba
    seats = [s for s in rs.seats if s != ctx.seat]
    payments = {s: 0 for s in seats}
    ledger = []
    steps = []
    if ctx.tsumo:
        for s in seats:
            share = 2 if (ctx.dealer or s == "E") else 1
            amount = _up(basic * share) + honba_each
            payments[s] = amount
            ledger.append({"from": s, "to": ctx.seat, "amount": amount, "reason": "tsumo" + (f" + {ctx.honba} honba" if ctx.honba else "")})
        steps.append(Msg("riichi.tsumo", items=Joined([_paid(s, 2 if (ctx.dealer or s == "E") else 1, basic, honba_each, ctx.honba) for s in seats], "; ")))
    else:
        frm = ctx.from_seat
        amount = _up(basic * (6 if ctx.dealer else 4)) + honba_ron
        payments[frm] = amount
        ledger.append({"from": frm, "to": ctx.seat, "amount": amount, "reason": "ron" + (f" + {ctx.honba} honba" if ctx.honba else "")})
        steps.append(Msg("riichi.ron", item=_paid(frm, 6 if ctx.dealer else 4, basic, honba_ron, ctx.honba)))
    pot = st.get("stick", 1000) * ctx.sticks
    if pot:
        ledger.append({"from": "pot", "to": ctx.seat, "amount": pot, "reason": f"{ctx.sticks} riichi stick(s)"})
        steps.append(Msg("riichi.sticks", n=ctx.sticks, pot=pot))
    return payments, pot, ledger, steps
