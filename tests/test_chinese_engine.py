"""The Chinese score models and settlement, on small engine rule files (tests/fixtures/rules).

Every expected figure here is worked by hand from the rule file in the comment next to it.
"""

from pathlib import Path

import pytest

from mjtools.errors import MjError, UsageError
from mjtools.rules import load, load_path
from mjtools.rules.hand_options import build_context, normalize
from mjtools.scoring import score
from mjtools.scoring.table import settle_table
from mjtools.tiles.notation import parse_hand

RULES = Path(__file__).resolve().parent / "fixtures" / "rules"


def rules(name: str, **options):
    return load_path(RULES / f"{name}.yaml", options)


def sc(rs, hand: str, **opts):
    rec = score(parse_hand(hand), rs, build_context(normalize(opts, "score"), rs), hand)
    if rec["valid"]:
        assert abs(sum(rec["payments"].values()) + rec["pot"] - rec["points"]) < 1e-9
    return rec


def pays(rec) -> dict[str, float]:
    return {s: a for s, a in rec["payments"].items() if a}


def table(rs, case):
    out = settle_table(case, rs)
    assert abs(sum(out["net"].values()) + out["pot"]) < 1e-9
    return out


# -- category (Changsha-like) --------------------------------------------------------------------


def test_category_small_and_dealer_add():
    rs = rules("engine-category")
    # A small win on a discard: 1 from the discarder; the dealer discarding adds 1 (庄闲).
    assert pays(sc(rs, "123m456m789m22p34p+5p", seat="S", **{"from": "N"})) == {"N": 1}
    rec = sc(rs, "123m456m789m22p34p+5p", seat="S", **{"from": "E"})
    assert pays(rec) == {"E": 2}
    assert [e["reason"] for e in rec["ledger"]] == ["hand", "dealer: 庄闲 +1"]


def test_category_big_units_add_up_and_birds():
    rs = rules("engine-category")
    # all_pungs + full_flush = 2 big units x 6 = 12 from each on a self-draw; E (dealer) +1.
    # Birds from the dealer: 5m is the 5th seat from E = E again; 3p the 3rd = W.
    rec = sc(rs, "111222333555m8m+8m", seat="S", tsumo=True, birds="5m3p")
    assert rec["fan_total"] == 2
    assert pays(rec) == {"E": 12 + 1 + 12, "W": 12 + 12, "N": 12}


def test_category_pair_258_required():
    rec = sc(rules("engine-category"), "123m456m789m33p34p+5p", seat="S")
    assert rec["valid"] is False and rec["reason"].startswith("pair_258")


# -- points then doubling (Luoshan-like) --------------------------------------------------------------


def test_points_doubling_counts_hu_then_doubles():
    rs = rules("engine-points")
    # 和: pon 777z 4 + concealed 999m 8 + concealed kong 1111p 32 + pair 11z (East seat) 2 = 46;
    # + 底和 10 = 56; 1 台 (dragon) -> 112 -> rounded up to 120 from each (all pay alike).
    rec = sc(rs, "999m67s11z(777z@W)[1111p]+8s", tsumo=True)
    assert (rec["base"], rec["fan_total"]) == (46, 1)
    assert pays(rec) == {"S": 120, "W": 120, "N": 120}
    # On a discard the same hand is 120 < 200: not a win (起胡).
    rec = sc(rs, "999m67s11z(777z@W)[1111p]+8s", **{"from": "S"})
    assert rec["valid"] is False and rec["reason"].startswith("minimum_points")


def test_points_doubling_self_drawn_pung_and_fixed_plain_win():
    rs = rules("engine-points")
    # Self-drawn 9m completes 999m: 自摸十 10 instead of 8 -> 和 48.
    assert sc(rs, "99m678s11z(777z@W)[1111p]+9m", tsumo=True)["base"] == 48
    # seed 004: 清三台平和 = 240 (30 x 2^3).
    rec = sc(rs, "123456789m2355m+4m", tsumo=True)
    assert {f["id"] for f in rec["fans"]} == {"full_flush", "plain_win"}
    assert rec["points"] == 3 * 240


def test_points_doubling_win_pung_scope():
    # Luoshan, 9m turned (1m wild): 444p concealed, not completed by the drawn 5s.
    path = Path(__file__).resolve().parent.parent / "rules.d" / "luoshan.yaml"
    hand = "444p123s5s(555z@W)(666z@N)+5s"
    # scope all (the reference's reading): 444p 6 + pair wait 4 + pons 4 + 4 = 18.
    assert sc(load_path(path), hand, seat="S", tsumo=True, indicator=["wild=9m"])["base"] == 18
    # scope winning: only the pung the drawn tile completes counts 6, so 444p stays 4.
    rs = load_path(path, {"self_drawn_pungs": "winning"})
    assert sc(rs, hand, seat="S", tsumo=True, indicator=["wild=9m"])["base"] == 16
    # a discard win is unaffected either way: 444p 4 + pair wait 2 + 8 = 14.
    assert sc(load_path(path), hand, seat="S", indicator=["wild=9m"], **{"from": "W"})["reason"].startswith("minimum_points")


# -- fan gate (Hainan-like) -------------------------------------------------------------------------


def test_fan_gate_stakes_and_gate():
    rs = rules("engine-gate")
    # Ron needs 1 fan: concealed_hand gives it; 推倒胡 stake 1 from the discarder.
    assert pays(sc(rs, "123m456m789m11p34p+5p", seat="S", **{"from": "W"})) == {"W": 1}
    # Self-draw: 1 each, the dealer doubles.
    assert pays(sc(rs, "123m456m789m11p34p+5p", seat="S", tsumo=True)) == {"E": 2, "W": 1, "N": 1}
    # Declared ready and self-drawn: 明摸 4 each (dealer 8).
    assert pays(sc(rs, "123m456m789m11p34p+5p", seat="S", tsumo=True, riichi=True)) == {"E": 8, "W": 4, "N": 4}
    # An open hand with no fan may not win on a discard.
    rec = sc(rs, "(123m@E)456m789m11p34p+5p", seat="S", **{"from": "W"})
    assert rec["valid"] is False and rec["reason"].startswith("minimum_fan")


# -- multiplicative (Tianjin-like) ------------------------------------------------------------------


def test_multiplicative_factors_stack_and_cap():
    rs = rules("engine-mult")
    # 捉伍儿 x3 and 龙 x4: 12 from each.
    assert pays(sc(rs, "123456789m46m11z+5m", tsumo=True)) == {"S": 12, "W": 12, "N": 12}
    # 杠开 x2 on a big win (stake 5, all pungs x2) after a concealed kong: 5 x 4 = 20, capped at 16.
    rec = sc(rs, "111m222p33s44z[5555z]+3s", tsumo=True, kong_bloom=True)
    assert rec["fan_total"] == 4 and rec["limit"] == "cap" and pays(rec)["S"] == 16
    # A big win starts from category_base 5: all pungs x2 = 10.
    assert pays(sc(rs, "111m222p333s44z55z+5z", tsumo=True))["S"] == 10
    assert sc(rs, "123456789m46m11z+5m")["reason"].startswith("self_draw_only")


def test_multiplicative_streak_raises_the_stake():
    rs = rules("engine-mult")
    # streak_base 1: two dealer repeats make the stake 1 + 2 = 3, and the factors multiply it:
    # 捉伍儿 x3 and 龙 x4 -> 3 x 12 = 36, capped at 16; 龙 alone -> 3 x 4 = 12 from each.
    assert pays(sc(rs, "123456789m11z23p+4p", tsumo=True, streak=2)) == {"S": 12, "W": 12, "N": 12}
    rec = sc(rs, "123456789m46m11z+5m", tsumo=True, streak=2)
    assert rec["limit"] == "cap" and pays(rec)["S"] == 16
    # No repeat: the plain stake.
    assert pays(sc(rs, "123456789m11z23p+4p", tsumo=True))["S"] == 4


@pytest.mark.parametrize("calls", ["{chi: true, chi_left_only: true}", "{chi: true}"])
def test_chow_from_another_seat_refused_in_every_file(tmp_path, calls):
    """A chow comes only from the left player, whatever the file says (chi_left_only is accepted
    and changes nothing), even in a file whose win section has nothing but forms."""
    f = tmp_path / "left.yaml"
    f.write_text(
        "id: left\nextends: base-chinese\nnames: {en: Left, zh_hans: 左}\n"
        f"tiles: {{suits: [m, p, s], honors: [1, 2, 3, 4, 5, 6, 7]}}\ncalls: {calls}\n",
        encoding="utf-8",
    )
    rs = load_path(f)
    with pytest.raises(MjError, match="only from the player on the left"):
        sc(rs, "456m789p11s23s(123m@W)+4s", seat="S", **{"from": "W"})
    assert sc(rs, "456m789p11s23s(123m@E)+4s", seat="S", **{"from": "W"})["valid"]


def test_flat_and_flower_money():
    rs = rules("engine-flat")
    # base 2, no fan; flowers 2 x 1 x base 2 = 4 from each payer.
    rec = sc(rs, "123m456m789m11p34p{15f}+5p", tsumo=True)
    assert pays(rec) == {"S": 6, "W": 6, "N": 6}


# -- liability (Cantonese-like) ---------------------------------------------------------------------


def test_liability_deal_in_after_three_shown():
    rs = rules("engine-liability")
    # full_flush 7: 128 a share; 半铳 W 256, E 128, N 128 = 512, all on W (three shown).
    rec = sc(rs, "(123m@E)(456m@E)(789m@E)11m23m+4m", seat="S", **{"from": "W"})
    assert pays(rec) == {"W": 512}
    assert rec["ledger"][0]["reason"] == "hand (包牌 full_flush)"


def test_liability_half_for_the_fourth_feed():
    rs = rules("engine-liability")
    # Self-draw: 256 from each = 768. W fed the fourth set: 384 + half of his 256.
    rec = sc(rs, "(123m@E)(456m@E)(789m@E)(222m@W)1m+1m", seat="S", tsumo=True)
    assert pays(rec) == {"E": 128, "W": 512, "N": 128}


def test_liability_needs_the_source():
    rs = rules("engine-liability")
    with pytest.raises(UsageError) as e:
        sc(rs, "(123m@E)(456m)(789m@E)(222m)1m+1m", seat="S", tsumo=True)
    assert "(222m)" in str(e.value) and "full_flush" in str(e.value)


def test_liability_dragons_only_when_the_third_dragon_wins():
    rs = rules("engine-liability")
    # big_three_dragons 8: 256 a share, T = 512 + 256 + 256.
    assert pays(sc(rs, "(555z@E)(666z@N)77z123m11p+7z", seat="S", **{"from": "W"})) == {"W": 1024}
    assert pays(sc(rs, "(555z@E)(666z@N)777z123m1p+1p", seat="S", **{"from": "W"})) == {"W": 512, "E": 256, "N": 256}
    # The third dragon was ponged from W, then a self-draw: T = 1536, W 768 + 256.
    assert pays(sc(rs, "(555z@E)(666z@N)(777z@W)123m1p+1p", seat="S", tsumo=True)) == {"E": 256, "W": 1024, "N": 256}


# -- chickens (Guizhou-like data) -----------------------------------------------------------------


def test_chickens_at_the_table():
    rs = rules("engine-chickens")
    out = table(rs, {
        "table": {"S": "111s234m567m99m78m+9m", "E": "88p123m456m789m11p", "W": "1s3s5s7s9s2p4p6p8p1m3m5m7m", "N": "123m456m789m11p23p"},
        "event": "win", "winners": ["S"], "indicator": ["chicken=7p"],
    })
    # Hand: 1 + 自摸加底 1 from each. S: three 幺鸡 = 3 from each. E: 8p x2, golden (乌骨鸡 and
    # flipped) 2 each = 4 from each. W is not ready: 包鸡, pays 8p 2 + 1s 1 = 3 to each.
    assert out["net"] == {"S": 6 + 9 - 4 + 3, "E": -2 - 3 + 12 + 3, "W": -2 - 3 - 4 - 9, "N": -2 - 3 - 4 + 3}


# -- table cases -----------------------------------------------------------------------------------


def test_head_bump_takes_the_nearest():
    rs = rules("engine-points")  # claims: head_bump
    table_hands = {"S": "999m67s11z(777z@W)[1111p]+8s", "N": "111m67s22z(555z@E)[2222p]+8s"}
    # 8s from W: N sits right after W, so N wins alone and S is bumped (seed 003's rule).
    out = table(rs, {"table": table_hands, "event": "win", "winners": ["S", "N"], "from": "W"})
    assert [r["seat"] for r in out["results"]] == ["N"] and out["bumped"] == ["S"]
    # Under multiple_ron both would be scored.
    out = table(load("sichuan-xuezhan"), {"table": {"S": "1122334455667m+7m", "W": "123456789p1155s+5s"}, "event": "win", "winners": ["W", "S"], "from": "E"})
    assert [r["seat"] for r in out["results"]] == ["W", "S"] and out["net"]["E"] == -9


def test_table_case_errors():
    rs = load("sichuan-xuezhan")
    with pytest.raises(UsageError):
        settle_table({"table": {"E": "1m"}, "event": "win", "winners": ["S"]}, rs)
    with pytest.raises(UsageError):
        settle_table({"table": {"E": "123m456m789m11p23p+4p"}, "event": "win", "winners": ["E"], "from": "E"}, rs)
    with pytest.raises(UsageError):
        settle_table({"table": {"E": "123m456m789m11p23p"}, "event": "draw"}, rs)


# -- 独听: the fast check against the exhaustive waits ---------------------------------------------


@pytest.mark.parametrize("rid", ["taiwan-16", "sichuan-xuezhan", "guangdong-cantonese", "riichi"])
def test_single_wait_fast_check_matches_the_waits(rid):
    import random

    from gen import complete_hand, winning_case
    from mjtools.analysis.decompose import decompositions
    from mjtools.analysis.waits import other_wait_exists, waiting_kinds_before_win
    from mjtools.patterns.ctx import Ctx
    from mjtools.rules.validate import check_hand
    from mjtools.tiles.kinds import kinds_str

    rs = load(rid)
    rng = random.Random(f"waits:{rid}")
    sets = 5 if rs.hand_size == 16 else 4
    kinds = range(27) if rid == "sichuan-xuezhan" else range(34)
    checked = 0
    while checked < 150:
        if rid == "sichuan-xuezhan":
            suits = rng.sample(range(3), 2)
            kinds = [k for k in range(27) if k // 9 in suits]
        roll = rng.random()
        if roll < 0.3:
            # Some sets laid down as melds (the fast engine's waits then need fewer sets).
            got = winning_case(rng, sets=sets, kinds=kinds, chi=bool(rs.section("calls").get("chi")))
            if got is None:
                continue
            text = got[0]
        else:
            if roll < 0.45 and rs.hand_size == 13 and "seven_pairs" in rs.base_spec.forms:
                hand = sorted(rng.sample(list(kinds), 7) * 2)
            else:
                hand = complete_hand(rng, sets=sets, kinds=kinds)
            if hand is None:
                continue
            last = hand.pop(rng.randrange(len(hand)))
            text = kinds_str(hand) + "+" + kinds_str([last])
        h = check_hand(parse_hand(text), rs, text, need_last=True, sizes=(rs.hand_size + 1,))
        ctx = build_context({}, rs)
        for d in decompositions(h, rs.base_spec):
            c = Ctx(h, d, ctx, frozenset(), (), (), {}, {}, rs.base_spec)
            assert (len(waiting_kinds_before_win(c)) == 1) == (not other_wait_exists(c)), text
            checked += 1
