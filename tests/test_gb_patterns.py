"""The shared patterns against `pymahjonggb`'s fan calculator (Chinese Official / 国标 rules).

Seeded random winning hands (concealed and with exposed chows, pungs and kongs, seven pairs,
thirteen orphans, nine gates) are scored by `MahjongGB.MahjongFanCalculator` and read by our
decomposer; each of our patterns whose definition coincides with a GB fan is compared with it:

* reading-independent patterns (flushes, honors, terminals, kongs, ...): ours holds on the
  hand  <=>  GB lists the fan, or lists a fan that omits it by the non-repeat rule (不重复原则);
* reading-dependent patterns (all pungs, all chows, chow combinations, concealed pungs, seven
  pairs): GB scores the highest-scoring reading, which we do not know, so only the sound
  directions are checked: GB lists the fan => ours holds on some reading; ours holds on every
  reading => GB lists the fan (or one that omits it).

Where our definition deliberately differs from GB's, the difference is listed in DIFFERENCES
and shown on one hand by a small explicit test.
"""

from __future__ import annotations

import random

import MahjongGB
import pytest

from gen import GB
from mjtools.analysis.decompose import decompositions
from mjtools.analysis.shapes import ShapeSpec
from mjtools.patterns import registry
from mjtools.patterns.ctx import Ctx
from mjtools.tiles.context import WinContext
from mjtools.tiles.kinds import kinds_str
from mjtools.tiles.notation import parse_hand

SEATS = "ESWN"
# GB's seven pairs (七对) may hold four of a kind as two pairs.
SPEC = ShapeSpec(forms=("standard", "seven_pairs", "thirteen_orphans"), quads_as_pairs=True)

# -- GB's non-repeat rule (不重复原则) ---------------------------------------------------------------
# GB fan -> the fans it omits (不计), as GB 2006 / 《中国麻将竞赛规则》 states them and the
# calculator (ChineseOfficialMahjongHelper's correction_fan_table, which pymahjonggb wraps)
# applies them; only the entries that touch a fan compared here. "GB lists X or a fan that
# omits X" is read through the transitive closure of this table.
OMITS: dict[str, frozenset[str]] = {
    k: frozenset(v.split())
    for k, v in {
        "大四喜": "三风刻 碰碰和 圈风刻 门风刻 幺九刻",
        "大三元": "双箭刻 箭刻",
        "绿一色": "混一色 缺一门",
        "九莲宝灯": "清一色 门前清 不求人 缺一门 无字",  # 不求人 is scored as 自摸
        "四杠": "单钓将 碰碰和",  # pymahjonggb 1.4 omits 碰碰和 too
        "连七对": "七对 清一色 门前清 不求人 缺一门 无字",
        "十三幺": "五门齐 门前清 不求人 单钓将 混幺九",  # a special form: none of the shape fans
        "清幺九": "混幺九 碰碰和 全带幺 幺九刻 无字 双同刻",
        "小四喜": "三风刻 幺九刻",
        "小三元": "双箭刻 箭刻",
        "字一色": "混幺九 碰碰和 全带幺 幺九刻 缺一门",
        "四暗刻": "碰碰和 门前清 不求人",  # 不求人 is scored as 自摸
        "一色双龙会": "七对 清一色 平和 一般高 老少副 缺一门 无字",
        "一色四同顺": "一色三同顺 一色三节高 一般高 四归一",
        "一色四节高": "一色三同顺 一色三节高 碰碰和",
        "一色四步高": "一色三步高 老少副 连六",
        "混幺九": "碰碰和 全带幺 幺九刻",
        "七对": "门前清 不求人 单钓将",  # a special form: 不求人 is scored as 自摸
        "全双刻": "碰碰和 断幺 无字",
        "清一色": "缺一门 无字",
        "一色三同顺": "一色三节高 一般高",
        "一色三节高": "一色三同顺",
        "全中": "断幺 无字",
        "三色双龙会": "平和 无字 喜相逢 老少副",
        "全带五": "断幺 无字",
        "不求人": "自摸",
        "全求人": "单钓将",
        "双箭刻": "箭刻",
    }.items()
}


def _closure(fan: str, seen: set[str] | None = None) -> set[str]:
    seen = set() if seen is None else seen
    for f in OMITS.get(fan, ()):
        if f not in seen:
            seen.add(f)
            _closure(f, seen)
    return seen


def gb_covers(listed: set[str], fans: tuple[str, ...]) -> bool:
    """GB lists one of `fans`, or a fan that (transitively) omits one of them (a fan counted
    n times, X×n, is omitted where X is)."""
    if any(f in listed for f in fans):
        return True
    bare = {f.split("×")[0] for f in fans}
    return any(f in _closure(g) for g in listed for f in bare)


# -- the comparison table ----------------------------------------------------------------------------
# our pattern id (with the parameters that make it GB's) -> (GB fans: any of them, reading-independent?)
INDEPENDENT, READING = True, False
COMPARED: dict[str, tuple[dict, tuple[str, ...], bool]] = {
    "full_flush": ({}, ("清一色",), INDEPENDENT),
    "half_flush": ({}, ("混一色",), INDEPENDENT),
    "all_honors": ({}, ("字一色",), INDEPENDENT),
    "all_terminals": ({}, ("清幺九",), INDEPENDENT),
    "terminals_and_honors": ({}, ("混幺九",), INDEPENDENT),
    "all_simples": ({}, ("断幺",), INDEPENDENT),
    "all_green": ({}, ("绿一色",), INDEPENDENT),
    "thirteen_orphans": ({}, ("十三幺",), INDEPENDENT),
    "nine_gates_9_wait": ({}, ("九莲宝灯",), INDEPENDENT),
    "big_three_dragons": ({}, ("大三元",), INDEPENDENT),
    "little_three_dragons": ({}, ("小三元",), INDEPENDENT),
    "big_four_winds": ({}, ("大四喜",), INDEPENDENT),
    "little_four_winds": ({}, ("小四喜",), INDEPENDENT),
    "dragon_pung": ({}, ("箭刻",), INDEPENDENT),
    "seat_wind_pung": ({}, ("门风刻",), INDEPENDENT),
    "round_wind_pung": ({}, ("圈风刻",), INDEPENDENT),
    "three_kongs": ({}, ("三杠",), INDEPENDENT),
    "four_kongs": ({}, ("四杠",), INDEPENDENT),
    "four_in_hand": ({}, ("四归一",), INDEPENDENT),
    # GB's 门前清 is a concealed win on a discard; a concealed self-draw is 不求人 instead.
    "concealed_hand": ({}, ("门前清", "不求人"), INDEPENDENT),
    "concealed_self_draw": ({}, ("不求人",), INDEPENDENT),
    "fully_melded": ({}, ("全求人",), INDEPENDENT),
    "all_pungs": ({}, ("碰碰和",), READING),
    "all_chows": ({"no_honors": True}, ("平和",), READING),
    "seven_pairs": ({}, ("七对",), READING),
    "outside_hand": ({}, ("全带幺",), READING),
    "pure_double_chow": ({}, ("一般高",), READING),
    "twice_pure_double_chow": ({}, ("一般高×2",), READING),  # GB counts 一般高 twice
    "pure_straight": ({}, ("清龙",), READING),
    "mixed_straight": ({}, ("花龙",), READING),
    "mixed_triple_chow": ({}, ("三色三同顺",), READING),
    "triple_pung": ({}, ("三同刻",), READING),
    "concealed_pungs_3": ({}, ("三暗刻",), READING),
    "concealed_pungs_4": ({}, ("四暗刻",), READING),
}

# Our patterns that resemble a GB fan but deliberately differ from it (regional definitions);
# each is shown on one hand in test_documented_differences below.
DIFFERENCES = {
    "nine_gates": "any 1112345678999+1 of one suit, concealed; GB's 九莲宝灯 needs 1112345678999 held before the winning tile (our nine_gates_9_wait)",
    "all_chows": "平胡 by default allows an honor pair (and any pair); GB's 平和 needs a number pair (ours with no_honors: true)",
    "pair_wait": "a win on the pair's partner whatever the other waits; GB's 单钓将 needs it to be the only wait (独听)",
    "edge_wait": "the shape only; GB's 边张 needs it to be the only wait, and counts one of 边张/嵌张/单钓",
    "closed_wait": "the shape only; GB's 嵌张 needs it to be the only wait, and counts one of 边张/嵌张/单钓",
    "concealed_hand": "also on a self-draw; GB scores a concealed self-draw as 不求人, not 门前清 (compared as either)",
    "seven_pairs": "four of a kind counts as two pairs only with ShapeSpec(quads_as_pairs=True), as GB always allows",
}


# -- hands -----------------------------------------------------------------------------------------
_TERMINALS = [0, 8, 9, 17, 18, 26]
_HONORS = list(range(27, 34))
_GREEN = [19, 20, 21, 23, 25, 32]


def _pool(rng: random.Random) -> list[int]:
    suit = rng.randrange(3)
    one = list(range(9 * suit, 9 * suit + 9))
    r = rng.random()
    if r < 0.30:
        return list(range(34))
    if r < 0.42:
        return one + _HONORS
    if r < 0.54:
        return one
    if r < 0.58:
        return _HONORS
    if r < 0.63:
        return _TERMINALS + _HONORS
    if r < 0.66:
        return _TERMINALS
    if r < 0.76:
        return [k for k in range(27) if k % 9 not in (0, 8)]
    if r < 0.80:
        return _GREEN
    if r < 0.90:
        return one + list(range(27, 31))
    return one + list(range(31, 34))


def _template(rng: random.Random) -> list[tuple[int, ...]]:
    """A few sets that make a chow or pung combination likely."""
    s, n = rng.randrange(3) * 9, rng.randrange(7)
    return rng.choice([
        [(s, s + 1, s + 2), (s + 3, s + 4, s + 5), (s + 6, s + 7, s + 8)],  # pure straight
        [(n, n + 1, n + 2), (n + 9, n + 10, n + 11), (n + 18, n + 19, n + 20)],  # triple chow
        [(n,) * 3, (n + 9,) * 3, (n + 18,) * 3],  # triple pung
        [(s + n, s + n + 1, s + n + 2)] * 2,  # pure double chow
        [(0, 1, 2), (12, 13, 14), (24, 25, 26)][:: rng.choice((1, -1))],  # mixed straight
        [(31,) * 3, (32,) * 3],  # dragons
        [(27,) * 3, (28,) * 3, (29,) * 3],  # winds
    ])


def _fits(c: list[int], tiles: tuple[int, ...]) -> bool:
    return all(c[t] + tiles.count(t) <= 4 for t in set(tiles))


def _take(c: list[int], tiles: tuple[int, ...]) -> None:
    for t in tiles:
        c[t] += 1


def standard_blocks(rng: random.Random) -> list[tuple[int, ...]] | None:
    kinds = _pool(rng)
    allowed = set(kinds)
    starts = [k for k in kinds if k < 27 and k % 9 <= 6 and k + 1 in allowed and k + 2 in allowed]
    chow_p = rng.choice((0.0, 0.3, 0.6, 0.9))
    c = [0] * 34
    sets: list[tuple[int, ...]] = []
    if rng.random() < 0.25:
        for b in _template(rng):
            if _fits(c, b):
                _take(c, b)
                sets.append(b)
    while len(sets) < 4:
        for _ in range(30):
            if starts and rng.random() < chow_p:
                s = rng.choice(starts)
                b: tuple[int, ...] = (s, s + 1, s + 2)
            else:
                b = (rng.choice(kinds),) * 3
            if _fits(c, b):
                break
        else:
            return None
        _take(c, b)
        sets.append(b)
    for _ in range(30):
        k = rng.choice(kinds)
        if c[k] <= 2:
            return sets + [(k, k)]
    return None


def case_text(rng: random.Random) -> tuple[str, WinContext] | None:
    """A random winning hand in notation and its context."""
    seat, round_ = rng.choice(SEATS), rng.choice(SEATS)
    tsumo = rng.random() < 0.5
    others = [s for s in SEATS if s != seat]
    left = SEATS[(SEATS.index(seat) - 1) % 4]
    r = rng.random()
    melds: list[str] = []
    if r < 0.78:
        blocks = standard_blocks(rng)
        if blocks is None:
            return None
        c = [0] * 34
        for b in blocks:
            _take(c, b)
        p_open = rng.choice((0.0, 0.0, 0.25, 0.5, 0.9))
        concealed: list[int] = list(blocks[-1])
        for b in blocks[:-1]:
            is_chow = b[0] != b[1]
            if not is_chow and c[b[0]] == 3 and rng.random() < 0.2:
                c[b[0]] += 1  # a kong: exposed or concealed
                if rng.random() < 0.5:
                    melds.append(f"[{kinds_str([b[0]] * 4)}]")
                else:
                    melds.append(f"({kinds_str([b[0]] * 4)}@{rng.choice(others)})")
            elif rng.random() < p_open:
                melds.append(f"({kinds_str(list(b))}@{left if is_chow else rng.choice(others)})")
            else:
                concealed += b
    elif r < 0.90:
        # seven pairs, sometimes of one suit or with four of a kind
        suit = rng.randrange(3) * 9
        kinds = list(range(34)) if rng.random() < 0.6 else list(range(suit, suit + 9))
        picked = rng.sample(kinds, 7)
        if rng.random() < 0.25:
            picked[0] = picked[1]
        if rng.random() < 0.1 and len(kinds) == 9:
            start = kinds[0] + rng.randrange(3)
            picked = list(range(start, start + 7))  # 连七对
        concealed = sorted(picked * 2)
    elif r < 0.95:
        th = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]
        concealed = th + [rng.choice(th)]
    else:
        s = rng.randrange(3) * 9
        concealed = [s + i for i in (0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8)] + [s + rng.randrange(9)]
    last = concealed.pop(rng.randrange(len(concealed)))
    text = kinds_str(sorted(concealed)) + "".join(melds) + "+" + kinds_str([last])
    discarder = None if tsumo else rng.choice(others)
    return text, WinContext(tsumo=tsumo, seat=seat, round=round_, discarder=discarder)


def gb_fans(text: str, win: WinContext) -> set[str]:
    """The fans GB lists for a hand (with 一般高×2 when 一般高 counts twice)."""
    hand = parse_hand(text)
    packs = []
    for m in hand.melds:
        ks = m.kinds
        if m.kind == "chow":
            packs.append(("CHI", GB[ks[1]], 1))
        else:
            offer = 0 if not m.is_open else (SEATS.index(win.seat) - SEATS.index(m.source)) % 4
            packs.append(("GANG" if m.is_kong else "PENG", GB[ks[0]], offer))
    concealed = tuple(GB[t.kind] for t in hand.concealed)
    last = GB[hand.last.kind]
    got = MahjongGB.MahjongFanCalculator(
        tuple(packs), concealed, last, 0, win.tsumo, False, False, False, SEATS.index(win.seat), SEATS.index(win.round), True
    )
    out = {name for _, _, name, _ in got}
    out |= {f"{name}×{n}" for _, n, name, _ in got if n >= 2}
    return out


def our_values(text: str, win: WinContext) -> list[dict[str, int]]:
    """Per reading, the value of each compared pattern."""
    reg = registry()
    hand = parse_hand(text)
    out = []
    for d in decompositions(hand, SPEC):
        ctx = Ctx(hand, d, win, frozenset(), (), (), {}, {}, SPEC)
        out.append({pid: reg[pid](ctx, **params) for pid, (params, _, _) in COMPARED.items()})
    return out


def compare(text: str, win: WinContext, readings: list[dict[str, int]]) -> list[str]:
    """The disagreements between our patterns (`readings`: our_values) and GB's fans on one
    hand (empty: none)."""
    where = f"{text} seat={win.seat} round={win.round} {'tsumo' if win.tsumo else 'ron from ' + str(win.discarder)}"
    listed = gb_fans(text, win)
    if not readings:
        return [f"{where}: no reading of ours (GB: {sorted(listed)})"]
    bad = []
    for pid, (_, fans, independent) in COMPARED.items():
        values = [bool(r[pid]) for r in readings]
        gb_has = any(f in listed for f in fans)
        covered = gb_covers(listed, fans)
        if independent and len(set(values)) > 1:
            bad.append(f"{where}: {pid} differs between our readings")
        if gb_has and not any(values):
            bad.append(f"{where}: GB lists {'/'.join(fans)} but {pid} holds on no reading (GB: {sorted(listed)})")
        if (all(values) if not independent else any(values)) and not covered:
            bad.append(f"{where}: {pid} holds but GB lists neither {'/'.join(fans)} nor a fan that omits it (GB: {sorted(listed)})")
    return bad


def run_cases(n: int, seed: str) -> dict[str, int]:
    rng = random.Random(seed)
    done = 0
    seen: dict[str, int] = {pid: 0 for pid in COMPARED}
    problems: list[str] = []
    while done < n:
        got = case_text(rng)
        if got is None:
            continue
        text, win = got
        readings = our_values(text, win)
        problems += compare(text, win, readings)
        for pid in COMPARED:
            seen[pid] += any(r[pid] for r in readings)
        done += 1
    assert not problems, "\n".join(problems[:20]) + f"\n({len(problems)} disagreements)"
    return seen


# Patterns the random hands must reach at least once in the default run (so the comparison is
# not vacuous for them).
MUST_SEE = set(COMPARED) - {"four_kongs"}


def test_patterns_match_gb():
    seen = run_cases(1000, "gb-patterns")
    assert {pid for pid in MUST_SEE if not seen[pid]} == set()


@pytest.mark.slow
def test_patterns_match_gb_slow():
    seen = run_cases(20000, "gb-patterns-slow")
    assert {pid for pid, n in seen.items() if not n} == set()


# -- the deliberate differences, one hand each ----------------------------------------------------


def values(text: str, pid: str, win: WinContext | None = None, **params) -> set[int]:
    win = win or WinContext(tsumo=False, discarder="N")
    hand = parse_hand(text)
    return {registry()[pid](Ctx(hand, d, win, frozenset(), (), (), {}, {}, SPEC), **params) for d in decompositions(hand, SPEC)}


RON = WinContext(tsumo=False, discarder="N")


def demo_nine_gates():
    # 11123455678999m won on 6m: 1112345578999m held before, so not GB's 九莲宝灯
    text = "1112345578999m+6m"
    assert values(text, "nine_gates") == {1} and values(text, "nine_gates_9_wait") == {0}
    fans = gb_fans(text, RON)
    assert "九莲宝灯" not in fans and "清一色" in fans


def demo_all_chows():
    # an honor pair: 平胡 for us by default, never GB's 平和
    text = "123m456p789s345s1z+1z"
    assert values(text, "all_chows") == {1} and values(text, "all_chows", no_honors=True) == {0}
    assert "平和" not in gb_fans(text, RON)


def demo_pair_wait():
    # 1234m waits on 1m and 4m; won on 4m it is a pair wait for us, not GB's 单钓将
    text = "1234m456p789s123s+4m"
    assert values(text, "pair_wait") == {1}
    assert not any("单钓" in f for f in gb_fans(text, RON))


def demo_edge_wait():
    # 12m alone waits on 3m (GB's 独听・边张); 1112m waits on 2m and 3m (no 边张 for GB)
    assert values("12m456p789s123s55p+3m", "edge_wait") == {1} and "独听・边张" in gb_fans("12m456p789s123s55p+3m", RON)
    text = "1112m456p789s123s+3m"
    assert values(text, "edge_wait") == {1} and not any("边张" in f for f in gb_fans(text, RON))


def demo_closed_wait():
    # 13m alone waits on 2m (GB's 独听・嵌张); 1113m waits on 2m and 3m (no 嵌张 for GB)
    assert values("13m456p789s123s55p+2m", "closed_wait") == {1} and "独听・嵌张" in gb_fans("13m456p789s123s55p+2m", RON)
    text = "1113m456p789s123s+2m"
    assert values(text, "closed_wait") == {1} and not any("嵌张" in f for f in gb_fans(text, RON))


def demo_concealed_hand():
    # a concealed self-draw: GB says 不求人, not 门前清
    tsumo = WinContext(tsumo=True)
    text = "123m456p789s345s2p+2p"
    assert values(text, "concealed_hand", tsumo) == {1}
    fans = gb_fans(text, tsumo)
    assert "不求人" in fans and "门前清" not in fans


def demo_seven_pairs():
    # four of a kind as two pairs: GB's 七对; ours only with quads_as_pairs
    text = "1111m33p55s11z66z7z+7z"
    assert "七对" in gb_fans(text, RON) and values(text, "seven_pairs") == {1}
    plain = ShapeSpec(forms=("standard", "seven_pairs", "thirteen_orphans"))
    assert not any(d.form == "seven_pairs" for d in decompositions(parse_hand(text), plain))


DEMOS = {name[5:]: fn for name, fn in globals().items() if name.startswith("demo_")}


def test_every_difference_is_shown():
    assert set(DEMOS) == set(DIFFERENCES)


@pytest.mark.parametrize("pid", sorted(DIFFERENCES))
def test_documented_difference(pid):
    DEMOS[pid]()
