"""Reference answers for hands with wildcards, written apart from the engine.

Two references:

- `brute_*`: substitute every multiset of kinds for the wildcards (respecting the variant's
  options: no fifth copy counting melds unless `fifth_copy`; under `in_pair: false` the
  substituted tiles are marked and may not sit in the pair) and take the min of the natural
  shanten, or the union of the natural waits. Natural shanten comes from the engine with no
  wildcard (the table path, checked against `mahjong` 2.1.0) or, for hands the tables cannot
  hold (five copies, marked tiles), from `search`.
- `search`: an independent search over targets. It assigns the natural tiles, lowest first,
  to blocks (or to the discard pile), fills the blocks no natural tile reached with the
  cheapest free ones, and scores each target with the draw count max(D - w, N), E <= w.

The min over substitutions stops early at its lower bound D(naturals) - w - 1 (no
substitution lowers the distance by more than one per wildcard), so it stays exact.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import chain, combinations, combinations_with_replacement, permutations

from mjtools.analysis.shanten import HandState, shanten_of_state
from mjtools.analysis.shapes import ShapeSpec
from mjtools.tiles.hand import Hand, Meld
from mjtools.tiles.kinds import Tile

INF = 99
TH = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
WINDS, DRAGONS = (27, 28, 29, 30), (31, 32, 33)


def group(k: int) -> int:
    return k // 9 if k < 27 else 3


@dataclass
class Melds:
    """What the reference needs to know about a hand's melds."""

    n: int = 0
    kinds: list[int] = field(default_factory=lambda: [0] * 34)  # represented copies per kind
    groups: frozenset[int] = frozenset()
    tiles: tuple[int, int, int, int] = (0, 0, 0, 0)  # per group, kongs count 4
    pungs_only: bool = True


def melds_of(st: HandState) -> Melds:
    return Melds(st.melds, list(st.meld_counts) or [0] * 34, st.meld_groups, st.meld_tiles, st.meld_pungs_only)


# -- natural shanten (no wildcards) ------------------------------------------------------------


_SPECS: dict[tuple, ShapeSpec] = {}


def natural_spec(spec: ShapeSpec, forms: tuple[str, ...] | None = None) -> ShapeSpec:
    """The spec without wildcards (optionally with fewer forms), one instance per distinct
    result, so that its group layout is computed once."""
    key = (spec, forms)
    got = _SPECS.get(key)
    if got is None:
        got = spec.replace(wild_kinds=frozenset(), stand_ins=(), forms=spec.forms if forms is None else forms)
        # specs that differ only in their wildcards share one natural spec instance: the
        # engine's caches compare an equal spec of another instance field by field
        got = _SPECS[key] = _SPECS.setdefault((got, None), got)
    return got


def natural_forms(counts: list[int], m: Melds, nspec: ShapeSpec, void: int | None) -> dict[str, int | None]:
    """Per-form natural shanten of concealed counts (the engine with no wildcard)."""
    return _natural_forms(tuple(counts), m.n, m.groups, m.pungs_only, m.tiles, tuple(m.kinds), nspec, void)


@lru_cache(maxsize=200_000)
def _natural_forms(counts: tuple[int, ...], n: int, groups: frozenset[int], pungs_only: bool, tiles: tuple[int, ...], kinds: tuple[int, ...], nspec: ShapeSpec, void: int | None) -> dict[str, int | None]:
    st = HandState(list(counts), 0, n, groups, pungs_only, tiles, [0] * 50, frozenset(k for k in range(34) if kinds[k]), 0, list(kinds), [0] * 50)
    return shanten_of_state(st, nspec, void)[1]


# -- the independent target search ---------------------------------------------------------------


def _set_types(spec: ShapeSpec) -> list[tuple[int, ...]]:
    ks = spec.kinds
    out = [(k, k, k) for k in sorted(ks)]
    out += [(k, k + 1, k + 2) for k in range(27) if k % 9 <= 6 and {k, k + 1, k + 2} <= ks]
    if spec.honor_chows:
        out += [t for t in combinations(WINDS, 3) if set(t) <= ks]
        if set(DRAGONS) <= ks:
            out.append(DRAGONS)
    return out


def _kind_cost(t: int, k: int, is_pair: bool, c: list[int], spec: ShapeSpec, m: Melds, marks: list[int] | None) -> tuple[int, int, int] | None:
    """(missing, draw-only, wild-only) positions of kind k when the target holds t of it."""
    ck = c[k]
    if marks is not None:  # a natural hand holding substituted (marked) tiles, no wildcard
        if t > max(4, ck):
            return None
        if is_pair:
            unmarked = ck - marks[k]
            in_pair = min(2, unmarked)
            return (t - in_pair - min(t - 2, ck - in_pair), 0, 0)
        return (max(0, t - ck), 0, 0)
    miss = max(0, t - ck)
    q = max(0, 2 - ck) if is_pair and not spec.wild_in_pair else 0
    if spec.wild_fifth_copy:
        return (miss, q, max(0, t - max(4, ck)))
    if t > 4:
        return None
    room = max(0, 4 - m.kinds[k] - ck)
    return (miss, miss - min(miss - q, room), 0)


def _keep(front: list[tuple[int, int, int]], e: tuple[int, int, int]) -> None:
    for f in front:
        if f[0] <= e[0] and f[1] <= e[1] and f[2] <= e[2]:
            return
    front[:] = [f for f in front if not (e[0] <= f[0] and e[1] <= f[1] and e[2] <= f[2])]
    front.append(e)


def search_standard(c: list[int], w: int, spec: ShapeSpec, m: Melds, void: int | None = None, marks: list[int] | None = None, bound: int = INF) -> int:
    """Least draws over standard targets (shanten = draws - 1): a DP over the 34 kinds in
    order whose state carries what the requirements look at (groups used, chows used, the
    pair's kind class, tiles per suit), each state keeping the Pareto front of its costs.

    `bound` prunes partial targets already needing more than `bound` draws (costs only grow),
    so the answer is exact whenever it is at most `bound`, and above `bound` otherwise."""
    sets = spec.sets_needed - m.n
    if sets < 0:
        return INF
    exempt = spec.pair_258_exempt if spec.pair_258 else ()
    track_groups = void is not None or spec.max_suits is not None or spec.all_three_suits or "full_flush" in exempt
    track_chows = "all_pungs" in exempt
    track_tiles = bool(spec.min_tiles_one_suit)
    top = 4 + (w if spec.wild_fifth_copy else 0)
    # state: (a, b, sets, pair, chows, groups, best suit tiles, this suit's tiles)
    State = tuple[int, int, int, int, bool, int, int, int]
    states: dict[State, list[tuple[int, int, int]]] = {(0, 0, 0, 0, False, 0, 0, 0): [(0, 0, 0)]}

    def pair_class(k: int) -> int:
        return 1 if not spec.pair_258 or (k < 27 and k % 9 in (1, 4, 7)) else 2

    for g in range(3):
        ks = [k for k in range(9 * g, 9 * g + 9) if k in spec.kinds]
        full = len(ks) == 9
        for pos, k in enumerate(ks):
            chow_ok = full and pos <= 6
            limit = max(top, c[k])
            costs = {(t, pr): _kind_cost(t, k, bool(pr), c, spec, m, marks) for t in range(limit + 1) for pr in (0, 1)}
            new: dict[State, list[tuple[int, int, int]]] = {}
            pck = pair_class(k)
            for (a, b, ms, p, ch, gm, best_t, cur), front in states.items():
                for nk in range(sets - ms + 1 if chow_ok else 1):
                    for nt in range(sets - ms - nk + 1):
                        for pr in (0, 1) if not p else (0,):
                            t = a + b + nk + 3 * nt + 2 * pr
                            if t > limit:
                                break
                            cost = costs[(t, pr)]
                            if cost is None:
                                continue
                            c0, c1, c2 = cost
                            kept = [(d + c0, nn + c1, ee + c2) for d, nn, ee in front if ee + c2 <= w and d + c0 - w <= bound and nn + c1 <= bound]
                            if not kept:
                                continue  # a state with nothing kept leads nowhere: not made
                            used = t > 0
                            key = (
                                nk, a, ms + nk + nt, pck if pr else p,
                                (ch or nk > 0) if track_chows else False,
                                (gm | (1 << g) if used else gm) if track_groups else 0,
                                best_t, (cur + 3 * (nk + nt) + 2 * pr) if track_tiles else 0,
                            )
                            slot = new.get(key)
                            if slot is None:
                                new[key] = slot = []
                            for e in kept:
                                _keep(slot, e)
            states = new
        # close the suit: no chow may run past it; remember its tile count
        closed: dict[State, list[tuple[int, int, int]]] = {}
        for (a, b, ms, p, ch, gm, best_t, cur), front in states.items():
            if a or b:
                continue
            key = (0, 0, ms, p, ch, gm, max(best_t, cur + m.tiles[g]) if track_tiles else 0, 0)
            slot = closed.setdefault(key, [])
            for e in front:
                _keep(slot, e)
        states = closed
    honors = tuple(k for k in range(27, 34) if k in spec.kinds)
    options = _honor_options(
        honors, tuple(c[k] for k in honors), tuple(m.kinds[k] for k in honors), None if marks is None else tuple(marks[k] for k in honors), sets, spec, top
    )
    by_sets: dict[int, list] = {}
    for opt in options:
        by_sets.setdefault(opt[0], []).append(opt)
    best = INF
    for (_a, _b, ms, p, ch, gm, best_t, _cur), front in states.items():
        opts = by_sets.get(sets - ms)
        if not opts or not front:
            continue
        # costs never go below zero: a state whose front cannot beat `best` is skipped whole
        if max(min(e[0] for e in front) - w, min(e[1] for e in front)) >= best:
            continue
        suit_groups = {g for g in range(3) if gm >> g & 1} | set(m.groups)
        legal: dict[tuple, bool] = {}  # (honours used, pair class, chows used) -> _legal
        for n, hp, hch, hcost in opts:
            if (p and hp) or not (p or hp):
                continue
            pair = p or hp
            honours = bool(any(hcost) or n or hp)
            key = (honours, pair, bool(ch or hch))
            ok = legal.get(key)
            if ok is None:
                groups = suit_groups | {3} if honours else set(suit_groups)
                ok = legal[key] = _legal(groups, pair, ch or hch, gm, best_t, spec, m, void, track_groups)
            if not ok:
                continue
            h0, h1, h2 = hcost
            for d, nn, ee in front:
                if ee + h2 <= w:
                    v = max(d + h0 - w, nn + h1)
                    if v < best:
                        best = v
    return best


@lru_cache(maxsize=50_000)
def _honor_options(honors: tuple[int, ...], hc: tuple[int, ...], hm: tuple[int, ...], hmarks: tuple[int, ...] | None, sets: int, spec: ShapeSpec, top: int) -> list:
    """Every multiset of honor sets (pungs, honor chows) with an optional pair:
    (sets, pair class, chows used, cost)."""
    c = [0] * 34
    mk = [0] * 34
    marks = None if hmarks is None else [0] * 34
    for i, k in enumerate(honors):
        c[k], mk[k] = hc[i], hm[i]
        if marks is not None and hmarks is not None:
            marks[k] = hmarks[i]
    m = Melds(kinds=mk)
    shapes = [(k, k, k) for k in honors]
    if spec.honor_chows:
        shapes += [t for t in combinations([k for k in WINDS if k in honors], 3)]
        if all(k in honors for k in DRAGONS):
            shapes.append(DRAGONS)
    pc = 2 if spec.pair_258 else 1  # an honor pair is never a 2, 5 or 8
    options = []
    for n in range(sets + 1):
        for combo in combinations_with_replacement(shapes, n):
            for pk in (None,) + honors:
                t = [0] * 34
                for sh in combo:
                    for k in sh:
                        t[k] += 1
                if pk is not None:
                    t[pk] += 2
                tot = (0, 0, 0)
                for k in honors:
                    if t[k]:
                        cost = _kind_cost(t[k], k, k == pk, c, spec, m, marks) if t[k] <= max(top, c[k]) else None
                        if cost is None:
                            break
                        tot = (tot[0] + cost[0], tot[1] + cost[1], tot[2] + cost[2])
                else:
                    options.append((n, 0 if pk is None else pc, any(len(set(sh)) == 3 for sh in combo), tot))
    return options


def _legal(groups: set[int], pair: int, chows: bool, gm: int, best_t: int, spec: ShapeSpec, m: Melds, void: int | None, tracked: bool) -> bool:
    suits = groups & {0, 1, 2}
    if tracked:
        if void is not None and void in groups:
            return False
        if spec.max_suits is not None and len(suits) > spec.max_suits:
            return False
        if spec.all_three_suits and len(suits) < 3:
            return False
    if pair == 2:  # the pair is not a 2, 5 or 8
        exempt = spec.pair_258_exempt
        ok = ("all_pungs" in exempt and not chows and m.pungs_only) or ("full_flush" in exempt and len(suits) == 1 and 3 not in groups)
        if not ok:
            return False
    return not (spec.min_tiles_one_suit and best_t < spec.min_tiles_one_suit)


def search_other(form: str, c: list[int], w: int, spec: ShapeSpec, m: Melds, void: int | None) -> int:
    """Least draws for the forms without sets, by enumerating their targets."""
    if m.n or spec.hand_size != 13:
        return INF
    kinds = [k for k in sorted(spec.kinds) if not (void is not None and group(k) == void)]
    if spec.max_suits is not None and spec.max_suits < 3:
        # 缺一门: the best over the suits that may be dropped
        return min(search_other(form, c, w, spec.replace(max_suits=None, kinds=frozenset(k for k in kinds if group(k) != g)), m, None) for g in range(3))
    allowed = kinds
    if form == "seven_pairs":
        # every choice of seven kinds (two pairs of one kind where quads count twice)
        per = 2 if spec.quads_as_pairs else 1
        slots = sorted((min(max(c[k] - 2 * j, 0), 2) for k in allowed for j in range(per)), reverse=True)
        if len(slots) < 7:
            return INF
        return max(14 - sum(slots[:7]) - w, 0)
    targets: list[list[int]] = []
    if form == "thirteen_orphans":
        if not set(TH) <= set(allowed):
            return INF
        for p in TH:
            targets.append([k for k in TH] + [p])
    elif form == "thirteen_unrelated":
        # per suit, the most held tiles a spread of each size keeps; then the best mix of sizes
        spreads = [sp for n in range(4) for sp in combinations(range(9), n) if all(b - a >= 3 for a, b in zip(sp, sp[1:]))]
        honors = [k for k in allowed if k >= 27]
        per = []
        for g in range(3):
            full = all(9 * g + x in allowed for x in range(9))
            best_n = {}
            for sp in spreads if full else [()]:
                best_n[len(sp)] = max(best_n.get(len(sp), -1), sum(1 for x in sp if c[9 * g + x]))
            per.append(best_n)
        held_h = sum(1 for k in honors if c[k])
        best = INF
        for a, ka in per[0].items():
            for b, kb in per[1].items():
                for d, kd in per[2].items():
                    z = 14 - a - b - d
                    if 0 <= z <= len(honors):
                        best = min(best, max(14 - ka - kb - kd - min(z, held_h) - w, 0))
        return best
    elif form == "knitted":
        honors = [k for k in allowed if k >= 27]
        for perm in permutations(((0, 3, 6), (1, 4, 7), (2, 5, 8))):
            knit = [9 * g + x for g in range(3) for x in perm[g]]
            if all(k in allowed for k in knit):
                for pick in combinations(knit + honors, 14):
                    targets.append(list(pick))
    best = INF
    for t in targets:
        held = sum(min(c[k], t.count(k)) for k in set(t))
        best = min(best, max(14 - held - w, 0))
    return best


def search_shanten(c: list[int], w: int, spec: ShapeSpec, m: Melds, void: int | None = None, marks: list[int] | None = None, bound: int | None = None) -> int:
    """Least shanten over the forms; with `bound` (a shanten), exact when the answer is at most
    `bound`, else some value above it."""
    out = []
    for form in spec.forms:
        d = search_standard(c, w, spec, m, void, marks, INF if bound is None else bound + 1) if form == "standard" else search_other(form, c, w, spec, m, void)
        if d < INF:
            out.append(d - 1)
    return min(out, default=INF)


# -- substitutions ---------------------------------------------------------------------------------


def substitutions(c: list[int], w: int, spec: ShapeSpec, m: Melds) -> Iterator[tuple[int, ...]]:
    """Every multiset of w kinds the wildcards may stand for, kinds near the hand first."""
    near = sorted(spec.kinds, key=lambda k: (0 if c[k] else 1 if any(c[j] for j in range(max(0, k - 2), min(34, k + 3)) if group(j) == group(k)) else 2, k))
    if not w:
        yield ()
        return
    # Each multiset once, in order of its least relevant kind: substitutions near the hand,
    # which are the ones that complete it, come first.
    for n in range(1, len(near) + 1):
        last = near[n - 1]
        for rest in combinations_with_replacement(near[:n], w - 1):
            sub = rest + (last,)
            if not spec.wild_fifth_copy and any(c[k] + sub.count(k) + m.kinds[k] > 4 for k in set(sub)):
                continue
            yield sub


def _natural_shanten(counts: list[int], sub: tuple[int, ...], spec: ShapeSpec, nspec: ShapeSpec, m: Melds, void: int | None) -> int:
    """Natural shanten of a substituted hand, over the forms where wildcards substitute."""
    forms = [f for f in spec.forms if f not in spec.face_value_forms]
    if max(counts) <= 4 and (spec.wild_in_pair or not sub):
        got = natural_forms(counts, m, natural_spec(spec, tuple(forms)), void)
        vals = [v for v in got.values() if v is not None]
        return min(vals, default=INF)
    marks = [0] * 34
    for k in sub:
        marks[k] += 1
    one = spec.replace(forms=tuple(forms), wild_kinds=frozenset(), stand_ins=())
    return search_shanten(counts, 0, one, m, void, marks if not spec.wild_in_pair else None) if forms else INF


def face_shanten(st: HandState, spec: ShapeSpec, m: Melds, void: int | None) -> int:
    """Natural shanten in the forms where wildcards count at face value."""
    forms = [f for f in spec.forms if f in spec.face_value_forms]
    if not forms:
        return INF
    counts = list(st.counts)
    stand = dict(spec.stand_ins)
    for k, n in enumerate(st.wild_held):
        if n and k < 34:
            counts[stand.get(k, k)] += n
    got = natural_forms(counts, m, natural_spec(spec, tuple(forms)), void)
    return min((v for v in got.values() if v is not None), default=INF)


def brute_shanten(st: HandState, spec: ShapeSpec, void: int | None = None, stop: int | None = None, first: list[tuple[int, ...]] = ()) -> int:
    """Min over substitutions of the natural shanten (stops once `stop` or the bound is met).
    `first`: substitutions to try before the others (hints; they change only the order)."""
    m = melds_of(st)
    nspec = natural_spec(spec)
    c, w = st.counts, st.wild
    best = face_shanten(st, spec, m, void)
    forms = tuple(f for f in spec.forms if f not in spec.face_value_forms)
    if not forms:
        return best
    lower = min((v for v in natural_forms(c, m, natural_spec(spec, forms), void).values() if v is not None), default=INF) - w
    if stop is not None and lower > stop:
        return max(lower, -1) if best > lower else best  # the bound alone decides "not reached"
    for sub in chain(first, substitutions(c, w, spec, m)):
        if len(sub) != w or (not spec.wild_fifth_copy and any(c[k] + sub.count(k) + m.kinds[k] > 4 for k in set(sub))):
            continue
        counts = list(c)
        for k in sub:
            counts[k] += 1
        best = min(best, _natural_shanten(counts, sub, spec, nspec, m, void))
        if best <= lower or (stop is not None and best <= stop):
            break
    return best


def brute_complete(st: HandState, spec: ShapeSpec, void: int | None = None, hand: Hand | None = None) -> bool:
    """Some substitution completes the hand. With `hand`, the engine's first readings are
    tried first as hints: a hint only saves time, the natural check decides."""
    hints: list[tuple[int, ...]] = []
    m = melds_of(st)
    forms = tuple(f for f in spec.forms if f not in spec.face_value_forms)
    lower = min((v for v in natural_forms(st.counts, m, natural_spec(spec, forms), void).values() if v is not None), default=INF) - st.wild
    if lower > -1 and face_shanten(st, spec, m, void) > -1:
        return False  # no substitution lowers the distance by more than one per wildcard
    if hand is not None:
        from mjtools.analysis.decompose import FORMS

        for form in spec.forms:
            for n, blocks in enumerate(FORMS[form](hand, spec)):
                hints.append(tuple(sorted(k for b in blocks if b.meld is None for k in b.wilds)))
                if n == 2:
                    break
    return brute_shanten(st, spec, void, stop=-1, first=hints) == -1


def brute_waits(st: HandState, spec: ShapeSpec, copies: list[int], void: int | None = None, hand: Hand | None = None) -> list[int]:
    """Kinds k such that some substitution completes the hand plus k (held-out kinds skipped)."""
    out = []
    stand = dict(spec.stand_ins)
    cands = sorted(set(spec.kinds) | set(spec.wild_kinds) | {p for p, _ in spec.stand_ins})
    for k in cands:
        if st.held[k] >= copies[k]:
            continue
        s2 = HandState(list(st.counts), st.wild, st.melds, st.meld_groups, st.meld_pungs_only, st.meld_tiles, list(st.held), st.meld_kinds, st.concealed_kongs, list(st.meld_counts), list(st.wild_held))
        if k in spec.wild_kinds:
            s2.wild += 1
            s2.wild_held[k] += 1
        else:
            s2.counts[stand.get(k, k)] += 1
        if brute_complete(s2, spec, void, None if hand is None else hand.with_last(Tile(k))):
            out.append(k)
    return out


# -- hand generation -------------------------------------------------------------------------------


def wild_hand(rng: random.Random, spec: ShapeSpec, w: int, size: int, kind: str = "near", melds: int = 0) -> Hand:
    """A hand of `size` concealed tiles (13, or 14 with a last tile) plus `melds` pungs,
    holding exactly w wildcards. `kind`: random, near (a complete hand with a few tiles
    changed) or ready (a complete hand less one tile)."""
    sources: dict[int, list[int]] = {}  # represented kind -> physical kinds that play it
    for k in sorted(spec.kinds - spec.wild_kinds):
        sources.setdefault(k, []).append(k)
    for p, n in spec.stand_ins:
        sources.setdefault(n, []).append(p)
    natural = sorted(sources)
    room = [4] * 50
    wilds = [k for k in sorted(spec.wild_kinds) for _ in range(4)]
    picked_wild = rng.sample(wilds, w)
    for k in picked_wild:
        room[k] -= 1

    def phys(k: int) -> int | None:
        opts = [p for p in sources.get(k, []) if room[p] > 0]
        if not opts:
            return None
        p = rng.choice(opts)
        room[p] -= 1
        return p

    meld_list: list[Meld] = []
    n_nat = size - w
    if kind == "random":
        want = [rng.choice(natural) for _ in range(n_nat + 3 * melds + 10)]
    else:
        target = _complete_counts(rng, spec, natural, spec.sets_needed)
        want = [k for k in range(34) for _ in range(target[k])]
        rng.shuffle(want)
        for _ in range(melds):
            k = next((k for k in want if want.count(k) >= 3), None)
            if k is None:
                break
            ps = [phys(k) for _ in range(3)]
            if None in ps:
                break
            for _ in range(3):
                want.remove(k)
            meld_list.append(Meld(tuple(Tile(p) for p in ps), "pung"))  # type: ignore[arg-type]
        rng.shuffle(want)
        want = want[w:]
        changes = {"near": rng.choice([0, 1, 1, 2, 3]), "ready": 0, "complete": 0}[kind]
        for _ in range(changes):
            want[rng.randrange(len(want))] = rng.choice(natural)
        want += [rng.choice(natural) for _ in range(10)]
    if kind == "random" and melds:
        for _ in range(melds):
            k = rng.choice(natural)
            ps = [phys(k) for _ in range(3)]
            if None not in ps:
                meld_list.append(Meld(tuple(Tile(p) for p in ps), "pung"))  # type: ignore[arg-type]
    n_nat = size - w + 3 * (melds - len(meld_list))  # `size` counts concealed tiles for the melds asked
    if kind == "ready":
        want.pop(0)
    tiles: list[int] = []
    for k in want:
        if len(tiles) == n_nat:
            break
        p = phys(k)
        if p is not None:
            tiles.append(p)
    while len(tiles) < n_nat:
        p = phys(rng.choice(natural))
        if p is not None:
            tiles.append(p)
    all_tiles = [Tile(k) for k in sorted(tiles + picked_wild)]
    if (size + 3 * len(meld_list)) % 3 == 2:  # hand size + 1: the last tile is the one just drawn
        last = all_tiles.pop(rng.randrange(len(all_tiles)))
        return Hand(tuple(all_tiles), tuple(meld_list), (), last)
    return Hand(tuple(all_tiles), tuple(meld_list))


def _complete_counts(rng: random.Random, spec: ShapeSpec, natural: list[int], sets: int) -> list[int]:
    types = [t for t in _set_types(spec) if all(k in natural for k in t)]
    c = [0] * 34
    for _ in range(sets):
        for _try in range(30):
            t = rng.choice(types)
            if all(c[k] + t.count(k) <= 4 for k in t):
                for k in t:
                    c[k] += 1
                break
    for _try in range(30):
        k = rng.choice(natural)
        if c[k] <= 2:
            c[k] += 2
            break
    return c
