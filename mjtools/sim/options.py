"""Legal actions: what a player may do on its turn, and on another player's discard."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mjtools.sim.config import RED, kind_of
from mjtools.sim.state import DISCARD, PASS, RIICHI, Action, Player

if TYPE_CHECKING:
    from mjtools.sim.engine import HandEngine

TERMINAL_HONOR = frozenset((0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33))


def locked(e: HandEngine, p: Player) -> bool:
    """A declared-ready player (riichi) or a 血流 winner only draws and discards."""
    return (p.riichi and e.cfg.locked_after_ready) or (p.wins > 0 and e.cfg.locked_after_win)


def _two(p: Player, kind: int, n: int) -> tuple[int, ...]:
    """n hand tiles of a kind, plain fives before red ones (codes)."""
    plain = [kind] * min(n, sum(1 for t in p.hand if t == kind))
    return tuple(plain + [kind | RED] * (n - len(plain)))


def discard_options(e: HandEngine, p: Player, after_call: bool) -> list[Action]:
    if locked(e, p) and not after_call and p.drawn is not None:
        return [DISCARD[p.drawn]]
    codes = sorted(set(p.hand))
    if e.cfg.void_discard_first and p.void is not None:
        void = [c for c in codes if kind_of(c) < 27 and kind_of(c) // 9 == p.void]
        if void:
            codes = void
    if not e.cfg.wild_discardable and e.wild:
        natural = [c for c in codes if kind_of(c) not in e.wild]
        if natural:
            codes = natural
    return list(map(DISCARD.__getitem__, codes))


def turn_options(e: HandEngine, p: Player, after_call: bool) -> list[Action]:
    """Options after a draw (or, with after_call, after a chi or pon: discards only)."""
    cfg = e.cfg
    out: list[Action] = []
    discards = discard_options(e, p, after_call)
    if after_call:
        return discards
    if p.drawn is not None and e.can_tsumo(p):
        out.append(Action("tsumo", p.drawn))
    if "abort_nine_terminals" in cfg.abortive and p.draws == 1 and not e.interrupted and not p.melds:
        if sum(1 for k in TERMINAL_HONOR if p.counts[k]) >= 9:
            out.append(Action("abort"))
    can_replace = e.wall.can_replace()
    kong_ok = can_replace and len(e.kong_seats) < cfg.max_kongs
    lock = locked(e, p)
    if kong_ok and cfg.concealed_kong and 4 in p.counts:  # (no four of a kind held: no kong)
        for k in range(34):
            if p.counts[k] == 4 and k not in e.wild and (not lock or (p.drawn is not None and kind_of(p.drawn) == k and e.kong_keeps_waits(p, k))):
                out.append(Action("concealed_kong", k))
    if kong_ok and cfg.added_kong:
        for m in p.melds:
            k = m.tiles[0] & 63
            if m.kind == "pung" and p.counts[k] and (not lock or (p.drawn is not None and kind_of(p.drawn) == k and e.kong_keeps_waits(p, k))):
                out.append(Action("added_kong", k))
    if cfg.kita is not None and can_replace and p.counts[cfg.kita] and (not lock or (p.drawn is not None and kind_of(p.drawn) == cfg.kita)):
        out.append(Action("kita", cfg.kita))
    if cfg.declare_ready and not p.riichi and p.concealed and e.wall.left >= cfg.players and e.may_riichi[p.index]:
        out.extend(RIICHI[c] for c in e.ready_discards(p, [a.tile for a in discards]))
    out.extend(discards)
    return out


def claim_options(e: HandEngine, q: Player, discarder: Player, code: int, ron: bool) -> list[Action]:
    """What q may do with the tile `code` that `discarder` just discarded."""
    cfg = e.cfg
    k = kind_of(code)
    out: list[Action] = []
    if ron:
        out.append(Action("ron", code))
    if q.out or locked(e, q) or e.wall.left <= 0 or k in e.wild or k >= 34:
        return out + [PASS] if out else out
    if cfg.void_discard_first and q.void is not None and k < 27 and k // 9 == q.void:
        return out + [PASS] if out else out
    n = q.counts[k]
    left_of_q = e.players[e.prev_active(q.index)] is discarder
    if n == 3 and cfg.exposed_kong and e.wall.can_replace() and len(e.kong_seats) < cfg.max_kongs and (cfg.exposed_kong_from_left or not left_of_q):
        out.append(Action("exposed_kong", code, _two(q, k, 3)))
    if n >= 2 and cfg.pon:
        out.append(Action("pon", code, _two(q, k, 2)))
    if cfg.chi and left_of_q and k < 27:
        pos = k % 9
        for a, b in ((-2, -1), (-1, 1), (1, 2)):
            if 0 <= pos + a and pos + b <= 8 and q.counts[k + a] and q.counts[k + b]:
                if k + a in e.wild or k + b in e.wild:
                    continue
                out.append(Action("chi", code, _two(q, k + a, 1) + _two(q, k + b, 1)))
    if out:
        out.append(PASS)
    return out
