"""Tenhou's numbering shared by its mjlog XML and tenhou.net/6 JSON: yaku ids and names, limit
levels, draw names (docs/records.md gives the sources)."""

from __future__ import annotations

# Tenhou yaku id -> (mjtools fan id, Japanese name as tenhou.net/6 writes it). Seat / round
# winds and the three dragons are separate Tenhou yaku but one fan each here (counted).
YAKU: dict[int, tuple[str, str]] = {
    0: ("concealed_self_draw", "門前清自摸和"),
    1: ("riichi", "立直"),
    2: ("ippatsu", "一発"),
    3: ("robbing_kong", "槍槓"),
    4: ("kong_bloom", "嶺上開花"),
    5: ("last_tile_draw", "海底摸月"),
    6: ("last_discard_win", "河底撈魚"),
    7: ("pinfu", "平和"),
    8: ("all_simples", "断幺九"),
    9: ("pure_double_chow", "一盃口"),
    10: ("seat_wind_pung", "自風 東"),
    11: ("seat_wind_pung", "自風 南"),
    12: ("seat_wind_pung", "自風 西"),
    13: ("seat_wind_pung", "自風 北"),
    14: ("round_wind_pung", "場風 東"),
    15: ("round_wind_pung", "場風 南"),
    16: ("round_wind_pung", "場風 西"),
    17: ("round_wind_pung", "場風 北"),
    18: ("dragon_pung", "役牌 白"),
    19: ("dragon_pung", "役牌 發"),
    20: ("dragon_pung", "役牌 中"),
    21: ("double_riichi", "両立直"),
    22: ("seven_pairs", "七対子"),
    23: ("outside_hand", "混全帯幺九"),
    24: ("pure_straight", "一気通貫"),
    25: ("mixed_triple_chow", "三色同順"),
    26: ("triple_pung", "三色同刻"),
    27: ("three_kongs", "三槓子"),
    28: ("all_pungs", "対々和"),
    29: ("concealed_pungs_3", "三暗刻"),
    30: ("little_three_dragons", "小三元"),
    31: ("terminals_and_honors", "混老頭"),
    32: ("twice_pure_double_chow", "二盃口"),
    33: ("terminal_outside_hand", "純全帯幺九"),
    34: ("half_flush", "混一色"),
    35: ("full_flush", "清一色"),
    36: ("human_hand", "人和"),
    37: ("heavenly_hand", "天和"),
    38: ("earthly_hand", "地和"),
    39: ("big_three_dragons", "大三元"),
    40: ("concealed_pungs_4", "四暗刻"),
    41: ("concealed_pungs_4_pair_wait", "四暗刻単騎"),
    42: ("all_honors", "字一色"),
    43: ("all_green", "緑一色"),
    44: ("all_terminals", "清老頭"),
    45: ("nine_gates", "九蓮宝燈"),
    46: ("nine_gates_9_wait", "純正九蓮宝燈"),
    47: ("thirteen_orphans", "国士無双"),
    48: ("thirteen_orphans_13_wait", "国士無双１３面"),
    49: ("big_four_winds", "大四喜"),
    50: ("little_four_winds", "小四喜"),
    51: ("four_kongs", "四槓子"),
    52: ("dora", "ドラ"),
    53: ("ura_dora", "裏ドラ"),
    54: ("red_five", "赤ドラ"),
    55: ("kita", "抜きドラ"),
}
BY_NAME: dict[str, str] = {name: fid for fid, name in YAKU.values()}
# A fan id back to a Tenhou yaku id (winds and dragons by the tile, see yaku_id()).
FAN_ID: dict[str, int] = {}
for _i, (_fid, _) in sorted(YAKU.items(), reverse=True):
    FAN_ID[_fid] = _i

# ten="fu,points,level": the level of a limit hand.
LIMITS = {0: None, 1: "mangan", 2: "haneman", 3: "baiman", 4: "sanbaiman", 5: "yakuman"}
# tenhou.net/6 point strings name the limit in Japanese.
LIMIT_NAMES = {"満貫": "mangan", "跳満": "haneman", "倍満": "baiman", "三倍満": "sanbaiman", "役満": "yakuman", "数え役満": "yakuman"}
LIMIT_WORDS = {v: k for k, v in LIMIT_NAMES.items() if k != "数え役満"}

# <RYUUKYOKU type=...> and tenhou.net/6 result words -> the engine's ids.
DRAW_TYPES = {
    None: "exhaustive_draw",
    "nm": "nagashi",
    "yao9": "abort_nine_terminals",
    "reach4": "abort_four_riichi",
    "ron3": "abort_triple_ron",
    "kan4": "abort_four_kongs",
    "kaze4": "abort_four_winds",
}
DRAW_WORDS = {
    "流局": "exhaustive_draw",
    "全員聴牌": "exhaustive_draw",
    "全員不聴": "exhaustive_draw",
    "流し満貫": "nagashi",
    "九種九牌": "abort_nine_terminals",
    "四家立直": "abort_four_riichi",
    "三家和了": "abort_triple_ron",
    "四槓散了": "abort_four_kongs",
    "四風連打": "abort_four_winds",
}
DRAW_WORD = {v: k for k, v in DRAW_WORDS.items() if k not in ("全員聴牌", "全員不聴")}


def yaku_id(fid: str, kind: int | None = None) -> int:
    """The Tenhou yaku id of a fan; a wind or dragon pung needs its tile kind (27-33)."""
    if fid == "seat_wind_pung" and kind is not None:
        return 10 + kind - 27
    if fid == "round_wind_pung" and kind is not None:
        return 14 + kind - 27
    if fid == "dragon_pung" and kind is not None:
        return 18 + kind - 31
    return FAN_ID[fid]
