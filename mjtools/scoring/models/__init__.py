"""Score models: each turns an Evaluation into a HandValue. Selected by `scoring.model`."""

from __future__ import annotations

from collections.abc import Callable

from mjtools.context import WinContext
from mjtools.hand import Hand
from mjtools.rules.model import Ruleset
from mjtools.scoring.result import Evaluation, HandValue

Model = Callable[[Evaluation, Ruleset, WinContext, Hand], HandValue]
MODELS: dict[str, Model] = {}


def model(name: str) -> Callable[[Model], Model]:
    def deco(fn: Model) -> Model:
        MODELS[name] = fn
        return fn

    return deco


def get(name: str) -> Model:
    if not MODELS:
        from mjtools.scoring.models import basic, riichi  # noqa: F401
    try:
        return MODELS[name]
    except KeyError:
        raise NotImplementedError(f"score model {name!r} is not available") from None
