"""Riichi's han/fu model: fu from the decomposition, limits, and payments by seat.

The arithmetic follows the public rules ([JPW], [MJJ] in rules.d/riichi.yaml) and agrees with
`mahjong` 2.1.0 (tests/test_riichi_diff.py): basic points = fu x 2^(han+2), capped at mangan
(2000); limit tiers by han; payments rounded up to 100 per payer.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from operator import itemgetter
from typing import Any

from mjtools.analysis.blocks import KONG, PAIR, PUNG
from mjtools.errors import UsageError
from mjtools.messages import Joined, Msg, has, localize
from mjtools.output import SharedDict
from mjtools.rules.model import Ruleset, pick
from mjtools.scoring.models import model, pre_score
from mjtools.scoring.result import Evaluation, HandValue, Steps
from mjtools.tiles.context import WinContext
from mjtools.tiles.hand import Hand
from mjtools.tiles.kinds import parse_kind

# (least han, basic points, name) below yakuman; mangan also caps fu x 2^(han+2) above 2000.
TIERS = ((11, 6000, "sanbaiman"), (8, 4000, "baiman"), (6, 3000, "haneman"), (5, 2000, "mangan"))
YAKUMAN_BASIC = 8000
_NO_PARAMS: Mapping[str, Any] = {}
DRAGONS = (31, 32, 33)


def up100(x: int) -> int:
    """Round a non-negative integer up to a multiple of 100."""
    return (x + 99) // 100 * 100


_OUTSIDE = tuple(k >= 27 or k % 9 in (0, 8) for k in range(34))
_TEXT: dict[tuple[int, ...], str] = {}


def _text(b) -> str:
    """A block's tiles as notation (cached: blocks repeat)."""
    got = _TEXT.get(b.kinds)
    if got is None:
        got = _TEXT[b.kinds] = str(b).strip("()[]")
    return got


class _Params:
    """scoring.riichi and settlement.riichi of one ruleset, read once (kept on the ruleset)."""

    __slots__ = ("params", "cap", "value_pairs", "double_pair_fu", "open_pinfu", "honba_tsumo", "honba_ron", "stick", "north_split", "kiriage", "aotenjou", "orphans_fu", "others", "before", "paid")

    def __init__(self, rs: Ruleset) -> None:
        params = self.params = rs.section("scoring").get("riichi", _NO_PARAMS)
        self.cap = params.get("max_yakuman")
        self.value_pairs = _value_pair_kinds(params) if params.get("fu") else frozenset()
        self.double_pair_fu = params.get("double_wind_pair_fu", 4)
        self.open_pinfu = params.get("open_pinfu_fu", True)
        st = rs.section("settlement").get("riichi", {})
        self.honba_tsumo = st.get("honba_tsumo", 100)
        self.honba_ron = st.get("honba_ron", 300)
        self.stick = st.get("stick", 1000)
        self.north_split = rs.players == 3 and st.get("sanma", "tsumo_son") == "north_split"
        self.kiriage = bool(params.get("kiriage"))
        self.aotenjou = bool(params.get("aotenjou"))
        # Thirteen orphans has no sets to count fu from; without limits its fu matter.
        self.orphans_fu = params.get("aotenjou_orphans_fu") if self.aotenjou else None
        seats = rs.seats
        self.others = {w: tuple(s for s in seats if s != w) for w in seats}  # the payers of each seat
        self.before = {w: seats[(seats.index(w) - 1) % len(seats)] for w in seats}  # the default discarder
        # (payments, pot, point total, ledger) by (basic, seat, tsumo, discarder, players, honba,
        # sticks): what a payer owes follows from those alone, and few of them recur across
        # hands. Each hand gets its own copies of the dict and the list (the entries are shared).
        self.paid: dict[tuple, tuple[dict[str, int], int, int, list[dict[str, Any]]]] = {}


def _params(rs: Ruleset) -> _Params:
    got = rs.__dict__.get("_riichi_params")
    if got is None:
        got = rs.__dict__["_riichi_params"] = _Params(rs)
    return got


def _value_pair_kinds(params: Mapping[str, Any]) -> frozenset[int]:
    return _kinds_of(tuple((params.get("fu") or {}).get("value_pairs") or ()))


@lru_cache(maxsize=64)
def _kinds_of(tiles: tuple[str, ...]) -> frozenset[int]:
    return frozenset(parse_kind(t) for t in tiles)


# A fu part: (English label for fu_breakdown, fu, message key, message params, the record's
# fu_breakdown line). Parts are values: each is made once and shared by every hand that has
# it, its record line too. Explain renders the key through the message catalogue in the
# user's language, only when asked.
Part = tuple[str, int, str, tuple, SharedDict]


def _part(reason: str, fu: int, key: str, params: tuple = ()) -> Part:
    return (reason, fu, key, params, SharedDict(reason=reason, fu=fu))


_BASE = _part("base", 20, "fu.base")
_SEVEN_PAIRS = _part("seven pairs", 25, "fu.seven_pairs")
_WAIT = {w: _part(w + " wait", 2, "fu.wait", (w,)) for w in ("closed", "edge", "pair")}
_SELF_DRAW = _part("self-draw", 2, "fu.self_draw")
_CONCEALED_RON = _part("concealed ron", 10, "fu.concealed_ron")
_OPEN_PINFU = _part("open hand without fu, won on a discard (rounds up to 30)", 2, "fu.open_pinfu")
_FU_LINE = itemgetter(4)  # a part's record line
_PARTS: dict[tuple, Part] = {}  # (kinds, fu) of a value pair
# The part of a pung or kong by its kinds ((k, k, k) or (k, k, k, k)), open [0] and concealed [1].
_SET_PARTS: tuple[dict[tuple[int, ...], Part], dict[tuple[int, ...], Part]] = ({}, {})


def _set_part(b, closed: bool) -> Part:
    got = _SET_PARTS[closed].get(b.kinds)
    if got is None:
        sh = b.shape
        fu = 4 if _OUTSIDE[b.kinds[0]] else 2
        if closed:
            fu *= 2
        if sh == KONG:
            fu *= 4
        text = _text(b)
        got = _SET_PARTS[closed][b.kinds] = _part((_CLOSED_WORD if closed else _OPEN_WORD)[sh] + text, fu, "fu.meld", (closed, sh, text))
    return got


def _pair_part(b, fu: int) -> Part:
    key = (b.kinds, fu)
    got = _PARTS.get(key)
    if got is None:
        text = _text(b)
        if fu == 2:
            got = _part("value pair " + text, 2, "fu.value_pair", (text,))
        else:
            got = _part("double value pair " + text, fu, "fu.double_value_pair", (text,))
        _PARTS[key] = got
    return got


def fu_of(ev: Evaluation, ctx: WinContext, hand: Hand, rp: _Params, concealed: bool | None = None) -> tuple[int, list[Part], int]:
    """(fu rounded, breakdown, raw sum). The raw sum breaks ties between equal readings."""
    d = ev.decomposition
    if d.form == "thirteen_orphans":
        if rp.orphans_fu:
            fu = rp.orphans_fu["tsumo" if ctx.tsumo else "ron"]
            return fu, [_part("base", fu, "fu.base")], fu
        return 0, [], 0
    if d.form == "seven_pairs":
        return 25, [_SEVEN_PAIRS], 25
    if concealed is None:
        concealed = hand.is_concealed
    tsumo = ctx.tsumo
    parts: list[Part] = [_BASE]
    raw = 20
    win_block = None if d.win_block is None else d.blocks[d.win_block]
    for b in d.blocks:
        sh = b.shape
        if sh == PUNG or sh == KONG:
            # A pung completed by a discard counts as exposed; a concealed kong stays concealed.
            closed = b.concealed and not (b is win_block and not tsumo and b.meld is None)
            part = _SET_PARTS[closed].get(b.kinds) or _set_part(b, closed)
            parts.append(part)
            raw += part[1]
        elif sh == PAIR:
            k = b.kinds[0]
            if k >= 27:
                hits = (k >= 31) + (k == ctx.seat_wind) + (k == ctx.round_wind) + (k in rp.value_pairs)
                if hits:
                    fu = 2 if hits == 1 else rp.double_pair_fu
                    parts.append(_pair_part(b, fu))
                    raw += fu
    wait = d.wait
    if wait == "closed" or wait == "edge" or wait == "pair":
        parts.append(_WAIT[wait])
        raw += 2
    if tsumo:
        for a in ev.fans:
            if a.id == "pinfu":
                break
        else:
            parts.append(_SELF_DRAW)
            raw += 2
    elif concealed:
        parts.append(_CONCEALED_RON)
        raw += 10
    if raw == 20 and not concealed and not tsumo and rp.open_pinfu:
        parts.append(_OPEN_PINFU)
        raw += 2
    return (raw + 9) // 10 * 10, parts, raw


_CLOSED_WORD = {PUNG: "concealed pung ", KONG: "concealed kong "}
_OPEN_WORD = {PUNG: "open pung ", KONG: "open kong "}


def _part_msg(part: Part) -> Msg:
    key, p = part[2], part[3]
    if key == "fu.meld":
        closed, shape, block = p
        return Msg(key, state=Msg("fu.concealed" if closed else "fu.open"), shape=Msg("fu.kong" if shape == KONG else "fu.pung"), block=block)
    if key in ("fu.double_value_pair", "fu.value_pair"):
        return Msg(key, block=p[0])
    if key == "fu.wait":
        return Msg(key, wait=Msg(f"wait.{p[0]}"))
    return Msg(key)


def limit_of(han: int, fu: int, rp: _Params) -> tuple[int, str | None]:
    """Basic points and limit name of a hand without yakuman."""
    if han >= 13:
        kazoe = rp.params.get("kazoe", "yakuman")
        if kazoe == "multiple":
            times = han // 13
            return YAKUMAN_BASIC * times, "kazoe yakuman" if times == 1 else f"kazoe {times}x yakuman"
        if kazoe == "yakuman":
            return YAKUMAN_BASIC, "kazoe yakuman"
        return 6000, "kazoe sanbaiman"
    for need, basic, name in TIERS:
        if han >= need:
            return basic, name
    if rp.kiriage and (han, fu) in ((4, 30), (3, 60)):
        return 2000, "kiriage mangan"
    basic = fu * 2 ** (han + 2)
    if basic > 2000:
        return 2000, "mangan"
    return basic, None


@model("riichi")
def riichi(ev: Evaluation, rs: Ruleset, ctx: WinContext, hand: Hand, steps: Steps) -> HandValue:
    rp = rs.__dict__.get("_riichi_params") or _params(rs)  # (_params without a call when made)
    cap = rp.cap
    fans = ev.fans
    han = 0
    multiples = 0
    yakuman = []
    for a in fans:
        if a.limit == "yakuman":
            yakuman.append(a)
            multiples += a.value * a.count
        else:
            han += a.value * a.count
    pctx = ev.pctx
    fu, parts, raw = fu_of(ev, ctx, hand, rp, None if pctx is None else pctx.concealed_hand)
    if rp.aotenjou:
        # No limits: each yakuman is 13 han beside the other yaku and the dora (the yaku a
        # yakuman contains are excluded by the rule file), and no cap applies.
        han = int(han + multiples * 13)
        basic = fu * 2 ** (han + 2)
        limit = None
        tiebreak = (0, han, fu, raw)
    elif yakuman:
        # Yakuman stand alone: the other yaku and dora do not add to them.
        ev.fans = yakuman
        han = int(multiples) * 13
        if cap and han > 13 * cap:
            han = 13 * cap
        times = han // 13
        basic = YAKUMAN_BASIC * times
        limit: str | None = "yakuman" if times == 1 else f"{times}x yakuman"
        tiebreak = (1, han, fu, raw)
    else:
        han = int(han)
        if cap and han > 13 * cap:
            han = 13 * cap
        basic, limit = limit_of(han, fu, rp)
        tiebreak = (0, han, fu, raw)
    key = (basic, ctx.seat, ctx.tsumo, ctx.discarder, ctx.players, ctx.honba, ctx.sticks)
    paid = rp.paid.get(key)
    if paid is None:
        payments, pot = pay_amounts(basic, rs, ctx, rp=rp)
        if len(rp.paid) > 4096:
            rp.paid.clear()
        paid = rp.paid[key] = (dict(payments), pot, sum(payments.values()) + pot, ledger_of(rs, ctx, payments, pot))
    payments, pot, points, ledger = paid
    payments = dict(payments)
    extra = {"han": han, "fu": fu, "fu_breakdown": list(map(_FU_LINE, parts))}

    if steps:
        if parts:
            steps.msg("riichi.fu", parts=Joined([Msg("fu.part", name=_part_msg(p), fu=p[1]) for p in parts], " + "), raw=raw, fu=fu)
        if yakuman and not rp.aotenjou:
            if cap and int(multiples) > cap:
                steps.msg("riichi.cap_yakuman", cap=cap)
            steps.msg("riichi.yakuman", ids=" + ".join(a.id for a in yakuman), times=han // 13, basic=basic)
        else:
            formula = f"{fu} x 2^({han}+2) = {fu * 2 ** (han + 2)}" if han < 5 or rp.aotenjou else Msg("riichi.han", han=han)
            if limit:
                steps.msg("riichi.basic_limit", han=han, fu=fu, formula=formula, basic=basic, limit=_limit_word(limit))
            else:
                steps.msg("riichi.basic", han=han, fu=fu, formula=formula, basic=basic)
        steps.extend(pay_steps(basic, rs, ctx, payments, pot))

    return HandValue(han, points, None, limit, "han", extra, payments, pot, ledger[:], tiebreak[:3], tiebreak=tiebreak)


def pay_amounts(basic: int, rs: Ruleset, ctx: WinContext, as_tsumo: bool | None = None, rp: _Params | None = None) -> tuple[dict[str, int], int]:
    """Payments by seat for `basic` points: ron 4x (dealer 6x) from the discarder; tsumo 2x
    from (or to) the dealer and 1x from each other player, each rounded up to 100; honba
    and riichi sticks on top. Three players: the absent North's share is dropped (tsumo_son)
    or half of it is added to each payer's share (north_split)."""
    if rp is None:
        rp = _params(rs)
    tsumo = ctx.tsumo if as_tsumo is None else as_tsumo
    seat = ctx.seat
    seats = rp.others.get(seat) or _others(rs.players, seat)
    payments = dict.fromkeys(seats, 0)
    honba = ctx.honba
    if tsumo:
        extra = rp.honba_tsumo * honba if honba else 0
        if rp.north_split:
            extra += north_half(basic, ctx.dealer)
        dealer = seat == "E"
        two = (basic * 2 + 99) // 100 * 100 + extra
        one = (basic + 99) // 100 * 100 + extra
        for s in seats:
            payments[s] = two if (dealer or s == "E") else one
    else:
        frm = ctx.discarder or (ctx.players == len(rp.before) and rp.before.get(seat)) or ctx.from_seat
        if frm not in payments:
            raise UsageError(f"--from {frm}: the discarder is another seat of {', '.join(rs.seats)}")
        payments[frm] = (basic * (6 if seat == "E" else 4) + 99) // 100 * 100 + (rp.honba_ron * honba if honba else 0)
    pot = rp.stick * ctx.sticks if ctx.sticks else 0
    return payments, pot


@lru_cache(maxsize=16)
def _others(players: int, seat: str) -> tuple[str, ...]:
    return tuple(s for s in "ESWN"[:players] if s != seat)


def north_half(basic: int, dealer: bool) -> int:
    """North split (北家折半): what the absent North would have paid, halved and rounded up to 100."""
    north = up100(basic * (2 if dealer else 1))
    return (north + 199) // 200 * 100


# Ledger entries are few distinct values (seats, a table of amounts, a few reasons): each is
# made once and shared by the records that hold it (read-only, its JSON text written once).
_ENTRIES: dict[tuple[str, str, int, str], SharedDict] = {}


def _entry(frm: str, to: str, amount: int, reason: str) -> dict[str, Any]:
    if type(amount) is not int:  # (1000.0 == 1000 as a key, but not as JSON text)
        return {"from": frm, "to": to, "amount": amount, "reason": reason}
    key = (frm, to, amount, reason)
    got = _ENTRIES.get(key)
    if got is None:
        if len(_ENTRIES) > 4096:
            _ENTRIES.clear()
        got = _ENTRIES[key] = SharedDict({"from": frm, "to": to, "amount": amount, "reason": reason})
    return got


def ledger_of(rs: Ruleset, ctx: WinContext, payments: Mapping[str, int], pot: int, tsumo: bool | None = None) -> list[dict[str, Any]]:
    tsumo = ctx.tsumo if tsumo is None else tsumo
    note = ("tsumo" if tsumo else "ron") + (f" + {ctx.honba} honba" if ctx.honba else "")
    seat = ctx.seat
    out: list[dict[str, Any]] = [_entry(s, seat, a, note) for s, a in payments.items() if a]
    if pot:
        out.append(_entry("pot", seat, pot, f"{ctx.sticks} riichi stick(s)"))
    return out


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


def pay_steps(basic: int, rs: Ruleset, ctx: WinContext, payments: Mapping[str, int], pot: int, tsumo: bool | None = None) -> list[str]:
    """The payment steps of explain (messages, rendered in the user's language later)."""
    tsumo = ctx.tsumo if tsumo is None else tsumo
    st = rs.section("settlement").get("riichi", {})
    out: list[str] = []
    half = 0
    if tsumo and rs.players == 3 and st.get("sanma", "tsumo_son") == "north_split":
        half = north_half(basic, ctx.dealer)
        out.append(Msg("riichi.north_split", north=up100(basic * (2 if ctx.dealer else 1)), half=half))
    if tsumo:
        honba = st.get("honba_tsumo", 100) * ctx.honba
        out.append(Msg("riichi.tsumo", items=Joined([_paid(s, 2 if (ctx.dealer or s == "E") else 1, basic, half, honba, ctx.honba) for s in payments], "; ")))
    else:
        for s, a in payments.items():
            if a:
                out.append(Msg("riichi.ron", item=_paid(s, 6 if ctx.dealer else 4, basic, 0, st.get("honba_ron", 300) * ctx.honba, ctx.honba)))
    if pot:
        out.append(Msg("riichi.sticks", n=ctx.sticks, pot=pot))
    return out


# -- input checks and nagashi mangan --------------------------------------------------------


def _refuse(flag: str, why: str) -> UsageError:
    return UsageError(f"{flag}: {why}")


_RIICHI_ONLY = frozenset(("riichi", "double_riichi"))


def check_context(hand: Hand, rs: Ruleset, ctx: WinContext) -> None:
    """Refuse flag combinations that cannot happen (the same ones `mahjong` 2.1.0 refuses)."""
    if ctx.round not in rs.seats:
        raise _refuse("--round", f"{rs.id} plays rounds {', '.join(rs.seats)} only")
    if not ctx.situations and not ctx.kita and not hand.aside:
        return
    has = ctx.situations.get
    riichi = has("riichi") or has("double_riichi")
    opened = [m for m in hand.melds if m.is_open] if riichi and hand.melds else ()
    if opened:
        raise _refuse("--riichi" if has("riichi") else "--double-riichi", f"riichi needs a concealed hand, but {opened[0]} is an open meld")
    if not ctx.kita and not hand.aside and _RIICHI_ONLY.issuperset(ctx.situations):
        return  # (the common flags: nothing below can object)
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
    if has("paarenchan") is not None and has("paarenchan") < 1:
        raise _refuse("--situation paarenchan", "the count is at least 1")
    kita_tile = rs.section("calls").get("kita")
    if ctx.kita or hand.aside_tiles("kita"):
        if not kita_tile:
            flag = "--kita" if ctx.kita else "{kita=...}"
            raise _refuse(flag, f"{rs.id} sets no tiles aside (kita is a three-player rule: --rules riichi-sanma)")
        k = parse_kind(kita_tile) if isinstance(kita_tile, str) else 30
        wrong = [t for t in hand.aside_tiles("kita") if t.kind != k]
        if wrong:
            raise _refuse("{kita=...}", f"only {kita_tile} is set aside as kita, not {wrong[0]}")
        if ctx.kita < 0 or hand.counts[k] + ctx.kita > rs.copies[k]:
            raise _refuse("--kita", f"{ctx.kita} more North(s) set aside, {hand.counts[k]} in the hand: only {rs.copies[k]} exist")


@pre_score("riichi")
def riichi_pre(hand: Hand, rs: Ruleset, ctx: WinContext, text: str, lang: str = "en") -> dict[str, Any] | None:
    check_context(hand, rs, ctx)
    if not ctx.situations or not ctx.situations.get("nagashi"):  # (ctx.has without a call on most hands)
        return None
    return nagashi(hand, rs, ctx, text, lang)


def nagashi(hand: Hand, rs: Ruleset, ctx: WinContext, text: str, lang: str = "en") -> dict[str, Any]:
    """Nagashi mangan: at an exhaustive draw, every discard a terminal or honor and none
    called. It scores a mangan paid as a self-draw, whatever the hand holds."""
    from mjtools.rules.validate import check_hand

    hand = check_hand(hand, rs, text, need_last=False, sizes=(rs.hand_size, rs.hand_size + 1))
    fan = rs.fans.get("nagashi_mangan")
    if fan is None:
        if "nagashi_mangan" not in rs.section("fans"):
            raise UsageError(f"--situation nagashi: {rs.id} has no nagashi mangan")
        # switched off by an option (presets without it): an answer, not an error
        return {"hand": str(hand), "rules": rs.id, "valid": False, "reason": "nagashi mangan is not in these rules", "fans": [], "fan_total": 0, "base": None, "limit": None,
                "points": 0, "payments": {s: 0 for s in rs.seats if s != ctx.seat}, "pot": 0, "ledger": []}
    payments, pot = pay_amounts(2000, rs, ctx, as_tsumo=True)
    ledger = ledger_of(rs, ctx, payments, pot, tsumo=True)
    steps = pay_steps(2000, rs, ctx, payments, pot, tsumo=True)
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
