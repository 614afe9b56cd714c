"""One fan of a compiled plan (`scoring/fans.py`): its pattern compiled once, its values for a
closed and an open hand, what it excludes, and its shared awards."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mjtools.output import SharedDict
from mjtools.patterns import INSTANCES, TABLES
from mjtools.rules.model import pick
from mjtools.scoring import combine
from mjtools.scoring.fan_spec import alternatives, compile_instances, compile_spec, fan_value, is_exact, table_of
from mjtools.scoring.result import Awarded

_EXCLUDES, _FALLBACK, _BEATS, _COMBINE = 1, 2, 4, 8


def _whole(x: float) -> float | int:
    """A value as the record shows it: whole numbers as int."""
    if type(x) is int:
        return x
    return int(x) if float(x).is_integer() else round(x, 4)


class Entry:
    """One fan of a plan."""

    __slots__ = ("id", "fn", "needs", "closed", "open", "instance", "max_count", "unit", "limit", "yaku", "category", "names", "excludes", "partial", "combine", "inst_fn", "fallback", "_name", "names3", "flags", "_awarded", "bit", "excl_mask", "alts", "table", "held_bit", "exact", "exact_alts")

    def __init__(self, fid: str, fan: Mapping[str, Any], unit_default: str):
        self.id = fid
        spec = fan["pattern"]
        self.fn, self.needs = compile_spec(spec)
        if type(spec) is str:  # most fans: one pattern id (the general forms below answer the same)
            self.alts, self.table, self.inst_fn = (), TABLES.get(spec), INSTANCES.get(spec)
        else:
            self.alts = alternatives(spec)  # an any_of: a reading needs one alternative's bits
            self.table = table_of(spec)  # a shared table that must hold the pattern's id
            self.inst_fn = compile_instances(spec)
        self.instance = fan.get("per") == "instance"
        self.exact = is_exact(spec, self.instance) and not self.alts and self.table is None  # counted 1 without a call
        # An any_of's exact alternatives, by the bits each needs: on a reading with one's bits
        # the fan is nonzero, which is all a fan that counts no instances reads (no call).
        self.exact_alts = () if self.instance or not self.alts else tuple(bits for bits, sub in zip(self.alts, spec["any_of"]) if is_exact(sub, False))
        self.closed = fan_value(fan, True)
        self.open = fan_value(fan, False)
        self.max_count = fan.get("max_count")
        self.limit = fan.get("limit", False)
        # A limit hand counts in its own unit: riichi yakuman (value 1, 2 for a double), and a
        # Chinese limit hand as one limit (the count it scores is the hand's fan_total).
        self.unit = "yakuman" if self.limit == "yakuman" else "limit" if self.limit else fan.get("unit", unit_default)
        self.yaku = fan.get("yaku", True)
        self.category = fan.get("category")
        self.names = fan.get("names")
        self.excludes, self.partial = combine.split_excludes(fan.get("excludes", ()))
        self.combine = fan.get("combine") == "sets"  # counted under the account-once principle
        self.fallback = bool(fan.get("fallback"))
        self._name: dict[str, str] = {}
        self.names3 = SharedDict((lang, pick(self.names, lang) or fid) for lang in ("en", "ja", "zh"))
        # What the passes after the fans need to know: excludes others, is a fallback, drops one.
        self.flags = (_EXCLUDES if self.excludes or self.partial else 0) | (_FALLBACK if self.fallback else 0) | (_BEATS if not self.fallback and self.category != "bonus" else 0) | (_COMBINE if self.combine else 0)
        self._awarded: dict[tuple[float, int, str], Awarded] = {}  # Awarded is immutable: one per value, count and language
        self.bit = 0  # this fan's bit among the plan's fans, and the bits of those it excludes (Plan sets them)
        self.excl_mask = 0
        self.held_bit = 0  # its id's bit among the ids of the plan's shared tables (Plan.table_bits)

    def awarded(self, value: float, count: int, lang: str) -> Awarded:
        key = (value, count, lang)
        got = self._awarded.get(key)
        if got is None:
            if len(self._awarded) > 64:
                self._awarded.clear()
            name = self.name(lang)
            shown = _whole(1 if self.unit == "limit" else value)
            record = SharedDict(id=self.id, name=name, value=shown, count=count, unit=self.unit)
            full = SharedDict(id=self.id, name=name, names=self.names3, value=shown, count=count, unit=self.unit)
            got = self._awarded[key] = Awarded(self.id, value, count, self.unit, self.limit, self.yaku, self.category, name, record, full)
        return got

    def name(self, lang: str) -> str:
        got = self._name.get(lang)
        if got is None:
            got = self._name[lang] = pick(self.names, lang) or self.id
        return got
