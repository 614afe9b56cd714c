"""The `efficient` bot: plays toward the hand the variant accepts and pays for, fast.

Every decision weighs plans (`plans.py`): for each plan the hand can still make, the best
discards under it (least shanten, then most live tiles that lower it), the value of a win
with it (the rule file's own fans, scored on representative hands: 0 where the variant
refuses the win) and the chance of completing it before the wall runs out (from the shanten,
the live tiles and the draws left, calls and wins on discards counted where the plan allows
them). It plays the discard of the largest value x chance, and calls a tile when that raises
value x chance. `docs/bots.md` gives the model and its constants.

It reads the rule file only: minimums (`win.minimum`), yaku, `must_open`, ready declaration,
shape requirements (they are in the analysis), which honor pungs pay (scored), which wins are
self-draw only (scored). Ties break on a fixed order (isolated honors and terminals first,
value honors last), never on set or dict order.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import compress
from operator import itemgetter

from mjtools.analysis.tables import INF
from mjtools.rules.model import Ruleset
from mjtools.sim.bot import Bot, _neighbours
from mjtools.sim.config import config, kind_of
from mjtools.sim.fastplanrows import symmetric
from mjtools.sim.fastrows import least_discards
from mjtools.sim.fastshape import Analyzer, Melds, Row
from mjtools.sim.plans import ANY, TERMINALS_HONORS, Plan, lower_bound, plan_analyzer, plans_for, values_for, win_chance
from mjtools.sim.state import Action, View

PAIR_TO_PUNG = 0.4  # the chance a value-honor pair held becomes a pung (its value, weighted)
CALL_LOOKS = 0.5  # improving tiles a call may take, per other player's discard, against a draw
NO_TERMINAL = 0.6  # weight of a hand without a terminal where the variant requires one
HAZARD = {"first_win": 0.035, "bloody_battle": 0.01}  # per other player (plans.chance)
MARGIN = 1.05  # a call must raise value x chance by this factor
GAIN = 2.5  # a narrower plan is weighed when it may pay this much more than the variant's shapes
BEHIND = 1  # where they pay nothing, plans this much behind the nearest one are weighed too
TOP_ROWS = 6  # discards weighed per plan (the best by shanten, then live tiles)
NEAR_LIVE = 0.7  # ... keeping at least this share of the best discard's live tiles
_KINDS50 = range(50)


class Decision:
    """What one decision reads about the table, worked out once (the table's state only
    when value x chance is asked for)."""

    __slots__ = ("view", "an", "m", "counts", "concealed", "_held", "_unseen", "_per", "_melded", "_hazard")

    def __init__(self, view: View, hazard: float = 0.0):
        me = view.me
        self.view = view
        self.an: Analyzer = view.analyzer()
        self.m: Melds = view.melds_info()
        self.counts = me.counts
        self.concealed = not self.m.n or me.concealed
        self._hazard = hazard
        self._held: list[int] | None = None
        self._unseen: list[int] | None = None
        self._per: tuple[int, int, int, float] | None = None
        self._melded: frozenset[int] | None = None

    @property
    def held(self) -> list[int]:
        if self._held is None:
            self._held = self.view.me.held()
        return self._held

    @property
    def unseen(self) -> list[int]:
        if self._unseen is None:
            self._unseen = self.view.unseen()
        return self._unseen

    def _table(self) -> tuple[int, int, int, float]:
        if self._per is None:
            view = self.view
            active = sum(1 for p in view.players if not p.out)
            # (unseen tiles, own draws left, other players, the chance a go-around that another
            # player's win ends the hand for this one)
            self._per = (max(1, sum(self.unseen)), max(0, view.wall_left // max(1, active)), active - 1, self._hazard * (active - 1))
        return self._per

    left = property(lambda self: self._table()[0])
    rounds = property(lambda self: self._table()[1])
    others = property(lambda self: self._table()[2])
    hazard = property(lambda self: self._table()[3])

    @property
    def melded(self) -> frozenset[int]:
        """Kinds shown by this player's pungs and kongs (value honors already made)."""
        if self._melded is None:
            self._melded = frozenset(m.tiles[0] & 63 for m in self.view.me.melds if m.kind != "chow")
        return self._melded

    @melded.setter
    def melded(self, kinds: frozenset[int]) -> None:
        self._melded = kinds


class EfficientBot(Bot):
    """Value x speed over plans (see the module docstring)."""

    name = "efficient"

    def __init__(self, seat: str, rules: Ruleset, rng: random.Random):
        super().__init__(seat, rules, rng)
        cfg = config(rules)
        win = rules.section("win")
        self.cfg = cfg
        self.must_open = bool(win.get("must_open"))
        self.declare_always = bool(win.get("ready_declaration"))
        self.can_call = cfg.pon or cfg.chi
        self.need_terminal = "terminal_required" in rules.requirements
        self.values = values_for(rules, seat, cfg.declare_ready)
        self.value_kinds = self.values.value_kinds()
        # the counts of the value honors as a tuple (two or more of them: one is no tuple)
        self._value_counts = itemgetter(*sorted(self.value_kinds)) if len(self.value_kinds) > 1 else None
        self.plans = [p for p in plans_for(rules.base_spec) if p is not ANY]
        self.families = ["any"] + sorted({p.family for p in self.plans})
        self.plan_families = [(p, p.family) for p in self.plans]
        self.hazard = HAZARD.get(cfg.end, 0.0)
        self.plan: Plan = ANY  # the plan of the last discard (calls are weighed for it)
        self.live = 0  # live tiles of the last discard under that plan
        self.last: tuple | None = None  # (hand after it, shanten, live tiles, value x chance)
        self._flush: dict[tuple, tuple[int, list[int] | None]] = {}  # (`_flush_key`)
        self._weighable: dict[int, tuple[dict[str, float], list[tuple[int, Plan, float]]]] = {}  # id of a `_vmaxes` answer -> it, its plans

    # -- value x chance ---------------------------------------------------------------------
    def _honors(self, d: Decision, counts: Sequence[int]) -> tuple[int, int]:
        """(value honors made or held three times, value honors held as a pair)."""
        made = pairs = 0
        if self.value_kinds:
            melded = d.melded
            if not melded and self._value_counts is not None:  # (nothing made by a meld: counted in C)
                held = self._value_counts(counts)
                pairs = held.count(2)
                return len(held) - held.count(0) - held.count(1) - pairs, pairs
            for k in self.value_kinds:
                c = counts[k]
                if c >= 3 or k in melded:
                    made += 1
                elif c == 2:
                    pairs += 1
        return made, pairs

    def _value(self, plan: Plan, made: int, pairs: int, laid: bool) -> tuple[float, float]:
        """(self-draw, ron) value of a win with the plan, pairs weighted by their chance."""
        fam = plan.family
        if plan.name in ("full", "form"):
            made = pairs = 0
        v0 = self.values.value(fam, made, laid)
        if not pairs:
            return v0
        v1 = self.values.value(fam, made + pairs, laid)
        q = PAIR_TO_PUNG
        return ((1 - q) * v0[0] + q * v1[0], (1 - q) * v0[1] + q * v1[1])

    def _ev(self, d: Decision, plan: Plan, shanten: int, live: int, honors: tuple[int, int], counts: Sequence[int], laid: bool | None = None) -> float:
        """Value x chance of completing the plan from a hand of this shanten and live tiles
        (`honors`: its value honors made and paired). A concealed hand may stay concealed or
        call: the better of the two counts."""
        if shanten >= INF:
            return 0.0
        made, pairs = honors
        laid = (not d.concealed) if laid is None else laid
        ways = (laid,) if laid or not self.can_call or plan.name == "form" else (False, True)
        best = 0.0
        left, rounds, others, hazard = d._per or d._table()
        for open_ in ways:
            vt, vr = self._value(plan, made, pairs, open_)
            if vt <= 0 and vr <= 0:
                continue
            ron = others if vr > 0 else 0
            looks = 1 + (CALL_LOOKS * others if open_ else 0)
            p = win_chance(shanten, live, live if shanten == 0 else min(live, 8), left, looks, 1 + ron, rounds, hazard)
            v = (vt + ron * vr) / (1 + ron)
            if v * p > best:
                best = v * p
        if self.need_terminal and best and not any(counts[k] for k in TERMINALS_HONORS) and not any(k in TERMINALS_HONORS for k in d.melded):
            best *= NO_TERMINAL
        return best

    # -- decisions ------------------------------------------------------------------------------
    def act(self, view: View, actions: Sequence[Action]) -> Action:
        by: dict[str, list[Action]]
        if actions[0].kind == "discard":  # (options list discards last: all are discards)
            by = {"discard": actions}  # type: ignore[dict-item]
        else:
            by = {}
            for a in actions:  # (a turn lists a dozen discards: no empty list made per action)
                got = by.get(a.kind)
                if got is None:
                    by[a.kind] = [a]
                else:
                    got.append(a)
        for win in ("tsumo", "ron"):
            if win in by:
                return by[win][0]
        if view.phase == "claim":
            return self._claim(view, by)
        if "abort" in by and sum(1 for k in TERMINALS_HONORS if view.counts[k]) <= 10:
            return by["abort"][0]
        if "kita" in by:
            return by["kita"][0]
        for kong in ("concealed_kong", "added_kong"):
            for a in by.get(kong, ()):
                if self._kong_ok(view, a):
                    return a
        if not by.get("discard"):
            return actions[0]
        kind, row = self.choose_discard(view, by)
        riichi = {a.tile & 63: a for a in by["riichi"]} if "riichi" in by else {}  # (tile & 63: its kind, `kind_of`)
        if kind in riichi and row is not None and row.shanten == 0 and (row.live > 0 or self.declare_always):
            return riichi[kind]
        for a in by["discard"]:
            if a.tile & 63 == kind:
                return a
        raise AssertionError(f"no discard of kind {kind}")

    def allowed_discards(self, view: View, by: dict[str, list[Action]]) -> set[int]:
        """Kinds it may discard: wildcards stay while anything else can go, unless putting one
        out counts for its wins (play.discard_situations: 红中杠 / 赖子杠)."""
        kinds = {a.tile & 63 for a in by["discard"]}
        wild = view.wild_kinds
        if not wild:
            return kinds
        natural = {k for k in kinds if k not in wild}
        return (natural | (kinds & view.counted_kinds)) or kinds

    def choose_discard(self, view: View, by: dict[str, list[Action]]) -> tuple[int, Row | None]:
        """(the kind to discard, its row under the chosen plan)."""
        d = Decision(view, self.hazard)
        allowed = self.allowed_discards(view, by)
        ok = allowed.__contains__
        honors = self._honors(d, d.counts)
        vmaxes = self._vmaxes(d, honors)
        v_any = vmaxes["any"]
        rows: list[Row] = []
        sh_any = live = 0
        if v_any or view.counted_kinds:  # (where the variant's shapes pay nothing, their
            # discards are looked at only if no plan pays either)
            rows = d.an.discard_rows(d.counts, d.m, d.held, d.unseen, ok, True)
            counted = view.counted_kinds
            if counted:  # a 红中杠 / 赖子杠 that costs no shanten is put out at once
                put = [r for r in rows if r.kind in counted]
                if put:
                    return put[0].kind, put[0]
            if not rows:
                return min(allowed), None
            sh_any, live = rows[0].shanten, rows[0].live
        # a narrower plan is never quicker than the variant's own shapes: it is weighed when
        # it pays clearly more and is as near (or when the variant's shapes pay nothing)
        weigh = []
        spec = d.an.spec
        far = sh_any if v_any else INF
        got = self._weighable.get(id(vmaxes))
        if got is None:  # (the plans that may pay clearly more, flushes apart: per `_vmaxes` answer, kept alive here)
            worth = [(i, plan, vmaxes[fam]) for i, (plan, fam) in enumerate(self.plan_families, 1) if not (vmaxes[fam] < GAIN * v_any or not vmaxes[fam])]
            flushes = [(i, plan, vmax, plan.suit, plan.name == "half") for i, plan, vmax in worth if plan.suit is not None]
            got = self._weighable[id(vmaxes)] = (vmaxes, flushes, [w for w in worth if w[1].suit is None])
        if got[1] or got[2]:
            # tiles held per group m, p, s, z (for the lower bounds)
            c = d.counts
            wild_held = sum(c[k] for k in spec.wild_kinds) if spec.wild_kinds else 0
            if wild_held:  # (natural tiles only: wildcards counted apart)
                c = list(c)
                for k in spec.wild_kinds:
                    c[k] = 0
            groups = (sum(c[0:9]), sum(c[9:18]), sum(c[18:27]), sum(c[27:34]), sum(c[34:]))
            total = groups[0] + groups[1] + groups[2] + groups[3] + groups[4]
            # a flush's bound: natural tiles of the other groups go; none is below a half
            # flush of the suit held most, so past that every flush is passed over at once
            if got[1] and total - max(groups[0], groups[1], groups[2]) - groups[3] - 2 <= far:
                for i, plan, vmax, suit, half in got[1]:
                    bound = total - groups[suit] - (groups[3] if half else 0) - 2
                    if bound > far or (d.m.n and not plan.fits(d.m, spec)):
                        continue
                    weigh.append((bound, i, plan, vmax))
            for i, plan, vmax in got[2]:
                bound = lower_bound(plan, c, d.m, spec, groups, wild_held)
                if bound > far or (d.m.n and not plan.fits(d.m, spec)):
                    continue
                weigh.append((bound, i, plan, vmax))
        # weighed: plans as near as the variant's shapes, or where those pay nothing, the
        # plans at most BEHIND the nearest one (exact shanten worked out nearest bound first)
        near = far
        found = []
        for bound, i, plan, vmax in sorted(weigh, key=lambda w: (w[0], w[1])):
            if bound > near:
                break
            pa, counts = self._plan_hand(d, plan)
            nat, wild = pa.natural(counts)
            sig = self._low_key(plan, pa, nat, wild, d.m)
            got = self._flush.get(sig) if sig is not None else None
            if got is not None:
                low = got[0]
            else:
                low = pa.shanten(nat, wild, d.m)  # no discard gets below the 14-tile hand's
                if sig is not None:
                    self._flush[sig] = (low, None)
            if low <= near and low < INF:
                found.append((low, i, plan, pa, counts, vmax))
                if not v_any:
                    near = min(near, low + BEHIND)
        weigh = [w for w in found if w[0] <= near]
        cands = []
        if weigh:
            cands = self._scored(d, ANY, rows, view.counts) if rows else []
            best = max((c[0] for c in cands), default=0.0)
            most = max((c[3].live for c in cands), default=0)
            for low, i, plan, pa, counts, _v in sorted(weigh, key=lambda w: (w[0], -w[5], w[1])):
                # a plan whose value x chance cannot beat the best so far, even with as many
                # live tiles as the best discard so far, is passed over
                if best > 0 and most and self._ev(d, plan, low, most, honors, d.counts) <= best:
                    continue
                got = self._scored(d, plan, self._plan_rows(d, plan, pa, counts, ok, low), view.counts, i)
                cands += got
                for c in got:
                    if c[0] > best:
                        best, most = c[0], max(most, c[3].live)
        if not cands or max(c[0] for c in cands) <= 0:
            # the variant's shapes alone (equal discards keep value honors: `_tie`), or
            # nothing pays or completes in time: the discards of plain tile efficiency
            if not rows:
                rows = d.an.discard_rows(d.counts, d.m, d.held, d.unseen, ok, True)
                if not rows:
                    return min(allowed), None
                sh_any, live = rows[0].shanten, rows[0].live
            cands = []
            for r in rows:  # (best first: the equals of the first lead)
                if r.shanten != sh_any or r.live != live:
                    break
                cands.append((0.0, 0, ANY, r))
        if len(cands) > 1:
            ties: dict[int, tuple] = {}
            counts = view.counts

            def tie(k: int) -> tuple:
                got = ties.get(k)
                if got is None:
                    got = ties[k] = self._tie(k, counts)
                return got

            cands.sort(key=lambda c: (-c[0], c[1], tie(c[3].kind)))
        ev, _, plan, row = cands[0]
        self.plan, self.live = plan, row.live
        after = list(d.counts)
        after[row.kind] -= 1
        self.last = (after, row.shanten, row.live, ev if ev > 0 else None)
        return row.kind, row

    def _scored(self, d: Decision, plan: Plan, rows: list[Row], counts: Sequence[int], order: int = 0) -> list[tuple[float, int, Plan, Row]]:
        """(value x chance, plan order, plan, row) for the rows of least shanten and nearly the
        most live tiles."""
        if not rows:
            return []
        least, most = rows[0].shanten, rows[0].live
        out = []
        after = list(counts)
        honors = self._honors(d, counts)
        seen: dict[tuple, float] = {}  # discards leaving the same shanten, live tiles and honors
        for r in rows[:TOP_ROWS]:
            if r.shanten != least or r.live < NEAR_LIVE * most:
                break
            after[r.kind] -= 1
            h = self._honors(d, after) if r.kind in self.value_kinds else honors
            key = (r.live, h, self.need_terminal and r.kind in TERMINALS_HONORS)
            ev = seen.get(key)
            if ev is None:
                ev = seen[key] = self._ev(d, plan, r.shanten, r.live, h, after)
            out.append((ev, order, plan, r))
            after[r.kind] += 1
        return out

    def _vmaxes(self, d: Decision, honors: tuple[int, int]) -> dict[str, float]:
        """Per plan family, the most a win with it may pay from here (value honors held as
        pairs counted as made), remembered per (honors, concealed)."""
        n = honors[0] + honors[1]
        key = (n, d.concealed, self.can_call)
        memo = self.values.vmax
        got = memo.get(key)
        if got is None:
            got = memo[key] = {}
            for fam in self.families:
                h = 0 if fam == "full" or fam.startswith("form:") else n
                ways = (not d.concealed,) if not d.concealed or not self.can_call or fam.startswith("form:") else (False, True)
                got[fam] = max(max(self.values.value(fam, h, w)) for w in ways)
        return got

    def _flush_key(self, plan: Plan, nat: list[int], wild: int, m: Melds) -> tuple | None:
        """A flush's analysis reads only its own suit (and honors): its shanten and improving
        tiles, remembered for the hand on that part (a tile of another suit drawn or let go
        leaves them as they were)."""
        if plan.suit is None:
            return None
        lo = 9 * plan.suit
        return (plan, bytes(nat[lo : lo + 9]), bytes(nat[27:34]) if plan.name == "half" else b"", wild, m)

    def _low_key(self, plan: Plan, pa: Analyzer, nat: list[int], wild: int, m: Melds) -> tuple | None:
        """The key a plan's 14-tile shanten is remembered under: a flush's own suit
        (`_flush_key`), or, where the plan's analysis treats every kind alike (all pungs:
        `fastplanrows.symmetric`), how many kinds the hand holds once, twice, three and four times."""
        if plan.suit is not None:
            return self._flush_key(plan, nat, wild, m)
        if wild or not (pa.symmetric if pa.symmetric is not None else symmetric(pa)) or any(nat[34:]):
            return None
        c = bytes(nat[:34])  # (bytes.count: no compare per element)
        return (plan, c.count(1), c.count(2), c.count(3), c.count(4), m)

    def _plan_hand(self, d: Decision, plan: Plan) -> tuple[Analyzer, list[int]]:
        """The plan's analysis and the hand it reads (`simples`: terminals and honors out)."""
        if plan.name == "simples":
            counts = list(d.counts)
            for k in TERMINALS_HONORS:
                counts[k] = 0
            return d.an, counts
        return plan_analyzer(d.an, plan), d.counts

    def _plan_rows(self, d: Decision, plan: Plan, pa: Analyzer, counts: list[int], ok, low: int) -> list[Row]:
        """The plan's discards of least shanten (`low`: that of the 14-tile hand). A tile the
        plan has no use for (another suit of a flush; a terminal or honor for all simples)
        leaves the plan's hand as it is: while one is held, those are its best discards."""
        kinds = plan.kinds(d.an.spec)
        if kinds is not None:
            wild_kinds, stand = pa.wild, pa.stand
            out = [k for k in compress(_KINDS50, d.counts) if ok(k) and k not in wild_kinds and stand.get(k, k) not in kinds]
            if out:
                nat, wild = pa.natural(counts)
                sig = self._flush_key(plan, nat, wild, d.m)
                got = self._flush.get(sig) if sig is not None else None
                if got is not None and got[1] is not None:
                    eff = got[1]
                else:
                    if plan.name != "simples":  # (a simples hand reads counts without them)
                        nat[pa.stand.get(out[0], out[0])] -= 1
                    _sh, eff = pa.effective(nat, wild, d.m, d.held)
                    eff = [e for e in eff if e in kinds or e in pa.wild]
                    if sig is not None:
                        self._flush[sig] = (low, eff)
                live = sum(map(d.unseen.__getitem__, eff))
                return [Row(k, low, eff, live) for k in out]
        if plan.name != "simples":
            return pa.discard_rows(counts, d.m, d.held, d.unseen, ok, True)
        rows = pa.discard_rows(counts, d.m, d.held, d.unseen, ok, True)
        for r in rows:
            r.effective = [e for e in r.effective if e not in TERMINALS_HONORS]
            r.live = sum(d.unseen[e] for e in r.effective)
        rows.sort(key=lambda r: (r.shanten, -r.live, r.kind))
        return rows

    def _tie(self, k: int, counts: Sequence[int]) -> tuple[int, int, int]:
        """Lower is discarded first among equally good tiles."""
        if k >= 27:
            return (0 if k not in self.value_kinds else 1, counts[k], k)
        edge = 0 if k % 9 in (0, 8) else 1
        return (1 + edge, _neighbours(counts, k), k)

    # -- kongs and calls ------------------------------------------------------------------------
    def _shanten13(self, view: View, counts: list[int], melds: Melds) -> int:
        an = view.analyzer()
        nat, wild = an.natural(counts)
        return an.shanten(nat, wild, melds)

    def _kong_ok(self, view: View, a: Action) -> bool:
        """A kong is made when it costs no shanten (and keeps a concealed hand concealed, or
        the hand is open already)."""
        me = view.me
        k = a.tile
        an = view.analyzer()
        counts = list(me.counts)
        kinds = me.meld_kinds()
        hidden = sum(1 for m in me.melds if m.kind == "concealed_kong")
        if a.kind == "concealed_kong":
            counts[k] -= 4
            after = self._shanten13(view, counts, an.melds(kinds + [(k,) * 4], hidden + 1))
        else:
            counts[k] -= 1
            melds = [m.kinds if kind_of(m.tiles[0]) != k or m.kind != "pung" else (k,) * 4 for m in me.melds]
            after = self._shanten13(view, counts, an.melds(melds, hidden))
        sh = an.discard_shanten(me.counts, view.melds_info(), list(compress(_KINDS50, me.counts)))
        return after <= min(sh.values())

    def _claim(self, view: View, by: dict[str, list[Action]]) -> Action:
        d = Decision(view, self.hazard)
        me = view.me
        plans = [self.plan] if self.plan is ANY else [self.plan, ANY]
        must = me.concealed and self.must_open
        honors0 = self._honors(d, me.counts)
        # the calls worth weighing: a win with the hand laid down after them pays something
        options = []
        for kind in ("exposed_kong", "pon", "chi"):
            for a in by.get(kind, ()):
                meld = tuple(sorted(kind_of(t) for t in a.tiles + (a.tile,)))
                honors = honors0
                if meld[0] in self.value_kinds and me.counts[meld[0]] == 2:  # (a pon of a value pair makes it)
                    honors = (honors0[0] + 1, honors0[1] - 1)
                pays = [p for p in plans if max(self._value(p, *honors, True)) > 0]
                if pays:
                    options.append((kind, a, meld, honors, pays))
        if not options:
            return by["pass"][0]
        an = d.an
        state = self._state(d, plans)
        before = max(got[2] if got is not None else 0.0 for got in state.values())
        best: tuple[float, Action] | None = None
        kinds = me.meld_kinds()
        hidden = sum(1 for m in me.melds if m.kind == "concealed_kong")
        for kind, a, meld, honors, pays in options:
            counts = list(me.counts)
            for t in a.tiles:
                counts[kind_of(t)] -= 1
            was = d.melded
            if meld[0] == meld[-1]:
                d.melded = was | {meld[0]}
            melds = None
            for plan in pays:
                got = state[plan]
                if got is None:
                    got = state[plan] = self._plan_state(d, plan, honors0)
                sh, live, _ev = got
                # weighed only if a win laid down pays more than the value x chance the hand
                # has, and taking it one step nearer does too
                if not must and kind != "exposed_kong":
                    if max(self._value(plan, *honors, True)) <= before * MARGIN:
                        continue
                    if self._ev(d, plan, max(0, sh - 1) if sh < INF else INF, max(live, 1), honors, counts, laid=True) <= before * MARGIN:
                        continue
                if melds is None:
                    melds = an.melds(kinds + [meld], hidden)
                if not plan.fits(melds, an.spec):
                    continue
                after = self._after_call(d, plan, counts, melds, kind == "exposed_kong")
                if after >= INF:
                    continue
                ev = self._ev(d, plan, after, max(live, 1), honors, counts, laid=True)
                opening = must and after <= sh and ev > 0
                gain = ev > before * MARGIN or (kind == "exposed_kong" and after <= sh and ev >= before) or opening
                if gain and (best is None or ev > best[0]):
                    best = (ev, a)
            d.melded = was
        return best[1] if best else by["pass"][0]

    def _state(self, d: Decision, plans: list[Plan]) -> dict[Plan, tuple[int, int, float] | None]:
        """(shanten, live tiles, value x chance) of the hand under each plan; the chosen
        plan's as its last discard left them (the hand has not changed since)."""
        out = {}
        for plan in plans:
            if plan is self.plan and self.last is not None and self.last[0] == d.counts:
                _after, sh, live, ev = self.last
                if ev is None:
                    ev = self._ev(d, plan, sh, live, self._honors(d, d.counts), d.counts)
                out[plan] = (sh, live, ev)
                continue
            honors = self._honors(d, d.counts)
            if self._valueless(d, plan, honors):
                out[plan] = None  # (its value x chance is 0 whatever its shanten: `_plan_state` if read)
                continue
            out[plan] = self._plan_state(d, plan, honors)
        return out

    def _valueless(self, d: Decision, plan: Plan, honors: tuple[int, int]) -> bool:
        """Whether a win with the plan pays nothing whichever way `_ev` weighs it (then its
        value x chance is 0, whatever the shanten and live tiles)."""
        laid = not d.concealed
        ways = (laid,) if laid or not self.can_call or plan.name == "form" else (False, True)
        return all(max(self._value(plan, honors[0], honors[1], w)) <= 0 for w in ways)

    def _plan_state(self, d: Decision, plan: Plan, honors: tuple[int, int]) -> tuple[int, int, float]:
        """(shanten, live tiles, value x chance) of the hand under the plan."""
        pa, counts = self._plan_hand(d, plan)
        nat, wild = pa.natural(counts)
        sh, eff = pa.effective(nat, wild, d.m, d.held)
        live = sum(d.unseen[e] for e in eff)
        return sh, live, self._ev(d, plan, sh, live, honors, d.counts)

    def _after_call(self, d: Decision, plan: Plan, counts: list[int], melds: Melds, kong: bool) -> int:
        """Shanten under the plan after the call (and, for a chi or pon, the best discard)."""
        pa = plan_analyzer(d.an, plan) if plan.name != "simples" else d.an
        if plan.name == "simples":
            counts = list(counts)
            for k in TERMINALS_HONORS:
                counts[k] = 0
        if kong:
            nat, wild = pa.natural(counts)
            return pa.shanten(nat, wild, melds)
        kinds = list(compress(_KINDS50, counts))
        if not kinds:
            return INF
        return least_discards(pa, counts, melds, kinds)[0]
