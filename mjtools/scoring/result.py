"""Value types passed between the scoring stages."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from mjtools.analysis.blocks import Decomposition
from mjtools.messages import Msg
from mjtools.output import SharedDict
from mjtools.tiles.frozen import Fields, Frozen


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


class Awarded(Fields, Frozen):
    """One fan a reading scores. Read-only: the fan plan hands out one shared instance per value,
    count and language."""

    __slots__ = ("id", "value", "count", "unit", "limit", "yaku", "category", "name", "record", "full", "amount")
    FIELDS = __slots__[:-3]  # the records are how it is written, not what it is; the amount follows
    _ARGS = __slots__[:-1]  # (the constructor's)

    id: str
    value: float  # per instance
    count: int
    unit: str
    limit: Any  # False, True / "cap" (breaks the cap), "yakuman"
    yaku: bool
    category: str | None
    name: str
    # The fan's entry in the score record (CLI contract: id, name, value, count, unit), and the
    # full one of `--names all` (with `names`, the name in each language), each shared by every
    # record that awards this fan with this value, count and language.
    record: SharedDict | None
    full: SharedDict | None
    amount: float  # value × count (`total`), kept: the fan sums read it once per fan

    def __init__(self, id: str, value: float, count: int, unit: str, limit: Any = False, yaku: bool = True, category: str | None = None, name: str = "", record: SharedDict | None = None, full: SharedDict | None = None) -> None:
        sa = object.__setattr__
        sa(self, "id", id)
        sa(self, "value", value)
        sa(self, "count", count)
        sa(self, "unit", unit)
        sa(self, "limit", limit)
        sa(self, "yaku", yaku)
        sa(self, "category", category)
        sa(self, "name", name)
        sa(self, "record", record)
        sa(self, "full", full)
        sa(self, "amount", value * count)

    def __hash__(self) -> int:
        return hash(self._key())

    def __reduce__(self) -> tuple[Any, ...]:
        return (Awarded, tuple(getattr(self, f) for f in self._ARGS))

    @property
    def total(self) -> float:
        return self.amount

    @property
    def shown_value(self) -> float:
        """The value a record shows per instance: a limit hand is one limit, whatever count
        the rule file gives it for the score model (limit_value, or its own value)."""
        return 1 if self.unit == "limit" else self.value


class Evaluation(Fields):
    """The fans one decomposition scores."""

    __slots__ = ("decomposition", "fans", "excluded", "reason", "pctx", "total")  # (one per reading: no instance dict)
    FIELDS = __slots__[:-1]  # (`total` follows from `fans`)

    def __init__(self, decomposition: Decomposition, fans: Sequence[Awarded], excluded: Sequence[tuple[str, str]] | None = None, reason: str | None = None, pctx: Any = None, total: float | None = None) -> None:
        # (`fans` and `excluded` are read-only: a final-memo hit passes the memo's own tuples;
        # a score model that changes the fans assigns a new list.)
        self.decomposition = decomposition
        self.fans = fans
        self.excluded = [] if excluded is None else excluded  # (fan, excluded by)
        self.reason = reason  # why this reading is not a legal win
        self.pctx = pctx  # the pattern Ctx of this reading (liability and stakes evaluate patterns on it)
        # The sum of value x count over `fans` as the fans stage gave them (every reading but
        # those of the fan-by-fan loop, riichi's: there None): read it before a score model
        # that assigns `fans` anew (riichi's yakuman alone, doubling's limits) or in one that
        # keeps them.
        self.total = total


class HandValue(Fields):
    """What a score model makes of an evaluation, before payers are worked out."""

    FIELDS = ("fan_total", "points", "base", "limit", "unit", "extra", "payments", "pot", "ledger", "rank", "adds", "tiebreak", "steps_fn", "unrounded")
    __slots__ = FIELDS  # (one per reading, one Settled per record: no instance dict to make)

    def __init__(
        self,
        fan_total: float,
        points: float,
        base: float | None = None,
        limit: str | None = None,
        unit: str = "",
        extra: dict[str, Any] | None = None,
        payments: dict[str, float] | None = None,
        pot: float = 0,
        ledger: list[dict[str, Any]] | None = None,
        rank: tuple = (),
        adds: Sequence[tuple[str, float]] = (),
        tiebreak: tuple | None = None,
        steps_fn: Callable[[], list[str]] | None = None,
        unrounded: float | None = None,
    ) -> None:
        self.fan_total = fan_total
        self.points = points  # what one ordinary payer pays (the unit the settlement multiplies)
        self.base = base
        self.limit = limit
        self.unit = unit
        self.extra = {} if extra is None else extra  # han, fu, fu_breakdown ...
        self.payments = payments  # set by models that settle themselves (riichi)
        self.pot = pot
        self.ledger = ledger
        self.rank = rank  # extra tie-break keys (riichi: yakuman kind, han, fu)
        # Per-payer additions that are not part of the hand value proper (自摸加底): each becomes a
        # ledger entry of its own from every payer of the hand, as (reason, amount).
        self.adds = adds
        # When set, the whole tie-break after points (replacing fan_total, rank): riichi ranks a
        # real yakuman over a counted one of the same points, then han, fu, raw fu (as `mahjong`).
        self.tiebreak = tiebreak
        # Builds the explain steps on demand (models.model sets it: the model run again into a
        # recording sink), so that readings that are not shown cost no text.
        self.steps_fn = steps_fn
        # The value before rounding, where a model rounds (points_doubling): a minimum may be
        # checked against it (win.minimum.points_before_rounding).
        self.unrounded = unrounded

    def explain_steps(self) -> list[str]:
        return self.steps_fn() if self.steps_fn is not None else []


_new = object.__new__


def plain_value(fan_total: float, points: float, limit: str | None, unit: str) -> HandValue:
    """HandValue(fan_total, points, None, limit, unit): the value of a flat model, made for
    every reading that scores, with its fields stored here (a class call to a Python
    `__init__` of fourteen parameters costs more than the stores)."""
    v = _new(HandValue)
    v.fan_total = fan_total
    v.points = points
    v.base = None
    v.limit = limit
    v.unit = unit
    v.extra = {}
    v.payments = None
    v.pot = 0
    v.ledger = None
    v.rank = ()
    v.adds = ()
    v.tiebreak = None
    v.steps_fn = None
    v.unrounded = None
    return v


class Settled(Fields):
    FIELDS = ("payments", "pot", "ledger", "steps_fn")
    __slots__ = FIELDS

    def __init__(self, payments: dict[str, float], pot: float, ledger: list[dict[str, Any]], steps_fn: Callable[[], list[str]] | None = None) -> None:
        self.payments = payments
        self.pot = pot
        self.ledger = ledger
        self.steps_fn = steps_fn  # the settlement run again into a Steps

    def explain_steps(self) -> list[str]:
        return self.steps_fn() if self.steps_fn is not None else []

    @property
    def points(self) -> float:
        return sum(self.payments.values()) + self.pot
