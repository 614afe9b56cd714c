"""Seeded random hand generators shared by the differential tests and the benchmarks."""

from __future__ import annotations

import random
from typing import Any

WALL = [k for k in range(34) for _ in range(4)]


def counts_of(kinds):
    c = [0] * 34
    for k in kinds:
        c[k] += 1
    return c


def random_hand(rng: random.Random, n: int, kinds=None) -> list[int]:
    pool = WALL if kinds is None else [k for k in kinds for _ in range(4)]
    return sorted(rng.sample(pool, n))


def complete_hand(rng: random.Random, sets: int = 4, kinds=None) -> list[int] | None:
    """A random standard complete hand (sets + pair), or None if the draw failed."""
    allowed = list(range(34)) if kinds is None else sorted(kinds)
    c = [0] * 34
    out: list[int] = []
    for _ in range(sets):
        for _attempt in range(20):
            if rng.random() < 0.55:
                start = rng.choice([k for k in allowed if k < 27 and k % 9 <= 6 and k + 2 in allowed and k + 1 in allowed] or [0])
                tiles = [start, start + 1, start + 2]
            else:
                k = rng.choice(allowed)
                tiles = [k, k, k]
            if all(c[t] + tiles.count(t) <= 4 for t in tiles) and all(t in allowed for t in tiles):
                for t in tiles:
                    c[t] += 1
                out += tiles
                break
        else:
            return None
    for _attempt in range(20):
        k = rng.choice(allowed)
        if c[k] <= 2:
            c[k] += 2
            out += [k, k]
            return sorted(out)
    return None


def seven_pairs_hand(rng: random.Random) -> list[int]:
    kinds = rng.sample(range(34), 7)
    return sorted(kinds * 2)


def orphans_hand(rng: random.Random) -> list[int]:
    th = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]
    return sorted(th + [rng.choice(th)])


def mutate(rng: random.Random, hand: list[int], changes: int) -> list[int]:
    """Replace `changes` tiles with random others (keeping <= 4 copies)."""
    h = list(hand)
    for _ in range(changes):
        i = rng.randrange(len(h))
        c = counts_of(h)
        choices = [k for k in range(34) if c[k] < 4 and k != h[i]]
        h[i] = rng.choice(choices)
    return sorted(h)


def mixed_hand(rng: random.Random, n: int) -> list[int]:
    """13 or 14 tiles: uniform, or a complete/seven-pairs/orphans hand with a few tiles changed."""
    r = rng.random()
    if r < 0.4:
        return random_hand(rng, n)
    if r < 0.8:
        base = None
        while base is None:
            base = complete_hand(rng)
    elif r < 0.92:
        base = seven_pairs_hand(rng)
    else:
        base = orphans_hand(rng)
    h = mutate(rng, base, rng.choice([0, 1, 1, 2, 2, 3, 4]))
    if n == 13:
        h.pop(rng.randrange(14))
    return h


def ready_hand(rng: random.Random) -> list[int]:
    """A 13-tile hand one tile from complete (standard, seven pairs or orphans)."""
    r = rng.random()
    while True:
        if r < 0.85:
            base = complete_hand(rng)
        elif r < 0.95:
            base = seven_pairs_hand(rng)
        else:
            base = orphans_hand(rng)
        if base is not None:
            break
    h = list(base)
    h.pop(rng.randrange(14))
    return h


MELDS = "chow", "pung", "kong"


def melded_hand(rng: random.Random, melds: int, size: int = 13, kinds=None, complete: bool = False) -> str:
    """A hand in notation with `melds` exposed melds and size - 3 * melds (+1) concealed tiles.

    The concealed part is random, or near-complete when `complete` (one set changed)."""
    allowed = sorted(range(34) if kinds is None else kinds)
    c = [0] * 34
    parts = []
    while len(parts) < melds:
        kind = rng.choice(MELDS)
        k = rng.choice(allowed)
        tiles = [k, k + 1, k + 2] if kind == "chow" else [k] * (3 if kind == "pung" else 4)
        if kind == "chow" and (k >= 27 or k % 9 > 6 or any(t not in allowed for t in tiles)):
            continue
        if any(c[t] + tiles.count(t) > 4 for t in tiles):
            continue
        for t in tiles:
            c[t] += 1
        parts.append("(" + kinds_str_(tiles) + ")")
    n = size - 3 * melds + rng.randint(0, 1)
    pool = [k for k in allowed for _ in range(4 - c[k])]
    if complete:
        base = complete_hand(rng, (n - 2) // 3, allowed)
        if base is not None and all(c[k] + base.count(k) <= 4 for k in set(base)):
            concealed = mutate(rng, base, rng.choice([0, 1, 1, 2]))
            concealed = [k for k in concealed if k in allowed]
            while len(concealed) > n:
                concealed.pop(rng.randrange(len(concealed)))
            cc = counts_of(concealed)
            if len(concealed) == n and all(c[k] + cc[k] <= 4 for k in range(34)):
                return kinds_str_(sorted(concealed)) + "".join(parts)
    return kinds_str_(sorted(rng.sample(pool, n))) + "".join(parts)


def kinds_str_(kinds) -> str:
    from mjtools.tiles.kinds import kinds_str

    return kinds_str(kinds)


SEATS = "ESWN"


def _blocks(kinds: list[int], sets: int) -> list[list[int]] | None:
    """Split a generated complete hand back into its sets (greedy: pungs, then chows) + pair."""
    c = [0] * 34
    for k in kinds:
        c[k] += 1
    for pair in range(34):
        if c[pair] < 2:
            continue
        c[pair] -= 2
        out: list[list[int]] = []
        left = list(c)
        ok = True
        for k in range(34):
            while left[k]:
                if left[k] >= 3:
                    left[k] -= 3
                    out.append([k] * 3)
                elif k < 27 and k % 9 <= 6 and left[k + 1] and left[k + 2]:
                    for j in (k, k + 1, k + 2):
                        left[j] -= 1
                    out.append([k, k + 1, k + 2])
                else:
                    ok = False
                    break
            if not ok:
                break
        c[pair] += 2
        if ok and len(out) == sets:
            return out + [[pair, pair]]
    return None


def winning_case(rng: random.Random, sets: int = 4, kinds=range(34), chi: bool = True, flowers: bool = False, two_suits: bool = False) -> tuple[str, dict[str, Any]] | None:
    """A random winning hand in notation with its context (seat, tsumo or from), or None if the
    draw failed: a standard shape of `sets` sets, about 30% of them laid down as exposed melds
    with a source seat (chows from the left player, only if `chi`), up to 3 flowers if
    `flowers`, two suits only if `two_suits` (缺一门)."""
    from mjtools.tiles.kinds import kinds_str

    kinds = list(kinds)
    if two_suits:
        suits = rng.sample(range(3), 2)
        kinds = [k for k in kinds if k // 9 in suits]
    hand = complete_hand(rng, sets=sets, kinds=kinds)
    if hand is None:
        return None
    blocks = _blocks(hand, sets)
    if blocks is None:
        return None
    seat = rng.choice(SEATS)
    others = [s for s in SEATS if s != seat]
    left = SEATS[(SEATS.index(seat) - 1) % 4]
    melds, concealed = [], []
    for b in blocks[:-1]:
        is_chow = b[0] != b[1]
        if rng.random() < 0.3 and (not is_chow or chi):
            melds.append(f"({kinds_str(b)}@{left if is_chow else rng.choice(others)})")
        else:
            concealed += b
    concealed += blocks[-1]
    if not concealed:
        return None
    last = concealed.pop(rng.randrange(len(concealed)))
    aside = ""
    if flowers and rng.random() < 0.6:
        aside = "{" + "".join(str(n) for n in sorted(rng.sample(range(1, 9), rng.randint(1, 3)))) + "f}"
    text = kinds_str(sorted(concealed)) + "".join(melds) + aside + "+" + kinds_str([last])
    opts: dict[str, Any] = {"seat": seat}
    if rng.random() < 0.5:
        opts["tsumo"] = True
    else:
        opts["from"] = rng.choice(others)
    return text, opts


def baseline_waits(c: list[int]) -> list[int]:
    """The issue's baseline for waits: each of the 34 kinds not held four times, added, then
    `mahjong`'s `Agari.is_agari` (mahjong 2.1.0, a test-only dependency)."""
    from mahjong.agari import Agari

    out = []
    for k in range(34):
        if c[k] < 4:
            c[k] += 1
            if Agari.is_agari(c):
                out.append(k)
            c[k] -= 1
    return out


# pymahjonggb's tile names: W characters (万), B dots (饼), T bamboo (条), F1-4 East..North,
# J1 中 (red), J2 发 (green), J3 白 (white). (Checked on its fan calculator: T2 T3 T4 T6 T8 + J2
# score 绿一色, B1-5 B8 B9 + J3 score 推不倒.)
GB = {k: f"W{k + 1}" for k in range(9)} | {9 + k: f"B{k + 1}" for k in range(9)} | {18 + k: f"T{k + 1}" for k in range(9)}
GB |= {27: "F1", 28: "F2", 29: "F3", 30: "F4", 31: "J3", 32: "J2", 33: "J1"}
FROM_GB = {v: k for k, v in GB.items()}
