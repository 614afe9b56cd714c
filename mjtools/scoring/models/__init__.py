"""Score models: each turns an Evaluation into a HandValue. Selected by `scoring.model`.

A model may also register a pre-score hook (`@pre_score(name)`): it sees the parsed hand and
the context before any decomposition, may refuse contradictory input (a UsageError) and may
answer a case that is not a winning hand at all (riichi's nagashi mangan) with a record.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mjtools.context import WinContext
from mjtools.hand import Hand
from mjtools.rules.model import Ruleset
from mjtools.scoring.result import Evaluation, HandValue

Model = Callable[[Evaluation, Ruleset, WinContext, Hand], HandValue]
PreScore = Callable[[Hand, Ruleset, WinContext, str, str], "dict[str, Any] | None"]
MODELS: dict[str, Model] = {}
PRE_SCORE: dict[str, PreScore] = {}


def model(name: str) -> Callable[[Model], Model]:
    def deco(fn: Model) -> Model:
        MODELS[name] = fn
        return fn

    return deco


def pre_score(name: str) -> Callable[[PreScore], PreScore]:
    def deco(fn: PreScore) -> PreScore:
        PRE_SCORE[name] = fn
        return fn

    return deco


def _load() -> None:
    if not MODELS:
        from mjtools.scoring.models import basic, riichi  # noqa: F401


def get(name: str) -> Model:
    _load()
    try:
        return MODELS[name]
    except KeyError:
        raise NotImplementedError(f"score model {name!r} is not available") from None


def get_pre_score(name: str) -> PreScore | None:
    _load()
    return PRE_SCORE.get(name)
