"""Seeded random riichi wins, in mjtools notation and as `mahjong` 2.1.0 inputs.

A case is built from a random decomposition (sets and a pair, seven pairs, or thirteen
orphans), then some sets become melds (chi, pon, exposed / added / concealed kongs), a tile of
a concealed block becomes the winning tile, and the circumstances (seat, round, tsumo/ron,
riichi flags, dora, honba, sticks, red fives, kita) are drawn. Used by
tests/test_riichi_diff.py and benchmarks/bench_riichi.py.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

SEATS = "ESWN"
WIND = {"E": 27, "S": 28, "W": 29, "N": 30}
TERMINALS_HONORS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
SANMA_KINDS = tuple(k for k in range(34) if not 1 <= k <= 7)
FIVES = {4: "m", 13: "p", 22: "s"}

# mahjong 2.1.0's OptionalRules field for each of our rule options.
OPTION_PEERS = {
    "open_tanyao": "has_open_tanyao",
    "aka_dora": "has_aka_dora",
    "double_yakuman": "has_double_yakuman",
    "kiriage": "kiriage",
    "open_pinfu_fu": "fu_for_open_pinfu",
    "pinfu_tsumo_fu": "fu_for_pinfu_tsumo",
    "renhou_yakuman": "renhou_as_yakuman",
    "daisharin": "has_daisharin",
    "daisharin_other_suits": "has_daisharin_other_suits",
    "daichisei": "has_daichisei",
    "sashikomi_yakuman": "has_sashikomi_yakuman",
    "sextuple_limit": "limit_to_sextuple_yakuman",
    "paarenchan_needs_yaku": "paarenchan_needs_yaku",
}
KAZOE = {"yakuman": 0, "sanbaiman": 1, "multiple": 2}  # HandConstants.KAZOE_*


@dataclass
class Block:
    shape: str  # chow pung pair kong single
    kinds: list[int]
    meld: str | None = None  # chi pon exposed_kong added_kong concealed_kong
    source: str | None = None


@dataclass
class Case:
    blocks: list[Block]
    win: int  # winning kind
    win_block: int
    reds: set[tuple[int, int]]  # (block index, position) holding a red five
    win_red: bool
    opts: dict[str, Any] = field(default_factory=dict)  # batch JSON options for mjtools
    options: dict[str, Any] = field(default_factory=dict)  # rule options
    sanma: bool = False
    nagashi: bool = False

    # -- mjtools --------------------------------------------------------------------------------
    def text(self) -> str:
        concealed: list[str] = []
        melds: list[str] = []
        win_taken = False
        for i, b in enumerate(self.blocks):
            tiles = []
            for j, k in enumerate(b.kinds):
                if i == self.win_block and k == self.win and not win_taken:
                    win_taken = True
                    continue
                tiles.append(_tile(k, (i, j) in self.reds))
            if b.meld is None:
                concealed += tiles
            elif b.meld == "concealed_kong":
                melds.append("[" + _join(tiles) + "]")
            else:
                src = f"@{b.source}" if b.source else ""
                tag = "/added" if b.meld == "added_kong" else ""
                melds.append("(" + _join(tiles) + src + tag + ")")
        kita = self.opts.get("_kita_aside", 0)
        aside = "{kita=" + "4" * kita + "z}" if kita else ""
        return _join(sorted(concealed, key=_sort_key)) + "".join(melds) + aside + "+" + _tile(self.win, self.win_red)

    def json_case(self) -> dict[str, Any]:
        out = {"hand": self.text()}
        out.update({k: v for k, v in self.opts.items() if not k.startswith("_")})
        return out

    # -- mahjong 2.1.0 ---------------------------------------------------------------------------
    def mahjong_args(self):
        from mahjong.hand_calculating.hand_config import HandConfig, OptionalRules
        from mahjong.meld import Meld

        used: dict[int, list[int]] = {}

        def take(k: int, red: bool) -> int:
            # Copy 0 of each five is mahjong's red five; plain fives take copies 1-3.
            free = used.setdefault(k, [0, 1, 2, 3] if k not in FIVES else [1, 2, 3, 0])
            if red:
                free.remove(0)
                return k * 4
            return k * 4 + free.pop(0)

        tiles: list[int] = []
        melds = []
        win136 = None
        win_taken = False
        for i, b in enumerate(self.blocks):
            ids = []
            for j, k in enumerate(b.kinds):
                if i == self.win_block and k == self.win and not win_taken:
                    win_taken = True
                    win136 = take(k, self.win_red)
                    ids.append(win136)
                else:
                    ids.append(take(k, (i, j) in self.reds))
            tiles += ids
            if b.meld == "chi":
                melds.append(Meld(Meld.CHI, ids, opened=True))
            elif b.meld == "pon":
                melds.append(Meld(Meld.PON, ids, opened=True))
            elif b.meld == "exposed_kong":
                melds.append(Meld(Meld.KAN, ids, opened=True))
            elif b.meld == "added_kong":
                melds.append(Meld(Meld.SHOUMINKAN, ids, opened=True))
            elif b.meld == "concealed_kong":
                melds.append(Meld(Meld.KAN, ids, opened=False))
        o = self.opts
        opt = {OPTION_PEERS[k]: v for k, v in self.options.items() if k in OPTION_PEERS}
        if "kazoe" in self.options:
            opt["kazoe_limit"] = KAZOE[self.options["kazoe"]]
        opt.setdefault("has_open_tanyao", True)
        opt.setdefault("has_aka_dora", True)
        opt.setdefault("has_double_yakuman", True)
        sit = o.get("situation", {})
        tsumo = bool(o.get("tsumo"))
        first = bool(o.get("first_turn"))
        dealer = o.get("seat", "E") == "E"
        config = HandConfig(
            is_tsumo=tsumo,
            is_riichi=bool(o.get("riichi")),
            is_daburu_riichi=bool(o.get("double_riichi")),
            is_ippatsu=bool(o.get("ippatsu")),
            is_rinshan=bool(o.get("kong_bloom")),
            is_chankan=bool(o.get("robbing_kong")),
            is_haitei=bool(o.get("last_tile")) and tsumo,
            is_houtei=bool(o.get("last_tile")) and not tsumo,
            is_tenhou=first and tsumo and dealer,
            is_chiihou=first and tsumo and not dealer,
            is_renhou=(first and not tsumo and not dealer) or "renhou" in sit,
            is_open_riichi="open_riichi" in sit,
            is_nagashi_mangan="nagashi" in sit,
            player_wind=WIND[o.get("seat", "E")],
            round_wind=WIND[o.get("round", "E")],
            kyoutaku_number=o.get("sticks", 0),
            tsumi_number=o.get("honba", 0),
            paarenchan=sit.get("paarenchan", 0),
            num_nuki_dora=o.get("kita", 0) + o.get("_kita_aside", 0),
            options=OptionalRules(is_three_player=self.sanma, **opt),
        )
        dora = [_indicator(t) for t in o.get("indicator", [])]
        ura = [_indicator(t) for t in o.get("ura", [])]
        return tiles, win136, melds, dora, ura, config


def _tile(k: int, red: bool = False) -> str:
    if k >= 27:
        return f"{k - 26}z"
    return f"{0 if red else k % 9 + 1}{'mps'[k // 9]}"


def _sort_key(t: str) -> tuple[int, int]:
    s = "mpsz".index(t[1])
    n = int(t[0])
    return (s, 5 if n == 0 else n, 0 if n == 0 else 1)


def _join(tiles: list[str]) -> str:
    from mjtools.tiles.kinds import Tile
    from mjtools.tiles.notation import format_tiles

    return format_tiles([Tile.parse(t) for t in tiles])


def _indicator(t: str) -> int:
    n, s = int(t[0]), t[1]
    k = (27 + n - 1) if s == "z" else "mps".index(s) * 9 + n - 1
    return k * 4 + 3  # any copy: mahjong does not check indicators against the hand


# -- drawing hands --------------------------------------------------------------------------------


def _pool(rng: random.Random, kinds: tuple[int, ...]) -> tuple[int, ...]:
    """A biased pool of kinds, so that flushes, honors and terminals turn up often."""
    r = rng.random()
    if r < 0.45:
        return kinds
    if r < 0.65:
        suit = rng.choice([g for g in range(3) if any(k // 9 == g for k in kinds if k < 27)])
        honors = rng.random() < 0.5
        return tuple(k for k in kinds if (k < 27 and k // 9 == suit) or (honors and k >= 27))
    if r < 0.75:
        return tuple(k for k in kinds if k in TERMINALS_HONORS or (k < 27 and k % 9 in (1, 2, 6, 7)))
    if r < 0.85:
        return tuple(k for k in kinds if k < 27 and k % 9 not in (0, 8))
    if r < 0.92:
        return tuple(k for k in kinds if k >= 27 or k in (19, 20, 21, 23, 25))
    return tuple(k for k in kinds if k >= 27 or rng.random() < 0.3)


def _standard(rng: random.Random, kinds: tuple[int, ...], chows: bool) -> list[Block] | None:
    pool = _pool(rng, kinds)
    pung_bias = rng.choice([0.1, 0.2, 0.3, 0.45, 0.9]) if chows else 1.0
    c = [0] * 34
    blocks: list[Block] = []
    for _ in range(4):
        for _attempt in range(30):
            if rng.random() > pung_bias:
                starts = [k for k in pool if k < 27 and k % 9 <= 6 and k + 1 in pool and k + 2 in pool]
                if not starts:
                    continue
                a = rng.choice(starts)
                b = Block("chow", [a, a + 1, a + 2])
            else:
                k = rng.choice(pool)
                b = Block("pung", [k, k, k])
            if all(c[t] + b.kinds.count(t) <= 4 for t in set(b.kinds)):
                for t in b.kinds:
                    c[t] += 1
                blocks.append(b)
                break
        else:
            return None
    for _attempt in range(30):
        k = rng.choice(pool)
        if c[k] <= 2:
            blocks.append(Block("pair", [k, k]))
            return blocks
    return None


def _from_counts(counts: list[int]) -> list[Block] | None:
    """One standard decomposition of complete counts (sets and a pair), if there is one."""
    from mjtools.analysis.standard import _standard as split

    for blocks in split(list(counts), 0, 4, True, 0, True):
        return [Block(b.shape, list(b.kinds)) for b in blocks]
    return None


def _template(rng: random.Random, kinds: tuple[int, ...]) -> list[Block] | None:
    """Rare shapes drawn on purpose: the straight and triple yaku, outside hands, winds,
    terminals, nine gates, big wheels, seven honors."""
    suits = sorted({k // 9 for k in kinds if k < 27 and k % 9 == 4})  # suits with 2-8 present
    which = rng.choice(["sanshoku", "ittsu", "doukou", "chanta", "winds", "terminals", "nine_gates", "wheels", "stars"])
    c = [0] * 34
    if which == "sanshoku" and len(suits) == 3:
        n = rng.randrange(7)
        for g in range(3):
            for d in range(3):
                c[g * 9 + n + d] += 1
    elif which == "ittsu" and suits:
        g = rng.choice(suits)
        for d in range(9):
            c[g * 9 + d] += 1
    elif which == "doukou":
        n = rng.choice([0, 8]) if len(suits) < 3 else rng.randrange(9)
        for g in range(3):
            c[g * 9 + n] += 3
    elif which == "chanta":
        outs = [k for k in kinds if k in TERMINALS_HONORS]
        for _ in range(3):
            if rng.random() < 0.6 and suits:
                a = rng.choice(suits) * 9 + rng.choice([0, 6])
                for d in range(3):
                    c[a + d] += 1
            else:
                c[rng.choice(outs)] += 3
        c[rng.choice(outs)] += 2
        if max(c) > 4:
            return None
        return _from_counts(c)
    elif which == "winds":
        winds = rng.sample([27, 28, 29, 30], rng.choice([3, 4]))
        for w in winds[:3]:
            c[w] += 3
        c[winds[3] if len(winds) == 4 else rng.choice([k for k in (27, 28, 29, 30) if k not in winds])] += 2 if len(winds) == 3 else 3
    elif which == "terminals":
        ts = [k for k in (0, 8, 9, 17, 18, 26) if k in kinds]
        picks = rng.sample(ts, 5)
        for k in picks[:4]:
            c[k] += 3
        c[picks[4]] += 2
    elif which == "nine_gates" and suits:
        g = rng.choice(suits)
        for d, n in enumerate((3, 1, 1, 1, 1, 1, 1, 1, 3)):
            c[g * 9 + d] += n
        c[g * 9 + rng.randrange(9)] += 1
    elif which == "wheels" and suits:
        g = rng.choice(suits)
        return [Block("pair", [g * 9 + d] * 2) for d in range(1, 8)]
    elif which == "stars":
        return [Block("pair", [k, k]) for k in range(27, 34)]
    else:
        return None
    rest = sum(c)
    while rest < 14:
        k = rng.choice(kinds)
        add = 2 if rest == 12 else 3
        if c[k] + add <= 4:
            c[k] += add
            rest += add
    if max(c) > 4:
        return None
    return _from_counts(c)


def _seven_pairs(rng: random.Random, kinds: tuple[int, ...]) -> list[Block]:
    pool = _pool(rng, kinds)
    if len(pool) < 7:
        pool = kinds
    return [Block("pair", [k, k]) for k in sorted(rng.sample(pool, 7))]


def _orphans(rng: random.Random) -> list[Block]:
    extra = rng.choice(TERMINALS_HONORS)
    return [Block("single", [k]) for k in TERMINALS_HONORS] + [Block("single", [extra])]


def _count(blocks: list[Block]) -> list[int]:
    c = [0] * 34
    for b in blocks:
        for k in b.kinds:
            c[k] += 1
    return c


def _open_melds(rng: random.Random, blocks: list[Block], sanma: bool, seat: str, seats: str) -> None:
    """Turn some sets into melds; a pung may grow into a kong when its fourth copy is free."""
    c = _count(blocks)
    p_call = rng.choice([0.0, 0.0, 0.25, 0.5, 0.9])
    p_kong = rng.choice([0.0, 0.1, 0.3, 0.7])
    others = [s for s in seats if s != seat]
    left = seats[(seats.index(seat) - 1) % len(seats)]
    for b in blocks:
        if b.shape == "chow" and not sanma and rng.random() < p_call:
            b.meld, b.source = "chi", (left if rng.random() < 0.7 else None)
        elif b.shape == "pung":
            if rng.random() < p_kong and c[b.kinds[0]] == 3:
                b.shape = "kong"
                b.kinds.append(b.kinds[0])
                c[b.kinds[0]] += 1
                b.meld = rng.choice(["exposed_kong", "added_kong", "concealed_kong", "concealed_kong"])
                if b.meld != "concealed_kong" and rng.random() < 0.7:
                    b.source = rng.choice(others)
            elif rng.random() < p_call:
                b.meld, b.source = "pon", (rng.choice(others) if rng.random() < 0.7 else None)


def random_case(rng: random.Random, sanma: bool = False, vary_options: bool = False) -> Case:
    kinds = SANMA_KINDS if sanma else tuple(range(34))
    seats = "ESW" if sanma else SEATS
    while True:
        r = rng.random()
        if r < 0.74:
            blocks = _standard(rng, kinds, chows=True)
            if blocks is None:
                continue
        elif r < 0.86:
            blocks = _template(rng, kinds)
            if blocks is None:
                continue
        elif r < 0.97:
            blocks = _seven_pairs(rng, kinds)
        else:
            blocks = _orphans(rng)
        break
    seat = rng.choice(seats)
    _open_melds(rng, blocks, sanma, seat, seats)
    concealed_blocks = [i for i, b in enumerate(blocks) if b.meld is None]
    win_block = rng.choice(concealed_blocks)
    win = rng.choice(blocks[win_block].kinds)
    counts = _count(blocks)
    # Red fives: a suit with four fives must show its red one (mahjong knows copy 0 as red).
    reds: set[tuple[int, int]] = set()
    win_red = False
    for five in FIVES:
        if sanma and five == 4:
            continue
        spots = [(i, j) for i, b in enumerate(blocks) for j, k in enumerate(b.kinds) if k == five]
        if spots and (counts[five] == 4 or rng.random() < 0.4):
            i, j = rng.choice(spots)
            if i == win_block and blocks[i].kinds[j] == win and j == blocks[i].kinds.index(win):
                win_red = True
            else:
                reds.add((i, j))
    case = Case(blocks, win, win_block, reds, win_red, sanma=sanma)
    case.opts = _circumstances(rng, case, seat, seats, kinds)
    if vary_options:
        case.options = random_options(rng)
    return case


def _circumstances(rng: random.Random, case: Case, seat: str, seats: str, kinds: tuple[int, ...]) -> dict[str, Any]:
    o: dict[str, Any] = {"seat": seat, "round": rng.choice("EESSWN" if not case.sanma else "EESSW")}
    tsumo = rng.random() < 0.5
    if tsumo:
        o["tsumo"] = True
    else:
        o["from"] = rng.choice([s for s in seats if s != seat])
    concealed = all(b.meld in (None, "concealed_kong") for b in case.blocks)
    no_melds = all(b.meld is None for b in case.blocks)
    has_kong = any(b.shape == "kong" for b in case.blocks)
    sit: dict[str, int] = {}
    if concealed and rng.random() < 0.45:
        o["double_riichi" if rng.random() < 0.12 else "riichi"] = True
        if rng.random() < 0.25:
            o["ippatsu"] = True
        if rng.random() < 0.15:
            sit["open_riichi"] = 1
        o["ura"] = rng.choice([0, 1, 1, 2])  # drawn below, at most one under each dora indicator
    special = rng.random()
    if special < 0.06:
        o["last_tile"] = True
    elif special < 0.12 and tsumo and has_kong:
        o["kong_bloom"] = True
    elif special < 0.15 and not tsumo and _count(case.blocks)[case.win] == 1:
        # The robbed tile is the fourth of another player's pung: the hand holds no other.
        o["robbing_kong"] = True
    elif special < 0.17 and no_melds and not ("riichi" in o or "double_riichi" in o) and (tsumo or seat != "E"):
        o["first_turn"] = True
    if rng.random() < 0.01 and seat == "E":
        sit["paarenchan"] = rng.choice([1, 1, 2])
    if sit:
        o["situation"] = sit
    # Indicators are tiles of the dead wall: never a copy the hand holds all the others of
    # (nor, for a five, the plain copy that would leave the red one in the hand unwritten),
    # and at most one ura indicator under each dora indicator.
    seen = _count(case.blocks)
    if o.get("robbing_kong"):
        seen[case.win] = 4  # the other three are in the robbed kong: no indicator, no kita of it
    n_dora = rng.choice([0, 1, 1, 1, 2, 3])
    n_ura = min(o.pop("ura", 0) or 0, n_dora)
    shown = []
    for _ in range(n_dora + n_ura):
        k = rng.choice([k for k in kinds if seen[k] < 3])
        seen[k] += 1
        shown.append(_tile(k))
    o["indicator"], o["ura"] = shown[:n_dora], shown[n_dora:]
    o["honba"] = rng.choice([0, 0, 0, 1, 2, 5])
    o["sticks"] = rng.choice([0, 0, 0, 1, 2])
    if case.sanma:
        north = seen[30]
        free = 4 - north
        n = rng.choice([0, 0, 1, 2, 3, 4])
        n = min(n, free)
        aside = rng.randint(0, n)
        if aside:
            o["_kita_aside"] = aside
        if n - aside:
            o["kita"] = n - aside
    return {k: v for k, v in o.items() if v not in ([], 0)}


def random_options(rng: random.Random) -> dict[str, Any]:
    """A random setting of every rule option that mirrors an OptionalRules field."""
    out: dict[str, Any] = {}
    for name in OPTION_PEERS:
        if rng.random() < 0.35:
            out[name] = rng.random() < 0.5
    if rng.random() < 0.4:
        out["kazoe"] = rng.choice(list(KAZOE))
    return out


def nagashi_case(rng: random.Random, sanma: bool = False) -> Case:
    """Nagashi mangan: any 13 tiles, paid as a self-drawn mangan."""
    case = random_case(rng, sanma)
    case.nagashi = True
    case.opts = {k: v for k, v in case.opts.items() if k in ("seat", "round", "honba", "sticks")}
    case.opts.update(tsumo=True, situation={"nagashi": 1})
    return case
