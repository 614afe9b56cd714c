"""The passes after a reading's fans are found (`scoring/fans.py`): the account-once choice of
combined sets (`combine.py`), exclusions and the fallback rule, with their own memos where the
fans stage's final memo does not take the reading."""

from __future__ import annotations

from collections.abc import Callable
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from mjtools.patterns.ctx import Ctx
from mjtools.scoring import combine
from mjtools.scoring.fan_entry import _BEATS, _COMBINE, _FALLBACK, Entry
from mjtools.scoring.result import Awarded, Evaluation

if TYPE_CHECKING:
    from mjtools.scoring.fans import Plan


def combined_key(ctx: Ctx, plan: Plan, found: list[Awarded], present: int, multi: int, groups: Any = None) -> tuple:
    """The key of Plan.combined_memo (remembered_passes): the concealment, the fans found, their
    counts where some count more than once, and the combine fans' groups (`groups`; else the
    value of the plan's one key function that says them)."""
    return (ctx.concealed_hand, present, tuple([a.count for a in found]) if multi else None, plan.combine_key(ctx) if groups is None else groups)


def remembered_passes(ctx: Ctx, plan: Plan, lang: str, found: list[Awarded], present: int, flags: int, excl: int, combos: list[tuple[Awarded, Entry]], multi: int) -> Evaluation:
    """passes for a reading with combine fans (none excluding on sets): the choice of combined
    sets and every pass after it depend only on the fans found (their values follow from the
    bits and the concealment; their counts) and the combine fans' occurrences, so they are
    remembered by those, as what is kept (place in `found`, a new count or None), removed, and
    an item getter of the places where no count changes."""
    # The combine fans' groups stand for the candidates in the key: the fans found (present),
    # the concealment and the counts say each candidate's value and place in the file.
    # (Where one key function says every combine fan's occurrences, its value stands for them.)
    kf = plan.combine_key
    groups = kf(ctx) if kf is not None else combine.occurrences(ctx, combos)
    key = combined_key(ctx, plan, found, present, multi, groups)
    memo = plan.combined_memo
    got = memo.get(key)
    if got is None:
        ev = passes(ctx, plan, lang, found, present, flags, excl, combos, multi, combine.candidates(ctx, combos, plan, combine.occurrences(ctx, combos) if kf is not None else groups))
        where = {a.id: i for i, a in enumerate(found)}
        shown = tuple([(where[a.id], None if a is found[where[a.id]] else a.count) for a in ev.fans])
        if len(memo) > 4096:
            memo.clear()
        memo[key] = (shown, tuple(ev.excluded), taker(shown))
        return ev
    shown, gone, take = got
    return Evaluation(ctx.d, kept_of(found, shown, take, plan, lang), list(gone), None, ctx)


def taker(shown: tuple[tuple[int, int | None], ...] | list[tuple[int, int | None]]) -> Callable[[list[Awarded]], tuple[Awarded, ...]] | None:
    """An item getter of the places kept, where no count changes (two places or more)."""
    return itemgetter(*[i for i, _ in shown]) if len(shown) > 1 and all(n is None for _, n in shown) else None


def kept_of(found: list[Awarded], shown: tuple[tuple[int, int | None], ...], take: Callable[[list[Awarded]], tuple[Awarded, ...]] | None, plan: Plan, lang: str) -> list[Awarded]:
    """The fans a remembered pass keeps, by their places in `found` (and new counts)."""
    if take is not None:
        return list(take(found))
    by_id = plan.by_id
    return [found[i] if n is None else by_id[found[i].id].awarded(found[i].value, n, lang) for i, n in shown]


def passes(ctx: Ctx, plan: Plan, lang: str, found: list[Awarded], present: int, flags: int, excl: int, combos: list[tuple[Awarded, Entry]], multi: int, cands: list | None = None, direct: bool = False) -> Evaluation:
    """The passes after the fans are found: the account-once choice, exclusions, fallbacks.
    `cands`: the combine fans' occurrences (combine.candidates), where the caller has them.
    `direct`: the exclusions worked out, not looked up (fans._all_passes)."""
    if len(found) < 2 and not flags & _COMBINE:
        return Evaluation(ctx.d, found, [], None, ctx)
    if flags & _COMBINE and cands is None and not present & plan.on_sets:
        return remembered_passes(ctx, plan, lang, found, present, flags, excl, combos, multi)
    removed: dict[str, str] = {}
    groups: dict[str, list[tuple[int, ...]]] = {}
    first = found  # the fans as the loop found them (the choice of combined sets may change them)
    if flags & _COMBINE:
        found, groups = combine.choose(ctx, found, combos, plan, lang, removed, cands)
    if len(found) < 2:
        return Evaluation(ctx.d, found, list(removed.items()), None, ctx)
    if not excl & present:
        # No fan found excludes another: at most the fallback rule applies (a fallback fan,
        # basic win or chicken hand, counts only when no other non-bonus fan does).
        if flags & _FALLBACK and flags & _BEATS:
            fallbacks = plan.fallbacks
            kept = []
            for a in found:
                if a.id in fallbacks:
                    removed[a.id] = "another fan"
                else:
                    kept.append(a)
            found = kept
        return Evaluation(ctx.d, found, list(removed.items()) if removed else [], None, ctx)
    if direct or present & plan.on_sets:
        kept = exclusions(ctx, found, plan, removed, lang, groups, excl & present, flags)
        return Evaluation(ctx.d, kept, list(removed.items()) if removed else [], None, ctx)
    # The passes below depend only on the fans found (before and after the choice of combined
    # sets), their counts and values: remembered.
    # (The ids follow from `present` while the choice of combined sets changed nothing.)
    # (The counts are all 1, and left out, while nothing counted more than once.)
    same = found is first
    key = (ctx.concealed_hand, present, None if same else tuple([a.id for a in found]), None if same and not multi else tuple([a.count for a in found]))
    memo = plan.exclude_memo
    got = memo.get(key)
    if got is None:
        before = len(removed)
        kept = exclusions(ctx, found, plan, removed, lang, groups, excl & present, flags)
        where = {id(a): i for i, a in enumerate(found)}
        shown = []
        for a in kept:
            i = where.get(id(a))
            if i is None:  # a count lowered: the same fan, another award
                i = next(j for j, b in enumerate(found) if b.id == a.id)
                shown.append((i, a.count))
            else:
                shown.append((i, None))
        if len(memo) > 4096:
            memo.clear()
        memo[key] = (tuple(shown), tuple(list(removed.items())[before:]), taker(shown))
    else:
        shown, gone, take = got
        kept = kept_of(found, shown, take, plan, lang)
        removed.update(gone)
    return Evaluation(ctx.d, kept, list(removed.items()) if removed else [], None, ctx)


def exclusions(ctx: Ctx, found: list[Awarded], plan: Plan, removed: dict[str, str], lang: str, groups: dict[str, list[tuple[int, ...]]], clash: int, flags: int) -> list[Awarded]:
    """The fans kept after the exclusions (`clash`: some fan found excludes another found) and
    the fallback rule, with `removed` filled in (fan -> what removed it). `flags`: those of the
    fans found, which the fans kept replace when some were excluded."""
    kept = found
    if clash:  # two of the fans found exclude one another (or a part of one another)
        kept = combine.exclude(ctx, found, {a.id for a in found}, plan, removed, lang, groups)
        by_id = plan.by_id
        flags = 0
        for a in kept:
            flags |= by_id[a.id].flags
    # A fallback fan (basic win, chicken hand) counts only when no other non-bonus fan does.
    if flags & _FALLBACK and flags & _BEATS:
        fallbacks = plan.fallbacks
        for a in kept:
            if a.id in fallbacks:
                removed[a.id] = "another fan"
        kept = [a for a in kept if a.id not in removed]
    return kept
