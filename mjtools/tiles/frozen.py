"""The two bases of mjtools' read-only value types.

Tile, Meld, Hand, WinContext, ShapeSpec, Ruleset and the scoring values are plain classes rather
than dataclasses: a dataclass writes and compiles its methods when its module is imported, and
a single command imports some forty of these modules before it answers (see README,
Performance). Each class writes its own `__init__` (the fast one for its use) and takes from
here what a frozen dataclass would have generated.
"""

from __future__ import annotations

from typing import Any


def _refuse(what: str, name: str) -> None:
    from dataclasses import FrozenInstanceError  # the error a frozen dataclass raises

    raise FrozenInstanceError(f"cannot {what} field {name!r}")


class Frozen:
    """Read-only once built: `__init__` sets the fields with object.__setattr__ (or through the
    instance dict; Hand, made for every parsed hand, fills a writable base class in `__new__`
    and then takes its class); assigning or deleting one afterwards raises FrozenInstanceError."""

    __slots__ = ()

    def __setattr__(self, name: str, value: Any) -> None:
        _refuse("assign to", name)

    def __delattr__(self, name: str) -> None:
        _refuse("delete", name)


class Fields:
    """Equality and a dataclass-like repr over the fields `FIELDS` (constructor order), read as
    attributes (slots or the instance dict). Hashing is left to the subclass: a mutable value
    stays unhashable, as a dataclass would leave it."""

    __slots__ = ()
    FIELDS: tuple[str, ...] = ()

    def _key(self) -> tuple:
        return tuple([getattr(self, f) for f in self.FIELDS])

    def __eq__(self, other: object) -> bool:
        if other is self:
            return True
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._key() == other._key()  # type: ignore[attr-defined]

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{f}={v!r}' for f, v in zip(self.FIELDS, self._key()))})"


class Record(Fields, Frozen):
    """A Frozen `Fields` value, hashable, with `replace(**changes)` for a changed copy (its
    constructor takes the fields as keywords). Anything else it keeps (a value worked out on
    first use) is not a field."""

    __slots__ = ()

    def replace(self, **changes: Any) -> Any:
        """A copy with these fields changed."""
        return type(self)(**{**dict(zip(self.FIELDS, self._key())), **changes})

    def __hash__(self) -> int:
        return hash(self._key())

    def __reduce__(self) -> tuple[Any, tuple]:
        # Built again through the constructor (its fields in order): pickle's default would
        # assign the slots one by one, which a Frozen value refuses.
        return type(self), self._key()
