"""The fan plan's memos and shortcut bits agree with the computation they stand for.

Plan.final_memo remembers every pass after the fans of a reading (the account-once choice,
exclusions, fallbacks, on-sets exclusions) under a key of what they read: the fans found, the
concealment, the counts and the occurrence keys of the fans involved. Here seeded wins of
several rule files are scored twice (the second pass hits the memo) and every reading of the
second pass is evaluated again with the memo bypassed: the fans kept, what was excluded and
`ctx.awarded` must be the same. The concealed-pung bits (Ctx, from the reading's one pass over
its blocks) must equal Ctx.concealed_pung_count worked out by its own loop."""

from __future__ import annotations

import random
from typing import Any

import pytest
from test_fan_gates import _cases

import mjtools.scoring as scoring
from mjtools.errors import MjError
from mjtools.patterns.ctx import Ctx, count_concealed_pungs
from mjtools.patterns.features import _WANTS_CPUNG, ALL_FEATURES, BIT
from mjtools.rules import load
from mjtools.rules.hand_options import build_context, normalize
from mjtools.scoring import score
from mjtools.scoring.fans import plan_for
from mjtools.tiles.notation import parse_hand

MEMO_RULES = ("mcr", "guangdong-cantonese", "taiwan-16", "sichuan-xuezhan", "base-chinese", "hangzhou", "zhuanzhuan")


def _fresh(c: Ctx) -> Ctx:
    return Ctx(c.hand, c.d, c.win, c.wild_kinds, c.dora, c.ura, c.options, {}, c.spec, c.hand_bits)


def _score_each(cases, rules) -> None:
    """Score each (hand, options) under each rule file in turn (a hand a file refuses is left
    out)."""
    for text, opts in cases:
        for rs in rules:
            try:
                ctx = build_context(normalize(opts, "score"), rs)
                score(parse_hand(text), rs, ctx, text)
            except MjError:
                continue


def _remembered(plan) -> int:
    return sum(len(memo) for memo in plan.final_memo.values())


def _shown(ev) -> tuple:
    return tuple((a.id, a.value, a.count, a.name) for a in ev.fans), tuple(ev.excluded)


@pytest.mark.parametrize("rid", MEMO_RULES)
def test_final_memo_equals_the_passes(rid: str, monkeypatch: pytest.MonkeyPatch) -> None:
    rs = load(rid)
    plan = plan_for(rs)
    cases = []
    rng = random.Random(f"memo:{rid}")
    for text, opts in _cases(rid, rng, 200):
        try:
            ctx = build_context(normalize(opts, "score"), rs)
        except MjError:
            continue
        # The same hand in other seats and rounds (the wind fans and what they exclude change
        # while the readings do not), by a self-draw and on a discard.
        for seat, rnd, tsumo in ((ctx.seat, ctx.round, ctx.tsumo), (rng.choice("ESWN"), rng.choice("ESWN"), ctx.tsumo), (rng.choice("ESWN"), rng.choice("ES"), not ctx.tsumo)):
            c = ctx.replace(seat=seat, round=rnd, tsumo=tsumo, discarder=None)
            try:
                score(parse_hand(text), rs, c, text)  # (the first pass fills the memos)
            except MjError:
                continue
            cases.append((text, c))
    seen = {"readings": 0, "hits": 0, "on_sets": 0}
    original = scoring.evaluate_fans

    def checking(ctx, rs_, lang="en", plan_=None, opening=False, prune=False):
        before = _remembered(plan)
        ev = original(ctx, rs_, lang, plan_, opening, prune)
        if plan.reads_fans:  # (the fan-by-fan loop gives no total)
            assert ev.total is None
            return ev
        # Evaluation.total on every other path of the fans stage (the final memo's, the
        # passes'), value x count summed
        assert ev.total == sum(a.value * a.count for a in ev.fans), f"{rid}: {ctx.hand} ({ctx.d})"
        seen["readings"] += 1
        seen["hits"] += _remembered(plan) == before
        unkeyed = plan.unkeyed
        plan.unkeyed = -1  # every reading takes the passes themselves
        try:
            direct = _fresh(ctx)
            ev2 = original(direct, rs_, lang, plan_, opening, prune)
        finally:
            plan.unkeyed = unkeyed
        assert _shown(ev) == _shown(ev2) and ev2.total == ev.total, f"{rid}: {ctx.hand} ({ctx.d})"
        assert dict(ctx.awarded) == dict(direct.awarded), f"{rid}: {ctx.hand} ({ctx.d})"
        if ctx.features != ALL_FEATURES and plan.on_sets and any(plan.by_id[a.id].bit & plan.on_sets for a in ev2.fans + [plan.by_id[x] for x, _ in ev2.excluded if x in plan.by_id]):
            seen["on_sets"] += 1
        return ev

    monkeypatch.setattr(scoring, "evaluate_fans", checking)
    for text, ctx in cases:
        score(parse_hand(text), rs, ctx, text)
    assert seen["readings"] > 40 and seen["hits"] > seen["readings"] // 2, seen
    if rid == "mcr":
        assert plan.on_sets_keys and seen["on_sets"] > 3, seen  # (圈风刻 / 门风刻 over 幺九刻)


@pytest.mark.parametrize("rid", ("mcr", "guangdong-cantonese", "taiwan-16", "base-chinese"))
def test_final_key_one_to_one(rid: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """fans._final_key (one integer where the combine fans' key, if any, fits 64 bits and
    no count passes 15; else a flat tuple) is one-to-one with what it stands for: the fans found, the
    concealment, the counts, the combine fans' key and the on-sets keys."""
    import mjtools.scoring.fans as fans

    rs = load(rid)
    plan = plan_for(rs)
    seen: dict = {}
    back: dict = {}
    ints = [0]
    original = fans._final_key

    def recording(ctx, plan_, key, found, present, multi, counts):
        got = original(ctx, plan_, key, found, present, multi, counts)
        parts = (key, tuple(a.count for a in found) if multi else None, plan.combine_key(ctx) if present & plan.combine_bits else None, tuple(f(ctx) for f in plan.on_sets_keys) if present & plan.on_sets else None)
        assert seen.setdefault(parts, got) == got and back.setdefault(got, parts) == parts, f"{rid}: {ctx.hand} ({ctx.d})"
        if type(got) is int:
            ints[0] += 1
            assert got & ((1 << plan.key_bits) - 1) == key
            rest = got >> plan.key_bits
            if not multi:
                assert rest == parts[2]
            else:  # (the combine fans' key in 64 bits, then the instance fans' counts, 4 bits each)
                assert rest & ((1 << 64) - 1) == (parts[2] or 0)
                nibbles = []
                rest >>= 64
                while rest:
                    nibbles.append(rest & 15)
                    rest >>= 4
                assert 0 not in nibbles and [n for n in reversed(nibbles) if n != 1] == [n for n in parts[1] if n != 1]
        return got

    monkeypatch.setattr(fans, "_final_key", recording)
    monkeypatch.setattr(plan, "sets_keyed", False)  # (every key through _final_key, none written out)
    rng = random.Random(f"final-key:{rid}")
    for text, opts in _cases(rid, rng, 200):
        try:
            ctx = build_context(normalize(opts, "score"), rs)
            for seat in "ESWN":
                score(parse_hand(text), rs, ctx.replace(seat=seat, discarder=None), text)
        except MjError:
            continue
    if rid == "mcr":  # (combine and on-sets fans; sets_key one integer where no chow repeats)
        assert len(seen) > 20 and ints[0] > len(seen) // 4, (ints[0], len(seen))


def test_final_key_written_out_is_final_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    """evaluate_fans's common case of _final_key written out (the reading's sets_key integer)
    keys the final memo as _final_key does: each reading, evaluated afresh both ways into an
    empty memo, leaves the same key and value."""
    import mjtools.scoring.fans as fans

    rs = load("mcr")
    plan = plan_for(rs)
    original = scoring.evaluate_fans
    written = [0]

    def checking(ctx, rs_, lang="en", plan_=None, opening=False, prune=False):
        left = []
        for keyed in (True, False):
            plan.sets_keyed = keyed
            memo = plan.final_memo.setdefault(lang, {})
            memo.clear()
            fans.evaluate_fans(_fresh(ctx), rs_, lang, plan_, opening, prune)
            left.append(dict(memo))
        plan.sets_keyed = True
        assert left[0] == left[1], f"{ctx.hand} ({ctx.d})"
        written[0] += sum(1 for k in left[0] if type(k) is int and k >> plan.key_bits)
        return original(ctx, rs_, lang, plan_, opening, prune)

    monkeypatch.setattr(plan, "sets_keyed", True)
    monkeypatch.setattr(scoring, "evaluate_fans", checking)
    _score_each(_cases("mcr", random.Random("written-out"), 200), (rs,))
    assert written[0] > 20, written  # (readings with combine fans keyed by their sets)


def test_final_memo_hit_sets_every_field(monkeypatch: pytest.MonkeyPatch) -> None:
    """A final-memo hit's Evaluation (its slots stored without __init__) has every slot set,
    as the constructor sets them: a field added to Evaluation is added there too."""
    import mjtools.scoring.fans as fans
    from mjtools.scoring.result import Evaluation

    rs = load("mcr")
    original, passes = scoring.evaluate_fans, fans._all_passes
    hits, calls = [0], [0]
    missed = [False]

    def passing(*args, **kw):
        missed[0] = True
        return passes(*args, **kw)

    def checking(ctx, rs_, lang="en", plan_=None, opening=False, prune=False):
        missed[0] = False
        ev = original(ctx, rs_, lang, plan_, opening, prune)
        hits[0] += not missed[0]
        calls[0] += 1
        for name in Evaluation.__slots__:
            getattr(ev, name)  # (AttributeError where a slot was left unset)
        assert ev.reason is None and ev.pctx is ctx and ev.decomposition is ctx.d
        return ev

    monkeypatch.setattr(scoring, "evaluate_fans", checking)
    monkeypatch.setattr(fans, "_all_passes", passing)
    cases = list(_cases("mcr", random.Random("memo-hit"), 150))
    _score_each(cases + cases, (rs,))  # (the second time, hits)
    assert hits[0] > 100, (hits, calls)


def test_final_memo_keys_what_on_sets_exclusions_read() -> None:
    """Every fan an on-sets exclusion involves says its occurrences by a key (else the plan
    leaves such readings out of the memo)."""
    plan = plan_for(load("mcr"))
    assert plan.on_sets and plan.on_sets_keys is not None and len(plan.on_sets_keys) == 3
    assert not plan.unkeyed


@pytest.mark.parametrize("rid", ("mcr", "riichi", "taiwan-16", "guangdong-cantonese"))
def test_concealed_pung_bits(rid: str, monkeypatch: pytest.MonkeyPatch) -> None:
    rs = load(rid)
    checked = [0]
    original = scoring.evaluate_fans
    direct = count_concealed_pungs  # the attribute's own loop

    def checking(ctx, rs_, lang="en", plan_=None, opening=False, prune=False):
        f = ctx.features
        if f != ALL_FEATURES and ctx.hand_bits & _WANTS_CPUNG and ctx.pungs:
            n = direct(ctx)
            assert ctx._cpungs == n, f"{rid}: {ctx.hand} ({ctx.d})"
            assert bool(f & BIT["cpung2"]) == (n >= 2) and bool(f & BIT["cpung3"]) == (n >= 3)
            assert bool(f & BIT["cpung3x"]) == (n == 3) and bool(f & BIT["cpung4"]) == (n >= 4)
            checked[0] += 1
        return original(ctx, rs_, lang, plan_, opening, prune)

    monkeypatch.setattr(scoring, "evaluate_fans", checking)
    _score_each(_cases(rid, random.Random(f"cpung:{rid}"), 300), (rs,))
    assert checked[0] > 50


@pytest.mark.parametrize("rid", ("mcr", "riichi"))
def test_relations_fans_by_sets_key(rid: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The fans of combos.relations and their counts, remembered by the sets in no particular
    order (combos.sets_key), equal those worked out from the reading's own sets; readings of
    the same sets in another order share the key."""
    from mjtools.patterns import combos

    rs = load(rid)
    checked = [0]
    repeated = [0]
    keys: dict[Any, tuple] = {}
    original = scoring.evaluate_fans

    def checking(ctx, rs_, lang="en", plan_=None, opening=False, prune=False):
        if ctx.sets:
            direct = {fan: len(groups) for fan, groups in combos._relations(_fresh(ctx)).items()}
            assert combos.relations_fans(ctx) == direct, f"{rid}: {ctx.hand} ({ctx.d})"
            if ctx.features != ALL_FEATURES:
                sets = tuple(sorted((b.kinds[0], b.shape == "chow") for b in ctx.sets))
                key = combos.sets_key(ctx)
                assert keys.setdefault(key, sets) == sets, f"{rid}: {ctx.hand} ({ctx.d})"
                # (one integer of 64 bits, a chow repeated or not: _final_key's integer takes it)
                assert type(key) is int and 0 <= key < 1 << 64, key
                repeated[0] += bool(ctx.chow_pairs)
            checked[0] += 1
        return original(ctx, rs_, lang, plan_, opening, prune)

    monkeypatch.setattr(scoring, "evaluate_fans", checking)
    _score_each(_cases(rid, random.Random(f"sets:{rid}"), 300), (rs,))
    assert checked[0] > 100 and repeated[0] > 5, (checked, repeated)


def test_table_bits_are_each_plans_own(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A shared table's value keeps the bits of its ids under the last plan that read it
    (TableValue.bits): two plans whose fans sit at other bits (a fan deleted ahead of them),
    reading the same values in turn, each see their own."""
    from mjtools.patterns import combos
    from mjtools.rules import load_path
    from mjtools.scoring import fans

    path = tmp_path / "mcr-less.yaml"
    path.write_text("id: mcr-less\nextends: mcr\nnames: {en: MCR less one fan, zh_hans: 少一番}\nfans:\n  big_four_winds: null\n", encoding="utf-8")
    rules = (load("mcr"), load_path(path))
    plans = [plan_for(rs) for rs in rules]
    assert plans[0].table_bits[combos.relations_fans] != plans[1].table_bits[combos.relations_fans]
    for plan in plans:  # (the fans read from the table, counting no instances; not those only held in it)
        assert plan.table_sure & plan.by_id["pure_triple_chow"].bit and plan.table_sure & plan.by_id["pure_shifted_pungs"].bit
        assert not plan.table_sure & (plan.by_id["triple_pung"].bit | plan.by_id["mixed_double_chow"].bit)
    checked = [0]
    original = scoring.evaluate_fans

    def checking(ctx, rs_, lang="en", plan_=None, opening=False, prune=False):
        ev = original(ctx, rs_, lang, plan_, opening, prune)
        plan = plan_for(rs_)
        if ctx.sets and ctx.features != ALL_FEATURES:
            bits = plan.table_bits[combos.relations_fans]
            value = combos.relations_fans(ctx)
            held = 0
            for pid in value:
                held |= bits.get(pid, 0)
            assert value.bits_of is bits and value.bits == held, f"{ctx.hand} ({ctx.d})"
            f = ctx.features
            cands = plan._candidates_of(f, ctx.concealed_hand, lang, opening, prune, False)
            # (less the fans over the table it lacks; the ones it holds that count no instances
            # counted without a call: Plan.table_sure)
            filtered = tuple([(None, *c[1:]) if c[3] & plan.table_sure else c for c in cands if c[1].table is None or c[1].held_bit & held])
            direct = plan._ready(filtered, lang, ctx.concealed_hand)
            assert plan.for_reading(ctx, lang, opening, prune) == direct
            # (each run shared by its key: the same as the runs made afresh)
            assert direct == tuple([run for run, _ in fans._runs(filtered, lang, plan._by_count)])
            checked[0] += 1
        return ev

    monkeypatch.setattr(scoring, "evaluate_fans", checking)
    _score_each(_cases("mcr", random.Random("table-bits"), 150), rules)
    assert checked[0] > 100


def test_awards_by_count_are_the_entrys() -> None:
    """The loop's award of a fan counting instances n times (Plan._by_count, fans._counted)
    is the entry's own award of that count, capped at max_count."""
    from mjtools.scoring.fans import _counted

    for rid in ("mcr", "taiwan-16", "guangdong-cantonese"):
        plan = plan_for(load(rid))
        for e in plan.every:
            value = e.closed if e.closed is not None else e.open
            if not e.instance or value is None:
                continue
            single = e.awarded(value, 1, "en")
            more = plan._by_count(e, single, "en")
            assert plan._by_count(e, single, "en") is more and more[1] is single
            for n in range(1, 20):
                got = more[n] if n < len(more) else _counted(more, single, n, "en")
                assert got == e.awarded(value, min(n, e.max_count) if e.max_count else n, "en"), (rid, e.id, n)


def test_final_key_counts_past_fifteen_stay_a_tuple(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A count past 15 does not fit the final key's 4-bit fields: the key stays the tuple form
    even when a fan counting instances later in the file counts fewer (here a dragon pung
    counted 20 times by a stand-in pattern, then two flowers)."""
    import mjtools.scoring.fans as fans
    from mjtools.patterns import registry
    from mjtools.rules import load_path

    monkeypatch.setitem(registry(), "dragon_pung", lambda ctx: 20)
    path = tmp_path / "mcr-twenty.yaml"
    path.write_text("id: mcr-twenty\nextends: mcr\nnames: {en: MCR twenty, zh_hans: 二十}\n", encoding="utf-8")
    rs = load_path(path)
    seen: list[tuple[int, Any]] = []
    original = fans._final_key

    def recording(ctx, plan_, key, found, present, multi, counts):
        got = original(ctx, plan_, key, found, present, multi, counts)
        seen.append(({a.id: a.count for a in found}, multi, got))
        return got

    monkeypatch.setattr(fans, "_final_key", recording)
    text = "12f123m456p789s777z1z+1z"
    score(parse_hand(text), rs, build_context(normalize({}, "score"), rs), text)
    counted = [(c, m, k) for c, m, k in seen if c.get("dragon_pung") == 20 and c.get("flower") == 2]
    assert counted, seen
    assert all(m == fans._WIDE and type(k) is tuple for _, m, k in counted), counted
