"""The wildcard and kawuxing variant files: complete, documented, illustrated and sourced."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from mjtools.rules import load
from mjtools.rules.freeze import thaw

RULES_D = Path(__file__).resolve().parent.parent / "rules.d"
OURS = [
    "luoshan", "hangzhou", "shanghai-qiaoma", "shanghai-baida", "wuhan-hongzhong", "nanchang", "wenzhou",
    "zuanpai", "hebei", "tianjin", "guangshui-kawuxing", "xiangyang-kawuxing",
]
SHIPPED = [rid for rid in OURS if (RULES_D / f"{rid}.yaml").is_file()]


@pytest.mark.parametrize("rid", SHIPPED)
def test_examples_sourced(rid):
    rs = load(rid)
    examples = thaw(rs.raw).get("examples", {})
    if rs.abstract:
        return
    assert examples and all(ex.get("source", "").strip() for ex in examples.values())
    published = [e for e, ex in examples.items() if not ex["source"].startswith("derived")]
    assert len(published) >= 3, f"{rid}: only {len(published)} examples quote a seed or a published table"


@pytest.mark.parametrize("rid", [r for r in SHIPPED if not load(r).abstract])
def test_random_wins_settle(rid):
    """Random complete hands: the score record is consistent (ledger to the winner, payments
    plus pot equal the points), with the wildcard indicator drawn at random."""
    from wildref import wild_hand
    from wildvariants import shipped_draw

    from mjtools.scoring import score
    from mjtools.tiles.context import WinContext
    from mjtools.tiles.kinds import Tile, kind_str

    rs = load(rid)
    rng = random.Random(f"settle:{rid}")
    valid = 0
    for i in range(80):
        spec, _, turned = shipped_draw(rid, rng)
        melds = i % 2  # a laid-down pung, for variants that must open
        hand = wild_hand(rng, spec, i % 3 if spec.wild_kinds else 0, spec.hand_size + 1 - 3 * melds, "complete", melds)
        seat = rng.choice(rs.seats)
        others = [s for s in rs.seats if s != seat]
        ctx = WinContext(
            tsumo=bool(i % 2),
            seat=seat,
            discarder=rng.choice(others),
            players=rs.players,
            indicators={"wild": (Tile(turned),)} if turned is not None else {},
        )
        rec = score(hand, rs, ctx, str(hand))
        if not rec["valid"]:
            assert rec["reason"], (str(hand), kind_str(turned) if turned is not None else "")
            continue
        valid += 1
        assert all(e["to"] == seat and e["amount"] > 0 for e in rec["ledger"]), str(hand)
        assert abs(sum(rec["payments"].values()) + rec["pot"] - rec["points"]) < 1e-9, str(hand)
    assert valid, rid
