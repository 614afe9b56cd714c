"""Fans over groups of sets, counted under the account-once principle, and exclusions that
apply to the sets a fan uses or to a number of instances.

A fan marked `combine: sets` in a rule file counts groups of sets (its pattern's occurrences,
`patterns.INSTANCES`: two chows of 喜相逢, the three pungs of 三风刻 ...). All such fans of a
reading are chosen together, as the Chinese Official rulebook's principles say:

* non-split (不拆移): sets combined into a fan are not split up to make another fan among them;
* account-once (套算一次): a set joins an already combined group at most once;
* no-same (不得相同): a set that made a fan does not make the same fan again with another set.

Read as a graph over the sets, the first two say the chosen groups never close a loop (a group
of k sets joins k separate components), the third that two groups of one fan share no set. Of
the choices that obey them, the one worth most counts; between equal ones, more instances of the
fans listed earlier in the rule file.

Exclusions (`excludes`) may also be partial: `{fan: X, same_sets: true}` drops the instances of X made
of sets this fan uses (圈风刻 does not also count its pung as 幺九刻), `{fan: X, count: N}` drops N
instances of X (九莲宝灯 counts one 幺九刻 fewer).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from mjtools.patterns.ctx import Ctx
from mjtools.scoring.result import Awarded

if TYPE_CHECKING:
    from mjtools.scoring.fans import Entry, Plan

Group = tuple[int, ...]


def split_excludes(entries: Any) -> tuple[tuple[str, ...], tuple[tuple[str, int, bool], ...]]:
    """A fan's `excludes` as (whole fans, partial ones as (fan, count, on sets))."""
    whole: list[str] = []
    partial: list[tuple[str, int, bool]] = []
    for ex in entries or ():
        if type(ex) is not str and isinstance(ex, Mapping):
            partial.append((ex["fan"], int(ex.get("count", 0)), bool(ex.get("same_sets"))))
        else:
            whole.append(ex)
    return tuple(whole), tuple(partial)


def candidates(ctx: Ctx, combos: list[tuple[Awarded, Entry]], plan: Plan, occurrences: tuple[tuple[Group, ...], ...] | None = None) -> list[tuple[float, int, str, Group]]:
    """The occurrences of the combine fans found, as (value, place in the file, fan, sets): what
    the choice reads of the reading (with the fans' counts). `occurrences`: each combine fan's
    groups (occurrences()), where the caller has them."""
    order = plan.order
    if occurrences is None:
        occurrences = tuple([e.inst_fn(ctx) for _, e in combos])
    cands: list[tuple[float, int, str, Group]] = []
    for (a, _), groups in zip(combos, occurrences):
        fid = a.id
        value, at = a.value, order[fid]
        for g in groups:
            cands.append((value, at, fid, g))
    return cands


def occurrences(ctx: Ctx, combos: list[tuple[Awarded, Entry]]) -> tuple[tuple[Group, ...], ...]:
    """Each combine fan's groups of sets, in the order of `combos`: with the fans found and their
    values (which the fans and the concealment say), all that candidates() is made of."""
    return tuple([tuple(e.inst_fn(ctx)) for _, e in combos])


def choose(ctx: Ctx, found: list[Awarded], combos: list[tuple[Awarded, Entry]], plan: Plan, lang: str, removed: dict[str, str], cands: list[tuple[float, int, str, Group]] | None = None) -> tuple[list[Awarded], dict[str, list[Group]]]:
    """The found fans with the combine fans' counts set to the instances chosen, and the chosen
    groups per combine fan (the sets each uses, for exclusions on sets). `combos`: the combine
    fans among `found` with their entries, in the same order; `cands`: their candidates(),
    where the caller has them."""
    if cands is None:
        cands = candidates(ctx, combos, plan)
    chosen = _choice(cands, found, plan) if cands else []
    groups: dict[str, list[Group]] = {}
    for fid, g in chosen:
        got = groups.get(fid)
        if got is None:
            groups[fid] = [g]
        else:
            got.append(g)
    changed: dict[str, Awarded | None] | None = None  # fan -> its new award (None: none left)
    for a, e in combos:
        got = groups.get(a.id)
        if got:  # (_count inlined: once per combine fan found)
            n = len(got)
            if not e.instance:
                n = 1
            elif e.max_count and n > e.max_count:
                n = e.max_count
        else:
            n = 0
        if n != a.count:
            if changed is None:
                changed = {}
            changed[a.id] = e.awarded(a.value, n, lang) if n else None
    if changed is None:
        return found, groups
    out = []
    for a in found:
        if a.id in changed:
            new = changed[a.id]
            if new is None:
                removed[a.id] = "sets already combined"
            else:
                out.append(new)
        else:
            out.append(a)
    return out, groups


def _choice(cands: list[tuple[float, int, str, Group]], found: list[Awarded], plan: Plan) -> list[tuple[str, Group]]:
    """_best, remembered per plan: the same groups of sets recur from hand to hand."""
    key = tuple(cands)
    memo = plan.combine_memo
    got = memo.get(key)
    if got is None:
        if len(memo) > 4096:
            memo.clear()
        got = memo[key] = _best(cands, {a.id: plan.by_id[a.id] for a in found}, plan.order)
    return got


def _count(e: Entry, n: int) -> int:
    if not e.instance:
        n = min(n, 1)
    if e.max_count:
        n = min(n, e.max_count)
    return n


def _best(cands: list[tuple[float, int, str, Group]], entries: dict[str, Entry], order: dict[str, int]) -> list[tuple[str, Group]]:
    """The best choice of groups (see the module docstring)."""
    # Groups that share no set with any other need no search: all of them count.
    use = [0] * 8
    for *_, g in cands:
        for s in g:
            use[s] += 1
    free = [(fid, g) for _, _, fid, g in cands if all(use[s] == 1 for s in g)]
    rest = sorted((c for c in cands if not all(use[s] == 1 for s in c[3])), key=lambda c: (-c[0], c[1]))
    if not rest:
        return free
    bound = [0.0] * (len(rest) + 1)
    for i in range(len(rest) - 1, -1, -1):
        bound[i] = bound[i + 1] + rest[i][0]
    best: list[Any] = [None, []]
    comp = list(range(8))
    taken: dict[str, set[int]] = {}
    picked: list[tuple[str, Group]] = []
    value_of = {fid: v for v, _, fid, _ in cands}
    fids = sorted(value_of, key=order.__getitem__)

    def score() -> tuple:
        counts = dict.fromkeys(fids, 0)
        for fid, _ in picked:
            counts[fid] += 1
        for fid, _ in free:
            counts[fid] += 1
        shown = {f: _count(entries[f], n) for f, n in counts.items()}
        return (sum(value_of[f] * n for f, n in shown.items()), tuple(shown[f] for f in fids))

    def rec(i: int, value: float) -> None:
        if best[0] is not None and value + bound[i] < best[0][0]:
            return
        if i == len(rest):
            key = score()
            if best[0] is None or key > best[0]:
                best[0], best[1] = key, list(picked)
            return
        v, _, fid, g = rest[i]
        roots = [_find(comp, s) for s in g]
        mine = taken.setdefault(fid, set())
        if len(set(roots)) == len(roots) and mine.isdisjoint(g):
            saved = list(comp)
            for r in roots[1:]:
                comp[r] = roots[0]
            mine.update(g)
            picked.append((fid, g))
            rec(i + 1, value + v)
            picked.pop()
            mine.difference_update(g)
            comp[:] = saved
        rec(i + 1, value)

    rec(0, 0.0)
    return free + best[1]


def _find(comp: list[int], s: int) -> int:
    while comp[s] != s:
        s = comp[s]
    return s


def exclude(ctx: Ctx, found: list[Awarded], present: set[str], plan: Plan, removed: dict[str, str], lang: str, groups: dict[str, list[Group]]) -> list[Awarded]:
    """Exclusions, stronger fans first (limits, then value, then file order): whole fans are
    removed; partial ones drop instances. Returns the fans kept, with their counts. Only fans
    that exclude one of the fans present take part (the others exclude nothing)."""
    order = plan.order
    by_id = plan.by_id
    excludes = plan.excludes
    hits = [a for a in found if a.id in excludes and not excludes[a.id].isdisjoint(present)]
    if len(hits) > 1:
        hits.sort(key=lambda a: (not a.limit, -a.value * a.count, order[a.id]))
    counts: dict[str, int] = {}
    live: dict[str, list[Group]] = {}

    def instances_of(fid: str) -> list[Group]:
        got = live.get(fid)
        if got is None:
            got = live[fid] = list(groups[fid]) if fid in groups else list(by_id[fid].inst_fn(ctx))
        return got

    for a in hits:
        if a.id in removed:
            continue
        e = by_id[a.id]
        for ex in e.excludes:
            if ex in present and ex not in removed:
                removed[ex] = a.id
        for fid, n, on_sets in e.partial:
            if fid not in present or fid in removed:
                continue
            if on_sets:
                mine = {s for g in instances_of(a.id) for s in g}
                theirs = instances_of(fid)
                keep = [g for g in theirs if not set(g) <= mine]
                n = len(theirs) - len(keep)
                live[fid] = keep
            if fid not in counts:
                counts[fid] = next(x.count for x in found if x.id == fid)
            counts[fid] -= n
            if counts[fid] <= 0:
                removed[fid] = a.id
    if not counts:
        return [a for a in found if a.id not in removed]
    out = []
    for a in found:
        if a.id in removed:
            continue
        n = counts.get(a.id, a.count)
        out.append(a if n == a.count else by_id[a.id].awarded(a.value, n, lang))
    return out
