"""Shanten: how many tiles a hand is from ready, per form, with prerequisites and wildcards.

Every form is measured as an effective *distance* D: over the form's complete targets, the
least max(missing, draw-only + wilds), where `missing` counts target positions the hand's
natural tiles leave unfilled. Wildcards fill missing positions first, so shanten = D - wilds - 1
(-1 complete, 0 ready). Without wildcard restrictions (`groupdp.py` explains them) draw-only
positions never occur and D is the plain missing count, which the shipped per-suit tables
(`tables.py`) give, combined over suits. The other forms are counted in `forms.py`.
"""

from __future__ import annotations

from functools import lru_cache

from mjtools.analysis import groupdp, tables
from mjtools.analysis.forms import BOUNDS, OTHER_FORMS
from mjtools.analysis.shapes import ShapeSpec
from mjtools.analysis.state import HandState, state_of  # noqa: F401 - state_of is imported from here too
from mjtools.analysis.tables import INF

GROUP_START = (0, 9, 18, 27)
SUIT_INDEX = {"m": 0, "p": 1, "s": 2, "z": 3}
TERMINAL_HONOR = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
EMPTY: groupdp.Vec = {(0, 0): ((0, 0, 0),)}


def group_key(counts: list[int], kinds: tuple[int, ...]) -> int:
    return sum(counts[k] * p for k, p in zip(kinds, tables.POW5))


def _alternatives(spec: ShapeSpec, st: HandState) -> list[tuple[tuple[str | None, ...], frozenset[int] | None]]:
    all_called = st.melds == spec.sets_needed and not st.concealed_kongs
    return _alternatives_for(spec, st.meld_pungs_only, st.meld_groups, all_called)


@lru_cache(maxsize=1024)
def _alternatives_for(spec: ShapeSpec, meld_pungs_only: bool, meld_groups: frozenset[int], all_called: bool = False) -> list[tuple[tuple[str | None, ...], frozenset[int] | None]]:
    """Standard-form alternatives: (table variant per group, groups allowed or None for any)."""
    layout = spec.group_layout()
    honor = "honor_chow" if spec.honor_chows else "honor"

    def variants(chows: bool, pair258: bool) -> tuple[str | None, ...]:
        out: list[str | None] = []
        for g, lay in enumerate(layout):
            if lay is None:
                out.append(None)
            elif lay[0] == "suit":
                out.append(("suit" if chows else "suit_pungs") + ("_258" if pair258 else ""))
            else:
                fam = honor if g == 3 and chows else "honor"
                out.append(fam + ("_nopair" if pair258 else ""))
        return tuple(out)

    alts: list[tuple[tuple[str | None, ...], frozenset[int] | None]] = [(variants(spec.chows, spec.pair_258), None)]
    if spec.pair_258:
        if "all_pungs" in spec.pair_258_exempt and meld_pungs_only:
            alts.append((variants(False, False), None))
        if "fully_melded" in spec.pair_258_exempt and all_called:
            alts.append((variants(spec.chows, False), None))  # 全求人: every set called, any pair
        if "full_flush" in spec.pair_258_exempt:
            for g in range(3):
                if layout[g] is not None and meld_groups <= {g}:
                    alts.append((variants(spec.chows, False), frozenset({g})))
    return alts


def _allowed_group_sets(spec: ShapeSpec, st: HandState, void: int | None) -> list[frozenset[int]]:
    return _allowed_for(spec, st.meld_groups, void)


@lru_cache(maxsize=1024)
def _allowed_for(spec: ShapeSpec, meld_groups: frozenset[int], void: int | None) -> list[frozenset[int]]:
    """Which groups may appear in the final hand, one set per way of meeting 缺一门 / --void."""
    present = frozenset(g for g, lay in enumerate(spec.group_layout()) if lay is not None)
    if void is not None:
        if void in meld_groups:
            return []
        return [present - {void}]
    if spec.max_suits is not None:
        suits = sorted(present & {0, 1, 2})
        drop = len(suits) - spec.max_suits
        if drop <= 0:
            return [present]
        if drop == 1:
            return [present - {g} for g in suits if g not in meld_groups]
        return [frozenset({g, 3} & present) for g in suits if meld_groups <= {g, 3}]
    return [present]


def _gid(variant: str, kinds: tuple[int, ...], counts: list[int]) -> int:
    """Table-style vector id of one group (honor chows are searched, the rest looked up)."""
    if variant.startswith("honor_chow"):
        return groupdp.honor_chow_gid(kinds, tuple(counts[k] for k in kinds), not variant.endswith("_nopair"))
    return tables.vector(variant, group_key(counts, kinds))


def _family(variant: str, n: int) -> tuple[bool, tuple[bool, ...]]:
    """(chows allowed, pair allowed per position) of a table variant."""
    chows = variant in ("suit", "suit_258")
    if variant.endswith("_nopair"):
        return chows, (False,) * n
    if variant.endswith("_258"):
        return chows, tuple(i % 3 == 1 for i in range(n))
    return chows, (True,) * n


def _rich(st: HandState, spec: ShapeSpec) -> groupdp.Rules | None:
    """The restricted-wildcard rules when they can matter for this hand, else None."""
    if not st.wild:
        return None  # with no wildcard, draw-only and wild-only positions change nothing
    if spec.wild_in_pair and not spec.wild_fifth_copy and not any(st.meld_counts):
        return None
    # wmax bounds wild-only copies, which exist only under fifth_copy (keeps the caches shared)
    return groupdp.Rules(not spec.wild_in_pair, not spec.wild_fifth_copy, spec.wild_fifth_copy, st.wild if spec.wild_fifth_copy else 0)


def standard_distance(st: HandState, spec: ShapeSpec, void: int | None = None) -> int:
    sets = spec.sets_needed - st.melds
    if sets < 0:
        return INF
    col = 2 * sets + 1
    layout = spec.group_layout()
    rules = _rich(st, spec)
    best = INF
    needs_split = spec.min_tiles_one_suit is not None or spec.all_three_suits
    for allowed in _allowed_group_sets(spec, st, void):
        for variant, only in _alternatives(spec, st):
            groups = allowed if only is None else allowed & only
            if only is not None and not st.meld_groups <= only:
                continue
            if rules is not None:
                vecs = [_rich_vec(variant[g], layout[g][1], st, sets, rules) if g in groups and variant[g] else EMPTY for g in range(4)]
                best = min(best, _rich_split(vecs, sets, st, spec))
                continue
            gids = [_gid(variant[g], layout[g][1], st.counts) if g in groups and variant[g] else tables.ZERO for g in range(4)]
            if needs_split:
                d = _split_distance(gids, sets, st, spec)
            else:
                acc = gids[0]
                for gid in gids[1:]:
                    acc = tables.combine(acc, gid)
                d = tables.VECTORS[acc][col]
            best = min(best, d)
    return best


def _split_masks(st: HandState, spec: ShapeSpec) -> list[list[object]]:
    """Ways to meet 八枝 / all three suits, each a per-group entry filter (None: any entry).

    八枝 picks the suit that holds the tiles (one way per suit); all three suits asks every
    suit to hold a set, the pair or a meld. Filters take (sets, pairs) of a group's entry."""
    need = spec.min_tiles_one_suit or 0
    three = spec.all_three_suits
    ways: list[list[object]] = []
    for big in range(3) if need else [None]:
        way: list[object] = []
        for g in range(4):
            checks = []
            if g == big:
                checks.append(("tiles", need - st.meld_tiles[g]))
            if three and g < 3 and not st.meld_tiles[g]:
                checks.append(("tiles", 1))
            way.append(tuple(checks) or None)
        ways.append(way)
    return ways


def _entry_ok(checks: object, m: int, p: int) -> bool:
    return checks is None or all(3 * m + 2 * p >= n for _, n in checks)  # type: ignore[attr-defined]


_MASKED: dict[tuple[int, object], int] = {}


def _masked(gid: int, checks: object) -> int:
    if checks is None:
        return gid
    got = _MASKED.get((gid, checks))
    if got is None:
        vec = tables.VECTORS[gid]
        got = _MASKED[(gid, checks)] = tables.intern(tuple(v if _entry_ok(checks, *divmod(i, 2)) else INF for i, v in enumerate(vec)))
    return got


def _split_distance(gids: list[int], sets: int, st: HandState, spec: ShapeSpec) -> int:
    """Distance with constraints on how tiles spread over suits (八枝, all three suits)."""
    best = INF
    for way in _split_masks(st, spec):
        acc = _masked(gids[0], way[0])
        for g in range(1, 4):
            acc = tables.combine(acc, _masked(gids[g], way[g]))
        best = min(best, tables.VECTORS[acc][2 * sets + 1])
    return best


def _rich_vec(variant: str, kinds: tuple[int, ...], st: HandState, sets: int, rules: groupdp.Rules) -> groupdp.Vec:
    melds = tuple(st.meld_counts[k] for k in kinds) if rules.meld_cap and st.meld_counts else (0,) * len(kinds)
    if not rules.draw_pair and not rules.fifth and not any(melds):
        return groupdp.from_table(_gid(variant, kinds, st.counts))
    counts = tuple(st.counts[k] for k in kinds)
    if variant.startswith("honor_chow"):
        return groupdp.honor_chow_vec(kinds, counts, melds, not variant.endswith("_nopair"), sets, rules)
    chows, pair_ok = _family(variant, len(kinds))
    return groupdp.position_vec(counts, melds, chows, pair_ok, sets, rules)


def _rich_split(vecs: list[groupdp.Vec], sets: int, st: HandState, spec: ShapeSpec) -> int:
    """Least max(D, N + w) over ways to form the sets and the pair in the groups, E <= w."""
    w = st.wild
    best = INF
    ways = _split_masks(st, spec) if spec.min_tiles_one_suit is not None or spec.all_three_suits else [[None] * 4]
    for way in ways:
        acc: groupdp.Vec = EMPTY
        for g in range(4):
            v = vecs[g] if way[g] is None else {k: f for k, f in vecs[g].items() if _entry_ok(way[g], *k)}
            acc = groupdp.combine(acc, v, sets, w)
        best = min(best, min((max(d, n + w) for d, n, e in acc.get((sets, 1), ()) if e <= w), default=INF))
    return best


def face_value(st: HandState, spec: ShapeSpec) -> HandState:
    """The state with every wildcard counted as a natural tile of its own kind."""
    counts = list(st.counts)
    stand = dict(spec.stand_ins)
    for k, n in enumerate(st.wild_held):
        if n and k < 34:
            counts[stand.get(k, k)] += n
    return HandState(counts, 0, st.melds, st.meld_groups, st.meld_pungs_only, st.meld_tiles, st.held, st.meld_kinds, st.concealed_kongs, st.meld_counts, [0] * 50)


def form_distances(st: HandState, spec: ShapeSpec, void: int | None = None) -> dict[str, int | None]:
    """Effective distance per form the variant allows (None for forms it does not allow).

    In a form listed in `spec.face_value_forms` wildcards count as their own kind only; the
    distance is then shifted by the wildcards so that shanten = D - wilds - 1 still holds."""
    out: dict[str, int | None] = {}
    allowed_sets = _allowed_group_sets(spec, st, void)
    face = None
    for form in spec.forms:
        s = st
        if form in spec.face_value_forms and st.wild:
            s = face = face or face_value(st, spec)
        if form == "standard":
            d = standard_distance(s, spec, void)
        else:
            fn = OTHER_FORMS[form]
            d = min((fn(s, spec, gs) for gs in allowed_sets), default=INF)
        out[form] = d + (st.wild if s is not st and d < INF else 0)
    return out


def shanten_of_state(st: HandState, spec: ShapeSpec, void: int | None = None) -> tuple[int, dict[str, int | None]]:
    """(shanten, per-form shanten); a form that cannot be completed at all is None."""
    forms: dict[str, int | None] = {}
    for form, d in form_distances(st, spec, void).items():
        forms[form] = None if d is None or d >= INF else d - st.wild - 1
    values = [v for v in forms.values() if v is not None]
    return (min(values) if values else INF), forms


def distance(st: HandState, spec: ShapeSpec, void: int | None = None) -> int:
    """The least distance over the forms. A form with a cheap lower bound (forms.BOUNDS) is
    skipped when the bound cannot beat the forms measured before it (the answer is exact)."""
    plan = _distance_plan(spec)
    if plan is None or st.wild:
        return min((d for d in form_distances(st, spec, void).values() if d is not None), default=INF)
    engine, plain, bounded = plan
    best = INF
    if engine is not None and void is None:
        # The forms the fast path covers (sets and a pair, seven pairs, thirteen orphans) the
        # fast way; the others after them, each only if its bound can beat what they gave.
        best = engine.distance(st.counts, st.melds)
    else:
        for form in plain:
            if form == "standard":
                d = standard_distance(st, spec, void)
            else:
                d = min((OTHER_FORMS[form](st, spec, gs) for gs in _allowed_group_sets(spec, st, void)), default=INF)
            best = min(best, d)
    memo: dict = {}
    for form, bound in bounded:
        if bound(st, memo) >= best:
            continue
        d = min((OTHER_FORMS[form](st, spec, gs) for gs in _allowed_group_sets(spec, st, void)), default=INF)
        if d < best:
            best = d
    return best


def _effective_fast_part(st: HandState, spec: ShapeSpec, copies: list[int], void: int | None) -> list[int] | None:
    """Effective tiles form by form, for a spec whose standard forms the fast path covers: a draw
    lowers each form's distance by one at most, so the kinds that lower the hand's distance are
    those that lower a form already at it. The fast forms' improvers come from the fast path;
    an irregular form is measured only if its bound reaches the hand's distance, and tried on
    each kind only if it is at it. None when the spec is not of that kind."""
    plan = _distance_plan(spec)
    if plan is None or plan[0] is None or void is not None or st.wild or max(copies[:34]) > 4:
        return None
    from mjtools.analysis import fast

    engine, _, bounded = plan
    best = engine.distance(st.counts, st.melds)
    memo: dict = {}
    near = []
    for form, bound in bounded:
        if bound(st, memo) <= best:
            d = min((OTHER_FORMS[form](st, spec, gs) for gs in _allowed_group_sets(spec, st, None)), default=INF)
            if d <= best:
                if d < best:
                    near.clear()
                    best = d
                near.append(form)
    drawable = fast.drawable(engine, st.held, copies)
    mask = 0
    if engine.distance(st.counts, st.melds) == best:
        mask = engine.effective_mask(st.counts, st.melds, drawable)[1]
    for form in near:
        fn = OTHER_FORMS[form]
        for k in fast.kinds_of(drawable & ~mask):
            st.counts[k] += 1
            if min((fn(st, spec, gs) for gs in _allowed_group_sets(spec, st, None)), default=INF) < best:
                mask |= 1 << k
            st.counts[k] -= 1
    return list(fast.kinds_of(mask))


_PLANS: dict[int, tuple[ShapeSpec, tuple | None]] = {}


def _distance_plan(spec: ShapeSpec) -> tuple | None:
    """How `distance` measures a spec: (the fast engine of its standard / seven pairs / thirteen
    orphans forms or None, those forms, the other forms with their bounds); None when no form
    has a bound (every form is measured as form_distances does)."""
    got = _PLANS.get(id(spec))
    if got is None or got[0] is not spec:

        from mjtools.analysis import fast

        plan = None
        if any(f in BOUNDS for f in spec.forms) and not spec.face_value_forms:
            plain = tuple(f for f in spec.forms if f not in BOUNDS)
            bounded = tuple((f, BOUNDS[f]) for f in spec.forms if f in BOUNDS)
            engine = None
            if plain and set(plain) <= fast.FAST_FORMS and not spec.honor_chows:  # (the fast path has no honor chows)
                engine = fast.engine_for(spec.replace(forms=plain))
            plan = (engine, plain, bounded)
        if len(_PLANS) > 256:
            _PLANS.clear()
        got = _PLANS[id(spec)] = (spec, plan)
    return got[1]


# -- effective tiles and discards ---------------------------------------------------------------


def _add(st: HandState, kind: int, spec: ShapeSpec, sign: int) -> None:
    if kind in spec.wild_kinds:
        st.wild += sign
        if st.wild_held:
            st.wild_held[kind] += sign
    else:
        st.counts[dict(spec.stand_ins).get(kind, kind)] += sign
    st.held[kind] += sign


def candidate_kinds(spec: ShapeSpec) -> list[int]:
    """Kinds a player could draw: the represented kinds, wildcard kinds and stand-in tiles."""
    return sorted(set(spec.kinds) | set(spec.wild_kinds) | {p for p, _ in spec.stand_ins})


def effective(st: HandState, spec: ShapeSpec, copies: list[int], void: int | None = None) -> list[int]:
    """Kinds whose draw lowers the distance of a hand of hand-size tiles (none for a hand
    that can never be completed, wildcards or not)."""
    quick = _effective_fast_part(st, spec, copies, void)
    if quick is not None:
        return quick
    d = distance(st, spec, void)
    if d >= INF:
        return []
    base = d - st.wild
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
    """For a hand of hand-size + 1 tiles: every distinct discard with its shanten and effective
    tiles. Wildcards are left out where the variant forbids discarding them."""
    from mjtools.tiles.kinds import kind_str

    rows = []
    stand = dict(spec.stand_ins)
    physical = sorted({k for k in range(50) if st.held[k] and _in_hand(st, k, spec, stand)})
    for k in physical:
        if discardable is not None and not discardable(k):
            continue
        if not spec.wild_discardable and k in spec.wild_kinds:
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
        return st.wild > 0 and (not st.wild_held or st.wild_held[k] > 0)
    return k < 34 and st.counts[stand.get(k, k)] > 0
