"""Chinese Official (rules.d/mcr.yaml) against `pymahjonggb`'s fan calculator, on seeded random
legal wins (tests/mcr_gen.py): every form, melds and kongs of every kind, self-draw and
discard, seat and round winds, flowers, and the flags a win can carry.

For every hand the fans (with their counts) and the total must be pymahjonggb's. One thing is
not a difference: where two readings of a hand score the same total with different fans
(111222333 read as pungs or as chows), pymahjonggb keeps the first its own search finds; such
a hand passes when pymahjonggb's list is the list of one of our equally valued readings.

Where the rule file offers a reading pymahjonggb does not count (an option other than its
default), the difference is shown on one hand in `test_option_differs_from_pymahjonggb`.
"""

from __future__ import annotations

import random
from collections import Counter
from functools import cache

import MahjongGB
import pytest

from mcr_gen import mcr_case
from mjtools.rules import load
from mjtools.rules.hand_options import build_context, normalize
from mjtools.scoring import evaluations, score
from mjtools.tiles.notation import parse_hand

# pymahjonggb's fan names (its Chinese names) -> the fan ids of rules.d/mcr.yaml
GB_IDS = {
    "大四喜": "big_four_winds", "大三元": "big_three_dragons", "绿一色": "all_green", "九莲宝灯": "nine_gates",
    "四杠": "four_kongs", "连七对": "seven_shifted_pairs", "十三幺": "thirteen_orphans",
    "清幺九": "all_terminals", "小四喜": "little_four_winds", "小三元": "little_three_dragons", "字一色": "all_honors",
    "四暗刻": "concealed_pungs_4", "一色双龙会": "pure_terminal_chows",
    "一色四同顺": "quadruple_chow", "一色四节高": "four_pure_shifted_pungs",
    "一色四步高": "four_pure_shifted_chows", "三杠": "three_kongs", "混幺九": "terminals_and_honors",
    "七对": "seven_pairs", "七星不靠": "greater_honors_and_knitted_tiles", "全双刻": "all_even_pungs", "清一色": "full_flush",
    "一色三同顺": "pure_triple_chow", "一色三节高": "pure_shifted_pungs", "全大": "upper_tiles", "全中": "middle_tiles", "全小": "lower_tiles",
    "清龙": "pure_straight", "三色双龙会": "three_suited_terminal_chows", "一色三步高": "pure_shifted_chows", "全带五": "all_fives",
    "三同刻": "triple_pung", "三暗刻": "concealed_pungs_3",
    "全不靠": "knitted", "组合龙": "knitted_straight", "大于五": "upper_four", "小于五": "lower_four", "三风刻": "big_three_winds",
    "花龙": "mixed_straight", "推不倒": "reversible_tiles", "三色三同顺": "mixed_triple_chow", "三色三节高": "mixed_shifted_pungs",
    "无番和": "chicken_hand", "妙手回春": "last_tile_draw", "海底捞月": "last_discard_win", "杠上开花": "kong_bloom", "抢杠和": "robbing_kong",
    "碰碰和": "all_pungs", "混一色": "half_flush", "三色三步高": "mixed_shifted_chows", "五门齐": "all_types", "全求人": "fully_melded",
    "双暗杠": "two_concealed_kongs", "双箭刻": "two_dragon_pungs",
    "全带幺": "outside_hand", "不求人": "concealed_self_draw", "双明杠": "two_melded_kongs", "和绝张": "last_of_kind",
    "箭刻": "dragon_pung", "圈风刻": "round_wind_pung", "门风刻": "seat_wind_pung", "门前清": "concealed_hand", "平和": "all_chows",
    "四归一": "four_in_hand", "双同刻": "double_pung", "双暗刻": "concealed_pungs_2", "暗杠": "concealed_kong", "断幺": "all_simples",
    "一般高": "pure_double_chow", "喜相逢": "mixed_double_chow", "连六": "short_straight", "老少副": "two_terminal_chows",
    "幺九刻": "pung_of_terminals_or_honors", "明杠": "melded_kong", "缺一门": "missing_suit", "无字": "no_honors",
    "独听・边张": "edge_wait", "独听・嵌张": "closed_wait", "独听・单钓": "pair_wait", "自摸": "self_draw",
    "花牌": "flower", "明暗杠": "concealed_and_melded_kong",
}


@cache
def rules(**options):
    rs = load("mcr")
    return rs.with_options(options) if options else rs


def gb_fans(args: tuple) -> tuple[dict[str, int], int]:
    """pymahjonggb's fans of a win ({fan id: count}) and its total."""
    got = MahjongGB.MahjongFanCalculator(*args)
    return {GB_IDS[name]: n for _, n, name, _ in got}, sum(value * n for value, n, _, _ in got)


def our_fans(text: str, opts: dict, rs=None) -> tuple[dict[str, int], float, dict]:
    rs = rs or rules()
    ctx = build_context(normalize(dict(opts), "score"), rs)
    rec = score(parse_hand(text), rs, ctx, text)
    return {f["id"]: f["count"] for f in rec["fans"]}, rec["fan_total"], rec


def equal_readings(text: str, opts: dict, total: float) -> list[dict[str, int]]:
    """The fans of each of our readings that score `total`."""
    rs = rules()
    ctx = build_context(normalize(dict(opts), "score"), rs)
    out = []
    for ev, _ in evaluations(parse_hand(text), rs, ctx):
        if sum(a.total for a in ev.fans) == total:
            out.append({a.id: a.count for a in ev.fans})
    return out


def run_cases(n: int, seed: str) -> tuple[Counter, int]:
    """Compare n random wins; returns how often each of pymahjonggb's fans occurred and the
    number of equal-total readings where pymahjonggb picked another one."""
    rng = random.Random(seed)
    seen: Counter = Counter()
    ties = 0
    problems: list[str] = []
    for _ in range(n):
        text, opts, args = mcr_case(rng)
        gb, gb_total = gb_fans(args)
        ours, total, rec = our_fans(text, opts)
        seen.update(gb)
        if ours == gb and total == gb_total:
            assert rec["valid"] == (gb_total - gb.get("flower", 0) >= 8), (text, opts, rec["reason"])
            continue
        if total == gb_total and gb in equal_readings(text, opts, total):
            ties += 1
            continue
        problems.append(f"{text} {opts}\n  pymahjonggb {gb_total}: {sorted(gb.items())}\n  mjtools     {total}: {sorted(ours.items())}")
    assert not problems, "\n".join(problems[:10]) + f"\n({len(problems)} of {n} hands differ)"
    return seen, ties


# Fans the fast run must meet at least once (so that the comparison is not vacuous for them);
# the slow run must meet every fan of the file.
RARE = {"chicken_hand", "little_four_winds", "all_fives", "little_three_dragons", "nine_gates", "big_four_winds", "four_kongs", "big_three_dragons"}


def test_fans_match_pymahjonggb():
    seen, ties = run_cases(1000, "mcr-diff")
    missing = set(GB_IDS.values()) - set(seen) - RARE
    assert not missing, f"the random wins never scored {sorted(missing)}"
    assert ties < 10


@pytest.mark.slow
def test_fans_match_pymahjonggb_slow():
    seen, ties = run_cases(20000, "mcr-diff-slow")
    missing = set(GB_IDS.values()) - set(seen) - {"four_kongs"}
    assert not missing, f"the random wins never scored {sorted(missing)}"
    assert ties < 100


def test_every_fan_is_mapped():
    """Every fan of the rule file is one of pymahjonggb's (the ids of the mapping are the file's)."""
    assert set(GB_IDS.values()) == set(rules().fans)


def test_four_kongs_match():
    # Four kongs are too rare for the random wins: one hand of each mix of exposed and concealed.
    from mcr_gen import Win

    for kinds in (["exposed_kong"] * 4, ["concealed_kong", "added_kong", "exposed_kong", "concealed_kong"], ["concealed_kong"] * 4):
        melds = [(kind, (k,) * 4, "" if kind == "concealed_kong" else "N") for kind, k in zip(kinds, (0, 13, 26, 31))]
        for tsumo in (False, True):
            w = Win([27, 27], melds)
            w.win, w.seat, w.tsumo, w.discarder = 27, "E", tsumo, "" if tsumo else "N"
            gb, gb_total = gb_fans(w.gb_args())
            ours, total, _ = our_fans(w.text(), w.options())
            assert (ours, total) == (gb, gb_total), w.text()


# -- options: readings pymahjonggb does not count, one hand each -----------------------------------

DIFFERENCES = {
    # option=value: (hand, batch options, the fans that differ from pymahjonggb's: {id: count, 0 for none})
    "rulebook=strict_1998": ("1133m2244p11334s+4s", {"from": "S"}, {"lower_four": 0, "no_honors": 1}),
    "live_waits_only=true": ("1111345678999p+2p", {"tsumo": True}, {"closed_wait": 1}),
    "concealed_and_melded_kong_fan=false": ("23m456p55s[1111z](2222z@N)+1m", {"from": "N"}, {"concealed_and_melded_kong": 0, "melded_kong": 1, "concealed_kong": 1}),
}


@pytest.mark.parametrize("option", sorted(DIFFERENCES))
def test_option_differs_from_pymahjonggb(option):
    from mcr_gen import gb_args_of

    name, value = option.split("=")
    text, opts, changed = DIFFERENCES[option]
    gb, _ = gb_fans(gb_args_of(text, opts))
    default, _, _ = our_fans(text, opts)
    assert default == gb  # the default reading is pymahjonggb's
    other, _, _ = our_fans(text, opts, rules(**{name: {"true": True, "false": False}.get(value, value)}))
    want = {**gb, **changed}
    assert other == {k: v for k, v in want.items() if v}
