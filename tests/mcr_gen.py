"""Seeded random legal wins under the Chinese Official rules (rules.d/mcr.yaml), and the same
wins as `pymahjonggb`'s MahjongFanCalculator reads them.

`mcr_case(rng)` draws one win: four sets and a pair (often from a template that makes a rare
set combination or tile fan likely), seven pairs (连七对, quads), thirteen orphans, nine gates,
全不靠 / 七星不靠, or 组合龙 with a set and a pair; sets laid down as chows, pungs and exposed,
added or concealed kongs; a self-draw or a discard; seat and round winds; flowers; and the
flags a win can carry (last tile of the wall, kong replacement, robbing a kong, 和绝张), only
where they can happen. Used by tests/test_mcr_diff.py and benchmarks/bench_scoring.py.
"""

from __future__ import annotations

import random
from typing import Any

from gen import GB

SEATS = "ESWN"
TERMINALS = (0, 8, 9, 17, 18, 26)
WINDS = (27, 28, 29, 30)
DRAGONS = (31, 32, 33)
HONORS = WINDS + DRAGONS
GREEN = (19, 20, 21, 23, 25, 32)
REVERSIBLE = (9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 31)
KNIT_ORDERS = ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))

Block = tuple[int, ...]


def chow(s: int, r: int) -> Block:
    k = 9 * s + r
    return (k, k + 1, k + 2)


def pung(k: int) -> Block:
    return (k, k, k)


def _ranks(ranks: str) -> list[int]:
    return [9 * s + int(c) - 1 for s in range(3) for c in ranks]


# Tile pools a hand is filled from (kinds), drawn with these weights.
POOLS: list[tuple[float, list[int]]] = [
    (30, list(range(34))),
    (6, list(range(27))),
    (3, list(TERMINALS) + list(HONORS)),
    (3, list(TERMINALS)),
    (6, [k for k in range(27) if k % 9 not in (0, 8)]),
    (2, _ranks("456")),
    (2, _ranks("789")),
    (2, _ranks("123")),
    (2, _ranks("6789")),
    (2, _ranks("1234")),
    (2, list(GREEN)),
    (3, list(REVERSIBLE)),
    (2, _ranks("2468")),
    (2, list(HONORS)),
]


def _pool(rng: random.Random) -> list[int]:
    pool = rng.choices([p for _, p in POOLS], weights=[w for w, _ in POOLS])[0]
    if rng.random() < 0.3 and len(pool) > 9:
        # one suit (with honors or not), or two suits: flushes and 缺一门
        suits = rng.sample(range(3), rng.choice((1, 1, 2)))
        pool = [k for k in pool if k >= 27 and rng.random() < 0.5 or k < 27 and k // 9 in suits] or pool
    return pool


def _template(rng: random.Random) -> tuple[list[Block], Block | None]:
    """A few sets (and maybe the pair) of a set combination, or nothing."""
    s, t, u = rng.sample(range(3), 3)
    r = rng.randrange(7)
    d = rng.choice((1, 2))
    choices: list[tuple[list[Block], Block | None]] = [
        ([chow(s, r)] * 4, None),
        ([chow(s, rr) for rr in range(r % (7 - 3 * d), r % (7 - 3 * d) + 4 * d, d)], None),
        ([pung(9 * s + rr) for rr in range(r % 6, r % 6 + 4)], None),
        ([chow(s, 0), chow(s, 0), chow(s, 6), chow(s, 6)], (9 * s + 4,) * 2),
        ([chow(s, 0), chow(s, 6), chow(t, 0), chow(t, 6)], (9 * u + 4,) * 2),
        ([chow(s, 0), chow(s, 3), chow(s, 6)], None),
        ([chow(s, 0), chow(t, 3), chow(u, 6)], None),
        ([chow(s, r), chow(t, r), chow(u, r)], None),
        ([chow(s, r)] * 3, None),
        ([chow(s, rr) for rr in range(r % (7 - 2 * d), r % (7 - 2 * d) + 3 * d, d)], None),
        ([chow(s, r % 5), chow(t, r % 5 + 1), chow(u, r % 5 + 2)], None),
        ([pung(9 * s + r), pung(9 * t + r), pung(9 * u + r)], None),
        ([pung(9 * s + rr) for rr in range(r, r + 3)], None),
        ([pung(9 * s + r), pung(9 * t + r + 1), pung(9 * u + r + 2)], None),
        ([pung(9 * s + r), pung(9 * t + r)], None),
        ([pung(k) for k in rng.sample(WINDS, rng.choice((3, 3, 4)))], None),
        ([pung(k) for k in rng.sample(DRAGONS, rng.choice((2, 2, 3)))], None),
        ([chow(s, r), chow(s, r)], None),
        ([chow(s, r), chow(t, r)], None),
        ([chow(s, r % 4), chow(s, r % 4 + 3)], None),
        ([chow(s, 0), chow(s, 6)], None),
        ([chow(s, r), chow(t, r), chow(s, r % 4 + 3 if r < 4 else r - 3)], None),
        ([chow(s, r), chow(s, r), chow(t, r), chow(t, r)], None),
    ]
    return rng.choice(choices)


def _fits(c: list[int], b: Block) -> bool:
    return all(c[k] + b.count(k) <= 4 for k in set(b))


def _take(c: list[int], b: Block) -> None:
    for k in b:
        c[k] += 1


def standard_blocks(rng: random.Random, sets: int = 4) -> list[Block] | None:
    """`sets` sets and a pair (the last block)."""
    pool = _pool(rng)
    allowed = set(pool)
    starts = [k for k in pool if k < 27 and k % 9 <= 6 and k + 1 in allowed and k + 2 in allowed]
    chow_p = rng.choice((0.0, 0.3, 0.6, 0.9))
    c = [0] * 34
    blocks: list[Block] = []
    pair: Block | None = None
    if rng.random() < 0.45:
        tmpl, pair = _template(rng)
        for b in tmpl[:sets]:
            if _fits(c, b):
                _take(c, b)
                blocks.append(b)
        if pair is not None and _fits(c, pair):
            _take(c, pair)
        else:
            pair = None
    while len(blocks) < sets:
        for _ in range(30):
            if starts and rng.random() < chow_p:
                s = rng.choice(starts)
                b: Block = (s, s + 1, s + 2)
            else:
                b = pung(rng.choice(pool))
            if _fits(c, b):
                break
        else:
            return None
        _take(c, b)
        blocks.append(b)
    if pair is None:
        for _ in range(30):
            k = rng.choice(pool)
            if c[k] <= 2:
                pair = (k, k)
                break
        else:
            return None
    rng.shuffle(blocks)
    return blocks + [pair]


def _kinds_str(kinds) -> str:
    from mjtools.tiles.kinds import kinds_str

    return kinds_str(sorted(kinds))


class Win:
    """One win: concealed tiles (the winning tile among them), melds, flags."""

    def __init__(self, concealed: list[int], melds: list[tuple[str, Block, str]]):
        self.concealed = concealed  # kinds, the winning tile included
        self.melds = melds  # (kind: chow pung exposed_kong added_kong concealed_kong, tiles, source seat or "")
        self.win: int = -1
        self.seat = "E"
        self.round = "E"
        self.tsumo = False
        self.discarder = ""
        self.flowers: list[int] = []
        self.flags: dict[str, bool] = {}

    def text(self) -> str:
        rest = list(self.concealed)
        rest.remove(self.win)
        out = _kinds_str(rest)
        for kind, tiles, src in self.melds:
            t = _kinds_str(tiles)
            if kind == "concealed_kong":
                out += f"[{t}]"
            else:
                out += f"({t}@{src}" + ("/added" if kind == "added_kong" else "") + ")"
        if self.flowers:
            out += "{" + "".join(str(f) for f in sorted(self.flowers)) + "f}"
        return out + "+" + _kinds_str([self.win])

    def options(self) -> dict[str, Any]:
        opts: dict[str, Any] = {"seat": self.seat, "round": self.round}
        if self.tsumo:
            opts["tsumo"] = True
        else:
            opts["from"] = self.discarder
        for flag in ("last_tile", "kong_bloom", "robbing_kong"):
            if self.flags.get(flag):
                opts[flag] = True
        if self.flags.get("last_of_kind"):
            opts["situation"] = {"last_of_kind": 1}
        return opts

    def gb_args(self) -> tuple:
        """The arguments of MahjongGB.MahjongFanCalculator for this win."""
        packs = []
        me = SEATS.index(self.seat)
        for kind, tiles, src in self.melds:
            if kind == "chow":
                packs.append(("CHI", GB[tiles[1]], 1))
            elif kind == "concealed_kong":
                packs.append(("GANG", GB[tiles[0]], 0))
            else:
                offer = (me - SEATS.index(src)) % 4
                packs.append(("GANG" if kind != "pung" else "PENG", GB[tiles[0]], offer))
        rest = list(self.concealed)
        rest.remove(self.win)
        about_kong = bool(self.flags.get("kong_bloom") or self.flags.get("robbing_kong"))
        return (
            tuple(packs), tuple(GB[k] for k in sorted(rest)), GB[self.win], len(self.flowers), self.tsumo,
            bool(self.flags.get("last_of_kind")), about_kong, bool(self.flags.get("last_tile")), me, SEATS.index(self.round), True,
        )


def _lay_down(rng: random.Random, blocks: list[Block], left: str, others: list[str], most: int = 4, held: list[int] | None = None) -> tuple[list[int], list[tuple[str, Block, str]]]:
    """Sets of a standard hand laid down as melds (kongs made of some pungs); the pair stays.
    `held`: copies per kind held besides the blocks (a kong needs the fourth copy free)."""
    c = list(held) if held is not None else [0] * 34
    for b in blocks:
        _take(c, b)
    p_open = rng.choice((0.0, 0.0, 0.3, 0.6, 0.95))
    p_kong = rng.choice((0.0, 0.15, 0.4, 0.9))
    melds: list[tuple[str, Block, str]] = []
    concealed: list[int] = list(blocks[-1])
    for b in blocks[:-1]:
        is_chow = b[0] != b[1]
        if len(melds) < most and not is_chow and c[b[0]] == 3 and rng.random() < p_kong:
            c[b[0]] += 1
            kind = rng.choice(("exposed_kong", "added_kong", "concealed_kong"))
            melds.append((kind, (b[0],) * 4, "" if kind == "concealed_kong" else rng.choice(others)))
        elif len(melds) < most and rng.random() < p_open:
            melds.append(("chow", b, left) if is_chow else ("pung", b, rng.choice(others)))
        else:
            concealed += b
    return concealed, melds


def _seven_pairs(rng: random.Random) -> list[int]:
    r = rng.random()
    s = rng.randrange(3) * 9
    if r < 0.12:
        start = s + rng.randrange(3)
        return sorted(list(range(start, start + 7)) * 2)  # 连七对
    pool = _pool(rng)
    if len(set(pool)) < 7:
        pool = list(range(34))
    picked = rng.sample(sorted(set(pool)), 7)
    if rng.random() < 0.25:
        picked[0] = picked[1]  # four of a kind as two pairs
    return sorted(picked * 2)


def _knitted(rng: random.Random) -> list[int]:
    order = rng.choice(KNIT_ORDERS)
    straight = [9 * s + start + 3 * i for s, start in zip(order, (0, 1, 2)) for i in range(3)]
    if rng.random() < 0.3:
        return sorted(rng.sample(straight, 7) + list(HONORS))  # 七星不靠
    n = rng.choice((7, 8, 9, 9))
    return sorted(rng.sample(straight, n) + rng.sample(HONORS, 14 - n))


def mcr_win(rng: random.Random) -> Win | None:
    """One random legal win (None when a draw fails; the caller draws again)."""
    seat = rng.choice(SEATS)
    others = [s for s in SEATS if s != seat]
    left = SEATS[(SEATS.index(seat) - 1) % 4]
    r = rng.random()
    melds: list[tuple[str, Block, str]] = []
    if r < 0.02:
        # chows over the three suits and an honor pair, one laid down, won on a discard: often no
        # fan at all (无番和)
        blocks = [chow(s, rng.randrange(7)) for s in rng.sample(range(3), 3) + [rng.randrange(3)]] + [(rng.choice(HONORS),) * 2]
        concealed, melds = _lay_down(rng, blocks, left, others)
        if not melds:
            melds.append(("chow", blocks[0], left))
            for k in blocks[0]:
                concealed.remove(k)
    elif r < 0.74:
        blocks = standard_blocks(rng)
        if blocks is None:
            return None
        concealed, melds = _lay_down(rng, blocks, left, others)
    elif r < 0.84:
        concealed = _seven_pairs(rng)
    elif r < 0.87:
        th = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]
        concealed = th + [rng.choice(th)]
    elif r < 0.90:
        s = rng.randrange(3) * 9
        concealed = [s + i for i in (0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8)] + [s + rng.randrange(9)]
    elif r < 0.95:
        concealed = _knitted(rng)
    else:
        order = rng.choice(KNIT_ORDERS)
        straight = [9 * s + start + 3 * i for s, start in zip(order, (0, 1, 2)) for i in range(3)]
        extra = standard_blocks(rng, sets=1)
        if extra is None:
            return None
        c = [0] * 34
        for k in straight:
            c[k] += 1
        for b in extra:
            if not _fits(c, b):
                return None
            _take(c, b)
        concealed, melds = _lay_down(rng, extra, left, others, most=1, held=[int(k in straight) for k in range(34)])
        concealed += straight
    if not concealed:
        return None
    w = Win(sorted(concealed), melds)
    w.seat = seat
    w.round = rng.choice(SEATS)
    w.tsumo = rng.random() < (0.1 if r < 0.02 else 0.5)
    w.win = rng.choice(concealed)
    w.discarder = "" if w.tsumo else rng.choice(others)
    if rng.random() < 0.35:
        w.flowers = rng.sample(range(1, 9), rng.randint(1, 8))
    _flags(rng, w)
    return w


def _flags(rng: random.Random, w: Win) -> None:
    """The flags this win can carry, each only where it can happen."""
    held = w.concealed.count(w.win) - 1  # copies among the concealed tiles besides the winning one
    in_melds = sum(t.count(w.win) for _, t, _ in w.melds)
    kongs = [i for i, (kind, _, _) in enumerate(w.melds) if kind.endswith("kong")]
    r = rng.random()
    if r < 0.08:
        w.flags["last_tile"] = True
    elif r < 0.2 and w.tsumo and kongs:
        w.flags["kong_bloom"] = True  # the replacement of the last kong made
        w.melds.append(w.melds.pop(kongs[-1]))
    elif r < 0.3 and not w.tsumo and held == 0 and in_melds == 0:
        w.flags["robbing_kong"] = True  # three more are in another player's pung
    if held == 0 and in_melds < 3 and rng.random() < 0.15:
        w.flags["last_of_kind"] = True


def mcr_case(rng: random.Random) -> tuple[str, dict[str, Any], tuple]:
    """(hand text, batch options, pymahjonggb arguments) of one random legal win."""
    while True:
        w = mcr_win(rng)
        if w is not None:
            return w.text(), w.options(), w.gb_args()


def gb_args_of(text: str, opts: dict[str, Any]) -> tuple:
    """pymahjonggb's arguments for a hand in notation with batch options (as `Win.gb_args`)."""
    from mjtools.tiles.notation import parse_hand

    hand = parse_hand(text)
    seat = opts.get("seat", "E")
    packs = []
    for m in hand.melds:
        if m.kind == "chow":
            packs.append(("CHI", GB[m.kinds[1]], 1))
        elif m.concealed:
            packs.append(("GANG", GB[m.kinds[0]], 0))
        else:
            packs.append(("GANG" if m.is_kong else "PENG", GB[m.kinds[0]], (SEATS.index(seat) - SEATS.index(m.source)) % 4))
    flowers = sum(len(a.tiles) for a in hand.aside)
    situation = opts.get("situation", {})
    return (
        tuple(packs), tuple(GB[t.kind] for t in hand.concealed), GB[hand.last.kind], flowers, bool(opts.get("tsumo")),
        bool(situation.get("last_of_kind")), bool(opts.get("kong_bloom") or opts.get("robbing_kong")), bool(opts.get("last_tile")),
        SEATS.index(seat), SEATS.index(opts.get("round", "E")), True,
    )
