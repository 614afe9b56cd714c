"""Bonuses settled after the hand: birds (扎鸟 / 买马), flower money, chickens (捉鸡).

Each is a ledger entry of its own, in units of scoring.base (or, for birds with amount
`payment`, the hit player's hand payment again).

Birds: each --birds tile's number picks a seat counting from the dealer or the winner
(1, 5, 9 the start seat; 2, 6 the next; 3, 7 the opposite; 4, 8 the previous). On the winner:
every payer of the hand pays again; on a payer: he pays again; on anyone else: nothing.
`hits: winner` counts only birds on the winner (转转 159 中鸟); `per_hit: double` doubles
instead; `includes_dealer` repeats the dealer's 庄闲 addition with the payment; `count` caps
how many tiles --birds may give.

Chickens: the kinds in settlement.chickens.fixed plus the tile after each chicken indicator
(--indicator ROLE=TILE) are chickens; a kind that is both is golden (x golden_factor). Every
chicken a player holds or shows is paid by each other player. With penalty not_ready, a player
who neither won nor is ready pays each other player instead (包鸡).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from mjtools.errors import UsageError
from mjtools.rules.model import Ruleset
from mjtools.scoring.models import num
from mjtools.tiles.context import WinContext
from mjtools.tiles.hand import Hand
from mjtools.tiles.kinds import kind_str, parse_kind


def _base(rs: Ruleset) -> float:
    return rs.section("scoring").get("base", 1)


def bird_seat(tile_kind: int, start: str, seats: str, honors: str = "skip") -> str | None:
    """The seat a bird tile lands on (None: an honor bird that does not count)."""
    if tile_kind < 27:
        n = tile_kind % 9 + 1
    elif tile_kind < 34 and honors == "by_number":
        n = tile_kind - 26
    else:
        return None
    return seats[(seats.index(start) + n - 1) % len(seats)]


def bird_entries(normal: Mapping[str, float], rs: Ruleset, ctx: WinContext, dealer_extra: Mapping[str, float] | None = None) -> list[dict[str, Any]]:
    """The payments the --birds tiles add. `normal`: each payer's hand payment; `dealer_extra`:
    what each paid for the dealer (庄闲), repeated too when birds.includes_dealer is set."""
    if not ctx.birds:
        return []
    cfg = rs.section("settlement").get("birds")
    count = cfg.get("count") if cfg else None
    if not cfg or count == 0:
        raise UsageError(f"--birds: {rs.id} turns no birds (扎鸟)")
    if count is not None and len(ctx.birds) > count:
        raise UsageError(f"--birds: {rs.id} turns {count} bird tile(s); got {len(ctx.birds)}")
    start = "E" if cfg.get("start", "dealer") == "dealer" else ctx.seat
    amount = cfg.get("amount", "payment")
    double = cfg.get("per_hit", "add") == "double"
    base = dict(normal)
    if cfg.get("includes_dealer") and dealer_extra:
        for payer, extra in dealer_extra.items():
            if payer in base:
                base[payer] += extra
    paid = dict(base)  # what each payer has paid so far (hand and birds), for doubling
    out: list[dict[str, Any]] = []
    for t in ctx.birds:
        seat = bird_seat(t.kind, start, rs.seats, cfg.get("honors", "skip"))
        if seat is None:
            continue
        if seat == ctx.seat:
            hit = list(base)
        elif cfg.get("hits", "all") == "winner":
            continue  # 159 中鸟: only a bird on the winner counts
        else:
            hit = [seat] if seat in base else []
        for payer in hit:
            if double:
                value = paid[payer]
            else:
                value = base[payer] if amount == "payment" else amount * _base(rs)
            if value:
                paid[payer] += value
                out.append({"from": payer, "to": ctx.seat, "amount": num(value), "reason": f"bird {t} on {seat}" + (" (the winner)" if seat == ctx.seat else "") + (": doubles" if double else "")})
    return out


def flower_entries(hand: Hand, payers: Iterable[str], rs: Ruleset, ctx: WinContext) -> list[dict[str, Any]]:
    cfg = rs.section("settlement").get("flowers")
    if not cfg:
        return []
    n = sum(1 for t in hand.all_tiles() if t.suit == "f")
    if not n:
        return []
    amount = cfg.get("amount", 1) * _base(rs) * n
    return [{"from": p, "to": ctx.seat, "amount": num(amount), "reason": f"flowers x{n}"} for p in payers]


def chicken_values(rs: Ruleset, ctx: WinContext) -> dict[int, tuple[float, str]]:
    """kind -> (value, label) of this hand's chickens."""
    from mjtools.analysis.wildcards import dora_kinds

    cfg = rs.section("settlement").get("chickens") or {}
    out: dict[int, tuple[float, str]] = {}
    fixed = {parse_kind(f["tile"]): (f["value"], f.get("id", "chicken")) for f in cfg.get("fixed", ())}
    out.update(fixed)
    roles = [(cfg["indicator"], cfg.get("indicator_value", 1), "any", "chicken_bonus.win_flip")] if cfg.get("indicator") else []
    for role, spec in cfg.get("indicator_roles", {}).items():
        roles.append((role, spec.get("value", 1), spec.get("when", "any"), spec.get("id", f"chicken_bonus.{role}")))
    for role, value, when, label in roles:
        if when == "self_draw" and not ctx.tsumo:
            continue
        for k in dora_kinds(rs, ctx.indicators.get(role, ()), role):
            if k in fixed:
                out[k] = (fixed[k][0] * cfg.get("golden_factor", 2), "chicken_bonus.golden")
            elif k not in out:
                out[k] = (value, label)
    # 精 (南昌): the wildcards themselves score, by tier (0 the turned kind 正精, 1 the next 副精).
    tiers = cfg.get("wild_tiers")
    if tiers:
        from mjtools.analysis.wildcards import successor

        ind = rs.section("wildcards").get("indicator") or {}
        for t in ctx.indicators.get("wild", ()):
            for tier, spec in tiers.items():
                k = successor(t.kind, ind.get("cycle", "dora"), int(tier), rs.playable_kinds) if int(tier) else t.kind
                out.setdefault(k, (spec["value"], spec.get("id", f"wild_tier_{tier}")))
    return out


def _levelled(total: float, cfg: Mapping[str, Any]) -> float:
    """冲关: every `level_step` points the total counts one time more (x2 from one step up)."""
    step = cfg.get("level_step")
    return total * (1 + int(total // step)) if step else total


def chicken_entries(hands: Mapping[str, Hand], rs: Ruleset, ctx: WinContext, winners: Iterable[str] = (), ready: Mapping[str, bool] | None = None) -> list[dict[str, Any]]:
    cfg = rs.section("settlement").get("chickens")
    if not cfg:
        return []
    values = chicken_values(rs, ctx)
    base = _base(rs)
    won = set(winners)
    out: list[dict[str, Any]] = []
    for seat, hand in hands.items():
        held: dict[int, int] = {}
        for t in hand.all_tiles():
            if t.kind in values:
                held[t.kind] = held.get(t.kind, 0) + 1
        if not held:
            continue
        points = sum(values[k][0] * n for k, n in held.items())
        total = _levelled(points, cfg)
        if (cfg.get("sole_holder_factor") or cfg.get("sole_holder_add")) and _sole_holder(seat, hands, values, ctx):
            total = total * cfg.get("sole_holder_factor", 1) + cfg.get("sole_holder_add", 0)  # 霸王精: nobody else holds one
        total *= base
        what = ", ".join(f"{kind_str(k)} x{n} ({values[k][1]})" for k, n in sorted(held.items()))
        pays = cfg.get("penalty", "none") == "not_ready" and seat not in won and ready is not None and not ready.get(seat, True)
        for other in rs.seats:
            if other == seat:
                continue
            if pays:
                out.append({"from": seat, "to": other, "amount": num(total), "reason": f"包鸡: {seat} is not ready and pays for his chickens {what}"})
            else:
                out.append({"from": other, "to": seat, "amount": num(total), "reason": f"chickens of {seat}: {what}"})
    return out


def _sole_holder(seat: str, hands: Mapping[str, Hand], values: Mapping[int, Any], ctx: WinContext) -> bool:
    """Whether only this player holds bonus tiles: read from the table when every hand is given,
    else from --situation sole_holder (a single score record sees one hand)."""
    if len(hands) > 1:
        return not any(any(t.kind in values for t in h.all_tiles()) for s, h in hands.items() if s != seat)
    return bool(ctx.has("sole_holder"))
