"""Bots: the interface, the shipped `random` and `efficient` bots, and how bots are found.

A bot is created for each seat of each hand as `Bot(seat, rules, rng)` (rng: its own
`random.Random`, seeded from the hand's seed) and asked `act(view, actions)`, which returns
one of the legal `actions` (listed in a fixed order). Tile exchange (换三张) and the void suit
(定缺) have their own methods with sensible defaults. Bots keep no state between hands, which
is what makes a run the same whatever the number of workers.

Users add bots through the `mjtools.bots` entry-point group (a name -> a Bot subclass) or,
on the command line only, as `--bots module:Class`.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Sequence
from typing import Any

from mjtools.errors import UsageError
from mjtools.rules.model import Ruleset
from mjtools.sim.config import kind_of
from mjtools.sim.fastshape import melds_info
from mjtools.sim.state import Action, View

ENTRY_POINT_GROUP = "mjtools.bots"


class Bot:
    """Base class. Subclasses override `act` (and, if they like, `exchange` / `declare_void`)."""

    name = "bot"

    def __init__(self, seat: str, rules: Ruleset, rng: random.Random):
        self.seat = seat
        self.rules = rules
        self.rng = rng

    def act(self, view: View, actions: Sequence[Action]) -> Action:
        raise NotImplementedError

    def exchange(self, view: View, count: int, same_suit: bool) -> list[int]:
        """Tiles (codes) to pass on (换三张): by default the suit held least (with enough
        tiles), its most isolated tiles."""
        suit = _fewest_suit(view.hand, count)
        pool = [c for c in view.hand if kind_of(c) < 27 and (suit is None or kind_of(c) // 9 == suit)]
        pool.sort(key=lambda c: (_neighbours(view.counts, kind_of(c)), c))
        return pool[:count]

    def declare_void(self, view: View) -> int:
        """The suit declared void (定缺): by default the suit held least."""
        return _fewest_suit(view.hand, 0) or 0


def _fewest_suit(hand: Sequence[int], at_least: int) -> int | None:
    n = [0, 0, 0]
    for c in hand:
        k = kind_of(c)
        if k < 27:
            n[k // 9] += 1
    ok = [s for s in range(3) if n[s] >= at_least]
    if not ok:
        return None
    return min(ok, key=lambda s: (n[s], s))


def _neighbours(counts: Sequence[int], k: int) -> int:
    """How many tiles of the hand sit within two places of k in its suit (k's own copies too)."""
    if k >= 27:
        return counts[k] - 1
    lo, hi = k - k % 9, k - k % 9 + 8
    return sum(counts[j] for j in range(max(lo, k - 2), min(hi, k + 2) + 1)) - 1


class RandomBot(Bot):
    """Picks uniformly among the legal actions (and passes random tiles, voids a random suit)."""

    name = "random"

    def act(self, view: View, actions: Sequence[Action]) -> Action:
        return actions[self.rng.randrange(len(actions))]

    def exchange(self, view: View, count: int, same_suit: bool) -> list[int]:
        suits = [s for s in range(3) if sum(1 for c in view.hand if kind_of(c) < 27 and kind_of(c) // 9 == s) >= count]
        if same_suit and suits:
            s = self.rng.choice(suits)
            pool = sorted(c for c in view.hand if kind_of(c) < 27 and kind_of(c) // 9 == s)
        else:
            pool = sorted(view.hand)
        return self.rng.sample(pool, count)

    def declare_void(self, view: View) -> int:
        return self.rng.randrange(3)


def _value_kinds(rules: Ruleset, seat: str) -> frozenset[int]:
    """Kinds whose pung is a yaku that survives an open hand, read from the rule file's fans."""
    from mjtools.scoring.fans import fan_value
    from mjtools.tiles.kinds import SEAT_WIND

    by_pattern = {
        "dragon_pung": (31, 32, 33),
        "white_pung": (31,),
        "green_pung": (32,),
        "red_pung": (33,),
        "seat_wind_pung": (SEAT_WIND[seat],),
        "round_wind_pung": (27,),  # every simulated hand is played in the East round
        "wind_pung": (27, 28, 29, 30),
    }
    out: set[int] = set()
    for fan in rules.fans.values():
        pat = fan["pattern"]
        if isinstance(pat, str) and pat in by_pattern and fan.get("yaku", True) and fan_value(fan, False):
            out.update(by_pattern[pat])
    return frozenset(out & rules.playable_kinds)


def _open_simples(rules: Ruleset) -> bool:
    from mjtools.scoring.fans import fan_value

    return any(f["pattern"] == "all_simples" and f.get("yaku", True) and fan_value(f, False) for f in rules.fans.values())


_TH = frozenset((0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33))


class EfficientBot(Bot):
    """Tile efficiency: discards for the least shanten and the most live effective tiles.

    Variant-aware through the rule file: voids the suit held least, never discards a
    wildcard while it has another tile unless putting it out counts for its wins
    (play.discard_situations: it puts such a tile out, 红中杠 or 赖子杠, whenever that costs
    no shanten), keeps the 2-5-8 pair and the one-suit requirements
    (the shape analysis counts them), opens its hand where a win needs it open, declares
    ready (riichi) when concealed and ready, and calls only when the call lowers its shanten
    and, where a win needs a yaku, leaves it one (a value pung, or all simples where open
    all-simples counts). Ties break on a fixed order (isolated honors and terminals first)."""

    name = "efficient"

    def __init__(self, seat: str, rules: Ruleset, rng: random.Random):
        super().__init__(seat, rules, rng)
        win = rules.section("win")
        self.needs_yaku = bool(win.get("minimum", {}).get("yaku"))
        self.must_open = bool(win.get("must_open"))
        self.declare_always = bool(win.get("ready_declaration"))
        self.value = _value_kinds(rules, seat) if self.needs_yaku else frozenset()
        self.simples = _open_simples(rules) if self.needs_yaku else False

    # -- helpers --------------------------------------------------------------------------------
    def _rows(self, view: View, legal: list[int], only_best: bool = True):
        an = view.analyzer()
        me = view.me
        wild = view.wild_kinds
        kinds = {kind_of(c) for c in legal}
        natural = {k for k in kinds if k not in wild}
        # keep wildcards while anything else can go, unless putting one out counts (赖子杠)
        allowed = (natural | (kinds & view.counted_kinds)) or kinds
        if self._plan(view) == "simples":
            th = {k for k in allowed if k in _TH}
            allowed = th or allowed  # open all simples: terminals and honors go first
        return an.discard_rows(me.counts, view.melds_info(), me.held(), view.unseen(), lambda k: k in allowed, only_best)

    def _tie(self, k: int, counts: Sequence[int]) -> tuple[int, int, int]:
        """Lower is discarded first among equally efficient tiles."""
        if k >= 27:
            return (0 if k not in self.value else 1, counts[k], k)
        edge = 0 if k % 9 in (0, 8) else 1
        return (1 + edge, _neighbours(counts, k), k)

    def _plan(self, view: View) -> str | None:
        """How an open hand would still have a yaku: 'value', 'simples', or None."""
        if not self.needs_yaku:
            return "free"
        me = view.me
        if me.concealed:
            return None
        if any(m.kind != "chow" and kind_of(m.tiles[0]) in self.value for m in me.melds):
            return "value"
        if self.simples and all(kind_of(t) not in _TH for m in me.melds for t in m.tiles):
            return "simples"
        return None

    def _call_keeps_yaku(self, view: View, a: Action) -> bool:
        if not self.needs_yaku:
            return True
        plan = self._plan(view)
        me = view.me
        if plan == "value":
            return True
        k = kind_of(a.tile)
        if a.kind in ("pon", "exposed_kong") and k in self.value:
            return True
        if not self.simples:
            return False
        tiles = [kind_of(t) for t in a.tiles] + [k]
        if any(t in _TH for t in tiles) or plan is None and not me.concealed:
            return False
        rest = list(me.counts)
        for t in a.tiles:
            rest[kind_of(t)] -= 1
        return sum(rest[t] for t in _TH) <= 1 and all(kind_of(t) not in _TH for m in me.melds for t in m.tiles)

    def _shanten13(self, view: View, counts: list[int], extra_melds: list[tuple[int, ...]] | None = None) -> int:
        an = view.analyzer()
        nat, wild = an.natural(counts)
        m = view.melds_info() if not extra_melds else melds_info(view.me.meld_kinds() + extra_melds)
        return an.shanten(nat, wild, m)

    def _best_after(self, view: View, counts: list[int], melds: list[tuple[int, ...]]) -> int:
        """Least shanten after discarding from counts (hand-size + 1 tiles) with the given melds."""
        an = view.analyzer()
        kinds = [k for k in range(50) if counts[k]]
        sh = an.discard_shanten(counts, melds_info(view.me.meld_kinds() + melds), kinds)
        return min(sh.values())

    # -- decisions ------------------------------------------------------------------------------
    def act(self, view: View, actions: Sequence[Action]) -> Action:
        by: dict[str, list[Action]] = {}
        for a in actions:
            by.setdefault(a.kind, []).append(a)
        for win in ("tsumo", "ron"):
            if win in by:
                return by[win][0]
        if view.phase == "claim":
            return self._claim(view, by)
        if "abort" in by and sum(1 for k in _TH if view.counts[k]) <= 10:
            return by["abort"][0]
        if "kita" in by:
            return by["kita"][0]
        for kong in ("concealed_kong", "added_kong"):
            for a in by.get(kong, ()):
                if self._kong_ok(view, a):
                    return a
        legal = [a.tile for a in by.get("discard", ())]
        if not legal:
            return actions[0]
        rows = self._rows(view, legal)  # the discards of least shanten
        counted = view.counted_kinds
        put = [r for r in rows if r.kind in counted] if counted else []  # a 红中杠 / 赖子杠 costing no shanten
        top = put or [r for r in rows if r.shanten == rows[0].shanten and r.live == rows[0].live]
        best = top[0] if len(top) == 1 else min(top, key=lambda r: self._tie(r.kind, view.counts))
        riichi = {kind_of(a.tile): a for a in by.get("riichi", ())}
        if best.shanten == 0 and best.kind in riichi and (best.live > 0 or self.declare_always):
            return riichi[best.kind]
        return next(a for a in by["discard"] if kind_of(a.tile) == best.kind)

    def _kong_ok(self, view: View, a: Action) -> bool:
        me = view.me
        k = a.tile
        counts = list(me.counts)
        if a.kind == "concealed_kong":
            counts[k] -= 4
            after = self._shanten13(view, counts, [(k, k, k, k)])
        else:
            counts[k] -= 1
            melds = [m.kinds if kind_of(m.tiles[0]) != k or m.kind != "pung" else (k,) * 4 for m in me.melds]
            an = view.analyzer()
            nat, wild = an.natural(counts)
            after = an.shanten(nat, wild, melds_info(melds))
        return after <= self._best_after(view, me.counts, [])

    def _claim(self, view: View, by: dict[str, list[Action]]) -> Action:
        me = view.me
        before = self._shanten13(view, me.counts)
        best: tuple[int, Action] | None = None
        for kind in ("exposed_kong", "pon", "chi"):
            for a in by.get(kind, ()):
                if not self._call_keeps_yaku(view, a):
                    continue
                counts = list(me.counts)
                for t in a.tiles:
                    counts[kind_of(t)] -= 1
                meld = tuple(sorted(kind_of(t) for t in a.tiles + (a.tile,)))
                if kind == "exposed_kong":
                    after = self._shanten13(view, counts, [meld])
                else:
                    after = self._best_after(view, counts, [meld])
                opening = me.concealed and self.must_open
                gain = after < before or (after <= before and (opening or kind == "exposed_kong"))
                if gain and (best is None or after < best[0]):
                    best = (after, a)
        return best[1] if best else by["pass"][0]


BUILTIN: dict[str, type[Bot]] = {"random": RandomBot, "efficient": EfficientBot}


def _entry_points() -> dict[str, Any]:
    from importlib.metadata import entry_points

    return {ep.name: ep for ep in entry_points(group=ENTRY_POINT_GROUP)}


def bot_class(name: str, allow_path: bool = True) -> type[Bot]:
    """The bot class for a name: shipped, from the `mjtools.bots` entry points, or (command
    line only) `module:Class`."""
    if name in BUILTIN:
        return BUILTIN[name]
    eps = _entry_points()
    if name in eps:
        cls = eps[name].load()
    elif ":" in name and allow_path:
        module, _, attr = name.partition(":")
        try:
            cls = getattr(importlib.import_module(module), attr)
        except (ImportError, AttributeError) as e:
            raise UsageError(f"--bots {name}: cannot load it ({e})") from None
    else:
        known = ", ".join(sorted(set(BUILTIN) | set(eps)))
        hint = "; module:Class paths only on the command line" if ":" in name else ""
        raise UsageError(f"unknown bot {name!r} (bots: {known}{hint})")
    if not (isinstance(cls, type) and callable(getattr(cls, "act", None))):
        raise UsageError(f"bot {name!r} is not a class with an act(view, actions) method")
    return cls


def parse_bots(spec: str | Sequence[str] | None, players: int, allow_path: bool = True) -> list[str]:
    """One name for every seat, or one per seat in seat order (comma-separated)."""
    if spec is None:
        names = ["efficient"]
    elif isinstance(spec, str):
        names = [s.strip() for s in spec.split(",") if s.strip()]
    else:
        names = [str(s) for s in spec]
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise UsageError(f"--bots takes one name or {players} (one per seat), got {len(names)}")
    for n in names:
        bot_class(n, allow_path)
    return names


def make_bots(names: Sequence[str], rules: Ruleset, seed: int) -> list[Bot]:
    from mjtools.sim.seeding import derive

    return [bot_class(n)(rules.seats[i], rules, random.Random(derive(seed, "bot", i))) for i, n in enumerate(names)]
