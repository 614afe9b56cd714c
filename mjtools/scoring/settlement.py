"""Who pays whom for one win: payments by seat, the pot, and the ledger.

The `settlement:` section drives it (see the schema's descriptions). In order:

1. the hand: each payer's share of the model's per-payer value (`tsumo_share`, `ron`,
   `ron_shares`), times the dealer multiplier; on a discard win the discarder alone pays
   (discarder), everyone still in pays (all, HK 半铳), or the discarder pays everyone's share
   (discarder_for_all: 点炮包三家 / 全铳 / 大包);
2. 包牌 liability moves hand payments onto the liable player (scoring/liability.py);
3. the model's per-payer additions (自摸加底), dealer 台 / 连庄 / 拉庄 / 庄闲 additions, kong
   money (scoring/kongs.py), birds, flower money and chickens (scoring/bonuses.py): each a
   ledger entry of its own, so a reader sees every reason for every amount.

`payments[seat]` sums what a seat pays; `points` = sum(payments) + pot.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache, partial
from typing import Any

from mjtools.errors import UsageError
from mjtools.messages import Joined, Msg
from mjtools.output import SharedDict
from mjtools.rules.model import Ruleset
from mjtools.scoring.bonuses import bird_entries, chicken_entries, flower_entries
from mjtools.scoring.kongs import kong_entries
from mjtools.scoring.liability import apply_liability, riichi_liability
from mjtools.scoring.models import num
from mjtools.scoring.result import NO_STEPS, Evaluation, HandValue, Settled, Steps
from mjtools.tiles.context import WinContext
from mjtools.tiles.frozen import Frozen
from mjtools.tiles.hand import Hand

_new = object.__new__


def entry(frm: str, to: str, amount: float, reason: str) -> dict[str, Any]:
    return {"from": frm, "to": to, "amount": num(amount), "reason": reason}


def payers_pool(rs: Ruleset, ctx: WinContext) -> list[str]:
    """The other players who pay this win: all of them, or (血战) those still in --active."""
    return _pool(plan(rs), ctx)


def _pool(p: Plan, ctx: WinContext) -> list[str]:
    others = [s for s in p.seats if s != ctx.seat]
    if not ctx.active or p.later_all:
        return others
    return [s for s in others if s in ctx.active]


def check_active(rs: Ruleset, ctx: WinContext) -> None:
    """With --active (血战), the winner and the discarder must still be in the hand."""
    if not ctx.active or rs.section("settlement").get("later_wins_paid_by", "active") == "all":
        return
    if ctx.seat not in ctx.active:
        raise UsageError(f"--active {''.join(ctx.active)}: the winner {ctx.seat} is not among the players still in the hand")
    if not ctx.tsumo and ctx.from_seat not in ctx.active:
        raise UsageError(f"--active {''.join(ctx.active)}: the discarder {ctx.from_seat} has already left the hand")


def shares(rs: Ruleset, ctx: WinContext) -> list[tuple[str, str, float]]:
    """(who pays, on whose behalf, share of the hand value) for this win."""
    return _shares(plan(rs), ctx)


def _shares(p: Plan, ctx: WinContext) -> list[tuple[str, str, float]]:
    # Who pays follows from a few fields of the context: worked out once per combination.
    key = (ctx.seat, ctx.tsumo or ctx.from_seat, ctx.active, p.big_pay and not ctx.has("discarder_ready"))
    got = p.shares_memo.get(key)
    if got is None:
        got = tuple(_shares_of(p, ctx))
        if len(p.shares_memo) > 512:
            p.shares_memo.clear()
        p.shares_memo[key] = got
    return list(got)


def _shares_of(p: Plan, ctx: WinContext) -> list[tuple[str, str, float]]:
    if ctx.tsumo:
        if p.tsumo == "none":
            return []
        share = p.tsumo_share
        return [(s, s, share) for s in _pool(p, ctx)]
    d = ctx.from_seat
    if d == ctx.seat or d not in p.seats:
        raise UsageError(f"--from {d}: the discarder must be another seat of {p.seats}")
    mode = p.ron
    if p.big_pay and not ctx.has("discarder_ready"):
        mode = "discarder_for_all"
    if mode == "discarder":
        return [(d, d, p.ron_discarder)]
    pool = _pool(p, ctx)
    behalf = [(d, p.ron_discarder)] + [(s, p.ron_others) for s in pool if s != d]
    if mode == "all":
        return [(s, s, share) for s, share in behalf]
    return [(d, s, share) for s, share in behalf]  # discarder_for_all


class Plan(Frozen):
    """The settlement section of one ruleset, read once (settle runs for every scored hand).
    Read-only; hashed by identity (one per ruleset, a cache key). A plain class rather than a
    dataclass: it is built once per run, and a frozen dataclass of this size costs a single
    call several milliseconds to define at import."""

    mult: float
    when: frozenset[str]
    tai: float
    streak_tai: float
    pull_tai: float
    per_tai: float
    add: float
    liability: bool
    extras: bool  # kong money, birds, flowers or chickens to look at
    tsumo: str
    tsumo_share: float
    ron: str
    ron_discarder: float
    ron_others: float
    big_pay: bool  # 大包: a discarder not yet ready pays for everyone
    surcharges: bool  # discarder_multipliers: the settlement depends on the reading
    streak_doubling: int  # 老庄: the dealer factor doubles per --streak repeat, up to this many
    later_all: bool  # later_wins_paid_by: all (everyone pays, --active or not)
    kongs: bool  # which of the extras the section configures (each is a ledger pass)
    flowers: bool
    chickens: bool
    dealer_entries: bool  # 庄家 台, 连庄 / 拉庄 台 or 庄闲 +: ledger entries for the dealer
    seats: str
    others: dict[str, tuple[str, ...]]  # seat -> the other seats, in order
    per_payer: bool  # a dealer factor or discarder surcharge to work out per payer
    liability_shown: int  # the fewest shown sets any liability rule needs (fewer melds: none applies)
    # The fans of which some liability rule needs one, when every enabled rule names its fan
    # (riichi's pao): a hand scoring none of them makes nobody liable. None: a rule reads a
    # pattern or names no fan, so every hand with enough melds is looked at.
    liability_fans: frozenset[str] | None
    base_amount: float  # base_payment: a fixed amount to the winner from each player (MCR 底分)
    base_from_all: bool  # ... from every other player still in, or only from the hand's payers
    base_reason: str
    shares_memo: dict[tuple, tuple[tuple[str, str, float], ...]]  # filled as payers are worked out
    # No dealer factor or surcharge, and no flower or chicken money: the ledger then follows
    # from who pays (the shares' key), the hand's points and, where the section has them, the
    # dealer's entries (dealer, streak), and is remembered by them for every hand that makes
    # nobody liable and holds no kong the section pays for (_settles_by_key).
    memo: bool
    quick: bool  # memo, and neither liability nor kong money: every hand settles by the key
    settled_memo: dict[tuple, tuple[dict[str, float | int], tuple[dict[str, Any], ...]]]

    __slots__ = tuple(__annotations__)
    _DEFAULTS: dict[str, Any] = dict(streak_doubling=0, later_all=False, kongs=False, flowers=False, chickens=False, dealer_entries=False, seats="ESWN", per_payer=False, liability_shown=0, liability_fans=None, base_amount=0, base_from_all=True, base_reason="base payment")

    def __init__(self, **fields: Any) -> None:
        fields = {**self._DEFAULTS, "others": {}, "shares_memo": {}, "settled_memo": {}, **fields}
        fields.setdefault("memo", not (fields["per_payer"] or fields["flowers"] or fields["chickens"]))
        fields.setdefault("quick", fields["memo"] and not (fields["liability"] or fields["kongs"]))
        missing = set(self.__slots__) - set(fields)
        if missing or len(fields) != len(self.__slots__):
            raise TypeError(f"Plan: missing {sorted(missing)} or unknown {sorted(set(fields) - set(self.__slots__))}")
        for k, v in fields.items():
            object.__setattr__(self, k, v)

    def __repr__(self) -> str:
        return f"Plan({', '.join(f'{k}={getattr(self, k)!r}' for k in self.__slots__)})"


def _liability_fans(rules: Mapping[str, Any]) -> frozenset[str] | None:
    enabled = [r for r in rules.values() if r.get("enabled", True)]
    if any("pattern" in r or "fan" not in r for r in enabled):
        return None
    return frozenset(r["fan"] for r in enabled)


def _may_be_liable(p: Plan, hand: Hand | None, ev: Evaluation | None) -> bool:
    """Whether a liability rule can apply (first_liable then says which): enabled rules, a
    hand with enough melds, and one of the rules' fans scored where the rules name them."""
    if not p.liability or hand is None or ev is None or len(hand.melds) < p.liability_shown:
        return False
    fans = p.liability_fans
    if fans is None:
        return True
    for a in ev.fans:
        if a.id in fans:
            return True
    return False


def plan(rs: Ruleset) -> Plan:
    got = rs.__dict__.get("_settle_plan")  # (kept on the ruleset, as the fan plan is)
    if got is not None:
        return got
    st = rs.section("settlement")
    sc = rs.section("scoring")
    dealer = st.get("dealer", {})
    base = st.get("base_payment") or {}
    p = Plan(
        mult=dealer.get("multiplier", 1),
        when=frozenset(dealer.get("when", ("wins", "pays"))),
        tai=dealer.get("tai", 0),
        streak_tai=dealer.get("streak_tai", 0),
        pull_tai=dealer.get("pull_tai", 0),
        per_tai=sc.get("per_unit", sc.get("base", 1)),
        add=dealer.get("add", 0) * sc.get("base", 1),
        liability=any(r.get("enabled", True) for r in st.get("liability", {}).values()),
        liability_shown=min((r.get("shown", 0) for r in st.get("liability", {}).values() if r.get("enabled", True)), default=0),
        liability_fans=_liability_fans(st.get("liability", {})),
        extras=any(st.get(k) for k in ("kong_payments", "birds", "flowers", "chickens")),
        tsumo=st.get("tsumo", "all"),
        tsumo_share=st.get("tsumo_share", 1),
        ron=st.get("ron", "discarder"),
        ron_discarder=st.get("ron_shares", {}).get("discarder", 1),
        ron_others=st.get("ron_shares", {}).get("others", 1),
        big_pay=bool(st.get("deal_in_before_ready_pays_all")),
        surcharges=bool(st.get("discarder_multipliers")),
        streak_doubling=dealer.get("streak_doubling", 0),
        later_all=st.get("later_wins_paid_by", "active") == "all",
        seats=rs.seats,
        others={w: tuple(s for s in rs.seats if s != w) for w in rs.seats},
        kongs=bool(st.get("kong_payments")),
        flowers=bool(st.get("flowers")),
        chickens=bool(st.get("chickens")),
        per_payer=bool(dealer.get("multiplier", 1) != 1 or dealer.get("streak_doubling", 0) or st.get("discarder_multipliers")),
        dealer_entries=bool(dealer.get("tai", 0) or dealer.get("streak_tai", 0) or dealer.get("pull_tai", 0) or dealer.get("add", 0)),
        base_amount=base.get("amount", 0),
        base_from_all=base.get("from", "all") == "all",
        base_reason=_base_reason(base),
    )
    rs.__dict__["_settle_plan"] = p
    return p


def _base_reason(base: dict[str, Any]) -> str:
    from mjtools.rules.model import pick

    names = base.get("names")
    en, zh = pick(names, "en"), pick(names, "zh")
    if en and zh and en != zh:
        return f"{en} ({zh})"
    return en or zh or "base payment"


def _discarder_factor(rs: Ruleset, ctx: WinContext, ev: Evaluation | None, steps: Steps) -> float:
    """settlement.discarder_multipliers: factors on the discarder's own payment (闭门炮, 抢杠 x3)."""
    from mjtools.patterns import evaluate
    from mjtools.rules.model import pick

    rules = rs.section("settlement").get("discarder_multipliers", ())
    if ctx.tsumo or not rules or ev is None or ev.pctx is None:
        return 1
    factor = 1.0
    for r in rules:
        if r["factor"] != 1 and evaluate(r["when"], ev.pctx):
            factor *= r["factor"]
            if steps:
                steps.msg("settle.surcharge", seat=ctx.from_seat, factor=num(r["factor"]), name=pick(r.get("names")) or "surcharge")
    return factor


def _dealer_factor(p: Plan, ctx: WinContext, behalf: str) -> float:
    mult = p.mult * 2 ** min(ctx.streak, p.streak_doubling) if p.streak_doubling else p.mult
    if mult == 1:
        return 1
    if ("wins" in p.when and ctx.dealer) or ("pays" in p.when and behalf == "E"):
        return mult
    return 1


@lru_cache(maxsize=64)
def _dealer_reason(p: Plan, streak: int) -> str:
    """The ledger reason of the dealer entries: a few words fixed by the rules and the streak."""
    return "dealer: " + _dealer_bits(p, streak)


def _dealer_bits(p: Plan, streak: int) -> str:
    bits = []
    if p.tai:
        bits.append(f"庄家 {num(p.tai)} 台")
    if streak and (p.streak_tai or p.pull_tai):
        bits.append(f"连{streak}" + (f"拉{streak}" if p.pull_tai else "") + f" {num(streak * (p.streak_tai + p.pull_tai))} 台")
    if p.add:
        bits.append(f"庄闲 +{num(p.add)}")
    return ", ".join(bits)


def _dealer_entries(p: Plan, ctx: WinContext, parts: list[tuple[str, str, float]], steps: Steps) -> list[dict[str, Any]]:
    """Taiwan 庄家 / 连庄 / 拉庄 台 and Changsha's +1: once per payment that involves the dealer."""
    tai = p.tai + ctx.streak * (p.streak_tai + p.pull_tai)
    amount = tai * p.per_tai + p.add
    if not amount:
        return []
    if ctx.dealer:
        involved = [payer for payer, _, _ in parts]
    else:
        involved = [payer for payer, behalf, _ in parts if behalf == "E"]
    if not involved:
        return []
    reason = _dealer_reason(p, ctx.streak)
    amount = num(amount)
    out = [{"from": payer, "to": ctx.seat, "amount": amount, "reason": reason} for payer in involved]
    if steps:
        # The step says "dealer" in the user's language; the ledger reason stays as it is.
        steps.msg("settle.dealer_entries", reason=Joined([Msg("word.dealer"), _dealer_bits(p, ctx.streak)], ": "), amount=num(amount))
    return out


def _by_payer(entries: list[dict[str, Any]]) -> dict[str, float]:
    out: dict[str, float] = {}
    for e in entries:
        out[e["from"]] = out.get(e["from"], 0) + e["amount"]
    return out


def settle(value: HandValue, rs: Ruleset, ctx: WinContext, hand: Hand | None = None, ev: Evaluation | None = None, chickens: bool = True, explained: bool = True) -> Settled:
    """The ledger of one win. `chickens=False` when a table case settles every hand's chickens.
    The explain steps are not built here: `Settled.steps_fn` settles again into a Steps
    (`explained=False`: a caller that shows no steps gets none, and no replay is kept)."""
    if value.payments is not None:
        p = plan(rs)
        if p.liability and _may_be_liable(p, hand, ev):
            settled = _self_settled_liability(value, rs, ctx, hand, ev, NO_STEPS)
            if settled is not None:
                if explained:
                    settled.steps_fn = partial(_liability_steps, value, rs, ctx, hand, ev)
                return settled
        ledger = value.ledger if value.ledger is not None else [
            {"from": s, "to": ctx.seat, "amount": a, "reason": "hand"} for s, a in value.payments.items() if a
        ]
        return Settled(dict(value.payments), value.pot, ledger)
    try:
        p = rs._settle_plan  # type: ignore[attr-defined]  # (an attribute read: no call, no rs.__dict__ lookup)
    except AttributeError:
        p = plan(rs)
    if p.quick and not ctx.active and not ctx.birds:
        # The memo's common shape (MCR: no liability rule, no kong money) read here at once:
        # _settle's path without its calls.
        settled = _remembered(p, value, rs, ctx, hand, ev, chickens)
    else:
        settled = _settle(value, rs, ctx, hand, ev, chickens, NO_STEPS)
    # (a partial, not a closure: a closure made every call of settle() keep its six
    # arguments in cells, riichi's path included)
    if explained:
        settled.steps_fn = partial(_steps_of, value, rs, ctx, hand, ev, chickens)
    return settled


def _self_settled_liability(value: HandValue, rs: Ruleset, ctx: WinContext, hand: Hand, ev: Evaluation, steps: Steps) -> Settled | None:
    """Pao on a model that settles itself (riichi): the hand payments moved onto the liable
    player; the pot (riichi sticks) still comes from the table."""
    assert value.payments is not None
    pays, rid, seat = riichi_liability(value.payments, rs, ctx, hand, ev, steps)
    if rid is None:
        return None
    reason = f"hand (pao {rid}: {seat})"
    ledger: list[dict[str, Any]] = [{"from": s, "to": ctx.seat, "amount": a, "reason": reason} for s, a in pays.items() if a]
    ledger += [e for e in (value.ledger or ()) if e["from"] == "pot"]
    return Settled(pays, value.pot, ledger)


def _liability_steps(value: HandValue, rs: Ruleset, ctx: WinContext, hand: Hand, ev: Evaluation) -> list[str]:
    steps = Steps()
    _self_settled_liability(value, rs, ctx, hand, ev, steps)
    return list(steps)


def _steps_of(value: HandValue, rs: Ruleset, ctx: WinContext, hand: Hand | None, ev: Evaluation | None, chickens: bool) -> list[str]:
    steps = Steps()
    _settle(value, rs, ctx, hand, ev, chickens, steps)
    return list(steps)


def _hand_shares(p: Plan, rs: Ruleset, ctx: WinContext, ev: Evaluation | None, steps: Steps, parts: list[tuple[str, str, float]], points: float, normal: dict[str, float], recording: bool) -> None:
    """The hand's payments per payer with dealer factors, discarder surcharges and explain lines."""
    tsumo = ctx.tsumo
    surcharge = _discarder_factor(rs, ctx, ev, steps) if p.surcharges else 1
    plain = p.mult == 1 and not p.streak_doubling  # no dealer factor to look up per payer
    for payer, behalf, share in parts:
        amount = points * share if plain else points * share * _dealer_factor(p, ctx, behalf)
        if p.surcharges and not tsumo and payer == behalf == ctx.from_seat:
            amount *= surcharge
        normal[payer] = normal.get(payer, 0) + amount
        if recording:
            if payer == behalf:
                steps.append(Msg("settle.pays_share", seat=payer, amount=num(amount), how=Msg("settle.self_draw" if tsumo else "settle.discard"), share=num(share)))
            else:
                steps.append(Msg("settle.on_behalf", seat=payer, amount=num(amount), behalf=behalf))


def _settle(value: HandValue, rs: Ruleset, ctx: WinContext, hand: Hand | None, ev: Evaluation | None, chickens: bool, steps: Steps) -> Settled:
    if ctx.active:
        check_active(rs, ctx)
    p = plan(rs)
    if p.memo and not steps and not ctx.active and not ctx.birds and _settles_by_key(p, hand, ev):
        return _remembered(p, value, rs, ctx, hand, ev, chickens)
    return _settle_all(value, rs, ctx, hand, ev, chickens, steps, p)


def _remembered(p: Plan, value: HandValue, rs: Ruleset, ctx: WinContext, hand: Hand | None, ev: Evaluation | None, chickens: bool) -> Settled:
    """The common shape (MCR, Sichuan without a kong, Cantonese with nobody liable, Taiwan
    ...): remembered by who pays (the winner, the discarder or a self-draw, 大包), the points
    (type and amount), the additions and the dealer's entries. Each record gets its own
    payments and list; the entries are read-only SharedDicts that every record with this key
    holds (as riichi's ledger entries are), written as JSON once."""
    points = value.points
    # (ctx.discarder before from_seat: the property's answer when set, without its call)
    key = (ctx.seat, ctx.tsumo or ctx.discarder or ctx.from_seat, p.big_pay and not ctx.has("discarder_ready"), type(points), points)
    if value.adds:  # (自摸加底: an entry per payer, by its reason and amount)
        key += (tuple(value.adds),)
    if p.dealer_entries:
        key += (ctx.dealer, ctx.streak)
    got = p.settled_memo.get(key)
    if got is None:
        done = _settle_all(value, rs, ctx, hand, ev, chickens, NO_STEPS, p)
        if len(p.settled_memo) > 4096:
            p.settled_memo.clear()
        got = p.settled_memo[key] = (done.payments, tuple(map(SharedDict, done.ledger)))
    # (Settled's fields set here, its __init__ not run: a class call to a Python __init__
    # costs more than the four stores)
    settled = _new(Settled)
    settled.payments = dict(got[0])
    settled.pot = 0
    settled.ledger = list(got[1])
    settled.steps_fn = None
    return settled


def _settles_by_key(p: Plan, hand: Hand | None, ev: Evaluation | None) -> bool:
    """Whether this hand's ledger is the memo key's (given Plan.memo): no liability applies
    and no kong the section pays for is held (kong entries read the kong's tiles and feeder,
    too many keys to remember). Flowers and chickens are ruled out by the plan, birds by the
    caller."""
    if p.liability and _may_be_liable(p, hand, ev):
        return False
    if p.kongs and hand is not None:
        for m in hand.melds:
            if m.is_kong:
                return False
    return True


def _settle_all(value: HandValue, rs: Ruleset, ctx: WinContext, hand: Hand | None, ev: Evaluation | None, chickens: bool, steps: Steps, p: Plan) -> Settled:
    parts = _shares(p, ctx)
    recording = bool(steps)  # settle runs for every scored hand: test the sink once, not per line
    seat = ctx.seat
    points = value.points
    normal: dict[str, float] = {}
    if recording or p.per_payer:
        _hand_shares(p, rs, ctx, ev, steps, parts, points, normal, recording)
    else:
        # The common shape: each payer owes its share of the value, with no factor to look
        # up and no line to record per payer.
        for payer, _, share in parts:
            normal[payer] = normal.get(payer, 0) + points * share
    hand_pay, reason = normal, "hand"
    if p.liability and _may_be_liable(p, hand, ev):
        hand_pay, why = apply_liability(normal, rs, ctx, hand, ev, steps)
        if why:
            reason = f"hand (包牌 {why})"
    ledger = [{"from": s, "to": seat, "amount": num(a), "reason": reason} for s, a in hand_pay.items() if a]
    payers = list(normal)  # every payer, in order of first appearance (an amount of 0 included)
    for why, amount in value.adds:
        ledger += [entry(s, seat, amount, why) for s in payers]
    if p.base_amount:
        # 底分: a fixed amount from each player (or each payer of the hand), whatever the hand.
        amount, why = num(p.base_amount), p.base_reason
        base = [{"from": s, "to": seat, "amount": amount, "reason": why} for s in (_pool(p, ctx) if p.base_from_all else payers)]
        ledger += base
        if recording:
            steps += [Msg("settle.entry", frm=e["from"], to=e["to"], amount=e["amount"], reason=e["reason"]) for e in base]
    own = len(ledger)  # the entries so far all pay the winner (credited below without a test)
    if p.dealer_entries:
        extra = _dealer_entries(p, ctx, parts, steps)
        ledger += extra
    else:
        extra = []
    if hand is not None and (p.extras or ctx.birds):
        for more in (
            kong_entries(hand, seat, rs, ctx) if p.kongs and hand.melds else [],
            bird_entries(normal, rs, ctx, _by_payer(extra)) if ctx.birds else [],
            flower_entries(hand, payers, rs, ctx) if p.flowers else [],
            chicken_entries({seat: hand}, rs, ctx, winners=(seat,)) if chickens and p.chickens else [],
        ):
            ledger += more
            if recording:
                steps += [Msg("settle.entry", frm=e["from"], to=e["to"], amount=e["amount"], reason=e["reason"]) for e in more]
    payments = dict.fromkeys(p.others.get(seat, p.seats), 0)  # int: num() then keeps whole amounts as they are
    for e in ledger if own == len(ledger) else ledger[:own]:
        frm = e["from"]
        if frm in payments:
            payments[frm] += e["amount"]
    for e in ledger[own:] if own < len(ledger) else ():
        frm = e["from"]
        if e["to"] == seat and frm in payments:
            payments[frm] += e["amount"]
        elif frm == seat and e["to"] in payments:
            payments[e["to"]] -= e["amount"]  # a flow from the winner (none of the shipped rules)
    return Settled({s: num(a) for s, a in payments.items()}, 0, ledger)
