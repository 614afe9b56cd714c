"""The shanten and wait records (CLI contract), computed for one hand under one ruleset."""

from __future__ import annotations

from typing import Any

from mjtools.analysis.engine import discard_table, effective, shanten_of_state, waits_of
from mjtools.analysis.engine import improvements as fast_improvements
from mjtools.analysis.shapes import ShapeSpec
from mjtools.analysis.state import state_of
from mjtools.analysis.wildcards import copies_in_play, wild_kinds
from mjtools.errors import IllegalHandError
from mjtools.rules.model import Ruleset
from mjtools.rules.validate import SUIT_GROUP, prepare, unseen
from mjtools.tiles.context import WinContext
from mjtools.tiles.hand import Hand
from mjtools.tiles.kinds import Tile, kind_str

WAYS = ("ron", "tsumo")


def unmet(rs: Ruleset, hand: Hand, ctx: WinContext) -> list[str]:
    """Value-level prerequisites that the shape cannot decide."""
    win = rs.section("win")
    out = []
    if win.get("minimum", {}).get("fan"):
        out.append("minimum_fan")
    if win.get("minimum", {}).get("yaku"):
        out.append("yaku")
    if win.get("self_draw_only"):
        out.append("self_draw_only")
    if win.get("must_open") and hand.is_concealed:
        out.append("must_open")
    if win.get("ready_declaration") and not ctx.has("riichi"):
        out.append("ready_declaration")
    for req in ("terminal_required", "pung_required"):
        if req in rs.requirements:
            out.append(req)
    # Hands the variant forbids by pattern (a basic win's 2-5-8 pair, 花 minimums) depend on
    # the fans, which the shape cannot decide.
    out += [f"forbid:{fid}" for fid in win.get("forbid", {})]
    cap = win.get("max_wild_for_basic")
    if cap is not None and sum(1 for t in hand.hand_tiles() if t.kind in wild_kinds(rs, ctx)) > cap:
        out.append("max_wild_for_basic")
    # no_win_holding is shape-level: such tiles are outside ShapeSpec.kinds, so shanten
    # already counts them as tiles to discard.
    return out


def _void(ctx: WinContext) -> int | None:
    return None if ctx.void is None else SUIT_GROUP[ctx.void]


def shanten_record(hand: Hand, rs: Ruleset, ctx: WinContext, text: str = "") -> dict[str, Any]:
    hand, spec = prepare(hand, rs, ctx, text)
    st = state_of(hand, spec)
    void = _void(ctx)
    s, forms = shanten_of_state(st, spec, void)
    all_forms = {f: forms.get(f) for f in ("standard", "seven_pairs", "thirteen_orphans")}
    all_forms.update(forms)
    rec: dict[str, Any] = {"hand": str(hand), "rules": rs.id, "shanten": s if s < 90 else None, "forms": all_forms, "unmet": unmet(rs, hand, ctx)}
    left = unseen(hand, rs, ctx)
    copies = copies_in_play(rs, ctx)
    if hand.size == rs.hand_size + 1:
        rec["discards"] = discard_table(st, spec, copies, left, void)
    else:
        eff = effective(st, spec, copies, void)
        rec["effective"] = [kind_str(k) for k in eff]
        rec["effective_count"] = sum(left[k] for k in eff)
    return rec


_WINNING: list = []


def _winning_flags():
    # scoring loads only where a wait record needs it, and once (not an import per record)
    from mjtools.scoring.winning import winning_flags

    _WINNING.append(winning_flags)
    return winning_flags


def own_discard_furiten(rs: Ruleset) -> bool:
    """Whether a wait on a kind in one's own discards wins only by self-draw (play.furiten:
    riichi's 振听); 过手胡 (pass_lock) blocks only a passed win, never one's own discard."""
    return rs.section("play").get("furiten") == "riichi"


def _wait_part(hand: Hand, rs: Ruleset, ctx: WinContext, spec: ShapeSpec, left: list[int] | None = None, cut: int | None = None, ways: tuple[str, ...] = WAYS) -> dict[str, Any]:
    """The waits of a hand of hand size. `left`: the live copies, where the hand just cut a
    tile (that copy is on the table, not live); `cut`: that kind, which can then not be won on
    a discard where the variant has furiten."""
    st = state_of(hand, spec)
    kinds = waits_of(st, spec, copies_in_play(rs, ctx), _void(ctx))
    if left is None:
        left = unseen(hand, rs, ctx)
    winning_flags = _WINNING[0] if _WINNING else _winning_flags()
    winning = {}
    for k in kinds:
        flags = winning_flags(hand, k, rs, ctx, ways)
        if k == cut and "ron" in flags and own_discard_furiten(rs):
            flags["ron"] = False
        winning[kind_str(k)] = flags
    return {
        "tenpai": bool(kinds),
        "waits": [kind_str(k) for k in kinds],
        "live": {kind_str(k): left[k] for k in kinds},
        "winning": winning,
    }


def wait_record(hand: Hand, rs: Ruleset, ctx: WinContext, text: str = "", ways: tuple[str, ...] = WAYS) -> dict[str, Any]:
    """`ways`: how a win is checked in `winning` (ron, tsumo; --ron / --tsumo keep one)."""
    hand, spec = prepare(hand, rs, ctx, text)
    rec: dict[str, Any] = {"hand": str(hand), "rules": rs.id}
    if hand.size == rs.hand_size:
        rec.update(_wait_part(hand, rs, ctx, spec, ways=ways))
        rec["improvements"] = []
        if rec["tenpai"]:
            # Drawing a tile that wins by self-draw ends the hand: it improves nothing.
            wins = {w for w, flags in rec["winning"].items() if flags.get("tsumo", "tsumo" not in ways and _tsumo_wins(hand, w, rs, ctx))}
            rec["improvements"] = [i for i in improvements(hand, rs, ctx, spec) if i["draw"] not in wins]
        return rec
    if hand.size != rs.hand_size + 1:
        raise IllegalHandError(f"wait needs {rs.hand_size} or {rs.hand_size + 1} tiles")
    per: list[dict[str, Any]] = []
    seen = set()
    # Live counts as the whole hand sees them: the cut copy is on the table, not in the wall.
    left = unseen(hand, rs, ctx)
    for t in sorted(hand.hand_tiles(), key=lambda t: t.sort_key()):
        if t.kind in seen or (not spec.wild_discardable and t.kind in spec.wild_kinds):
            continue
        seen.add(t.kind)
        rest = hand.discard(t)
        part = _wait_part(rest, rs, ctx, spec, left, t.kind, ways)
        if part["tenpai"]:
            per.append({"discard": kind_str(t.kind), **part, "live_count": sum(part["live"].values())})
    per.sort(key=lambda r: -r["live_count"])
    rec["tenpai"] = bool(per)
    rec["discards"] = per
    return rec


def _tsumo_wins(hand: Hand, wait: str, rs: Ruleset, ctx: WinContext) -> bool:
    from mjtools.scoring.winning import winning_flags
    from mjtools.tiles.kinds import parse_kind

    return winning_flags(hand, parse_kind(wait), rs, ctx, ("tsumo",))["tsumo"]


def improvements(hand: Hand, rs: Ruleset, ctx: WinContext, spec: ShapeSpec) -> list[dict[str, Any]]:
    """For a ready hand: draws after which some discard leaves strictly more live winning tiles
    (wait_record leaves out the draws that win)."""
    left = unseen(hand, rs, ctx)
    st = state_of(hand, spec)
    void = _void(ctx)
    copies = copies_in_play(rs, ctx)
    got = fast_improvements(hand, st, spec, copies, left, void)
    if got is not None:
        return got
    base_waits = waits_of(st, spec, copies, void)
    base = sum(left[k] for k in base_waits)
    out = []
    for k in sorted(set(spec.kinds) | set(spec.wild_kinds)):
        if left[k] <= 0:
            continue
        drawn = hand.with_last(Tile(k))
        best: tuple[int, str, list[str]] | None = None
        for t in sorted({x.kind for x in drawn.hand_tiles()}):
            if t == k or (not spec.wild_discardable and t in spec.wild_kinds):
                continue
            rest = drawn.discard(Tile(t))
            st2 = state_of(rest, spec)
            w = waits_of(st2, spec, copies, void)
            live = sum(left[x] - (1 if x == k else 0) for x in w)
            if live > base and (best is None or live > best[0]):
                best = (live, kind_str(t), [kind_str(x) for x in w])
        if best:
            out.append({"draw": kind_str(k), "discard": best[1], "waits": best[2], "live_count": best[0]})
    out.sort(key=lambda r: -r["live_count"])
    return out
