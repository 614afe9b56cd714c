"""points_doubling: 和 counted from the sets, 底和 added, doubled per 台, rounded up (Luoshan).

    total = (和 + base_points) x 2^台, rounded up to round_to (122 -> 130)

和 comes from `scoring.points` (each entry {simple: 2-8, outside: 1/9 and honors}): exposed
pungs, concealed pungs (a pung completed by a discard counts as exposed), exposed / added and
concealed kongs, the pung a self-drawn winning tile completed (win_pung_tsumo, 自摸六 / 自摸十;
with win_pung_scope all, every concealed pung of a self-drawn hand),
pairs of the listed tiles, and the wait by win type (吊头, 边张, 嵌张). `points.fixed` maps a
fan to the points that replace (和 + base_points) when it applies (平和 30). The fans of the
rule file are the 台. A set holding a wildcard counts as the natural set it stands for, or,
with `points.wild_set: exposed`, a concealed one counts as a pon.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mjtools.analysis.blocks import KONG, PUNG, Block
from mjtools.messages import Msg
from mjtools.rules.model import Ruleset
from mjtools.scoring.models import apply_cap_points, fan_line, model, num, round_up
from mjtools.scoring.result import Evaluation, HandValue, Steps
from mjtools.tiles.context import WinContext
from mjtools.tiles.hand import Hand
from mjtools.tiles.kinds import TERMINALS_AND_HONORS


def _so(entry: Mapping[str, Any] | None, kind: int) -> float:
    if not entry:
        return 0
    return entry["outside"] if kind in TERMINALS_AND_HONORS else entry["simple"]


def _pair_class(kind: int, cls: str, ctx: WinContext) -> bool:
    return {
        "dragons": kind >= 31,
        "winds": 27 <= kind <= 30,
        "seat_wind": kind == ctx.seat_wind,
        "round_wind": kind == ctx.round_wind,
        "honors": kind >= 27,
        "terminals": kind in (0, 8, 9, 17, 18, 26),
    }[cls]


def _set_points(b: Block, win_block: Block | None, pts: Mapping[str, Any], ctx: WinContext) -> tuple[str, float]:
    k = b.first
    if b.wild and b.meld is None and pts.get("wild_set") == "exposed":
        key = "pung"  # a concealed set holding a wildcard scores as a pon (option of the file)
    elif b.shape == KONG:
        key = "concealed_kong" if b.meld is not None and b.meld.concealed else "exposed_kong"
    elif b.meld is not None:
        key = "pung"
    elif b is win_block and not ctx.tsumo:
        key = "pung"  # completed by a discard: scored as a pon
    elif ctx.tsumo and "win_pung_tsumo" in pts and (b is win_block or pts.get("win_pung_scope") == "all"):
        key = "win_pung_tsumo"  # 自摸六 / 自摸十: the winning pung, or every concealed pung (scope all)
    else:
        key = "concealed_pung"
    return key, _so(pts.get(key), k)


def hu_points(ev: Evaluation, ctx: WinContext, pts: Mapping[str, Any], explain: bool = True) -> tuple[float, list[str]]:
    """The counted 和 of one reading and the lines explaining it (none unless `explain`: a
    record without steps never reads them, and the blocks' notation is most of the cost)."""
    d = ev.decomposition
    win_block = None if d.win_block is None else d.blocks[d.win_block]
    lines: list[str] = []
    total = 0.0
    for b in d.blocks:
        if b.shape in (PUNG, KONG):
            key, v = _set_points(b, win_block, pts, ctx)
            if v:
                if explain:
                    lines.append(f"{b} {key} {num(v)}")
                total += v
    pair = d.pair
    pp = pts.get("pair")
    if pair is not None and pp and any(_pair_class(pair.first, c, ctx) for c in pp.get("tiles", ())):
        if explain:
            lines.append(f"pair {pair} {num(pp['value'])}")
        total += pp["value"]
    waits = pts.get("waits", {}).get("tsumo" if ctx.tsumo else "ron", {})
    if d.wait == "pair" and "pair" in waits and pair is not None:
        v = _so(waits["pair"], pair.first)
        if explain:
            lines.append(f"pair wait {num(v)}")
        total += v
    elif d.wait in ("edge", "closed") and d.wait in waits:
        if explain:
            lines.append(f"{d.wait} wait {num(waits[d.wait])}")
        total += waits[d.wait]
    return total, lines


@model("points_doubling")
def points_doubling(ev: Evaluation, rs: Ruleset, ctx: WinContext, hand: Hand, steps: Steps) -> HandValue:
    sc = rs.section("scoring")
    pts = sc.get("points", {})
    base_points = sc.get("base_points", 10)
    tai = sum(a.total for a in ev.fans)
    if steps:
        steps.msg("points_doubling.tai", line=fan_line(ev.fans).replace("fans:", "台:"))
    fixed = [(a.id, pts["fixed"][a.id]) for a in ev.fans if a.id in pts.get("fixed", {})]
    if fixed:
        hu, counted = 0.0, fixed[0][1]
        steps.msg("points_doubling.fixed", fan=fixed[0][0], counted=num(counted))
    else:
        hu, lines = hu_points(ev, ctx, pts, bool(steps))
        counted = hu + base_points
        if steps:
            steps.msg("points_doubling.hu", lines=", ".join(lines) if lines else Msg("word.none"), hu=num(hu), base=num(base_points), counted=num(counted))
    raw = counted * 2**tai
    points = round_up(raw, sc.get("round_to", 10))
    if steps:
        steps.append(Msg("points_doubling.points", counted=num(counted), tai=num(tai), raw=num(raw)) if points == raw else Msg("points_doubling.points_rounded", counted=num(counted), tai=num(tai), raw=num(raw), points=num(points)))
    points, limit = apply_cap_points(points, sc, steps)
    return HandValue(num(tai), num(points), base=num(hu), limit=limit, unit=sc.get("unit", "台"), unrounded=num(raw))
