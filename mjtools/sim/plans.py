"""Plans: the hands a bot may aim for, how near each one is, and what a win with it pays.

A *plan* narrows the winning shape: `any` (the variant's own shapes), `half` (one suit and
honors), `full` (one suit), `pungs` (no chows), `simples` (no terminal or honor), or one of
the variant's other forms alone (`form`: seven pairs, 将将和, 十三烂, ...). Each plan but
`simples` is a `ShapeSpec` narrowed from the variant's (fewer kinds, no chows, one form), so
its distance, effective tiles and discards come from the same table-driven analysis as the
variant's own (`fastshape.Analyzer`), requirements (2-5-8 pair, 缺一门, ...) included;
`simples` reads the variant's analysis with terminals and honors taken out of the hand.

What a plan pays is read from the rule file through the scoring engine: a few representative
completed hands of the plan (`TEMPLATES`; value-honor pungs, a laid-down set and a declared
ready hand added as the player's state asks) are scored by ron and by self-draw, and a hand
the variant does not accept (below its minimum, no yaku, not opened, ...) pays 0. Values are
worked out once per ruleset, seat and key, when first asked for. `docs/bots.md` describes how
the bots weigh them against speed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType
from typing import TYPE_CHECKING

from mjtools.analysis.shapes import ShapeSpec

if TYPE_CHECKING:
    from mjtools.rules.model import Ruleset
    from mjtools.sim.fastshape import Analyzer, Melds

TERMINALS_HONORS = frozenset((0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33))
_TH_LIST = sorted(TERMINALS_HONORS)
HONORS = tuple(range(27, 34))
# requirements on the shape beyond the analysis' spec (`win.require`): a representative hand
# they rule out stands for no hand the bots would play toward, so it is left out
SHAPE_REASONS = frozenset({"missing_suit", "pair_258", "min_tiles_one_suit", "all_three_suits_required", "terminal_required", "pung_required"})
MAX_HONORS = 2  # value-honor pungs a representative hand holds at most (more are rare)


@dataclass(frozen=True, eq=False)
class Plan:
    """A narrowed target: `name` (any, half, full, pungs, simples, form), the suit of a flush
    (0 m, 1 p, 2 s) and the form of a `form` plan. The plans of a spec are made once
    (`plans_for`) and compared by identity, which keeps the lookups of their analyses quick."""

    name: str
    suit: int | None = None
    form: str | None = None

    def __str__(self) -> str:
        if self.suit is not None:
            return f"{self.name}:{'mps'[self.suit]}"
        return f"{self.name}:{self.form}" if self.form else self.name

    @property
    def family(self) -> str:
        """The key of its value: flushes of every suit pay alike."""
        return _family(self)

    def kinds(self, base: ShapeSpec) -> frozenset[int] | None:
        """The kinds a hand of this plan may hold (None: the variant's)."""
        return _plan_kinds(self, base.kinds)

    def _kinds(self, base_kinds: frozenset[int]) -> frozenset[int] | None:
        if self.name == "half":
            return frozenset(k for k in base_kinds if (k < 27 and k // 9 == self.suit) or 27 <= k < 34)
        if self.name == "full":
            return frozenset(k for k in base_kinds if k < 27 and k // 9 == self.suit)
        if self.name == "simples":
            return frozenset(k for k in base_kinds if k not in TERMINALS_HONORS)
        return None

    def spec(self, base: ShapeSpec) -> ShapeSpec | None:
        """The narrowed spec (None for `any` and `simples`, which read the variant's)."""
        if self.name in ("any", "simples"):
            return None
        if self.name in ("half", "full"):
            forms = tuple(f for f in base.forms if f in ("standard", "seven_pairs"))
            return base.replace(kinds=self.kinds(base), forms=forms, max_suits=None)
        if self.name == "pungs":
            return base.replace(forms=("standard",), chows=False)
        return base.replace(forms=(self.form,))

    def fits(self, melds: Melds, base: ShapeSpec) -> bool:
        """Whether the melds laid down still allow the plan."""
        if not melds.n:
            return True
        if self.name == "form":
            return self.form == "all_258" and melds.pungs_only
        if self.name == "pungs":
            return melds.pungs_only
        kinds = self.kinds(base)
        return kinds is None or melds.kinds <= kinds


ANY = Plan("any")


@lru_cache(maxsize=256)
def _family(plan: Plan) -> str:
    return f"form:{plan.form}" if plan.form else plan.name


@lru_cache(maxsize=1024)
def _plan_kinds(plan: Plan, base_kinds: frozenset[int]) -> frozenset[int] | None:
    return plan._kinds(base_kinds)


@lru_cache(maxsize=64)
def plans_for(base: ShapeSpec) -> list[Plan]:
    """Every plan a spec allows, `any` first (one list per spec: do not change it)."""
    suits = [s for s in range(3) if all(k in base.kinds for k in range(9 * s, 9 * s + 9))]
    honors = any(k in base.kinds for k in HONORS)
    out = [ANY]
    if len(suits) > 1 or honors:
        out += [Plan("full", s) for s in suits]
    if honors:
        out += [Plan("half", s) for s in suits]
    if "standard" in base.forms:
        out.append(Plan("pungs"))
        if honors:
            out.append(Plan("simples"))
    out += [Plan("form", form=f) for f in base.forms if f != "standard" and (f in ("seven_pairs", "thirteen_orphans", "all_258") or base.hand_size == 13)]
    return out


def lower_bound(plan: Plan, counts: Sequence[int], melds: Melds, base: ShapeSpec, groups: Sequence[int], wild: int | None = None) -> int:
    """A cheap lower bound of the least shanten after a discard from a hand-size + 1 hand
    under the plan (`groups`: tiles held per group m, p, s, z, other). With `wild` given,
    `counts` and `groups` are the natural tiles and `wild` the wildcards held apart: a flush or
    all simples still has every natural tile it cannot use to replace (a wildcard it can
    use), and each wildcard takes at most one step off the pungs, seven pairs and orphans
    bounds of the natural tiles. Else kinds are counted as held, and a hand holding a
    wildcard gets 0."""
    if plan.name == "any":
        return 0
    if wild is None:
        if any(counts[k] for k in base.wild_kinds):
            return 0
        wild = 0
    if wild:
        if plan.name in ("half", "full", "simples"):
            return lower_bound(plan, counts, melds, base, groups, 0)
        if plan.name == "pungs" or plan.form in ("seven_pairs", "thirteen_orphans"):
            return lower_bound(plan, counts, melds, base, groups, 0) - wild
        return 0
    if plan.name in ("half", "full"):
        # every tile the plan cannot use is replaced, one of them by this discard
        keep = groups[plan.suit] + (groups[3] if plan.name == "half" else 0)
        return sum(groups) - keep - 2
    if plan.name == "simples":
        return sum(counts[k] for k in TERMINALS_HONORS) - 2
    if plan.name == "pungs":
        # at most: three of a kind kept per set (pairs, then singles, make up the rest) and
        # two for the pair
        sets = base.sets_needed - melds.n
        c = bytes(counts[:34])  # (bytes.count: no compare per element)
        n3 = c.count(3) + c.count(4)
        n2 = c.count(2)
        n1 = c.count(1)
        kept = 3 * min(n3, sets) + 2 * min(n2, max(0, sets - n3)) + min(n1, max(0, sets - n3 - n2)) + 2
        return 3 * sets + 2 - kept - 2
    if plan.form == "seven_pairs":  # (its distance never falls with a discard)
        c = bytes(counts[:34])
        n2, n3, n4 = c.count(2), c.count(3), c.count(4)
        quads = base.quads_as_pairs
        pairs = n2 + n3 + n4 * (2 if quads else 1)
        singles = c.count(1) + n3
        full = min(pairs, 7)
        return 14 - 2 * full - min(singles, 7 - full) - 1
    if plan.form == "thirteen_orphans":
        th = [counts[k] for k in _TH_LIST]
        return 12 - (13 - th.count(0)) - (th.count(0) + th.count(1) < 13)
    return 0


def plan_analyzer(an: Analyzer, plan: Plan) -> Analyzer:
    """The analysis of a plan, built once per variant analysis (`an`: the variant's)."""
    got = an.plans.get(plan)
    if got is None:
        spec = plan.spec(an.spec)
        if spec is None:
            got = an
        else:
            from mjtools.sim.fastshape import Analyzer

            got = Analyzer(spec, an.copies, an.void)
        an.plans[plan] = got
    return got


# -- what a plan pays -------------------------------------------------------------------------

# Representative hands per plan family: sets as ("c", suit, n) chow n..n+2, ("p", suit, n) pung,
# ("h", i) a pung of the i-th neutral honor, then the pair as ("P", suit, n) / ("H", i). Suits
# are 0, 1, 2 = the first, second and third full suit of the tile set (one suit for flushes;
# the third is the first again where the variant allows two suits). Five sets serve 16-tile
# hands; the first (hand size - 1) / 3 are used. They avoid incidental patterns (straights,
# identical chows) so that a plan's value is what the plan itself brings.
TEMPLATES: dict[str, tuple[tuple[tuple, ...], ...]] = {
    "any": (
        (("c", 0, 2), ("c", 1, 5), ("c", 0, 6), ("c", 1, 2), ("c", 0, 3), ("P", 2, 5)),
        (("c", 0, 1), ("p", 1, 5), ("c", 1, 6), ("p", 2, 9), ("c", 0, 3), ("P", 1, 8)),
        (("c", 0, 3), ("c", 1, 4), ("c", 2, 5), ("p", 2, 8), ("c", 0, 6), ("P", 1, 2)),
    ),
    "half": (
        (("c", 0, 2), ("c", 0, 5), ("h", 0), ("c", 0, 6), ("c", 0, 3), ("P", 0, 8)),
        (("c", 0, 1), ("p", 0, 5), ("c", 0, 6), ("h", 1), ("c", 0, 2), ("H", 0)),
    ),
    "full": (
        (("c", 0, 2), ("c", 0, 5), ("c", 0, 6), ("c", 0, 3), ("p", 0, 1), ("P", 0, 8)),
        (("c", 0, 1), ("p", 0, 5), ("c", 0, 6), ("c", 0, 2), ("p", 0, 9), ("P", 0, 3)),
    ),
    "pungs": (
        (("p", 0, 2), ("p", 1, 5), ("p", 0, 7), ("p", 1, 3), ("p", 2, 4), ("P", 1, 8)),
        (("p", 0, 1), ("p", 1, 5), ("p", 1, 9), ("p", 0, 3), ("p", 2, 6), ("P", 0, 2)),
    ),
    "simples": (
        (("c", 0, 2), ("c", 1, 5), ("c", 0, 6), ("c", 1, 2), ("c", 0, 3), ("P", 2, 5)),
        (("c", 0, 3), ("p", 1, 5), ("c", 1, 6), ("c", 0, 2), ("p", 2, 7), ("P", 1, 8)),
    ),
}
# The other forms: 14 tiles each, (suit, n) or ("H", i), the last one the winning tile.
FORM_TILES: dict[str, tuple[tuple, ...]] = {
    "seven_pairs": tuple(x for x in ((0, 2), (0, 5), (0, 8), (1, 3), (1, 6), (2, 4), (2, 9)) for _ in range(2)),
    "all_258": ((0, 2),) * 3 + ((0, 5),) * 2 + ((0, 8),) * 2 + ((1, 2),) * 2 + ((1, 5),) * 3 + ((2, 8),) * 2,
    "thirteen_orphans": ((0, 1), (0, 9), (1, 1), (1, 9), (2, 1), (2, 9), ("z", 27), ("z", 28), ("z", 29), ("z", 30), ("z", 31), ("z", 32), ("z", 33), (0, 1)),
    "thirteen_unrelated": ((0, 1), (0, 4), (0, 7), (1, 2), (1, 5), (1, 8), (2, 3), (2, 6), (2, 9), ("z", 27), ("z", 28), ("z", 29), ("z", 31), ("z", 32)),
}
FORM_TILES["knitted"] = FORM_TILES["thirteen_unrelated"]


class Values:
    """What a win pays for one ruleset and seat, per (plan family, value-honor pungs, laid
    down or not): (self-draw, ron) points of the winner, 0 where the variant refuses the
    win; the least over the family's representative hands (what the plan itself assures),
    leaving out a hand the variant's shape requirements rule out. Filled as asked for."""

    def __init__(self, rs: Ruleset, seat: str, declare_ready: bool):
        self.rs = rs
        self.seat = seat
        self.declare_ready = declare_ready
        seats = rs.seats
        i = seats.index(seat)
        self.left = seats[(i - 1) % len(seats)]
        self.across = seats[(i + len(seats) // 2) % len(seats)]
        self.next = seats[(i + 1) % len(seats)]
        spec = rs.base_spec
        self.sets = spec.sets_needed
        kinds = spec.kinds
        full = [s for s in range(3) if all(k in kinds for k in range(9 * s, 9 * s + 9))] or [0]
        third = full[2] if len(full) > 2 and spec.max_suits is None else full[0]
        self.suits = (full[0], full[1 % len(full)], third)
        self.honors = tuple(k for k in HONORS if k in kinds)
        self.forms = spec.forms
        # the set laid down is a chow only where a chow is called and opens the hand
        win = rs.section("win")
        opens = win.get("open_by", ("chi", "pon")) if win.get("must_open") else ("chi",)
        self.chi = bool(rs.section("calls").get("chi")) and "chi" in opens
        self._memo: dict[tuple, tuple[float, float]] = {}
        self.vmax: dict[tuple, dict[str, float]] = {}  # the bots' best value per family, by state
        self._value_kinds: frozenset[int] | None = None
        self._neutral: tuple[int, ...] = self.honors  # value honors last, once known
        self.order: tuple[int, ...] = ()  # the value honors, dragons first

    # -- value honors ---------------------------------------------------------------------------
    def value_kinds(self) -> frozenset[int]:
        """Honor kinds whose pung pays more than a pung of a suit tile in its place (read by
        scoring the first family whose hand the variant accepts with one of them)."""
        if self._value_kinds is None:
            self._value_kinds = frozenset()
            for family in ("any", "pungs", "half", "full"):
                got = self._sets(TEMPLATES[family][0], ())
                if got is None:
                    continue
                sets, pair = got
                at = max(i for i, st in enumerate(sets) if st[0] < 27)
                suit_pung = next(k for k in (self._kind(0, 9), self._kind(0, 1), self._kind(0, 7)) if k != pair[0])
                base = sum(self._score_built(sets[:at] + [(suit_pung,) * 3] + sets[at + 1 :], pair, False) or (0.0,))
                with_k = {k: sum(self._score_built(sets[:at] + [(k,) * 3] + sets[at + 1 :], pair, False) or (0.0,)) for k in self.honors}
                if base or any(with_k.values()):  # (a hand no pung makes acceptable says nothing)
                    self._value_kinds = frozenset(k for k, v in with_k.items() if v > base)
                    break
            self._neutral = tuple(k for k in self.honors if k not in self._value_kinds) + tuple(k for k in self.honors if k in self._value_kinds)
            self.order = tuple(sorted(self._value_kinds, key=lambda k: (k < 31, k)))
        return self._value_kinds

    # -- values ---------------------------------------------------------------------------------
    def value(self, family: str, honors: int = 0, laid: bool = False) -> tuple[float, float]:
        """(self-draw, ron) points of a win with this plan family holding `honors` value-honor
        pungs (at most MAX_HONORS; the dragons first, then the winds that pay)."""
        key = (family, honors, laid)
        got = self._memo.get(key)
        if got is None:
            kinds = self.value_kinds()
            n = min(honors, MAX_HONORS, len(kinds))
            got = self._memo[key] = self._memo.get((family, n, laid)) or self._work_out(family, frozenset(self.order[:n]), laid)
        return got

    def _work_out(self, family: str, honors: frozenset[int], laid: bool) -> tuple[float, float]:
        if family.startswith("form:"):
            form = family[5:]
            tiles = FORM_TILES.get(form)
            if tiles is None or laid:
                return (0.0, 0.0)
            return self._score_tiles(tiles)
        got = [g for g in (self._score_sets(t, tuple(sorted(honors)), laid) for t in TEMPLATES[family]) if g is not None]
        return (min(g[0] for g in got), min(g[1] for g in got)) if got else (0.0, 0.0)

    def _kind(self, suit: int, n: int) -> int:
        return 9 * self.suits[suit] + n - 1

    def _sets(self, template: tuple, honors: tuple[int, ...]) -> tuple[list[tuple[int, ...]], tuple[int, int]] | None:
        """(sets as kinds, pair) of a template with value-honor pungs put in (last sets first)."""
        neutral = [k for k in self._neutral if k not in honors]
        sets: list[tuple[int, ...]] = []
        for part in template[: self.sets]:
            if part[0] == "c":
                k = self._kind(part[1], part[2])
                sets.append((k, k + 1, k + 2))
            elif part[0] == "p":
                k = self._kind(part[1], part[2])
                sets.append((k, k, k))
            else:
                if part[1] >= len(neutral):
                    return None
                k = neutral[part[1]]
                sets.append((k, k, k))
        pair_part = template[-1]
        if pair_part[0] == "H":
            if pair_part[1] >= len(neutral):
                return None
            pk = neutral[pair_part[1]]
        else:
            pk = self._kind(pair_part[1], pair_part[2])
        # value-honor pungs replace sets from the end (a flush's honor set first)
        for k in honors:
            at = next((i for i in range(len(sets) - 1, -1, -1) if sets[i][0] >= 27 and sets[i][0] not in honors), None)
            if at is None:
                at = next((i for i in range(len(sets) - 1, 0, -1) if sets[i][0] < 27), None)
            if at is None:
                return None
            sets[at] = (k, k, k)
        return sets, (pk, pk)

    def _score_sets(self, template: tuple, honors: tuple[int, ...], laid: bool) -> tuple[float, float] | None:
        got = self._sets(template, honors)
        if got is None:
            return None
        return self._score_built(got[0], got[1], laid)

    def _score_built(self, sets: list[tuple[int, ...]], pair: tuple[int, int], laid: bool) -> tuple[float, float] | None:
        counts = [0] * 34
        for s in sets:
            for k in s:
                counts[k] += 1
        counts[pair[0]] += 2
        if max(counts) > 4:
            return None
        called: list[tuple[int, ...]] = []
        if laid:  # the first set the variant lets a player call (a pung where chi is not played)
            at = next((i for i, st in enumerate(sets) if self.chi or st[0] == st[1]), None)
            if at is None:
                return None
            called = [sets[at]]
            sets = sets[:at] + sets[at + 1 :]
        concealed = [k for s in sets for k in s] + list(pair)
        last = (sets[-1] if sets else pair)[0]
        return self._score(concealed, called, last)

    def _score_tiles(self, tiles: tuple) -> tuple[float, float]:
        kinds = [t[1] if t[0] == "z" else self._kind(t[0], t[1]) for t in tiles]
        counts = [0] * 34
        for k in kinds:
            counts[k] += 1
        if max(counts) > 4:
            return (0.0, 0.0)
        return self._score(kinds, [], kinds[-1]) or (0.0, 0.0)

    def _score(self, concealed: list[int], called: list[tuple[int, ...]], last: int) -> tuple[float, float] | None:
        from mjtools.errors import MjError
        from mjtools.scoring import score
        from mjtools.tiles.context import WinContext
        from mjtools.tiles.hand import Hand, Meld
        from mjtools.tiles.kinds import Tile

        rest = list(concealed)
        rest.remove(last)
        melds = []
        for s in called:
            chow = s[0] != s[1]
            melds.append(Meld(tuple(Tile(k) for k in s), "chow" if chow else "pung", self.left if chow else self.across))
        hand = Hand(tuple(Tile(k) for k in sorted(rest)), tuple(melds), (), Tile(last))
        situations = {"riichi": 1} if self.declare_ready and not called else {}
        out = []
        for tsumo in (True, False):
            ctx = WinContext(tsumo=tsumo, seat=self.seat, discarder=None if tsumo else self.next, players=len(self.rs.seats), situations=MappingProxyType(situations))
            try:
                rec = score(hand, self.rs, ctx, chickens=False)
            except (MjError, ValueError, KeyError):
                rec = {}
            if not rec.get("valid") and str(rec.get("reason", "")).split(":")[0] in SHAPE_REASONS:
                return None  # a shape the variant's requirements rule out: no representative
            out.append(float(rec.get("points") or 0) if rec.get("valid") else 0.0)
        return (out[0], out[1])


def warm_values(rs: Ruleset) -> None:
    """Work out every value the bots may ask for, for every seat (start-up made explicit:
    the benchmark times play, not this)."""
    from mjtools.sim.config import config

    ready = config(rs).declare_ready
    for seat in rs.seats:
        v = values_for(rs, seat, ready)
        for plan in plans_for(rs.base_spec):
            for n in range(MAX_HONORS + 1):
                for laid in (False, True):
                    v.value(plan.family, n, laid)


def values_for(rs: Ruleset, seat: str, declare_ready: bool) -> Values:
    """The values of a ruleset and seat, kept on the ruleset (one per process and run)."""
    cache = rs.__dict__.setdefault("_bot_values", {})
    got = cache.get((seat, declare_ready))
    if got is None:
        got = cache[(seat, declare_ready)] = Values(rs, seat, declare_ready)
    return got


# -- how soon a plan completes ----------------------------------------------------------------

_CHANCE: dict[tuple[int, int, int, int, int], float] = {}
_STEP = 0.1  # probabilities are kept to 10% of their size (the answers are memoised)
DECAY = 0.85  # each further improvement is this much less likely a go-around than the last
# (fitted, with the hazard below, to when efficient bots actually won in riichi and Cantonese
# simulations: the hand, its live tiles and the draws left at each discard against whether
# that player won the hand; `docs/bots.md`)


def _bucket(p: float) -> int:
    return -99 if p <= 0.001 else min(0, int(round(math.log(p) / _STEP)))


def chance(steps: int, p_mid: float, p_last: float, rounds: int, hazard: float = 0.0) -> float:
    """The probability that `steps` improvements come within `rounds` go-arounds, each
    improvement but the last with probability p_mid a go-around (less by DECAY for each one
    made) and the last (the winning tile) with p_last, while the hand ends for this player
    with probability `hazard` a go-around (another player wins)."""
    if steps <= 0:
        return 1.0
    if rounds <= 0:
        return 0.0
    a, b = _bucket(p_mid), _bucket(p_last)
    key = (steps, a, b, rounds, int(hazard * 100 + 0.5))
    got = _CHANCE.get(key)
    if got is None:
        pm, pl = math.exp(a * _STEP) if a > -99 else 0.0, math.exp(b * _STEP) if b > -99 else 0.0
        stay = 1.0 - key[4] / 100
        ps = [(pl if j == steps - 1 else pm) * DECAY**j for j in range(steps)]
        dist = [1.0] + [0.0] * steps
        for r in range(1, rounds + 1):  # (each go-around's answer is remembered on the way)
            for j in range(steps - 1, -1, -1):
                moved = dist[j] * ps[j]
                dist[j] = (dist[j] - moved) * stay
                dist[j + 1] += moved
            _CHANCE[(steps, a, b, r, key[4])] = dist[steps]
        got = dist[steps]
    return got


def per_round(live: int, unseen: int, chances: float) -> float:
    """The chance that one of `live` tiles among `unseen` comes in `chances` looks."""
    if unseen <= 0 or live <= 0:
        return 0.0
    p = min(1.0, live / unseen)
    return 1.0 - (1.0 - p) ** chances


_WIN: dict[tuple, float] = {}


def win_chance(shanten: int, live: int, last: int, unseen: int, looks: float, ron_looks: float, rounds: int, hazard: float) -> float:
    """`chance` of a hand `shanten` from ready with `live` tiles that lower it (`last` at the
    last step) among `unseen`, `looks` at a tile a go-around (draws and calls) and
    `ron_looks` at the winning one, memoised on its inputs (unseen kept to fours)."""
    key = (shanten, live, last, unseen >> 2, looks, ron_looks, rounds, hazard)
    got = _WIN.get(key)
    if got is None:
        left = (unseen >> 2) * 4 + 2
        got = chance(shanten + 1, per_round(live, left, looks), per_round(last, left, ron_looks), rounds, hazard)
        if len(_WIN) >= 1 << 18:
            _WIN.clear()
        _WIN[key] = got
    return got
