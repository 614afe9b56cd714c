"""Evaluate a rule file's fans on one decomposition: patterns, values, exclusions, fallbacks.

The fans of a ruleset are compiled once into a plan: each pattern spec becomes one callable
(no per-call dispatch on the spec's shape), values are resolved for closed and open hands,
and each fan carries the reading features it needs (`patterns/ctx.py`). A reading then
evaluates only the fans its feature bits allow — a plain lookup per distinct bit pattern.
One fan of a plan is an `Entry` (`scoring/fan_entry.py`); the passes after the fans are found
(combined sets, exclusions, the fallback rule) are `scoring/fan_passes.py`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from mjtools.patterns import PLACEMENT, TableValue
from mjtools.patterns.combos import sets_key
from mjtools.patterns.ctx import Ctx
from mjtools.patterns.features import ALL_FEATURES, BIT
from mjtools.rules.model import Ruleset
from mjtools.scoring import combine
from mjtools.scoring.fan_entry import Entry
from mjtools.scoring.fan_passes import combined_key, kept_of, passes
from mjtools.scoring.fan_spec import (
    fans_read_elsewhere,
    held_in_of,
    instances_key_of,
    is_exact,  # noqa: F401  (tests and callers read it here)
    nested_needs,
    pattern_id,
    placement_read,
    reads_fans_of,
)
from mjtools.scoring.result import Awarded, Evaluation

_new = object.__new__  # (evaluate_fans: an Evaluation from the final memo)


class Plan:
    def __init__(self, rs: Ruleset):
        unit = rs.section("scoring").get("unit", "")
        # Opening-win fans (play.opening_wins) count only on a dealt hand, and then alone.
        openers = set(rs.section("play").get("opening_wins", ()))
        every = tuple(Entry(fid, fan, unit) for fid, fan in rs.fans.items())
        self.every = every
        self.entries = tuple(e for e in every if e.id not in openers)
        # Whether a pattern reads the fans found before it (ctx.awarded): then the loop keeps
        # ctx.awarded up to date fan by fan (riichi's 八連荘, a house rule's `fan:`).
        self.reads_fans = any(reads_fans_of(fan["pattern"]) for fan in rs.fans.values())
        # What the passes after the loop need of the fans found, by their bits (the fans found
        # come in file order, so their bits say it all): (their flags, what they exclude, the
        # combine fans as (index among the fans found, entry)).
        self.found_info: dict[int, tuple[int, int, tuple[tuple[int, Entry], ...]]] = {}
        self.opening = tuple(e for e in every if e.id in openers)
        self.by_id = {e.id: e for e in every}
        self.order = {e.id: i for i, e in enumerate(every)}
        # What a fan excludes, as a set: a reading whose awarded fans exclude none of each
        # other (most of them) skips the ordered exclusion pass, which would remove nothing.
        self.excludes = {e.id: frozenset(e.excludes) | {p[0] for p in e.partial} for e in every if e.excludes or e.partial}
        # The same as bits, so that a reading tells whether any two of its fans exclude one
        # another with two integer operations per fan found. (Bit 0 is none of them: the fans'
        # loop starts from the concealment there, which Plan.final_memo's key takes too.)
        for i, e in enumerate(every):
            e.bit = 2 << i
        for e in every:
            for ex in (*e.excludes, *(p[0] for p in e.partial)):
                if ex in self.by_id:
                    e.excl_mask |= self.by_id[ex].bit
        self.fallbacks = frozenset(e.id for e in every if e.fallback)
        # Fans with an exclusion on the sets they use ({fan: X, same_sets: true}): what they
        # remove depends on the reading's sets, so a reading holding one is not remembered.
        self.on_sets = 0
        for e in every:
            if any(on_sets for _, _, on_sets in e.partial):
                self.on_sets |= e.bit
        # The exclusion and fallback passes, remembered by the fans found (ids and counts) and
        # the concealment (which sets their values): (kept as (index, count or None), removed).
        self.exclude_memo: dict[tuple, tuple[tuple[tuple[int, int | None], ...], tuple[tuple[str, str], ...], Callable[[list[Awarded]], tuple[Awarded, ...]] | None]] = {}
        self.uses = 0  # every feature bit some fan needs (hand_features skips the others)
        for e in every:
            self.uses |= e.needs | nested_needs(rs.fans[e.id]["pattern"])
            for alt in e.alts:
                self.uses |= alt
        # What the fans read of where the winning tile sits (patterns.PLACEMENT): readings
        # that agree on these count the same fans. The pair_wait bit gates fans on the pair:
        # one that needs it reads the pair's place, unless its one pattern says otherwise.
        aspects = set().union(*(placement_read(fan["pattern"]) for fan in rs.fans.values()))
        pair_bit = BIT["pair_wait"]
        for e in every:
            if (e.needs | _union(e.alts)) & pair_bit:
                spec = rs.fans[e.id]["pattern"]
                pid = spec if isinstance(spec, str) else spec.get("id") if isinstance(spec, Mapping) else None
                if e.exact or pid not in PLACEMENT:
                    aspects.add("pair")
        aspects.discard("none")
        self.placement = frozenset(aspects)
        # Fans not worth trying where the record shows only the fans kept (no --explain, which
        # lists the fans excluded too): a fan that some sure fan of the reading excludes, when
        # it excludes nothing itself and takes no part in the choice of combined sets or the
        # fallback rule. A sure fan is exact (found on every reading its bits allow), combines
        # no sets and is no fallback, and is sure on a reading none of whose candidates
        # excludes it (wholly or in part): then it is kept. Not for a plan whose patterns
        # read the fans found before them.
        # Nor where a pattern outside the fans reads the fans found (ctx.awarded: a stake, a
        # surcharge or a liability with the `fan` primitive): it must see the fans pruned too.
        self.fans_read_elsewhere = fans_read_elsewhere(rs.data)
        self.sure = 0 if self.reads_fans or self.fans_read_elsewhere else sum(e.bit for e in every if e.exact and not e.combine and not e.fallback)
        self.prunable = sum(e.bit for e in every if not e.combine and not e.fallback and not e.excludes and not e.partial)
        # What each fan excludes wholly, as bits (excl_mask holds the partial exclusions too).
        self.whole_mask = {e.bit: sum(self.by_id[x].bit for x in e.excludes if x in self.by_id) for e in every}
        self._candidates: dict[int, tuple[Entry, ...]] = {}
        self._gates = tuple((e.needs, e.alts, e) for e in self.entries)
        # What a reading evaluates, by language and (features, concealment, the ids its shared
        # tables hold: for_reading's key): each candidate with its value for this concealment
        # resolved (a fan without one is left out) and its single award made, so the common
        # count of 1 costs no lookup, ready (_ready). A batch meets new bit patterns on a third
        # of its readings, and many of them give a set of candidates seen before: the resolved
        # tuples are also kept by (candidates, concealment, language).
        self._resolved: dict[str, dict[int, tuple[Any, ...]]] = {}
        self._pruned: dict[str, dict[int, Any]] = {}  # the same, pruned (_resolve's `prune`)
        self._by_candidates: dict[tuple, tuple[tuple[Callable[[Ctx], int] | None, Entry, Awarded, int], ...]] = {}
        self.combine_memo: dict[tuple, list[tuple[str, tuple[int, ...]]]] = {}  # combine.choose's choices
        # The passes of a reading with combine fans, by what decides them (passes).
        # The one key function that says every combine fan's occurrences (INSTANCES_KEY), if
        # they share one: the account-once passes are then remembered by its value.
        keys = {instances_key_of(rs.fans[e.id]["pattern"]) for e in every if e.combine}
        self.combine_key = keys.pop() if len(keys) == 1 else None
        self.combined_memo: dict[tuple, tuple[tuple[tuple[int, int | None], ...], tuple[tuple[str, str], ...], Callable[[list[Awarded]], tuple[Awarded, ...]] | None]] = {}
        # The fans over a shared table (the set combinations of combos.relations): per table,
        # a bit for each id of it that fans stand for (one bit per id over all tables, from bit
        # 0: a reading's ids held make a short integer). A reading reads each table once and
        # evaluates only the fans whose id it holds (Entry.held_bit).
        self.table_bits: dict[Callable[[Ctx], TableValue], dict[str, int]] = {}
        # The fans over a table they are the pattern of, that do not count instances, where the
        # table holds an id only where its pattern occurs: a reading whose table holds the id
        # counts such a fan once without calling it (_resolve). (Not the fans held in a table
        # they are not read from, below: it holds them where they occur, not only there.)
        self.table_sure = sum(e.bit for e in every if e.table is not None and not e.instance and getattr(e.table, "held_means_found", False))
        # A pattern a table read for other fans holds whenever it occurs (patterns.HELD_IN) is
        # filtered by it too, where the plan reads that table anyway.
        read = {e.table for e in every if e.table is not None}
        for e in every:
            held_in = held_in_of(rs.fans[e.id]["pattern"])
            if e.table is None and not e.alts and not e.exact and held_in in read:
                e.table = held_in
        held_bits = 0
        for e in every:
            if e.table is not None:
                bits = self.table_bits.setdefault(e.table, {})
                pid = pattern_id(rs.fans[e.id]["pattern"])
                if pid not in bits:
                    bits[pid] = 1 << held_bits
                    held_bits += 1
                e.held_bit = bits[pid]
        self.held_width = held_bits
        self.key_shift = held_bits + 3  # (for_reading's key)
        self.tables = tuple(self.table_bits.items())
        # Every pass after the fans of a reading, remembered together (evaluate_fans): keyed by
        # the fans found and the concealment (one integer), with their counts where one counts
        # more than once and the combine fans' occurrences (the plan's one key function) where
        # a combine fan is found. Not for readings with a fan that excludes on the sets another
        # uses, or with combine fans whose occurrences no one key function says (`unkeyed`).
        self.exact_alt_entries = tuple(e for e in every if e.exact_alts)  # (Entry.exact_alts)
        self.combine_bits = sum(e.bit for e in every if e.combine)
        # A reading with a fan that excludes on the sets another uses is remembered too where
        # each fan such exclusions involve (the one excluding, the one excluded) has a key
        # function saying its occurrences (INSTANCES_KEY): their values join the key.
        involved = [f for e in every for fid, _, on_sets in e.partial if on_sets for f in (e.id, fid) if f in self.by_id]
        keys_of = [instances_key_of(rs.fans[f]["pattern"]) for f in involved]
        self.on_sets_keys = tuple(dict.fromkeys(keys_of)) if None not in keys_of else None
        self.unkeyed = (self.on_sets if self.on_sets_keys is None else 0) | (self.combine_bits if self.combine_key is None else 0)
        # (the bits a key of the fans found and the concealment takes, and the fans whose
        # presence adds to it: _final_key)
        self.key_bits = len(every) + 1  # (the fans' bits from bit 1, the concealment bit 0)
        self.keyed_more = self.combine_bits | self.on_sets
        self.sets_keyed = self.combine_key is sets_key  # (evaluate_fans: the key read off the reading)
        # Per language (its awards are the language's): key -> (the fans kept, None where they
        # are the fans found; what was removed, a shared tuple (Plan.shared); their total). A
        # hit reads one value and two tuples of objects many values share (the awards, the
        # exclusions), and gives both tuples as the evaluation's lists (read only): the fewer
        # distinct objects a reading touches, the fewer of them a long batch finds out of the
        # cache.
        self.final_memo: dict[str, dict[Any, tuple[tuple[Awarded, ...] | None, tuple[tuple[str, str], ...], float]]] = {}
        self._shared: dict[tuple, tuple] = {}
        # The runs of the candidates (_ready), each one instance for every list of candidates
        # that has it, by what says them; the awards by count of a fan counting instances
        # (_by_count), by its award of one.
        self._same: dict[tuple[str, bool], dict[tuple[int, int], tuple]] = {}
        self._counts: dict[int, tuple[Any, ...]] = {}

    def shared(self, t: tuple) -> tuple:
        """One instance of each equal tuple of strings the final memo holds (Plan.final_memo)."""
        pool = self._shared
        got = pool.get(t)
        if got is None:
            if len(pool) > 16384:
                pool.clear()
            got = pool[t] = t
        return got

    def _by_count(self, e: Entry, single: Awarded, lang: str) -> tuple[Any, ...]:
        """(the entry, then its award of each count from 1, capped at max_count, which the last
        one is), for the value and language of `single` (its award of one, which it holds);
        made once per award of one."""
        got = self._counts.get(id(single))
        if got is None:
            top = e.max_count or _COUNTS_AHEAD
            if len(self._counts) > 4096:
                self._counts.clear()
            got = self._counts[id(single)] = (e, single, *[e.awarded(single.value, n, lang) for n in range(2, top + 1)])
        return got

    def remember_final(self, key: Any, lang: str, found: list[Awarded], ev: Evaluation) -> None:
        """final_memo[lang][key] from a reading's fans found and its evaluation: the fans kept
        (None where they are the fans found), what was removed (a shared tuple) and their total
        (Evaluation.total, given to `ev` too)."""
        kept = ev.fans
        shared = self.shared
        total = _with_total(ev).total
        # (the same awards: list == tests identity first)
        value = (None if kept is found or kept == found else tuple(kept), shared(tuple([shared(x) for x in ev.excluded])), total)
        memo = self.final_memo.get(lang)
        if memo is None:
            memo = self.final_memo[lang] = {}
        elif len(memo) > 8192:
            memo.clear()
        memo[key] = value

    def info_of(self, present: int) -> tuple[int, int, tuple[tuple[int, Entry], ...]]:
        """found_info[present], worked out on first use."""
        flags = excl = 0
        combine_at = []
        n = 0
        for e in self.every:
            if present & e.bit:
                flags |= e.flags
                excl |= e.excl_mask
                if e.combine:
                    combine_at.append((n, e))
                n += 1
        if len(self.found_info) > 8192:
            self.found_info.clear()
        got = self.found_info[present] = (flags, excl, tuple(combine_at))
        return got

    def candidates(self, features: int) -> tuple[Entry, ...]:
        """The fans (in file order) whose needed features the reading has."""
        features &= self.uses  # (no fan reads the other bits: fewer distinct keys)
        got = self._candidates.get(features)
        if got is None:
            got = self._candidates[features] = tuple([e for needs, alts, e in self._gates if needs & features == needs and (not alts or _any_within(alts, features))])
        return got

    def _resolve(self, ctx: Ctx, key: int, held: int, lang: str, opening: bool, prune: bool) -> tuple[Any, ...]:
        """for_reading's answer for its key, worked out and kept: the candidates less the fans
        over a shared table whose id the reading's tables do not hold (`held`), ready
        (_ready). `prune`: less the fans a sure fan among them excludes (Plan.sure; no
        --explain)."""
        kept = self._pruned if prune else self._resolved
        by_key = kept.get(lang)
        if by_key is None:
            by_key = kept[lang] = {}
        features = ctx.features
        # (a wildcard reading calls every fan, the exact ones too: its bits say nothing)
        cands = self._candidates_of(features, ctx.concealed_hand, lang, opening, prune, features == ALL_FEATURES)
        if self.tables:
            cands = tuple([c for c in cands if c[1].table is None or c[1].held_bit & held])
            sure = self.table_sure
            if sure and features != ALL_FEATURES and not opening:
                cands = tuple([(None, *c[1:]) if c[3] & sure else c for c in cands])
        if len(by_key) > 16384:
            by_key.clear()
        got = by_key[key] = self._ready(cands, lang, ctx.concealed_hand)
        return got

    def _candidates_of(self, features: int, concealed: bool, lang: str, opening: bool, prune: bool, wild: bool) -> tuple[tuple[Callable[[Ctx], int] | None, Entry, Awarded, int], ...]:
        """The candidates as (function, entry, award of one, bit), the award holding the value
        for this concealment (function None: an exact fan, 1)."""
        entries = self.opening if opening else self.candidates(features)
        # (the any_of fans that one of their exact alternatives makes exact on this reading)
        sure_alts = 0
        if not wild:
            for e in self.exact_alt_entries:
                if _any_within(e.exact_alts, features):
                    sure_alts |= e.bit
        same = (entries, concealed, lang, wild, sure_alts)
        resolved = self._by_candidates.get(same)
        if resolved is None:
            out = []
            for e in entries:
                value = e.closed if concealed else e.open
                if value is not None:
                    # An exact fan's bits are sufficient: no function, it counts 1.
                    out.append((None if (e.exact and not wild) or e.bit & sure_alts else e.fn, e, e.awarded(value, 1, lang), e.bit))
            resolved = self._by_candidates[same] = tuple(out)
        if prune and not wild and not opening:
            excluded = gone = 0
            for _, e, _, _ in resolved:
                excluded |= e.excl_mask
            for fn, _e, _, bit in resolved:
                if fn is None and bit & self.sure and not bit & excluded:
                    gone |= self.whole_mask[bit]
            gone &= self.prunable
            if gone:
                resolved = tuple([c for c in resolved if not c[3] & gone])
        return resolved

    def _ready(self, cands: tuple[tuple[Callable[[Ctx], int] | None, Entry, Awarded, int], ...], lang: str, concealed: bool) -> tuple[Any, ...]:
        """Candidates as for_reading gives them: as they are for a plan whose patterns read the
        fans found (the loop goes fan by fan), else as runs (_runs), each run one instance
        shared by every list of candidates that has it (the fewer distinct objects a reading
        touches, the fewer a long batch finds out of the cache): kept by the language, the
        concealment (which say the awards) and the bits of the run's exact fans and of its fan
        to call (the last run: of every exact fan, negated)."""
        if self.reads_fans:
            return cands
        pool = self._same.get((lang, concealed))
        if pool is None or len(pool) > 8192:
            pool = self._same[(lang, concealed)] = {}
        runs = []
        for run, key in _runs(cands, lang, self._by_count):
            got = pool.get(key)
            if got is None:
                got = pool[key] = run
            runs.append(got)
        return tuple(runs)

    def for_reading(self, ctx: Ctx, lang: str, opening: bool = False, prune: bool = False) -> Any:
        """The candidates of one reading, less the fans over a shared table that the reading's
        table does not hold (they would count 0); `prune`: less the fans a sure fan excludes
        (_resolve). As runs (_runs) where the plan's patterns read no fans found (_ready)."""
        features = ctx.features
        # The key: the features some fan needs (a wildcard reading's -1 keeps them all, the
        # same set as every used bit), the concealment, the opening and the wildcard flags,
        # then the ids the reading's tables hold (held_width bits, from bit 0; every table of
        # the plan is read, most readings need it). (Written with shifts, the flags or-ed
        # while the integer is short: each operation on a long integer makes a new one.)
        key = (features & self.uses) << self.key_shift | (ctx.concealed_hand << 2 | opening << 1 | (features == ALL_FEATURES)) << self.held_width
        held = 0
        for table, bits in self.tables:
            value = table(ctx)
            if value.bits_of is not bits:  # (a value this plan has not read: its ids' bits)
                mine = 0
                for pid in value:
                    mine |= bits.get(pid, 0)
                value.bits_of, value.bits = bits, mine
            held |= value.bits
        if held:
            key |= held
        by_key = (self._pruned if prune else self._resolved).get(lang)
        got = None if by_key is None else by_key.get(key)
        if got is None:
            got = self._resolve(ctx, key, held, lang, opening, prune)
        return got


def _runs(cands: tuple[tuple[Callable[[Ctx], int] | None, Entry, Awarded, int], ...], lang: str, by_count: Callable[[Entry, Awarded, str], tuple[Any, ...]]) -> list[tuple[tuple[Any, ...], tuple[int, int]]]:
    """Candidates as runs, each the awards of the exact fans before a fan to call and that fan
    (function, its awards by count where it counts instances (`by_count`), award of one,
    bit); the last run's fan None, its bit those of every exact fan among the candidates (all
    found): the fans' loop adds a run of exact fans at once, in file order, and their bits
    once. Each with its key: the bits of its exact fans, and its fan's bit (the last run: the
    bits of every exact fan, negated), which say it for a language and concealment."""
    out: list[tuple[tuple[Any, ...], tuple[int, int]]] = []
    pre: list[Awarded] = []
    bits = every = 0
    for fn, e, single, bit in cands:
        if fn is None:
            pre.append(single)
            bits |= bit
        else:
            out.append(((tuple(pre), fn, by_count(e, single, lang) if e.instance else None, single, bit), (bits, bit)))
            every |= bits
            pre, bits = [], 0
    every |= bits
    out.append(((tuple(pre), None, None, None, every), (bits, ~every)))
    return out


# The counts a fan counting instances has its awards made for ahead (the loop's common counts:
# flowers, pungs, kongs); a fan with a max_count has them up to it.
_COUNTS_AHEAD = 8


def _counted(more: tuple[Any, ...], single: Awarded, n: int, lang: str) -> Awarded:
    """The award of count n past the ones Plan._by_count made."""
    e: Entry = more[0]
    return more[-1] if e.max_count else e.awarded(single.value, n, lang)


def _union(bits: tuple[int, ...]) -> int:
    out = 0
    for b in bits:
        out |= b
    return out


def _any_within(alts: tuple[int, ...], features: int) -> bool:
    for a in alts:
        if a & features == a:
            return True
    return False


def plan_for(rs: Ruleset) -> Plan:
    """The ruleset's compiled plan, kept on the ruleset itself (so it lives as long as the
    ruleset; written to the instance dict the way functools.cached_property does)."""
    got = rs.__dict__.get("_fan_plan")
    if got is None:
        got = rs.__dict__["_fan_plan"] = Plan(rs)
    return got


def evaluate_fans(ctx: Ctx, rs: Ruleset, lang: str = "en", plan: Plan | None = None, opening: bool = False, prune: bool = False) -> Evaluation:
    """The fans of one reading. Opening-win fans (play.opening_wins) count only when `opening`
    (a dealt hand scored with --situation opening_win), and then alone. `prune`: the fans a
    sure fan of the reading excludes are not tried (Plan.sure): the fans kept are the same,
    but they are missing from `excluded` (for a record without --explain). The evaluation's
    `total` (value x count summed over the fans kept) is given, except for a plan whose
    patterns read the fans found before them (riichi's: the sum would cost its readings
    ~1.8k instructions a hand, 0.6%, for a model that may not read it)."""
    if plan is None:
        plan = plan_for(rs)
    if plan.reads_fans:
        return _evaluate_in_step(ctx, lang, plan, opening)
    found: list[Awarded] = []
    # The fans found as bits, and the concealment in bit 0 (no fan's): Plan.final_memo's key.
    present = ctx.concealed_hand
    multi = 0  # some fan counts more than once (_WIDE: a count past 15)
    # The counts of the fans counting instances found, 4 bits each in file order (the fans
    # found say which): _final_key's integer where some count is not 1.
    counts = 0
    for pre, fn, more, single, bit in plan.for_reading(ctx, lang, opening, prune):
        if pre:  # the exact fans before this one: the reading's bits say each counts once
            found += pre
        if fn is None:
            present |= bit  # (the last run: the bits of every exact fan)
            break
        n = fn(ctx)
        if not n:
            continue
        if more is not None:  # (a fan counting instances)
            counts = counts << 4 | n
            if n != 1:  # (its award of n)
                single = more[n] if n < len(more) else _counted(more, single, n, lang)
                if n > 15:
                    multi = _WIDE
                elif not multi:
                    multi = 1  # (never back from _WIDE: a later count below 16 does not make the counts fit)
        found.append(single)
        present |= bit
    # Every pass after the fans (the account-once choice, exclusions, fallbacks) in one look-up,
    # where they depend only on the fans found (their bits; with the concealment, their values),
    # their counts and the combine fans' occurrences (said by the plan's one key function):
    # Plan.final_memo. Not where a fan excludes on the sets another uses, or the combine fans'
    # occurrences have no key.
    unkeyed = plan.unkeyed
    if not unkeyed or not present & unkeyed:
        key: Any = present
        if multi or present & plan.keyed_more:
            # (_final_key's common case written out: combine fans found, each count 1, no
            # exclusion on the sets, the plan's key function sets_key, whose integer the reading
            # keeps (below 2**64))
            sk = ctx._sets_key if plan.sets_keyed else None
            if sk is not None and not multi and type(sk) is int and not present & plan.on_sets:
                key = sk << plan.key_bits | present
            else:
                key = _final_key(ctx, plan, key, found, present, multi, counts)
        memo = plan.final_memo.get(lang)
        got = None if memo is None else memo.get(key)
        if got is not None:
            ctx._found = found  # (ctx.awarded, made on first read)
            kept, gone, total = got
            # (`fans` and `excluded` the memo's tuples themselves, where the fans kept are not
            # the fans found: read only (a model that trims the fans gives a new list), and a
            # list would be one more object a reading makes and reads)
            # (its slots stored here, Evaluation.__init__ not run: a class call to a Python
            # __init__ costs more than the six stores, on most readings)
            ev = _new(Evaluation)
            ev.decomposition = ctx.d
            ev.fans = found if kept is None else kept  # type: ignore[assignment]
            ev.excluded = gone
            ev.reason = None
            ev.pctx = ctx
            ev.total = total
            return ev
        ev = _all_passes(ctx, plan, lang, found, present, multi, True)
        plan.remember_final(key, lang, found, ev)
        return ev
    return _with_total(_all_passes(ctx, plan, lang, found, present, multi))


def _with_total(ev: Evaluation) -> Evaluation:
    """`ev` with its total (Evaluation.total: value x count summed in order, as
    Plan.remember_final sums it for the readings its memo takes)."""
    total = 0
    for a in ev.fans:
        total += a.amount
    ev.total = total
    return ev


def _final_key(ctx: Ctx, plan: Plan, key: int, found: list[Awarded], present: int, multi: int, counts: int) -> Any:
    """Plan.final_memo's key where the fans found are not all it takes (`key`: the fans found
    and the concealment): one integer where the combine fans' occurrences, if found, have a
    key of 64 bits or less (the plan's key function, a non-negative integer): the fans found
    (key_bits), that key above them (64 bits where counts follow; a fan whose bit is set is
    found, so no key of the fans found alone has these bits) and, where some fan counts more
    than once, the counts of the fans counting instances above that (`counts`, 4 bits each,
    none 0, in the order the fans found say). Else one flat tuple of the parts (a memo
    compares an integer, or a tuple's items, without following nested tuples)."""
    combine_key = None
    if present & plan.combine_bits:
        # (sets_key's value as it keeps it on the reading, which the reading's relations table
        # has mostly made: no call)
        if plan.combine_key is sets_key:
            combine_key = ctx._sets_key
        if combine_key is None:
            combine_key = plan.combine_key(ctx)  # type: ignore[misc]
    if present & plan.on_sets:
        return (key, tuple([a.count for a in found]) if multi else None, combine_key, *[f(ctx) for f in plan.on_sets_keys])  # type: ignore[union-attr]
    if multi:
        if multi is _WIDE:
            return (key, tuple([a.count for a in found]), combine_key)
        if combine_key is None:
            return counts << plan.key_bits + 64 | key
        if type(combine_key) is int and 0 <= combine_key < _KEY_CAP:
            return (counts << 64 | combine_key) << plan.key_bits | key
        return (key, tuple([a.count for a in found]), combine_key)
    if type(combine_key) is int and 0 <= combine_key < _KEY_CAP:
        return combine_key << plan.key_bits | key
    return (key, combine_key)


_WIDE = 2  # (evaluate_fans's `multi`: a count that 4 bits do not hold)
_KEY_CAP = 1 << 64  # (_final_key: the combine fans' key fits below the counts)


def _all_passes(ctx: Ctx, plan: Plan, lang: str, found: list[Awarded], present: int, multi: int, direct: bool = False) -> Evaluation:
    """The passes after the fans are found (evaluate_fans), with ctx.awarded given the fans
    found. `direct`: without the passes' own memos (the caller remembers the result in
    final_memo, whose key says at least as much)."""
    info = plan.found_info.get(present)
    if info is None:
        info = plan.info_of(present)
    flags, excl, combine_at = info
    ctx._found = found  # (ctx.awarded, made on first read)
    if direct:
        combos = [(found[i], e) for i, e in combine_at] if combine_at else []
        return passes(ctx, plan, lang, found, present, flags, excl, combos, multi, combine.candidates(ctx, combos, plan) if combos else None, True)
    if combine_at and plan.combine_key is not None and not present & plan.on_sets:
        # (remembered_passes's look-up first: a hit needs no list of the combine fans)
        got = plan.combined_memo.get(combined_key(ctx, plan, found, present, multi))
        if got is not None:
            shown, gone, take = got
            return Evaluation(ctx.d, kept_of(found, shown, take, plan, lang), list(gone), None, ctx)
    return passes(ctx, plan, lang, found, present, flags, excl, [(found[i], e) for i, e in combine_at] if combine_at else [], multi)


def _evaluate_in_step(ctx: Ctx, lang: str, plan: Plan, opening: bool) -> Evaluation:
    """evaluate_fans for a plan with a pattern that reads the fans found before it: ctx.awarded
    is kept up to date fan by fan."""
    found: list[Awarded] = []
    combos: list[tuple[Awarded, Entry]] = []  # the fans counted under the account-once principle
    awarded = ctx._awarded  # (ctx.awarded without its property: nothing is left pending here)
    flags = present = excl = 0
    multi = False
    for fn, e, single, bit in plan.for_reading(ctx, lang, opening):
        if fn is None:  # an exact fan: the reading's bits say it counts once
            n = 1
        else:
            n = fn(ctx)
            if not n:
                continue
        if n == 1 or not e.instance:
            awarded[e.id] = 1
        else:
            count = min(n, e.max_count) if e.max_count else n
            awarded[e.id] = count
            single = e.awarded(single.value, count, lang)
            multi = True
        found.append(single)
        if e.combine:
            combos.append((single, e))
        flags |= e.flags
        present |= bit
        excl |= e.excl_mask
    return passes(ctx, plan, lang, found, present, flags, excl, combos, multi)
