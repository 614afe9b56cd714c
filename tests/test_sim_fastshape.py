"""The simulator's incremental analysis agrees with shanten.py / waits.py on random hands."""

import os

import pytest

from mjtools.analysis.shanten import discard_table, effective, shanten_of_state, state_of
from mjtools.analysis.shapes import ShapeSpec
from mjtools.analysis.waits import waits_of
from mjtools.sim.fastshape import Analyzer, melds_info
from mjtools.tiles.hand import Hand
from mjtools.tiles.kinds import Tile, kind_str

SPECS = {
    "riichi": ShapeSpec(),
    "sanma": ShapeSpec(kinds=frozenset(set(range(34)) - set(range(1, 8)))),
    "missing_suit": ShapeSpec(kinds=frozenset(range(27)), forms=("standard", "seven_pairs"), quads_as_pairs=True, max_suits=2),
    "pair258": ShapeSpec(forms=("standard",), pair_258=True, pair_258_exempt=("all_pungs", "full_flush")),
    "sixteen": ShapeSpec(hand_size=16, forms=("standard",)),
    "wild": ShapeSpec(forms=("standard", "seven_pairs"), wild_kinds=frozenset({31})),
    "eight": ShapeSpec(forms=("standard",), min_tiles_one_suit=8),
    "unrelated": ShapeSpec(forms=("standard", "seven_pairs", "thirteen_unrelated")),
    "knitted": ShapeSpec(forms=("standard", "seven_pairs", "knitted")),
    "pungs": ShapeSpec(forms=("standard",), chows=False),
    "pungs_seven": ShapeSpec(forms=("standard", "seven_pairs"), chows=False),
    "mcr_forms": ShapeSpec(forms=("standard", "seven_pairs", "thirteen_orphans", "knitted", "knitted_straight")),
    "all258": ShapeSpec(forms=("standard", "seven_pairs", "all_258")),
}


def random_hand(rng, spec, size, melds=0):
    pool = [k for k in sorted(spec.kinds | spec.wild_kinds) for _ in range(4)]
    rng.shuffle(pool)
    meld_list = []
    used = set()
    for _ in range(melds):
        k = rng.choice([k for k in sorted(spec.kinds) if k not in used and pool.count(k) >= 3])
        used.add(k)
        for _ in range(3):
            pool.remove(k)
        meld_list.append(k)
    tiles = sorted(pool[: size - 3 * melds])
    from mjtools.tiles.hand import Meld

    ms = tuple(Meld((Tile(k),) * 3, "pung", source="S") for k in meld_list)
    return Hand(tuple(Tile(k) for k in tiles), ms)


@pytest.mark.parametrize("name", sorted(SPECS))
def test_agrees_with_shanten_py(name, rng):
    spec = SPECS[name]
    copies = [4 if k in spec.kinds or k in spec.wild_kinds else 0 for k in range(50)]
    void_choices = [None, 0] if spec.max_suits else [None]
    for i in range(int(os.environ.get("FAST_N", "25"))):
        void = void_choices[i % len(void_choices)]
        an = Analyzer(spec, copies, void)
        melds = rng.choice([0, 0, 1, 2])
        hand = random_hand(rng, spec, spec.hand_size, melds)
        st = state_of(hand, spec)
        counts, wild = an.natural(hand.concealed_counts())
        mi = melds_info([m.kinds for m in hand.melds])
        held = list(hand.counts)
        s, _ = shanten_of_state(st, spec, void)
        sh, eff = an.effective(counts, wild, mi, held)
        assert sh == s, (name, str(hand))
        assert eff == effective(st, spec, copies, void), (name, str(hand))
        assert an.waits(counts, wild, mi, held) == waits_of(st, spec, copies, void), (name, str(hand))
        # a hand-size + 1 hand: every discard row
        drawn = random_hand(rng, spec, spec.hand_size + 1, melds)
        st2 = state_of(drawn, spec)
        want = discard_table(st2, spec, copies, [4] * 50, void)
        rows = an.discard_rows(list(drawn.concealed_counts()), melds_info([m.kinds for m in drawn.melds]), list(drawn.counts), [4] * 50)
        got = [{"tile": kind_str(r.kind), "shanten": r.shanten, "effective": [kind_str(e) for e in r.effective], "effective_count": r.live} for r in rows]
        assert got == want, (name, str(drawn))
        # and `discard_shanten` of every discard, as the rows have it
        kinds = [k for k in range(50) if drawn.concealed_counts()[k]]
        sh = an.discard_shanten(list(drawn.concealed_counts()), melds_info([m.kinds for m in drawn.melds]), kinds)
        assert sh == {r.kind: r.shanten for r in rows}, (name, str(drawn))


def knitted_hand(rng, size, melds):
    """A hand holding six to nine kinds of one knitted straight (组合龙), the rest at random,
    with `melds` pungs: random hands seldom come near the form."""
    from itertools import permutations

    from mjtools.tiles.hand import Meld

    order = rng.choice(list(permutations(range(3))))
    straight = [9 * g + order[g] + 3 * j for g in range(3) for j in range(3)]
    keep = rng.sample(straight, min(size - 3 * melds, rng.randint(6, 9)))
    pool = [k for k in range(34) for _ in range(4)]
    for k in keep:
        pool.remove(k)
    rng.shuffle(pool)
    laid: list[int] = []
    for _ in range(melds):
        k = rng.choice([k for k in range(34) if pool.count(k) >= 3 and k not in laid])
        for _ in range(3):
            pool.remove(k)
        laid.append(k)
    tiles = sorted(keep + pool[: size - 3 * melds - len(keep)])
    return Hand(tuple(Tile(k) for k in tiles), tuple(Meld((Tile(k),) * 3, "pung", source="S") for k in laid))


def test_knitted_straight_hands(rng, monkeypatch):
    """组合龙 (a knitted straight, a set and a pair; MCR) on hands near it, with no meld, one
    (the set) or two (out of the form): shanten, effective tiles, waits and every discard row
    as shanten.py / waits.py, both the 14-tile rows and the least rows; the discard rows
    merge 组合龙 themselves (`fastrows.forms_above` names the discards it reaches)."""
    from mjtools.sim import fastrows

    merged = []
    real = fastrows.forms_above

    def spy(*args):
        got = real(*args)
        merged.append(bool(got))
        return got

    monkeypatch.setattr(fastrows, "forms_above", spy)
    spec = SPECS["mcr_forms"]
    copies = [4] * 34 + [0] * 16
    an = Analyzer(spec, copies)
    for i in range(int(os.environ.get("FAST_N", "25")) * 4):
        melds = (0, 1, 1, 2)[i % 4]
        hand = knitted_hand(rng, 13, melds)
        st = state_of(hand, spec)
        counts, wild = an.natural(hand.concealed_counts())
        mi = melds_info([m.kinds for m in hand.melds])
        held = list(hand.counts)
        sh, eff = an.effective(counts, wild, mi, held)
        assert sh == shanten_of_state(st, spec)[0], str(hand)
        assert eff == effective(st, spec, copies), str(hand)
        assert an.waits(counts, wild, mi, held) == waits_of(st, spec, copies), str(hand)
        drawn = knitted_hand(rng, 14, melds)
        unseen = [rng.randint(0, 4) for _ in range(50)]
        want = discard_table(state_of(drawn, spec), spec, copies, unseen)
        mi = melds_info([m.kinds for m in drawn.melds])
        for best in (False, True):
            rows = an.discard_rows(list(drawn.concealed_counts()), mi, list(drawn.counts), unseen, only_best=best)
            got = [{"tile": kind_str(r.kind), "shanten": r.shanten, "effective": [kind_str(e) for e in r.effective], "effective_count": r.live} for r in rows]
            least = want[0]["shanten"]
            assert got == (want if not best else [w for w in want if w["shanten"] == least]), str(drawn)
    assert any(merged)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SPECS))
def test_agrees_with_shanten_py_many(name, rng, monkeypatch):
    monkeypatch.setenv("FAST_N", "120")
    test_agrees_with_shanten_py(name, rng)


@pytest.mark.parametrize("spec", [ShapeSpec(forms=("standard",), chows=False), ShapeSpec(forms=("standard", "seven_pairs"), chows=False), ShapeSpec(hand_size=16, forms=("standard",), chows=False)])
def test_pungs_rows_by_profile(spec, rng):
    """Pungs-only shapes: the discard rows read from the hand's profile of counts
    (`fastplanrows.rows_symmetric`) are those of the per-group tables, on hands rich in pairs and
    pungs, with kinds all held elsewhere and uneven live counts."""
    from mjtools.sim import fastplanrows, fastrows
    from mjtools.sim.fastshape import NO_MELDS

    an = Analyzer(spec, [4] * 34 + [0] * 16)
    assert fastplanrows.symmetric(an)
    size = spec.hand_size + 1
    for _ in range(int(os.environ.get("FAST_N", "25")) * 8):
        some = rng.sample(range(34), rng.randint(4, 34))
        pool = [k for k in some for _ in range(4)]
        rng.shuffle(pool)
        counts = [0] * 50
        for k in pool[:size]:
            counts[k] += 1
        held = [4 if counts[k] < 4 and rng.random() < 0.05 else counts[k] for k in range(50)]
        unseen = [rng.randint(0, 4) for _ in range(50)]
        kinds = [k for k in range(34) if counts[k] and rng.random() < 0.9] or [k for k in range(34) if counts[k]]
        for best in (True, False):
            got = fastplanrows.rows_symmetric(an, counts, held, unseen, kinds, best)
            want = fastrows.rows_one_reading(an, counts, NO_MELDS, held, unseen, kinds, best)
            assert got is not None and [(r.kind, r.shanten, r.effective, r.live) for r in got] == [(r.kind, r.shanten, r.effective, r.live) for r in want], counts


@pytest.mark.parametrize("name", ["wild", "riichi", "knitted"])
def test_least_discards(name, rng):
    """`fastrows.least_discards` (bounds from the tables first when wildcards with melds send
    each discard to the general engine) gives `discard_shanten`'s least and where it is
    reached, on hand-size + 1 hands with melds and wildcards."""
    from mjtools.analysis.tables import INF
    from mjtools.sim import fastrows

    spec = SPECS[name]
    copies = [4 if k in spec.kinds or k in spec.wild_kinds else 0 for k in range(50)]
    an = Analyzer(spec, copies)
    rich = 0
    for _ in range(int(os.environ.get("FAST_N", "25")) * 4):
        hand = random_hand(rng, spec, spec.hand_size + 1, rng.choice([0, 1, 1, 2, 3]))
        physical = list(hand.concealed_counts())
        mi = melds_info([m.kinds for m in hand.melds])
        kinds = [k for k in range(50) if physical[k]]
        sh = an.discard_shanten(physical, mi, kinds)
        least = min(sh.values(), default=INF)
        assert fastrows.least_discards(an, physical, mi, kinds) == (least, [k for k in kinds if sh[k] == least]), str(hand)
        rich += an.rich(an.natural(physical)[1], mi)
    assert rich or name != "wild"  # (the bounded path was taken)


def test_knitted_distance_table(rng):
    """全不靠's distance (read from per-mask tables) against the definition: fourteen of the
    sixteen kinds of some knitted set (147 / 258 / 369, one per suit) and the honors."""
    from itertools import permutations

    from mjtools.analysis.forms import knitted_distance
    from mjtools.analysis.state import HandState

    spec = SPECS["knitted"]
    for _ in range(int(os.environ.get("FAST_N", "25")) * 40):
        counts = [0] * 34
        for k in rng.sample([k for k in range(34) for _ in range(4)], 14):
            counts[k] += 1
        st = HandState(counts, 0, 0, frozenset(), True, (0, 0, 0, 0), counts + [0] * 16)
        best = 0
        for perm in permutations(range(3)):
            target = {9 * suit + start + 3 * j for suit, start in enumerate(perm) for j in range(3)} | set(range(27, 34))
            best = max(best, min(14, sum(1 for k in target if counts[k])))
        assert knitted_distance(st, spec, frozenset({0, 1, 2, 3})) == 14 - best, counts


@pytest.mark.parametrize("variant", ["suit", "honor"])
def test_capped_gain_lowers_exactly(variant):
    """`capped_gain`: the capped search's vector, and per entry the kinds one more copy of
    lowers it by one (every other kind leaves it), against the search run again."""
    import random

    from mjtools.analysis import ruletables
    from mjtools.analysis.shanten import _family
    from mjtools.analysis.tables import INF, WIDTH

    rng = random.Random(12)
    chows, pair_ok = _family(variant, 9 if variant == "suit" else 7)

    def search(counts, caps, top):
        return ruletables._capped_vec(counts, caps, chows, pair_ok, top) if chows else ruletables._capped_pungs(counts, caps, pair_ok)

    for _ in range(300):
        counts = tuple(rng.choice([0, 0, 0, 1, 1, 2, 3, 4]) for _ in pair_ok)
        caps = tuple(max(c, 4 - rng.choice([0, 0, 0, 1, 3])) for c in counts)
        top = rng.randint(0, 5)
        vec, masks = ruletables._gain_vec(counts, caps, chows, pair_ok, top)
        assert list(vec) == list(search(counts, caps, top))
        for i, c in enumerate(counts):
            if c < caps[i]:
                after = search(counts[:i] + (c + 1,) + counts[i + 1 :], caps, top)
                for e in range(WIDTH):
                    if vec[e] < INF:
                        assert after[e] == vec[e] - (masks[e] >> i & 1), (counts, caps, top, i, e)


def test_positions_lowered_exactly(rng):
    """`_positions` reads the draws that lower a group's distance off the vector entries each
    draw lowers by one (`_lowered`): the same masks as weighing every draw's vector whole, on
    every pattern and rest the discard rows of random hands meet (the memo is shared by all
    analyses, so every spec's entries are checked)."""
    from operator import add

    from mjtools.analysis.tables import INF, VECTORS
    from mjtools.sim import fastshape

    for name in ("riichi", "missing_suit", "pair258", "sixteen", "wild", "pungs_seven"):
        spec = SPECS[name]
        copies = [4 if k in spec.kinds or k in spec.wild_kinds else 0 for k in range(50)]
        an = Analyzer(spec, copies)
        for _ in range(int(os.environ.get("FAST_N", "25"))):
            melds = rng.choice([0, 0, 1])
            drawn = random_hand(rng, spec, spec.hand_size + 1, melds)
            an.discard_rows(list(drawn.concealed_counts()), melds_info([m.kinds for m in drawn.melds]), list(drawn.counts), [4] * 50)
    assert any(low is not None for low in fastshape._SIG_LOW)
    for mk, gain in fastshape._MEMO.items():
        sig, rest, col = mk >> 40, mk >> 4 & (1 << 36) - 1, mk & 15
        r = VECTORS[rest][: col + 1]
        base = min(min(map(add, r, VECTORS[fastshape._SIG_LIST[sig][0]][col::-1])), INF)
        want = 0
        for v, where in fastshape._SIG_DRAWS[sig]:
            if min(map(add, r, VECTORS[v][col::-1])) < base:
                want |= where
        assert gain == want, (sig, rest, col)


@pytest.mark.parametrize("name", ["mcr_forms", "all258", "unrelated"])
def test_rows_with_other_forms_above(name, rng, monkeypatch):
    """`fastrows.rows_one_reading` answers hands whose other forms (全不靠, 十三烂, 将将和) stay
    above every discard's distance (组合龙 is merged into the rows), and gives way to the
    general path where they do not: the rows (all, and least shanten only) equal shanten.py's
    either way, and both paths occur."""
    from mjtools.sim import fastrows

    spec = SPECS[name]
    copies = [4 if k in spec.kinds else 0 for k in range(50)]
    taken = {True: 0, False: 0}
    real = fastrows.forms_above

    def spy(*args):
        got = real(*args)
        taken[got is not None] += 1
        return got

    monkeypatch.setattr(fastrows, "forms_above", spy)
    for i in range(60):
        an = Analyzer(spec, copies)
        # pair-rich hands (将将和, seven pairs) every third hand, else random
        drawn = random_hand(rng, spec, spec.hand_size + 1, rng.choice([0, 0, 1]))
        if i % 3 == 0 and name == "all258":
            drawn = Hand(tuple(Tile(k) for k in sorted([1, 1, 4, 4, 7, 10, 10, 13, 16, 16, 19, 22, 25, rng.choice([0, 2, 7, 13])])))
        st2 = state_of(drawn, spec)
        want = discard_table(st2, spec, copies, [4] * 50)
        mi = melds_info([m.kinds for m in drawn.melds])
        for only_best in (False, True):
            rows = an.discard_rows(list(drawn.concealed_counts()), mi, list(drawn.counts), [4] * 50, None, only_best)
            got = [{"tile": kind_str(r.kind), "shanten": r.shanten, "effective": [kind_str(e) for e in r.effective], "effective_count": r.live} for r in rows]
            least = min(w["shanten"] for w in want)
            assert got == ([w for w in want if w["shanten"] == least] if only_best else want), (name, str(drawn), only_best)
    assert taken[True] and (taken[False] or name == "all258"), taken


def test_specs_share_signature_memos():
    """The (table, key) -> signature memo is shared by every analysis in the process: groups
    that read one table at different sizes (sanma's 1m / 9m group and the honours share the
    no-chow table) keep their own signatures (the vector after a draw at each position)."""
    from mjtools.sim import fastshape

    copies = [4] * 34 + [0] * 16
    for name in ("sanma", "riichi", "pungs"):
        an = Analyzer(SPECS[name], copies)
        for g, tid, ids, tg, kinds in an._readings(fastshape.NO_MELDS)[0]:
            for key in range(25):  # (counts of the first two positions only: valid at every size)
                sig = an._sigs.get(tid << 24 | key)
                if sig is None:
                    sig = an._sig(tid, ids, tg, len(kinds), key)
                assert len(fastshape._SIG_LIST[sig]) == 1 + len(kinds), (name, g, key)


def test_wildcards_with_melds_beyond_caps(rng):
    """Wildcards held with chows and pungs laid down: the tables' distance stands when the
    copies of melded kinds a least-distance target holds beyond what the melds leave add up
    to at most D - w (`MeldedWildcards._may_over_use`), a drawn wildcard helps only when
    they leave room for one more; shanten, effective tiles and waits against shanten.py,
    and that targets holding such copies (N > 0, within the room) were met."""
    from mjtools.sim.fastbase import Melds
    from mjtools.tiles.hand import Meld

    wild = 21  # 4s
    spec = ShapeSpec(forms=("standard",), wild_kinds=frozenset({wild}))
    copies = [4 if k in spec.kinds or k in spec.wild_kinds else 0 for k in range(50)]
    an = Analyzer(spec, copies)

    def chow(k):
        return Meld((Tile(k), Tile(k + 1), Tile(k + 2)), "chow", source="N")

    def pung(k):
        return Meld((Tile(k),) * 3, "pung", source="S")

    # 1s 6s 7s and a wildcard after 111s, 555s and 678s: shanten 0, but no draw completes it
    # (a 1s pair would need a wildcard as a fifth 1s), and another wildcard does not help
    hands = [Hand((Tile(18), Tile(21), Tile(23), Tile(24)), (pung(18), pung(22), chow(23)))]
    for _ in range(int(os.environ.get("FAST_N", "25")) * 12):
        pool = [k for k in range(34) for _ in range(4)]
        melds = []
        for _ in range(rng.choice([1, 2, 3])):
            if rng.random() < 0.5:
                k = rng.choice([k for k in range(27) if k % 9 < 7 and k + 2 != wild and k + 1 != wild and k != wild and all(x in pool for x in (k, k + 1, k + 2))])
                melds.append(chow(k))
                for x in (k, k + 1, k + 2):
                    pool.remove(x)
            else:
                k = rng.choice([k for k in range(34) if k != wild and pool.count(k) >= 3])
                melds.append(pung(k))
                for _ in range(3):
                    pool.remove(k)
        rng.shuffle(pool)
        # a suit of its own mostly, so the hands come near the melded kinds
        suited = [k for k in pool if 18 <= k < 27]
        tiles = sorted(suited[: 13 - 3 * len(melds)])
        hands.append(Hand(tuple(Tile(k) for k in tiles), tuple(melds)))
    within = 0
    for hand in hands:
        st = state_of(hand, spec)
        counts, w = an.natural(hand.concealed_counts())
        mi = melds_info([m.kinds for m in hand.melds])
        held = list(hand.counts)
        s, _ = shanten_of_state(st, spec)
        sh, eff = an.effective(list(counts), w, mi, held)
        assert sh == s, str(hand)
        assert eff == effective(st, spec, copies), str(hand)
        assert an.shanten(list(counts), w, mi) == s, str(hand)
        assert an.waits(list(counts), w, mi, held) == waits_of(st, spec, copies), str(hand)
        if w and isinstance(mi, Melds) and mi.n:
            d = an._std_distance(an.keys(list(counts)), mi)
            if not an._may_over_use(list(counts), mi, d, -1, w) and an._may_over_use(list(counts), mi, d, -1, d):
                within += 1  # (a least-D target holds copies beyond the caps, within D - w)
    assert within
