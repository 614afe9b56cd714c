"""Waits: which kinds complete a ready hand, and how many copies are still live."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mjtools.analysis.group_waits import _FACTS, _M9, GROUPS, _facts_of, _group_facts, _group_state, _sets_and_pair_packed, _standard_waits
from mjtools.analysis.shanten import HandState, _add, candidate_kinds, distance, state_of
from mjtools.analysis.shapes import ShapeSpec
from mjtools.tiles.hand import concealed_packed, held_counts

if TYPE_CHECKING:
    from mjtools.patterns.ctx import Ctx


def waits_of(st: HandState, spec: ShapeSpec, copies: list[int], void: int | None = None) -> list[int]:
    """Kinds that complete a hand of hand-size tiles (a kind whose copies are all held is out)."""
    out = []
    near = _may_complete(st, spec)
    for k in candidate_kinds(spec):
        if st.held[k] >= copies[k] or (near is not None and not near >> k & 1):
            continue
        _add(st, k, spec, 1)
        if distance(st, spec, void) <= st.wild:
            out.append(k)
        _add(st, k, spec, -1)
    return out


def _may_complete(st: HandState, spec: ShapeSpec) -> int | None:
    """A mask of the kinds whose draw may complete the hand, or None for any kind. In sets +
    a pair and in seven pairs the drawn tile sits in a set or pair with tiles already held:
    the same kind, or (a chow) one within two in its suit, or with honour chows any honour;
    thirteen orphans may wait on any terminal or honour, 将将胡 on any 2, 5 or 8. Wildcards,
    stand-ins and the other forms: any kind (each is then tried, as before)."""
    if spec.wild_kinds or spec.stand_ins or st.wild:
        return None
    mask = 0
    for form in spec.forms:
        if form == "thirteen_orphans":
            mask |= _TH_MASK
        elif form == "all_258":
            mask |= _MASK_258
        elif form not in ("standard", "seven_pairs"):
            return None
    if spec.honor_chows:
        mask |= _HONOR_MASK
    for k, c in enumerate(st.counts):
        if c:
            mask |= _NEAR[k]
    return mask


def _near_mask(k: int) -> int:
    if k >= 27:
        return 1 << k
    lo = k - k % 9
    return sum(1 << j for j in range(max(lo, k - 2), min(lo + 9, k + 3)))


_NEAR = tuple(_near_mask(k) for k in range(34))
_TH_MASK = sum(1 << k for k in (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33))
_MASK_258 = sum(1 << k for k in range(27) if k % 9 in (1, 4, 7))
_HONOR_MASK = sum(1 << k for k in range(27, 34))


def waiting_kinds_before_win(ctx: Ctx) -> list[int]:
    """The waits the winner had before the winning tile (for 独听)."""
    from mjtools.analysis.shanten import state_of

    if ctx.spec is None or ctx.hand.last is None:
        return []
    before = ctx.hand.without_last()
    st = state_of(before, ctx.spec)
    return waits_of(st, ctx.spec, [4] * 50)


_SIMPLE: dict[int, tuple[ShapeSpec, bool]] = {}


def simple_spec(spec: ShapeSpec) -> bool:
    """Specs `complete()` decides: no wildcards, no pair or suit-count conditions, standard and
    seven pairs only (the distance tables handle everything else). Kept by identity: 独听 asks
    once per reading, and hashing a spec (every field) costs more than the answer."""
    got = _SIMPLE.get(id(spec))
    if got is not None and got[0] is spec:
        return got[1]
    simple = (
        not spec.wild_kinds
        and not spec.pair_258
        and spec.min_tiles_one_suit is None
        and not spec.all_three_suits
        and set(spec.forms) <= {"standard", "seven_pairs"}
    )
    if len(_SIMPLE) > 256:  # specs come from rule files and wildcard sets: a few per process
        _SIMPLE.clear()
    _SIMPLE[id(spec)] = (spec, simple)  # holds the spec, so its id is not reused while kept
    return simple


def complete(counts: list[int], melds: int, spec: ShapeSpec, meld_suits: frozenset[int] = frozenset()) -> bool:
    """Whether concealed `counts` (34 kinds) with `melds` sets laid down form a winning shape
    under a simple spec. Per-group answers are cached, so a check costs a few lookups."""
    if spec.max_suits is not None:
        suits = {g for g in range(3) if any(counts[g * 9 : g * 9 + 9])} | meld_suits
        if len(suits) > spec.max_suits:
            return False
    if "standard" in spec.forms:
        states = [_group_state(tuple(counts[a:b]), g < 3) for g, (a, b) in enumerate(GROUPS)]
        if -1 not in states and states.count(2) == 1:
            return True
    if "seven_pairs" in spec.forms and not melds and sum(counts) == 14:
        allowed = (0, 2, 4) if spec.quads_as_pairs else (0, 2)
        return all(n in allowed for n in counts)
    return False


def _concealed_counts(ctx: Ctx) -> list[int]:
    """Copies of each of the 34 kinds among the concealed tiles (the winning tile left out)."""
    hand = ctx.hand
    got = held_counts(hand)
    if got is not None and hand.last is not None and hand.last.kind < 34:
        got[hand.last.kind] -= 1
        return got
    counts = [0] * 50  # every kind, so that no tile needs a range test (only 0-33 are read)
    for t in ctx.hand.concealed:
        counts[t.kind] += 1
    del counts[34:]
    return counts


def _other_wait_simple(ctx: Ctx, spec: ShapeSpec, win: int, held: tuple[int, ...], cap: int = 4, counts: list[int] | None = None) -> bool:
    """other_wait_exists for a simple spec. A drawn tile changes one group, so a group is worth
    trying only if every other group already splits into sets (with one pair at most); then only
    kinds of that group next to a held tile need a look."""
    if counts is None:
        counts = _concealed_counts(ctx)
    melds = len(ctx.hand.melds)
    # The suits held matter only under a suit limit (缺一门): most specs skip the work.
    suits_held = set() if spec.max_suits is None else {k // 9 for m in ctx.hand.melds for k in m.kinds if k < 27} | {g for g in range(3) if any(counts[g * 9 : g * 9 + 9])}
    # The counts as bytes (a count is at most 4): slicing, hashing and the odd-count test run in C.
    b = bytes(counts[:34])
    if not melds and "seven_pairs" in spec.forms and sum(counts) == 13:
        odd = b.translate(_ODD)
        if odd.count(1) == 1:
            single = odd.index(1)
            if single != win and held[single] < cap and (spec.quads_as_pairs or counts[single] == 1):
                g = single // 9
                if spec.max_suits is None or single >= 27 or len(suits_held | {g}) <= spec.max_suits:
                    return True
    if "standard" not in spec.forms:
        return False
    # One cached look-up per group: its state and the offsets that mend it either way.
    facts = (_group_facts(b[0:9], True), _group_facts(b[9:18], True), _group_facts(b[18:27], True), _group_facts(b[27:34], False))
    bad = pairs = 0
    for f in facts:
        if f[0] == -1:
            bad += 1
        elif f[0] == 2:
            pairs += 1
    if bad > 1:
        return False  # the drawn tile changes one group: two that do not split cannot both mend
    kinds = spec.kinds
    for g, (state, mend_sets, mend_pair) in enumerate(facts):
        # The drawn tile goes to group g; every other group must already split, one pair at most.
        other_pairs = pairs - (state == 2)
        if bad - (state == -1) or other_pairs > 1:
            continue
        if spec.max_suits is not None and g < 3 and len(suits_held | {g}) > spec.max_suits:
            continue
        a = 9 * g
        for off in mend_sets if other_pairs else mend_pair:
            k = a + off
            if k != win and held[k] < cap and k in kinds:
                return True
    return False


_ODD = bytes(n & 1 for n in range(256))  # bytes.translate table: 1 where a count is odd


def other_wait_exists(ctx: Ctx, live: bool = True) -> bool:
    """Whether a kind other than the winning one would also have completed the hand (独听 is
    the negation). Stops at the first such kind; without wildcards or irregular forms only kinds
    next to a held tile can complete a standard or seven-pairs shape, nearest the winning tile
    first, so most hands are decided after a draw or two. `live`: a kind whose four copies the
    hand already holds is no wait (else it counts as one, as a wait on the shape)."""
    spec = ctx.spec
    hand = ctx.hand
    last = hand.last
    if spec is None or last is None:
        return False
    win = last.kind
    held = hand.counts
    cap = 4 if live else 99
    b = ctx.win_block
    # The reading itself often shows a second wait: the other end of a two-sided chow, or the
    # other pair of a two-pair (shanpon) wait, swapped in with everything else unchanged.
    # (Block fields are read directly: this runs for every reading of a 独听 ruleset, and the
    # `wild` / `first` properties cost a call each.)
    if b is not None and not (b.wilds or b.free):
        wait = ctx.d.wait
        if wait == "two_sided":
            first = b.kinds[0]
            other = first - 1 if win == first + 2 else first + 3
            if held[other] < cap:
                return True
        elif wait == "pung":
            pair = ctx.pair
            if pair is not None and not (pair.wilds or pair.free) and held[pair.kinds[0]] < cap:
                return True
    # (the last spec's plan, else _table_plan's memo read here: no call, no id())
    last_plan = _LAST_PLAN
    if last_plan[0] is spec:
        plan = last_plan[1]
    else:
        got = _PLANS.get(id(spec))
        plan = got[1] if got is not None and got[0] is spec else _table_plan(spec)
        last_plan[0], last_plan[1] = spec, plan  # (holds the spec, as _PLANS does)
    if plan is not None:
        return _other_wait_tables(ctx, plan, win, held, cap, ctx.d.form)
    return _other_wait_search(ctx, spec, win, held, cap)


def _other_wait_search(ctx: Ctx, spec: ShapeSpec, win: int, held: tuple[int, ...], cap: int) -> bool:
    """other_wait_exists past the reading's own second wait, group by group and form by form
    (every spec; `_other_wait_tables` answers the common ones at once)."""
    if simple_spec(spec):
        return _other_wait_simple(ctx, spec, win, held, cap)
    plain = _plain_part(spec)
    if plain is not None:
        # The standard form and seven pairs the quick way; the irregular forms only if the hand
        # before the win was ready in them (most hands are far from thirteen orphans).
        counts = _concealed_counts(ctx)
        if _other_wait_simple(ctx, plain[0], win, held, cap, counts):
            return True
        return _other_wait_general(ctx, plain[1], win, cap, ready_first=True, counts=counts)
    return _other_wait_general(ctx, spec, win, cap)


def _other_wait_general(ctx: Ctx, spec: ShapeSpec, win: int, cap: int, ready_first: bool = False, counts: list[int] | None = None) -> bool:
    if ready_first and not spec.wild_kinds and not spec.stand_ins:
        # The quick test on the concealed counts first: building the state costs more.
        if counts is None:
            counts = _concealed_counts(ctx)
        forms = _may_be_ready(_Counts(counts, len(ctx.hand.melds)), spec.forms)
        if not forms:
            return False
        held = ctx.hand.counts
        for form, waits_of_form in _DIRECT.items():
            if form in forms:
                if any(k != win and held[k] < cap and k in spec.kinds for k in waits_of_form(counts, len(ctx.hand.melds))):
                    return True
                forms = tuple(f for f in forms if f != form)
        if not forms:
            return False
        spec = _only_forms(spec, forms)
    st = state_of(ctx.hand.without_last(), spec)
    if ready_first and distance(st, spec, None) > st.wild + 1:
        return False
    # The distance tables hold at most four of a kind: here a kind held four times is never
    # tried (none of the irregular forms could use it anyway).
    cap = min(cap, 4)
    for k in candidate_kinds(spec):
        if k == win or st.held[k] >= cap:
            continue
        _add(st, k, spec, 1)
        done = distance(st, spec, None) <= st.wild
        _add(st, k, spec, -1)
        if done:
            return True
    return False


def _knitted_straight_waits(counts: list[int], melds: int) -> set[int]:
    """The kinds that complete 组合龙 + a set + a pair from natural concealed counts (`melds`
    laid down): a straight's one missing kind where the rest is the set and the pair, or, the
    straight whole, the rest's waits (`_standard_waits`, on the counts as one integer)."""
    if not _KNITTED:
        _load_knitted()
    out: set[int] = set()
    if melds > 1:
        return out
    c = int.from_bytes(bytes(counts[:34]), "little")
    held = _KNITTED[1](c)
    for mask in _KNITTED[0]:
        have = held & mask  # (one copy of each straight kind held: taken out by a subtraction)
        missing = mask ^ have
        if missing & (missing - 1):
            continue  # two kinds of the straight missing or more
        rest = c - have
        if missing:
            if _sets_and_pair_packed(rest):
                out.add(missing.bit_length() >> 3)
            continue
        waits = _standard_waits(rest)
        while waits:
            low = waits & -waits
            out.add(low.bit_length() - 1)
            waits ^= low
    return out


def _knitted_waits(counts: list[int], melds: int) -> set[int]:
    """The kinds that complete 全不靠 (fourteen different tiles of one knitted layout and the
    honors) from thirteen different ones."""
    from mjtools.analysis.irregular import KNITTED_STRAIGHTS

    held = {k for k, n in enumerate(counts) if n}
    if melds or len(held) != 13 or any(n > 1 for n in counts):
        return set()
    out: set[int] = set()
    for straight in KNITTED_STRAIGHTS:
        allowed = set(straight) | set(range(27, 34))
        if held <= allowed:
            out |= allowed - held
    return out


def _orphans_waits(counts: list[int], melds: int) -> set[int]:
    """The kinds that complete thirteen orphans."""
    if melds or any(counts[k] for k in range(34) if k not in _ORPHANS):
        return set()
    kinds = sum(1 for k in _ORPHANS if counts[k])
    doubles = sum(1 for k in _ORPHANS if counts[k] == 2)
    if kinds == 13 and not doubles:
        return set(_ORPHANS)
    if kinds == 12 and doubles == 1 and max(counts) == 2:
        return {k for k in _ORPHANS if not counts[k]}
    return set()


_ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


_KNITTED: list = []  # irregular.KNITTED_MASKS, held_of_packed and held_number_kinds, on first use


def _load_knitted() -> None:
    from mjtools.analysis.irregular import KNITTED_MASKS, held_number_kinds, held_of_packed

    _KNITTED.extend((KNITTED_MASKS, held_of_packed, held_number_kinds))


class _Counts:
    """The two fields of a HandState that `_may_be_ready` reads."""

    __slots__ = ("counts", "melds", "wild")

    def __init__(self, counts: list[int], melds: int):
        self.counts, self.melds, self.wild = counts, melds, 0


_AT_MOST_ONE_MELD = frozenset(("thirteen_orphans", "knitted", "thirteen_unrelated", "knitted_straight"))  # the forms below that allow a meld at most


def _may_be_ready(st: HandState | _Counts, forms: tuple[str, ...]) -> tuple[str, ...]:
    """The irregular forms a hand of hand-size tiles may be ready in, by a quick necessary
    condition (most hands are nowhere near any of them)."""
    if st.wild:
        return forms
    if st.melds > 1 and _AT_MOST_ONE_MELD.issuperset(forms):
        return ()  # (most hands: two melds rule out every irregular form at once)
    if not _KNITTED:  # (imported once: an import statement costs microseconds per call)
        _load_knitted()
    c = st.counts
    melds = st.melds
    if 34 - c.count(0) < 8 and _AT_MOST_ONE_MELD.issuperset(forms):
        return ()  # (each of them holds 8 kinds or more when ready: 8 of a knitted straight's 9)
    out = []
    for form in forms:
        # The meld test first: most hands with a meld or two are decided without a count.
        if form == "thirteen_orphans":
            ok = not melds and 34 - c.count(0) >= 12 and sum(1 for k in _ORPHANS if c[k]) >= 12
        elif form in ("knitted", "thirteen_unrelated"):
            ok = not melds and 34 - c.count(0) >= 13 and max(c) <= 1  # (list.count runs in C)
        elif form == "knitted_straight":
            ok = False
            if melds <= 1:
                held = _KNITTED[2](c)
                if held.bit_count() >= 8:  # 8 of some straight's 9 kinds held
                    for m in _KNITTED[0]:
                        if (held & m).bit_count() >= 8:
                            ok = True
                            break
        else:
            ok = True
        if ok:
            out.append(form)
    return tuple(out)


_ONLY: dict[tuple[int, tuple[str, ...]], tuple[ShapeSpec, ShapeSpec]] = {}


def _only_forms(spec: ShapeSpec, forms: tuple[str, ...]) -> ShapeSpec:
    got = _ONLY.get((id(spec), forms))
    if got is None or got[0] is not spec:

        if len(_ONLY) > 256:
            _ONLY.clear()
        got = _ONLY[(id(spec), forms)] = (spec, spec.replace(forms=forms))
    return got[1]


_PLAIN: dict[int, tuple[ShapeSpec, tuple[ShapeSpec, ShapeSpec] | None]] = {}
_QUICK_FORMS = ("standard", "seven_pairs")


def _plain_part(spec: ShapeSpec) -> tuple[ShapeSpec, ShapeSpec] | None:
    """A spec that is simple but for irregular forms (thirteen orphans, 全不靠, 组合龙 ...), split
    into (its standard and seven-pairs part, its other forms); None for any other spec."""
    got = _PLAIN.get(id(spec))
    if got is not None and got[0] is spec:
        return got[1]

    quick = tuple(f for f in spec.forms if f in _QUICK_FORMS)
    rest = tuple(f for f in spec.forms if f not in _QUICK_FORMS)
    split = None
    if quick and rest:
        a, b = spec.replace(forms=quick), spec.replace(forms=rest)
        if simple_spec(a):
            split = (a, b)
    if len(_PLAIN) > 256:
        _PLAIN.clear()
    _PLAIN[id(spec)] = (spec, split)
    return split


# Irregular forms whose waits are worked out directly (natural tiles only), not by trying
# every kind against the distance of the form.
_DIRECT = {"knitted_straight": _knitted_straight_waits, "knitted": _knitted_waits, "thirteen_orphans": _orphans_waits}


# -- the same question from per-group tables (the specs most rule files use) ------------------

_PLANS: dict[int, tuple[ShapeSpec, tuple | None]] = {}
_LAST_PLAN: list = [None, None]  # [spec, plan] of the last other_wait_exists call
_ALL_KINDS, _KINDS34 = (1 << 34) - 1, (1 << 8 * 34) - 1  # every kind; the bytes of every kind
_LOW_BITS = sum(1 << 8 * k for k in range(34))  # the low bit of each kind's byte
_ALL_BUT = tuple(_ALL_KINDS & ~(1 << k) for k in range(64))  # every kind but k (a kind's mask cleared)


def _table_plan(spec: ShapeSpec) -> tuple | None:
    """(kinds mask, standard?, seven pairs?, quads as pairs?, the irregular part or None) for a
    spec whose waits are the union of per-group table look-ups, seven pairs' odd kind and the
    direct irregular forms; None for the rest (wildcards, suit limits, pair conditions). Kept
    by identity, like `simple_spec`."""
    got = _PLANS.get(id(spec))
    if got is not None and got[0] is spec:
        return got[1]
    plan = None
    if simple_spec(spec) and spec.max_suits is None:
        plan = (_mask(spec.kinds), "standard" in spec.forms, "seven_pairs" in spec.forms, spec.quads_as_pairs, None, _by_group(spec))
    else:
        plain = _plain_part(spec)
        rest = plain[1] if plain is not None else None
        if plain is not None and plain[0].max_suits is None and not rest.wild_kinds and not rest.stand_ins and _AT_MOST_ONE_MELD.issuperset(rest.forms):
            quick = plain[0]
            plan = (_mask(quick.kinds), "standard" in quick.forms, "seven_pairs" in quick.forms, quick.quads_as_pairs, rest, _by_group(quick))
    if len(_PLANS) > 256:
        _PLANS.clear()
    _PLANS[id(spec)] = (spec, plan)
    return plan


def _mask(kinds) -> int:
    return sum(1 << k for k in kinds if k < 34)


def _by_group(spec: ShapeSpec) -> bool:
    """Whether a standard reading of the natural tiles shows that the concealed ones split
    group by group as the tables have it (`_other_wait_tables`' one look-up): the standard
    form with the tables' sets (chows in the suits only, no stand-in or wildcard)."""
    return "standard" in spec.forms and spec.chows and not spec.honor_chows and not spec.stand_ins and not spec.wild_kinds


# A kind's group (m p s z) and the shift of its counts in the packed counts (a byte per kind).
_GROUP_OF = tuple(min(k // 9, 3) for k in range(34))
_GROUP_SHIFT = (0, 72, 144, 216)
_GROUP_MASK = (_M9, _M9, _M9, (1 << 56) - 1)  # a suit's nine bytes, the honors' seven
_GROUP_GET = tuple(table.get for table in _FACTS)  # (bound once: the tables are cleared, never replaced)


def _other_wait_tables(ctx: Ctx, plan: tuple, win: int, held: tuple[int, ...], cap: int, form: str | None = None) -> bool:
    """other_wait_exists from the waits of the concealed tiles as a mask: four group look-ups
    for the standard form (one where `form`, the form of a reading of the tiles, says the
    others split), the odd kind for seven pairs; the irregular forms only where the hand could
    be ready in one (at most one meld, eight kinds held)."""
    kinds, standard, seven, quads, rest, by_group = plan
    hand = ctx.hand
    melds = hand.melds
    c = hand._cpacked  # (the parser's, else counted: concealed_packed; the winning tile is not among them)
    if c < 0:
        c = concealed_packed(hand)
    # (seven pairs' single is held: no kinds test, as in the search)
    if by_group and form == "standard":
        # A standard reading splits the concealed tiles and the winning one into sets and one
        # pair group by group: every group but the winning tile's, G, splits as it is. Where G
        # without the winning tile does not split (code 1), the drawn tile must go to G: it
        # mends G into sets where G held n = 2 (mod 3) tiles (the pair elsewhere: codes 1 +
        # 16), into sets and a pair where n = 1 (codes 1 + 0); the other mend is empty (a
        # tile more makes n + 1 tiles), so both masks or-ed are `_standard_waits`' answer.
        # Where G splits (sets and a pair), the reading's pair group may mend too: four look-ups.
        # (the group's bytes cut from the counts as they are: the bonus kinds' bytes lie
        # past the honors' seven)
        g = _GROUP_OF[win]
        f = _GROUP_GET[g](x := c >> _GROUP_SHIFT[g] & _GROUP_MASK[g]) or _facts_of(g, x)
        waits = (f[1] | f[2] if f[0] == 1 else _standard_waits(c & _KINDS34)) & kinds
    else:
        c &= _KINDS34
        waits = _standard_waits(c) & kinds if standard else 0
    if seven and not melds:
        odd = c & _LOW_BITS
        if odd and not odd & (odd - 1):  # one kind odd; then the tile count (rarely asked)
            single = odd.bit_length() >> 3
            if (quads or c >> 8 * single & 0xFF == 1) and sum((c & _KINDS34).to_bytes(34, "little")) == 13:
                waits |= 1 << single
    waits &= _ALL_BUT[win]
    while waits:
        low = waits & -waits
        if held[low.bit_length() - 1] < cap:
            return True
        waits ^= low
    if rest is None or len(melds) > 1:
        return False
    if by_group and form == "standard":
        # Each irregular form here (thirteen orphans, 全不靠, 十三烂, 组合龙) needs eight kinds
        # or more among the concealed tiles of which no set or pair holds two (orphans; kinds
        # 3 apart in a suit, or honors: a chow's kinds lie within 2, a pung's are one); the
        # standard reading puts every concealed tile in one of its five blocks at most.
        return False
    # The irregular forms only where the hand may be ready in one (_may_be_ready's tests on
    # the integer): 12 kinds held without a meld, or 8 of a knitted straight's 9 (组合龙).
    b = c.to_bytes(34, "little")
    distinct = 34 - b.count(0)
    if distinct < 8:
        return False
    if melds or distinct < 12:
        if not _KNITTED:
            _load_knitted()
        held = _KNITTED[1](c)
        if held.bit_count() < 8:
            return False
        for m in _KNITTED[0]:
            if (held & m).bit_count() >= 8:
                break
        else:
            return False
    return _other_wait_general(ctx, rest, win, cap, ready_first=True, counts=list(b))
