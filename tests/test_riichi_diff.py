"""Riichi and sanma scoring against the independent `mahjong` 2.1.0 package.

Seeded random winning hands (tests/riichi_cases.py: closed and open, every wait, every kind of
kong, dora and ura, red fives, kita, every situational flag, honba and sticks) are scored by
both with the same options; valid / han / fu / points / payments / pot must agree. The one
documented rule difference (open self-draw without fu when open_pinfu_fu is off) is
recognised by its circumstances, checked to be exactly that difference, and shown by its own
test below.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from mahjong.hand_calculating.hand import HandCalculator
from riichi_cases import Case, nagashi_case, random_case

from mjtools.rules import load
from mjtools.rules.hand_options import build_context, normalize
from mjtools.scoring import score
from mjtools.tiles.notation import parse_hand

# In the comparison North is an ordinary wind in sanma, as in mahjong 2.1.0 (our default makes
# it a value tile for everyone: riichi-sanma.md default 3; see test_sanma_north_value_pung).
SANMA_PEER = {"north_value": False}


def ours(case: Case) -> dict[str, Any]:
    # mahjong 2.1.0 has no pao (liability): compared with it off (tests/test_pao.py covers it)
    rs = load("riichi-sanma" if case.sanma else "riichi", dict(case.options, pao=False, **(SANMA_PEER if case.sanma else {})))
    opts = case.json_case()
    text = opts.pop("hand")
    return score(parse_hand(text), rs, build_context(normalize(opts, "score"), rs), text)


def theirs(case: Case) -> dict[str, Any]:
    tiles, win, melds, dora, ura, config = case.mahjong_args()
    r = HandCalculator.estimate_hand_value(tiles, win, melds=melds, dora_indicators=dora, config=config, ura_dora_indicators=ura)
    if r.error:
        return {"valid": False, "error": r.error}
    c = r.cost
    seat = case.opts.get("seat", "E")
    pay = {s: 0 for s in ("ESW" if case.sanma else "ESWN") if s != seat}
    if case.opts.get("tsumo"):
        for s in pay:
            dealer_side = seat == "E" or s == "E"
            pay[s] = c["main"] + c["main_bonus"] if dealer_side else c["additional"] + c["additional_bonus"]
    else:
        pay[case.opts["from"]] = c["main"] + c["main_bonus"]
    return {"valid": True, "han": r.han, "fu": r.fu, "points": c["total"], "payments": pay, "pot": c["kyoutaku_bonus"]}


def open_tsumo_without_fu(case: Case, rec: dict[str, Any]) -> bool:
    """The documented difference: an open hand self-drawn with no fu but the 2 for the draw,
    with open_pinfu_fu off (and pinfu_tsumo_fu off, which would give the 2 fu back). We keep
    the 2 tsumo fu (30 fu); mahjong drops them (20 fu)."""
    opened = any(b.meld not in (None, "concealed_kong") for b in case.blocks)
    reasons = {p["reason"] for p in rec.get("fu_breakdown", ())}
    return case.options.get("open_pinfu_fu") is False and not case.options.get("pinfu_tsumo_fu") and opened and bool(case.opts.get("tsumo")) and rec.get("valid") and reasons == {"base", "self-draw"}


def differences(case: Case) -> list[str]:
    a, b = ours(case), theirs(case)
    if open_tsumo_without_fu(case, a):
        assert (a["fu"], b["fu"]) == (30, 20), (case.json_case(), a, b)
        return []
    if a["valid"] != b["valid"]:
        return [f"valid: ours {a['valid']} ({a.get('reason')}), mahjong {b['valid']} ({b.get('error')})"]
    if not a["valid"]:
        return [] if (a["reason"], b["error"]) == ("no yaku", "no_yaku") else [f"reason {a['reason']} vs {b['error']}"]
    return [f"{k}: ours {a[k]}, mahjong {b[k]}" for k in ("han", "fu", "points", "payments", "pot") if a[k] != b[k]]


def run(n: int, seed: int, sanma: bool, vary_options: bool) -> None:
    rng = random.Random(seed)
    failures = []
    for i in range(n):
        case = nagashi_case(rng, sanma) if i % 97 == 96 else random_case(rng, sanma=sanma, vary_options=vary_options)
        diff = differences(case)
        if diff:
            failures.append(f"{case.json_case()} options={case.options}: " + "; ".join(diff))
    assert not failures, f"{len(failures)} of {n} differ:\n" + "\n".join(failures[:20])


@pytest.mark.parametrize("n, seed, sanma, vary", [
    (400, 101, False, False),
    (250, 102, False, True),
    (200, 103, True, False),
    (150, 104, True, True),
])
def test_thousand_hands_agree(n, seed, sanma, vary):
    run(n, seed, sanma, vary)


@pytest.mark.slow
@pytest.mark.parametrize("n, seed, sanma, vary", [
    (7000, 201, False, False),
    (5000, 202, False, True),
    (4000, 203, True, False),
    (4000, 204, True, True),
])
def test_twenty_thousand_hands_agree(n, seed, sanma, vary):
    run(n, seed, sanma, vary)


def _case(text: str, **opts) -> dict[str, Any]:
    rs = load(opts.pop("rules", "riichi"), opts.pop("options", {}))
    return score(parse_hand(text), rs, build_context(normalize(opts, "score"), rs), text)


def test_documented_difference_open_tsumo_without_fu():
    """open_pinfu_fu off: an open all-chow hand self-drawn on a two-sided wait. Standard fu
    (base 20 + tsumo 2, rounded) give 30; mahjong 2.1.0 drops the tsumo fu of a hand with no
    other fu (meant for closed pinfu) and reports 20."""
    from mahjong.hand_calculating.hand_config import HandConfig, OptionalRules
    from mahjong.meld import Meld
    from mahjong.tile import TilesConverter as T

    rec = _case("23m567p23488s(678s)+4m", tsumo=True, seat="S", options={"open_pinfu_fu": False})
    assert (rec["han"], rec["fu"], rec["points"]) == (1, 30, 1100)
    tiles = T.string_to_136_array(man="234", pin="567", sou="23488678")
    chi = Meld(Meld.CHI, T.string_to_136_array(sou="678"))
    win = T.string_to_136_array(man="4")[0]
    cfg = HandConfig(is_tsumo=True, player_wind=28, round_wind=27, options=OptionalRules(has_open_tanyao=True, fu_for_open_pinfu=False))
    r = HandCalculator.estimate_hand_value(tiles, win, melds=[chi], config=cfg)
    assert (r.han, r.fu, r.cost["total"]) == (1, 20, 800)


def test_sanma_north_value_pung():
    """Our sanma default counts a North pung as a value pung for everyone (riichi-sanma.md,
    default 3); mahjong 2.1.0 knows North only as a seat or round wind, which no sanma player
    has. With north_value off the two agree (the differential runs that way)."""
    hand = "111p456p789s5s(444z@W)+5s"
    rec = _case(hand, rules="riichi-sanma", seat="S")
    assert rec["valid"] and [f["id"] for f in rec["fans"]] == ["north_pung"]
    off = _case(hand, rules="riichi-sanma", seat="S", options={"north_value": False})
    assert off["valid"] is False and off["reason"] == "no yaku"


def test_generator_covers_the_options_and_flags():
    """The random cases exercise every option and flag the comparison claims to cover."""
    rng = random.Random(5)
    seen: set[str] = set()
    for _ in range(3000):
        case = random_case(rng, sanma=rng.random() < 0.3, vary_options=True)
        seen |= {f"opt:{k}" for k in case.options}
        seen |= {k for k, v in case.opts.items() if v}
        seen |= set(case.opts.get("situation", {}))
        seen |= {b.meld for b in case.blocks if b.meld}
        if case.reds or case.win_red:
            seen.add("red")
    from riichi_cases import OPTION_PEERS

    want = {f"opt:{k}" for k in OPTION_PEERS} | {"opt:kazoe", "riichi", "double_riichi", "ippatsu", "tsumo", "from", "last_tile", "kong_bloom", "robbing_kong", "first_turn", "indicator", "ura", "honba", "sticks", "kita", "_kita_aside", "open_riichi", "paarenchan", "chi", "pon", "exposed_kong", "added_kong", "concealed_kong", "red"}
    assert want <= seen, want - seen
