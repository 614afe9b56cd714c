"""Shanten: how many tiles a hand is from ready, per form, with prerequisites and wildcards.

Every form is measured as a *distance* D: the least number of the hand's natural tiles that
must be replaced to complete it (wildcards fill missing tiles first). Shanten = D - wilds - 1,
so -1 is complete and 0 ready. The standard form's distance comes from the shipped per-suit
tables (`tables.py`), combined over suits; the other forms are counted directly.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import permutations

from mjtools import tables
from mjtools.hand import Hand
from mjtools.shapes import ShapeSpec
from mjtools.tables import INF

GROUP_START = (0, 9, 18, 27)
SUIT_INDEX = {"m": 0, "p": 1, "s": 2, "z": 3}
TERMINAL_HONOR = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


@dataclass
class HandState:
    """A hand reduced to what analysis needs."""

    counts: list[int]  # natural concealed tiles per kind (34), last tile included
    wild: int  # wildcards among the concealed tiles
    melds: int  # exposed melds and concealed kongs
    meld_groups: frozenset[int]  # groups 0-3 (m p s z) that melds use
    meld_pungs_only: bool  # every meld is a pung or kong (for all-pungs shapes)
    meld_tiles: tuple[int, int, int, int]  # tiles in melds per group (kongs count 4)
    held: list[int]  # physical copies held per kind (50), melds and set-aside included
    meld_kinds: frozenset[int] = frozenset()  # the (natural) kinds the melds hold
    concealed_kongs: int = 0  # melds that are concealed kongs

    @property
    def tiles(self) -> int:
        return sum(self.counts) + self.wild + 3 * self.melds


def state_of(hand: Hand, spec: ShapeSpec) -> HandState:
    counts = [0] * 34
    wild = 0
    wilds, stand = spec.wild_kinds, dict(spec.stand_ins)
    for t in hand.hand_tiles():
        k = t.kind
        if k in wilds:
            wild += 1
        elif k < 34:
            counts[stand.get(k, k)] += 1
        elif k >= 42:  # a joker tile the variant did not declare wild: not playable
            raise ValueError(f"{t} is not a tile of this variant")
    groups = set()
    pungs_only = True
    per_group = [0, 0, 0, 0]
    for m in hand.melds:
        ks = {stand.get(k, k) for k in m.kinds}
        for k in ks:
            if k < 34:
                groups.add(k // 9 if k < 27 else 3)
        if len(ks) != 1:
            pungs_only = False
        for k in m.kinds:
            k = stand.get(k, k)
            if k < 34:
                per_group[k // 9 if k < 27 else 3] += 1
    kinds = frozenset(stand.get(k, k) for m in hand.melds for k in m.kinds)
    hidden = sum(1 for m in hand.melds if m.concealed)
    return HandState(counts, wild, len(hand.melds), frozenset(groups), pungs_only, tuple(per_group), list(hand.counts), kinds, hidden)


def group_key(counts: list[int], kinds: tuple[int, ...]) -> int:
    key = 0
    for i, k in enumerate(kinds):
        key += counts[k] * tables.POW5[i]
    return key


def _alternatives(spec: ShapeSpec, st: HandState) -> list[tuple[tuple[str | None, ...], frozenset[int] | None]]:
    """Standard-form alternatives: (table variant per group, groups allowed or None for any)."""
    layout = spec.group_layout()

    def variants(chows: bool, pair258: bool) -> tuple[str | None, ...]:
        out: list[str | None] = []
        for g in layout:
            if g is None:
                out.append(None)
            elif g[0] == "suit":
                out.append(("suit" if chows else "suit_pungs") + ("_258" if pair258 else ""))
            else:
                out.append("honor_nopair" if pair258 else "honor")
        return tuple(out)

    alts: list[tuple[tuple[str | None, ...], frozenset[int] | None]] = [(variants(True, spec.pair_258), None)]
    if spec.pair_258:
        if "all_pungs" in spec.pair_258_exempt and st.meld_pungs_only:
            alts.append((variants(False, False), None))
        if "fully_melded" in spec.pair_258_exempt and st.melds == spec.sets_needed and not st.concealed_kongs:
            alts.append((variants(True, False), None))  # 全求人: every set called, any pair
        if "full_flush" in spec.pair_258_exempt:
            for g in range(3):
                if layout[g] is not None and st.meld_groups <= {g}:
                    alts.append((variants(True, False), frozenset({g})))
    return alts


def _allowed_group_sets(spec: ShapeSpec, st: HandState, void: int | None) -> list[frozenset[int]]:
    """Which groups may appear in the final hand, one set per way of meeting 缺一门 / --void."""
    present = frozenset(g for g, lay in enumerate(spec.group_layout()) if lay is not None)
    if void is not None:
        if void in st.meld_groups:
            return []
        return [present - {void}]
    if spec.max_suits is not None:
        suits = sorted(present & {0, 1, 2})
        drop = len(suits) - spec.max_suits
        if drop <= 0:
            return [present]
        if drop == 1:
            return [present - {g} for g in suits if g not in st.meld_groups]
        return [frozenset({g, 3} & present) for g in suits if st.meld_groups <= {g, 3}]
    return [present]


def standard_distance(st: HandState, spec: ShapeSpec, void: int | None = None) -> int:
    sets = spec.sets_needed - st.melds
    if sets < 0:
        return INF
    col = 2 * sets + 1
    layout = spec.group_layout()
    best = INF
    needs_split = spec.min_tiles_one_suit is not None or spec.all_three_suits
    for allowed in _allowed_group_sets(spec, st, void):
        for variant, only in _alternatives(spec, st):
            groups = allowed if only is None else allowed & only
            if only is not None and not st.meld_groups <= only:
                continue
            gids = []
            for g in range(4):
                if g in groups and variant[g] is not None:
                    gids.append(tables.vector(variant[g], group_key(st.counts, layout[g][1])))
                else:
                    gids.append(tables.ZERO)
            if needs_split:
                d = _split_distance(gids, sets, st, spec)
            else:
                acc = gids[0]
                for gid in gids[1:]:
                    acc = tables.combine(acc, gid)
                d = tables.VECTORS[acc][col]
            best = min(best, d)
    return best


def _split_distance(gids: list[int], sets: int, st: HandState, spec: ShapeSpec) -> int:
    """Distance with constraints on how sets spread over suits (八枝, all three suits)."""
    vecs = [tables.VECTORS[g] for g in gids]
    best = INF
    for pg in range(4):
        for m0 in range(sets + 1):
            for m1 in range(sets + 1 - m0):
                for m2 in range(sets + 1 - m0 - m1):
                    ms = (m0, m1, m2, sets - m0 - m1 - m2)
                    d = sum(vecs[g][2 * ms[g] + (g == pg)] for g in range(4))
                    if d >= best:
                        continue
                    tiles = [3 * ms[g] + 2 * (g == pg) + st.meld_tiles[g] for g in range(4)]
                    if spec.min_tiles_one_suit and max(tiles[:3]) < spec.min_tiles_one_suit:
                        continue
                    if spec.all_three_suits and min(tiles[:3]) == 0:
                        continue
                    best = d
    return best


def seven_pairs_distance(st: HandState, spec: ShapeSpec, groups: frozenset[int]) -> int:
    if st.melds or spec.hand_size != 13:
        return INF
    slots: list[int] = []
    for k, c in enumerate(st.counts):
        if c and (k // 9 if k < 27 else 3) in groups:
            slots.append(min(c, 2))
            if spec.quads_as_pairs and c > 2:
                slots.append(min(c - 2, 2))
    slots.sort(reverse=True)
    return 14 - sum(slots[:7])


def thirteen_orphans_distance(st: HandState, spec: ShapeSpec, groups: frozenset[int]) -> int:
    if st.melds or spec.hand_size != 13 or not {0, 1, 2, 3} <= groups:
        return INF
    kinds = sum(1 for k in TERMINAL_HONOR if st.counts[k])
    pair = any(st.counts[k] >= 2 for k in TERMINAL_HONOR)
    return 14 - kinds - pair


def _spread_table() -> list[int]:
    """Largest subset of a 9-bit suit mask whose members are at least 3 apart (十三烂)."""
    out = []
    for mask in range(512):
        best = 0
        for sub in range(512):
            if sub & ~mask:
                continue
            bits = [i for i in range(9) if sub >> i & 1]
            if all(b - a >= 3 for a, b in zip(bits, bits[1:])):
                best = max(best, len(bits))
        out.append(best)
    return out


_SPREAD: list[int] = []
_KNIT = (0b001001001, 0b010010010, 0b100100100)  # 147, 258, 369


def _mask(counts: list[int], g: int) -> int:
    s = GROUP_START[g]
    return sum(1 << i for i in range(9) if counts[s + i])


def thirteen_unrelated_distance(st: HandState, spec: ShapeSpec, groups: frozenset[int]) -> int:
    global _SPREAD
    if st.melds or spec.hand_size != 13:
        return INF
    if not _SPREAD:
        _SPREAD = _spread_table()
    kept = sum(_SPREAD[_mask(st.counts, g)] for g in range(3) if g in groups)
    kept += sum(1 for k in range(27, 34) if st.counts[k]) if 3 in groups else 0
    return 14 - min(kept, 14)


def knitted_distance(st: HandState, spec: ShapeSpec, groups: frozenset[int]) -> int:
    if st.melds or spec.hand_size != 13 or not {0, 1, 2} <= groups:
        return INF
    masks = [_mask(st.counts, g) for g in range(3)]
    suited = max(sum(bin(masks[g] & perm[g]).count("1") for g in range(3)) for perm in permutations(_KNIT))
    kept = suited + (sum(1 for k in range(27, 34) if st.counts[k]) if 3 in groups else 0)
    return 14 - min(kept, 14)


def all_258_distance(st: HandState, spec: ShapeSpec, groups: frozenset[int]) -> int:
    """将将和: every tile a 2, 5 or 8 in any arrangement; melds only pungs or kongs of them."""
    from mjtools.shapes import KINDS_258

    if not st.meld_pungs_only or not st.meld_kinds <= KINDS_258 or not st.meld_groups <= groups:
        return INF
    need = spec.hand_size + 1 - 3 * st.melds
    suits = sum(1 for g in (0, 1, 2) if g in groups)
    if need < 0 or 12 * suits < spec.hand_size + 1:
        return INF
    kept = sum(st.counts[k] for k in KINDS_258 if k // 9 in groups)
    return need - min(kept, need)


_OTHER_FORMS = {
    "seven_pairs": seven_pairs_distance,
    "thirteen_orphans": thirteen_orphans_distance,
    "thirteen_unrelated": thirteen_unrelated_distance,
    "knitted": knitted_distance,
    "all_258": all_258_distance,
}


def form_distances(st: HandState, spec: ShapeSpec, void: int | None = None) -> dict[str, int | None]:
    """Distance per form the variant allows (None for forms it does not allow)."""
    out: dict[str, int | None] = {}
    allowed_sets = _allowed_group_sets(spec, st, void)
    for form in spec.forms:
        if form == "standard":
            d = standard_distance(st, spec, void)
        else:
            fn = _OTHER_FORMS[form]
            d = min((fn(st, spec, gs) for gs in allowed_sets), default=INF)
        out[form] = d
    return out


def shanten_of_state(st: HandState, spec: ShapeSpec, void: int | None = None) -> tuple[int, dict[str, int | None]]:
    """(shanten, per-form shanten); a form that cannot be completed at all is None."""
    forms: dict[str, int | None] = {}
    for form, d in form_distances(st, spec, void).items():
        forms[form] = None if d is None or d >= INF else d - st.wild - 1
    values = [v for v in forms.values() if v is not None]
    return (min(values) if values else INF), forms


def distance(st: HandState, spec: ShapeSpec, void: int | None = None) -> int:
    return min((d for d in form_distances(st, spec, void).values() if d is not None), default=INF)


# -- effective tiles and discards ---------------------------------------------------------------


def _add(st: HandState, kind: int, spec: ShapeSpec, sign: int) -> None:
    if kind in spec.wild_kinds:
        st.wild += sign
    else:
        st.counts[dict(spec.stand_ins).get(kind, kind)] += sign
    st.held[kind] += sign


def candidate_kinds(spec: ShapeSpec) -> list[int]:
    """Kinds a player could draw: the playable kinds of the tile set plus wildcard kinds."""
    return sorted(set(spec.kinds) | set(spec.wild_kinds))


def effective(st: HandState, spec: ShapeSpec, copies: list[int], void: int | None = None) -> list[int]:
    """Kinds whose draw lowers the distance of a hand of hand-size tiles."""
    base = distance(st, spec, void) - st.wild
    out = []
    for k in candidate_kinds(spec):
        if st.held[k] >= copies[k]:
            continue
        _add(st, k, spec, 1)
        if distance(st, spec, void) - st.wild < base:
            out.append(k)
        _add(st, k, spec, -1)
    return out


def discard_table(st: HandState, spec: ShapeSpec, copies: list[int], unseen: list[int], void: int | None = None, discardable=None) -> list[dict]:
    """For a hand of hand-size + 1 tiles: every distinct discard with its shanten and effective tiles."""
    from mjtools.tiles import kind_str

    rows = []
    stand = dict(spec.stand_ins)
    physical = sorted({k for k in range(50) if st.held[k] and _in_hand(st, k, spec, stand)})
    for k in physical:
        if discardable is not None and not discardable(k):
            continue
        _add(st, k, spec, -1)
        s, _ = shanten_of_state(st, spec, void)
        eff = effective(st, spec, copies, void)
        _add(st, k, spec, 1)
        live = sum(unseen[e] for e in eff)
        rows.append({"tile": kind_str(k), "kind": k, "shanten": s, "effective": [kind_str(e) for e in eff], "effective_count": live})
    rows.sort(key=lambda r: (r["shanten"], -r["effective_count"], r["kind"]))
    for r in rows:
        del r["kind"]
    return rows


def _in_hand(st: HandState, k: int, spec: ShapeSpec, stand: dict[int, int]) -> bool:
    if k in spec.wild_kinds:
        return st.wild > 0
    return k < 34 and st.counts[stand.get(k, k)] > 0
