"""Riichi's han/fu model: fu from the decomposition, limits, and payments by seat.

The arithmetic follows the public rules ([JPW], [MJJ] in rules.d/riichi.yaml) and agrees with
`mahjong` 2.1.0 (tests/test_riichi_diff.py): basic points = fu x 2^(han+2), capped at mangan
(2000); limit tiers by han; payments rounded up to 100 per payer.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mjtools.context import WinContext
from mjtools.decompose import KONG, PAIR, PUNG
from mjtools.errors import UsageError
from mjtools.hand import Hand
from mjtools.messages import Joined, Msg, has, localize
from mjtools.rules.model import Ruleset, pick
from mjtools.scoring.models import model, pre_score
from mjtools.scoring.result import Evaluation, HandValue
from mjtools.tiles import parse_kind

# (least han, basic points, name) below yakuman; mangan also caps fu x 2^(han+2) above 2000.
TIERS = ((11, 6000, "sanbaiman"), (8, 4000, "baiman"), (6, 3000, "haneman"), (5, 2000, "mangan"))
YAKUMAN_BASIC = 8000
DRAGONS = (31, 32, 33)


def up100(x: int) -> int:
    """Round a non-negative integer up to a multiple of 100."""
    return (x + 99) // 100 * 100


def _outside(k: int) -> bool:
    return k >= 27 or k % 9 in (0, 8)


def _value_pair_kinds(params: Mapping[str, Any]) -> frozenset[int]:
    extra = (params.get("fu") or {}).get("value_pairs") or ()
    return frozenset(parse_kind(t) for t in extra)


def fu_of(ev: Evaluation, ctx: WinContext, hand: Hand, params: Mapping[str, Any]) -> tuple[int, list[tuple[str, int]], int]:
    """(fu rounded, breakdown, raw sum). The raw sum breaks ties between equal readings."""
    d = ev.decomposition
    if d.form == "thirteen_orphans":
        return 0, [], 0
    if d.form == "seven_pairs":
        return 25, [(Msg("fu.seven_pairs"), 25)], 25
    concealed = hand.is_concealed
    parts: list[tuple[str, int]] = [(Msg("fu.base"), 20)]
    win_block = None if d.win_block is None else d.blocks[d.win_block]
    for b in d.blocks:
        if b.shape in (PUNG, KONG):
            fu = 4 if _outside(b.first) else 2
            # A pung completed by a discard counts as exposed; a concealed kong stays concealed.
            closed = b.concealed and not (b is win_block and not ctx.tsumo and b.meld is None)
            if closed:
                fu *= 2
            if b.shape == KONG:
                fu *= 4
            parts.append((Msg("fu.meld", state=Msg("fu.concealed" if closed else "fu.open"), shape=Msg("fu.kong" if b.shape == KONG else "fu.pung"), block=str(b)), fu))
        elif b.shape == PAIR:
            k = b.first
            hits = (k in DRAGONS) + (k == ctx.seat_wind) + (k == ctx.round_wind) + (k in _value_pair_kinds(params))
            if hits >= 2:
                parts.append((Msg("fu.double_value_pair", block=str(b)), params.get("double_wind_pair_fu", 4)))
            elif hits:
                parts.append((Msg("fu.value_pair", block=str(b)), 2))
    if d.wait in ("closed", "edge", "pair"):
        parts.append((Msg("fu.wait", wait=Msg(f"wait.{d.wait}")), 2))
    if ctx.tsumo:
        if not any(a.id == "pinfu" for a in ev.fans):
            parts.append((Msg("fu.self_draw"), 2))
    elif concealed:
        parts.append((Msg("fu.concealed_ron"), 10))
    raw = sum(f for _, f in parts)
    if not concealed and not ctx.tsumo and raw == 20 and params.get("open_pinfu_fu", True):
        parts.append((Msg("fu.open_pinfu"), 2))
        raw += 2
    return (raw + 9) // 10 * 10, parts, raw


def limit_of(han: int, fu: int, params: Mapping[str, Any]) -> tuple[int, str | None]:
    """Basic points and limit name of a hand without yakuman."""
    if han >= 13:
        kazoe = params.get("kazoe", "yakuman")
        if kazoe == "multiple":
            times = han // 13
            return YAKUMAN_BASIC * times, "kazoe yakuman" if times == 1 else f"kazoe {times}x yakuman"
        if kazoe == "yakuman":
            return YAKUMAN_BASIC, "kazoe yakuman"
        return 6000, "kazoe sanbaiman"
    for need, basic, name in TIERS:
        if han >= need:
            return basic, name
    if params.get("kiriage") and (han, fu) in ((4, 30), (3, 60)):
        return 2000, "kiriage mangan"
    basic = fu * 2 ** (han + 2)
    if basic > 2000:
        return 2000, "mangan"
    return basic, None


@model("riichi")
def riichi(ev: Evaluation, rs: Ruleset, ctx: WinContext, hand: Hand) -> HandValue:
    params = rs.section("scoring").get("riichi", {})
    cap = params.get("max_yakuman")
    yakuman = [a for a in ev.fans if a.limit == "yakuman"]
    fu, parts, raw = fu_of(ev, ctx, hand, params)
    steps = []
    if parts:
        steps.append(Msg("riichi.fu", parts=Joined([Msg("fu.part", name=n, fu=f) for n, f in parts], " + "), raw=raw, fu=fu))
    if yakuman:
        # Yakuman stand alone: the other yaku and dora do not add to them.
        ev.fans[:] = yakuman
        han = int(sum(a.total for a in yakuman)) * 13
        if cap and han > 13 * cap:
            han = 13 * cap
            steps.append(Msg("riichi.cap_yakuman", cap=cap))
        times = han // 13
        basic = YAKUMAN_BASIC * times
        limit: str | None = "yakuman" if times == 1 else f"{times}x yakuman"
        steps.append(Msg("riichi.yakuman", ids=" + ".join(a.id for a in yakuman), times=times, basic=basic))
        tiebreak = (1, han, fu, raw)
    else:
        han = int(sum(a.total for a in ev.fans))
        if cap and han > 13 * cap:
            han = 13 * cap
        basic, limit = limit_of(han, fu, params)
        formula = f"{fu} x 2^({han}+2) = {fu * 2 ** (han + 2)}" if han < 5 else Msg("riichi.han", han=han)
        if limit:
            steps.append(Msg("riichi.basic_limit", han=han, fu=fu, formula=formula, basic=basic, limit=_limit_word(limit)))
        else:
            steps.append(Msg("riichi.basic", han=han, fu=fu, formula=formula, basic=basic))
        tiebreak = (0, han, fu, raw)
    extra = {"han": han, "fu": fu, "fu_breakdown": [{"reason": n, "fu": f} for n, f in parts]}
    payments, pot, ledger, pay_steps = pay(basic, rs, ctx)
    steps += pay_steps
    points = sum(payments.values()) + pot
    return HandValue(han, points, base=None, limit=limit, unit="han", extra=extra, steps=steps, payments=payments, pot=pot, ledger=ledger, rank=tiebreak[:3], tiebreak=tiebreak)


def _limit_word(limit: str) -> Joined:
    """A limit name for a step, word by word: "kazoe 2x yakuman", "kiriage mangan", "haneman"."""
    words: list[Any] = []
    for w in limit.split():
        if w.endswith("x") and w[:-1].isdigit():
            words.append(Msg("limit.times", n=w[:-1]))
        else:
            words.append(Msg(f"limit.{w}") if has(f"limit.{w}") else w)
    return Joined(words, " ")


def _paid(seat: str, mult: int, basic: int, north: int, honba: int, counters: int) -> Joined:
    """How one payment is worked out: basic x multiple rounded up to 100, + North's share, + honba."""
    rounded = up100(basic * mult)
    parts: list[Msg] = [Msg("riichi.pays", seat=seat, mult=mult, basic=basic, raw=basic * mult, rounded=rounded)]
    if north:
        parts.append(Msg("riichi.plus_north", north=north))
    if honba:
        parts.append(Msg("riichi.plus_honba", honba=honba, n=counters))
    if north or honba:
        parts.append(Msg("riichi.equals", amount=rounded + north + honba))
    return Joined(parts, "")


def pay(basic: int, rs: Ruleset, ctx: WinContext, as_tsumo: bool | None = None) -> tuple[dict[str, int], int, list[dict[str, Any]], list[str]]:
    """Payments by seat for `basic` points: ron 4x (dealer 6x) from the discarder; tsumo 2x
    from (or to) the dealer and 1x from each other player, each rounded up to 100; honba
    and riichi sticks on top. Three players: the absent North's share is dropped (tsumo_son)
    or half of it is added to each payer's share (north_split)."""
    st = rs.section("settlement").get("riichi", {})
    tsumo = ctx.tsumo if as_tsumo is None else as_tsumo
    seats = [s for s in rs.seats if s != ctx.seat]
    payments = {s: 0 for s in seats}
    ledger: list[dict[str, Any]] = []
    steps: list[str] = []
    honba_note = f" + {ctx.honba} honba" if ctx.honba else ""
    if tsumo:
        north_half = 0
        if rs.players == 3 and st.get("sanma", "tsumo_son") == "north_split":
            north = up100(basic * (2 if ctx.dealer else 1))  # what North would have paid
            north_half = (north + 199) // 200 * 100  # half of it, rounded up to 100
            steps.append(Msg("riichi.north_split", north=north, half=north_half))
        for s in seats:
            amount = up100(basic * (2 if (ctx.dealer or s == "E") else 1)) + north_half + st.get("honba_tsumo", 100) * ctx.honba
            payments[s] = amount
            ledger.append({"from": s, "to": ctx.seat, "amount": amount, "reason": "tsumo" + honba_note})
        steps.append(Msg("riichi.tsumo", items=Joined([_paid(s, 2 if (ctx.dealer or s == "E") else 1, basic, north_half, st.get("honba_tsumo", 100) * ctx.honba, ctx.honba) for s in seats], "; ")))
    else:
        frm = ctx.from_seat
        if frm == ctx.seat or frm not in seats:
            raise UsageError(f"--from {frm}: the discarder is another seat of {', '.join(rs.seats)}")
        amount = up100(basic * (6 if ctx.dealer else 4)) + st.get("honba_ron", 300) * ctx.honba
        payments[frm] = amount
        ledger.append({"from": frm, "to": ctx.seat, "amount": amount, "reason": "ron" + honba_note})
        steps.append(Msg("riichi.ron", item=_paid(frm, 6 if ctx.dealer else 4, basic, 0, st.get("honba_ron", 300) * ctx.honba, ctx.honba)))
    pot = st.get("stick", 1000) * ctx.sticks
    if pot:
        ledger.append({"from": "pot", "to": ctx.seat, "amount": pot, "reason": f"{ctx.sticks} riichi stick(s)"})
        steps.append(Msg("riichi.sticks", n=ctx.sticks, pot=pot))
    return payments, pot, ledger, steps


# -- input checks and nagashi mangan --------------------------------------------------------


def _refuse(flag: str, why: str) -> UsageError:
    return UsageError(f"{flag}: {why}")


def check_context(hand: Hand, rs: Ruleset, ctx: WinContext) -> None:
    """Refuse flag combinations that cannot happen (the same ones `mahjong` 2.1.0 refuses)."""
    has = ctx.has
    riichi = has("riichi") or has("double_riichi")
    opened = [m for m in hand.melds if m.is_open]
    if riichi and opened:
        raise _refuse("--riichi" if has("riichi") else "--double-riichi", f"riichi needs a concealed hand, but {opened[0]} is an open meld")
    if has("ippatsu") and not riichi:
        raise _refuse("--ippatsu", "ippatsu needs --riichi or --double-riichi")
    if has("open_riichi") and not riichi:
        raise _refuse("--situation open_riichi", "an open riichi needs --riichi or --double-riichi")
    if has("robbing_kong") and ctx.tsumo:
        raise _refuse("--robbing-kong", "robbing a kong is a win on another player's tile; it cannot be --tsumo")
    if has("kong_bloom") and not ctx.tsumo:
        raise _refuse("--kong-bloom", "a win on the replacement tile is a self-draw; add --tsumo")
    if has("last_tile") and (has("kong_bloom") or has("robbing_kong")):
        raise _refuse("--last-tile", "the last tile of the wall is neither a replacement tile nor a robbed kong")
    if has("first_turn") or has("renhou"):
        flag = "--first-turn" if has("first_turn") else "--situation renhou"
        if hand.melds:
            raise _refuse(flag, f"a first-turn win has no melds, but the hand shows {hand.melds[0]}")
        if not ctx.tsumo and ctx.dealer:
            raise _refuse(flag, "the dealer's first-turn win is a self-draw (heavenly hand); add --tsumo")
        if has("renhou") and ctx.tsumo:
            raise _refuse(flag, "renhou is a win on a discard before one's first draw; it cannot be --tsumo")
    if has("paarenchan") and has("paarenchan") < 1:
        raise _refuse("--situation paarenchan", "the count is at least 1")
    if ctx.round not in rs.seats:
        raise _refuse("--round", f"{rs.id} plays rounds {', '.join(rs.seats)} only")
    kita_tile = rs.section("calls").get("kita")
    if ctx.kita or hand.aside_tiles("kita"):
        if not kita_tile:
            raise _refuse("--kita", f"{rs.id} sets no tiles aside (kita is a three-player rule: --rules riichi-sanma)")
        k = parse_kind(kita_tile) if isinstance(kita_tile, str) else 30
        wrong = [t for t in hand.aside_tiles("kita") if t.kind != k]
        if wrong:
            raise _refuse("{kita=...}", f"only {kita_tile} is set aside as kita, not {wrong[0]}")
        if ctx.kita < 0 or hand.counts[k] + ctx.kita > rs.copies[k]:
            raise _refuse("--kita", f"{ctx.kita} more North(s) set aside, {hand.counts[k]} in the hand: only {rs.copies[k]} exist")


@pre_score("riichi")
def riichi_pre(hand: Hand, rs: Ruleset, ctx: WinContext, text: str, lang: str = "en") -> dict[str, Any] | None:
    check_context(hand, rs, ctx)
    if not ctx.has("nagashi"):
        return None
    return nagashi(hand, rs, ctx, text, lang)


def nagashi(hand: Hand, rs: Ruleset, ctx: WinContext, text: str, lang: str = "en") -> dict[str, Any]:
    """Nagashi mangan: at an exhaustive draw, every discard a terminal or honor and none
    called. It scores a mangan paid as a self-draw, whatever the hand holds."""
    from mjtools.validate import check_hand

    hand = check_hand(hand, rs, text, need_last=False, sizes=(rs.hand_size, rs.hand_size + 1))
    fan = rs.fans.get("nagashi_mangan")
    if fan is None:
        raise UsageError(f"--situation nagashi: {rs.id} has no nagashi mangan")
    payments, pot, ledger, steps = pay(2000, rs, ctx, as_tsumo=True)
    names = fan.get("names") or {}
    return {
        "hand": str(hand),
        "rules": rs.id,
        "valid": True,
        "reason": None,
        "fans": [{"id": "nagashi_mangan", "name": pick(names, lang) or "nagashi_mangan", "names": fan_names(names), "value": 5, "count": 1, "unit": "han"}],
        "fan_total": 5,
        "base": None,
        "limit": "nagashi mangan",
        "han": 5,
        "fu": 30,
        "fu_breakdown": [],
        "points": sum(payments.values()) + pot,
        "payments": payments,
        "pot": pot,
        "ledger": ledger,
        "explain": {
            "decomposition": [],
            "form": None,
            "wait": None,
            "readings": [],
            "awarded": [{"id": "nagashi_mangan", "name": pick(names, lang) or "nagashi_mangan", "rule": pick(fan.get("text"), lang), "value": 5, "per": 5, "count": 1, "unit": "han"}],
            "excluded": [],
            "steps": [localize(x, lang) for x in [Msg("riichi.nagashi")] + steps],
        },
    }


def fan_names(names: Mapping[str, str]) -> dict[str, str]:
    return {lang: pick(names, lang) for lang in ("en", "ja", "zh")}
