"""Score models: each turns an Evaluation into a HandValue. Selected by `scoring.model`.

A model decides what one ordinary payer owes for the hand (`HandValue.points`) from the fans
and the `scoring:` section; who pays, shares, dealer, liability, kongs and bonuses are the
settlement's business (scoring/settlement.py). One module per model:

    flat            base + sum of fans (house defaults)
    doubling        base x 2^fan, cap (封顶 / 爆和), limit hands, 自摸加番 / 自摸加底
    additive        底 + 台 x per_unit (Taiwan)
    category        小胡 / 大胡 with fixed values, big wins adding up (Changsha)
    points_doubling (和 from the sets + 底和) x 2^台, rounded up (Luoshan)
    fan_gate        fans only gate the win; a fixed stake by win type (Hainan)
    multiplicative  fan values are factors that stack (Tianjin, Wuhan)
    riichi          han / fu and the limit tiers

A model may also register a pre-score hook (`@pre_score(name)`): it sees the parsed hand and
the context before any decomposition, may refuse contradictory input (a UsageError) and may
answer a case that is not a winning hand at all (riichi's nagashi mangan) with a record.
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable, Mapping
from functools import partial
from typing import Any, Protocol

from mjtools.messages import Joined, Msg
from mjtools.rules.model import Ruleset
from mjtools.scoring.result import NO_STEPS, Awarded, Evaluation, HandValue, Steps
from mjtools.tiles.context import WinContext
from mjtools.tiles.hand import Hand

Model = Callable[[Evaluation, Ruleset, WinContext, Hand], HandValue]


class ModelFn(Protocol):
    """A model as written: it also writes its explain steps into a sink (`Steps`)."""

    def __call__(self, ev: Evaluation, rs: Ruleset, ctx: WinContext, hand: Hand, steps: Steps) -> HandValue: ...


MODELS: dict[str, Model] = {}
# The models that read nothing of where the winning tile sits (`Decomposition.win_block`,
# `wait`) beyond the fans: readings that differ only there and count the same fans are worth
# the same (the scorer evaluates them once). Riichi's fu read the wait: not listed.
PLACEMENT_FREE: set[str] = set()
PreScore = Callable[[Hand, Ruleset, WinContext, str, str], "dict[str, Any] | None"]
PRE_SCORE: dict[str, PreScore] = {}
MODULES = ("flat", "doubling", "additive", "category", "points_doubling", "fan_gate", "multiplicative", "riichi")


def model(name: str, reads_placement: bool = True) -> Callable[[ModelFn], ModelFn]:
    """Register a model. Scoring runs it with NO_STEPS; its explain steps come from running it
    again, on demand, into a recording sink (only a shown reading needs them). A model never
    changes the list ev.fans in place: it assigns a new one (`ev.fans = kept`).
    `reads_placement=False`: it reads nothing of where the winning tile sits (PLACEMENT_FREE)."""
    if not reads_placement:
        PLACEMENT_FREE.add(name)

    def deco(fn: ModelFn) -> ModelFn:
        def run(ev: Evaluation, rs: Ruleset, ctx: WinContext, hand: Hand) -> HandValue:
            # A model that trims the fans (limit hands) gives ev a new list and leaves this one
            # as it was, so the replay starts alike. (The replay is a partial, not a closure: a
            # closure would keep run's arguments in cells, read through them on every call.)
            fans = ev.fans
            value = fn(ev, rs, ctx, hand, NO_STEPS)
            value.steps_fn = partial(_replay_from, fn, ev, fans, rs, ctx, hand)
            return value

        MODELS[name] = run
        return fn

    return deco


def _replay_from(fn: ModelFn, ev: Evaluation, fans: list[Awarded], rs: Ruleset, ctx: WinContext, hand: Hand) -> list[str]:
    """The model run again into a Steps, on the fans it was given (ev's own list may since be
    a trimmed one)."""
    return _replay(fn, Evaluation(ev.decomposition, fans[:], ev.excluded, ev.reason, ev.pctx), rs, ctx, hand)


def _replay(fn: ModelFn, ev: Evaluation, rs: Ruleset, ctx: WinContext, hand: Hand) -> list[str]:
    steps = Steps()
    fn(ev, rs, ctx, hand, steps)
    return list(steps)


def pre_score(name: str) -> Callable[[PreScore], PreScore]:
    def deco(fn: PreScore) -> PreScore:
        PRE_SCORE[name] = fn
        return fn

    return deco


_loaded: set[str] = set()


def _load(name: str) -> None:
    """Import the module that registers model `name`. Each shipped model lives in the module of
    its own name (`MODULES`) and registers its pre-score hook there too, so a single call
    imports the one model its ruleset names rather than all eight; a name outside `MODULES`
    loads them all (a model registered under another name)."""
    if name in _loaded:
        return
    if name in MODULES:
        importlib.import_module(f"mjtools.scoring.models.{name}")
    else:
        for mod in MODULES:
            importlib.import_module(f"mjtools.scoring.models.{mod}")
    _loaded.add(name)


def get_pre_score(name: str) -> PreScore | None:
    _load(name)
    return PRE_SCORE.get(name)


def get(name: str) -> Model:
    _load(name)
    try:
        return MODELS[name]
    except KeyError:
        raise NotImplementedError(f"score model {name!r} is not available") from None


# -- helpers shared by the models ---------------------------------------------------------------


def num(x: float) -> float | int:
    """Whole numbers as int (JSON shows 8, not 8.0)."""
    if type(x) is int:  # most amounts already are: skip the float round trip
        return x
    return int(x) if float(x).is_integer() else round(x, 4)


def fan_line(fans: list[Awarded]) -> Msg:
    """'full_flush 2 + gen 1x2 = 4' for the explain steps (only build it when recording)."""
    parts = [f"{a.id} {num(a.value)}" + (f"x{a.count}" if a.count != 1 else "") for a in fans]
    total = sum(a.total for a in fans)
    return Msg("doubling.fans", fans=Joined(parts, " + ") if parts else Msg("word.none"), total=num(total))


def round_up(x: float, step: int | None) -> float:
    if not step:
        return x
    return math.ceil(x / step - 1e-9) * step


def apply_cap_points(points: float, sc: Mapping[str, Any], steps: Steps) -> tuple[float, str | None]:
    """The per-payer ceiling (金顶), whatever the model."""
    cap = sc.get("cap_points")
    if cap is not None and points > cap:
        steps.msg("models.cap_points", cap=num(cap))
        return cap, "cap"
    return points, None


def self_draw_adds(sc: Mapping[str, Any], ctx: WinContext, base: float, points: float, steps: Steps) -> tuple[float, list[tuple[str, float]]]:
    """自摸加底 / double on a self-draw. `fan` is the rule file's own self_draw fan, so nothing here."""
    mode = sc.get("self_draw_bonus", "none")
    if not ctx.tsumo or mode in ("none", "fan", None):
        return points, []
    if mode == "double":
        steps.msg("models.self_draw_double", points=num(points), doubled=num(points * 2))
        return points * 2, []
    steps.msg("models.self_draw_base", base=num(base))
    return points, [("self-draw base (自摸加底)", base)]
