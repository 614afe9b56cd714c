"""The Cantonese (Hong Kong) fan table against published HK tables: 十八羅漢 (four kongs) as a
limit hand, 混么九 (terminals and honours), the last discard, and the options where the tables
differ (half steps above 4 faan, who pays a robbed kong, the feeder of the fourth set)."""

import random

import pytest

from mjtools.rules import load
from mjtools.rules.hand_options import build_context, normalize
from mjtools.scoring import score
from mjtools.tiles.kinds import kind_str, kinds_str
from mjtools.tiles.notation import parse_hand

SEATS = "ESWN"


def sc(text: str, options: dict | None = None, **opts) -> dict:
    rs = load("guangdong-cantonese", options or {})
    return score(parse_hand(text), rs, build_context(normalize(opts, "score"), rs), text)


def _four_kongs(rng: random.Random) -> tuple[str, dict]:
    kinds = rng.sample(range(34), 5)
    seat = rng.choice(SEATS)
    others = [s for s in SEATS if s != seat]
    parts = []
    for k in kinds[:4]:
        four = kinds_str([k] * 4)
        if rng.random() < 0.5:
            parts.append(f"[{four}]")
        else:
            parts.append(f"({four}@{rng.choice(others)}{'/added' if rng.random() < 0.3 else ''})")
    pair = kind_str(kinds[4])
    opts: dict = {"seat": seat}
    if rng.random() < 0.5:
        opts["tsumo"] = True
    else:
        opts["from"] = rng.choice(others)
    return pair + "".join(parts) + "+" + pair, opts


def test_four_kongs_is_a_limit_hand(rng):
    for _ in range(40):
        text, opts = _four_kongs(rng)
        rec = sc(text, **opts)
        assert rec["valid"], (text, opts, rec["reason"])
        # Four concealed kongs are also 坎坎胡: limit hands stand alone, each shown as one limit.
        assert "four_kongs" in {f["id"] for f in rec["fans"]}, (text, rec["fans"])
        assert all(f["unit"] == "limit" and f["value"] == 1 for f in rec["fans"])
        assert rec["fan_total"] == 10
        # The cap is the limit: 1024 a share, six shares on a self-draw, four on a discard.
        assert rec["points"] == 1024 * (6 if opts.get("tsumo") else 4)


OUTSIDE = [0, 8, 9, 17, 18, 26]
HONOURS = list(range(27, 34))


def test_mixed_terminals_with_all_pungs(rng):
    """Four pungs and a pair of 1s, 9s and honours, both present: 混么九 1 + 對對糊 3."""
    seen = 0
    for _ in range(60):
        kinds = rng.sample(OUTSIDE, rng.randint(1, 4))
        kinds += rng.sample(HONOURS, 5 - len(kinds))
        rng.shuffle(kinds)
        pair = kinds[4]
        seat = rng.choice(SEATS)
        shown = f"({kinds_str([kinds[0]] * 3)}@{rng.choice([s for s in SEATS if s != seat])})"
        text = kinds_str(sorted(kinds[1:4] * 3 + [pair])) + shown + "+" + kind_str(pair)
        rec = sc(text, {"min_faan": 0}, seat=seat, tsumo=True)
        assert rec["valid"], (text, rec["reason"])
        ids = {f["id"] for f in rec["fans"]}
        if rec["limit"]:  # four concealed pungs by self-draw: a limit hand alone
            continue
        seen += 1
        assert {"mixed_terminals", "all_pungs"} <= ids, (text, ids)
    assert seen > 10


def test_last_discard_scores_one_faan(rng):
    for seat in SEATS:
        frm = SEATS[(SEATS.index(seat) + 2) % 4]
        base = sc("123m456m78m55z666z+9m", seat=seat, **{"from": frm})
        last = sc("123m456m78m55z666z+9m", seat=seat, last_tile=True, **{"from": frm})
        assert last["fan_total"] == base["fan_total"] + 1 and "last_discard_win" in {f["id"] for f in last["fans"]}


@pytest.mark.parametrize("faan, shares", [(3, 8), (4, 16), (5, 24), (6, 32), (7, 48), (8, 64), (9, 96), (10, 128)])
def test_half_steps_above_four_faan(faan, shares):
    """ANS's table: 320, 480, 640, 960, 1280, 1920, 2560 for 4 to 10 faan (x 1.5, x 4/3 in turn)."""
    from mjtools.scoring.models.doubling import doubling
    from mjtools.scoring.result import NO_STEPS, Awarded, Evaluation

    rs = load("guangdong-cantonese", {"half_step_doubling": True})
    ev = Evaluation(None, [Awarded("x", faan, 1, "番")])
    got = doubling(ev, rs, build_context({"seat": "S", "from": "W"}, rs), parse_hand("123m456m789m123p5p+5p"), NO_STEPS)
    assert got.points == shares


def test_robbed_kong_options():
    hand = "123m456m78m55z666z+9m"
    default = sc(hand, seat="W", robbing_kong=True, **{"from": "E"})
    assert default["payments"] == {"E": 256, "S": 128, "N": 128}
    paid = sc(hand, {"robbed_kong_pays_all": True}, seat="W", robbing_kong=True, **{"from": "E"})
    assert paid["payments"] == {"E": 768, "S": 0, "N": 0} and "self_draw" in {f["id"] for f in paid["fans"]}


def test_twelve_tiles_feeder_pays_only_a_self_draw():
    hand = "5z(123m@E)(456m@E)(999m@W)(777z@N)+5z"
    assert sc(hand, {"twelve_tiles": True}, seat="S", tsumo=True)["payments"] == {"E": 0, "W": 0, "N": 384}
    # On a discard the discarder pays as usual: the rule is 包自摸.
    ron = sc(hand, {"twelve_tiles": True, "min_faan": 0}, seat="S", **{"from": "W"})
    assert ron["payments"]["W"] == 2 * ron["payments"]["E"] > 0
