"""Value types passed between the scoring stages."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from mjtools.analysis.blocks import Decomposition
from mjtools.messages import Msg
from mjtools.output import SharedDict


class Steps(list):
    """Where a score model or the settlement writes its explain steps.

    Scoring runs with NO_STEPS, which drops everything, so a hand scored without --explain
    builds no message text; the steps are produced on demand (`HandValue.steps_fn`,
    `Settled.steps_fn`) by running the same deterministic computation again into a `Steps`.
    Truthy only when recording: `if steps:` guards a step whose parameters cost work."""

    def __bool__(self) -> bool:
        return True

    def msg(self, key: str, **params: Any) -> None:
        self.append(Msg(key, **params))


class _NoSteps(Steps):
    """The sink of ordinary scoring: records nothing."""

    def __bool__(self) -> bool:
        return False

    def msg(self, key: str, **params: Any) -> None:
        pass

    def append(self, step: Any) -> None:
        pass

    def extend(self, steps: Any) -> None:
        pass

    def __iadd__(self, steps: Any) -> _NoSteps:
        return self


NO_STEPS: Steps = _NoSteps()


@dataclass(frozen=True, slots=True)  # frozen: the fan plan hands out one shared instance per value
class Awarded:
    id: str
    value: float  # per instance
    count: int
    unit: str
    limit: Any = False  # False, True / "cap" (breaks the cap), "yakuman"
    yaku: bool = True
    category: str | None = None
    name: str = ""
    # The fan's entry in the score record (CLI contract: id, name, names, value, count, unit),
    # shared by every record that awards this fan with this value, count and language.
    record: SharedDict | None = field(default=None, compare=False, repr=False)

    @property
    def total(self) -> float:
        return self.value * self.count

    @property
    def shown_value(self) -> float:
        """The value a record shows per instance: a limit hand is one limit, whatever count
        the rule file gives it for the score model (limit_value, or its own value)."""
        return 1 if self.unit == "limit" else self.value


@dataclass
class Evaluation:
    """The fans one decomposition scores."""

    decomposition: Decomposition
    fans: list[Awarded]
    excluded: list[tuple[str, str]] = field(default_factory=list)  # (fan, excluded by)
    reason: str | None = None  # why this reading is not a legal win
    pctx: Any = None  # the pattern Ctx of this reading (liability and stakes evaluate patterns on it)


@dataclass
class HandValue:
    """What a score model makes of an evaluation, before payers are worked out."""

    fan_total: float
    points: float  # what one ordinary payer pays (the unit the settlement multiplies)
    base: float | None = None
    limit: str | None = None
    unit: str = ""
    extra: dict[str, Any] = field(default_factory=dict)  # han, fu, fu_breakdown ...
    payments: dict[str, float] | None = None  # set by models that settle themselves (riichi)
    pot: float = 0
    ledger: list[dict[str, Any]] | None = None
    rank: tuple = ()  # extra tie-break keys (riichi: yakuman kind, han, fu)
    # Per-payer additions that are not part of the hand value proper (自摸加底): each becomes a
    # ledger entry of its own from every payer of the hand, as (reason, amount).
    adds: Sequence[tuple[str, float]] = ()
    # When set, the whole tie-break after points (replacing fan_total, rank): riichi ranks a
    # real yakuman over a counted one of the same points, then han, fu, raw fu (as `mahjong`).
    tiebreak: tuple | None = None
    # Builds the explain steps on demand (models.model sets it: the model run again into a
    # recording sink), so that readings that are not shown cost no text.
    steps_fn: Callable[[], list[str]] | None = None
    # The value before rounding, where a model rounds (points_doubling): a minimum may be
    # checked against it (win.minimum.points_before_rounding).
    unrounded: float | None = None

    def explain_steps(self) -> list[str]:
        return self.steps_fn() if self.steps_fn is not None else []


@dataclass
class Settled:
    payments: dict[str, float]
    pot: float
    ledger: list[dict[str, Any]]
    steps_fn: Callable[[], list[str]] | None = None  # the settlement run again into a Steps

    def explain_steps(self) -> list[str]:
        return self.steps_fn() if self.steps_fn is not None else []

    @property
    def points(self) -> float:
        return sum(self.payments.values()) + self.pot
