"""`score --explain`: why this reading was chosen, which rule gave each fan, how the sums went.

The record's `explain` object keeps the contract keys (`decomposition`, `awarded` with `id`,
`rule`, `value`; `excluded` with `id`, `by`; `steps`) and adds the readings that lost and why.
Everything is rendered in the requested language: fixed words from `data/messages.json`, rule
text from the rule file, and the score model's steps re-rendered through `Msg`.
"""

from __future__ import annotations

from typing import Any

from mjtools.messages import has, localize, text, unit_word
from mjtools.rules.model import Ruleset, pick
from mjtools.scoring.result import Evaluation, HandValue, Settled

# (rank key, evaluation, value, settlement) per reading, as `score` ranks them.
Reading = tuple[tuple, Evaluation, "HandValue | None", "Settled | None"]
MAX_ALTERNATIVES = 20  # losing readings spelled out in the steps (JSON `readings` has them all)
LOST_ON = ("valid", "points", "fan_total", "tie_break")


def _num(x: float | None) -> float | int | None:
    if x is None:
        return None
    return int(x) if float(x).is_integer() else round(x, 4)


def _fmt(x: float | None) -> str:
    if x is None:
        return "-"
    n = _num(x)
    # An integer in full (`:g` would write 1e+06 from a million on: aotenjou's points)
    return str(n) if type(n) is int else f"{n:g}"


def _form(form: str, lang: str) -> str:
    return text(f"form.{form}", lang) if has(f"form.{form}") else form


def _wait(wait: str | None, lang: str) -> str:
    if not wait:
        return ""
    return text(f"wait.{wait}", lang) if has(f"wait.{wait}") else wait


def fan_name(rs: Ruleset, fid: str, lang: str) -> str:
    fan = rs.section("fans").get(fid)
    return (pick(fan.get("names"), lang) if fan else "") or fid


def _reading_line(ev: Evaluation, lang: str) -> str:
    d = ev.decomposition
    blocks = " ".join(str(b) for b in d.blocks)
    wait = _wait(d.wait, lang)
    key = "explain.reading_wait" if wait else "explain.reading"
    return text(key, lang, form=_form(d.form, lang), blocks=blocks, wait=wait)


def _lost_on(r: Reading, best: Reading) -> str:
    """Which ranking key a losing reading fell short on (`same` when the keys tie).

    Keys are (legal, points, fan total, model rank), or (legal, points, *tie-break) when the model
    gives its own tie-break (riichi: real yakuman, han, fu, fu before rounding)."""
    key, _, value, _ = r
    own_tiebreak = any(v is not None and v.tiebreak is not None for v in (value, best[2]))
    for i, (mine, theirs) in enumerate(zip(key, best[0])):
        if mine != theirs:
            if i < 2:
                return LOST_ON[i]
            return "fan_total" if i == 2 and not own_tiebreak else "tie_break"
    return "same"


def reading_record(r: Reading, chosen: bool, lost_on: str | None) -> dict[str, Any]:
    """One decomposition as explain shows it: blocks, wait, fans, what it is worth, its fate."""
    _, ev, value, settled = r
    d = ev.decomposition
    out: dict[str, Any] = {"decomposition": [str(b) for b in d.blocks], "form": d.form, "wait": d.wait}
    out["fans"] = {a.id: _num(a.total) for a in ev.fans}
    out["valid"] = value is not None
    if value is None:
        out["reason"] = ev.reason
    else:
        out.update({k: v for k, v in value.extra.items() if k in ("han", "fu")})
        out["fan_total"] = _num(value.fan_total)
        out["points"] = _num(settled.points if settled else 0)
    out["chosen"] = chosen
    out["lost_on"] = lost_on
    return out


def _why(r: Reading, best: Reading, lost: str, lang: str) -> str:
    _, ev, value, settled = r
    points = settled.points if settled else 0
    if lost == "valid":
        why = text("explain.lost.valid", lang, reason=ev.reason or "")
    elif lost == "points":
        why = text("explain.lost.points", lang, points=_fmt(points), best=_fmt(best[3].points if best[3] else 0))
    elif lost == "fan_total":
        why = text("explain.lost.fan_total", lang, total=_fmt(value.fan_total if value else 0), best=_fmt(best[2].fan_total if best[2] else 0))
    elif lost == "tie_break":
        why = text("explain.lost.tie_break", lang)
    else:
        why = text("explain.lost.same", lang)
    return text("explain.not_chosen", lang, reading=_reading_line(ev, lang), why=why)


def _ordering(rs: Ruleset, lang: str) -> str:
    """Legal wins first, then points, then the model's own tie-break (riichi) or the fan total."""
    extra = f"order.{rs.section('scoring').get('model', '')}"
    rest = text("explain.ordering_then", lang, rest=text(extra, lang)) if has(extra) else text("explain.ordering_fan", lang)
    return text("explain.ordering", lang) + rest


def build(readings: list[Reading], chosen: int, rs: Ruleset, lang: str) -> dict[str, Any]:
    """The `explain` object of a score record."""
    best = readings[chosen]
    _, ev, value, settled = best
    d = ev.decomposition
    steps: list[str] = []
    n = len(readings)
    steps.append(text("explain.readings", lang, n=n) if n > 1 else text("explain.one_reading", lang))
    steps.append(text("explain.chosen", lang, reading=_reading_line(ev, lang)))
    records = []
    if n > 1:
        steps.append(_ordering(rs, lang))
    shown = 0
    for i, r in enumerate(readings):
        lost = None if i == chosen else _lost_on(r, best)
        records.append(reading_record(r, i == chosen, lost))
        if lost is not None:
            shown += 1
            if shown <= MAX_ALTERNATIVES:
                steps.append(_why(r, best, lost, lang))
    if shown > MAX_ALTERNATIVES:
        steps.append(text("explain.more_readings", lang, n=shown - MAX_ALTERNATIVES))
    awarded = []
    for a in ev.fans:
        rule = pick(rs.fans[a.id].get("text"), lang) if a.id in rs.fans else ""
        name = a.name or fan_name(rs, a.id, lang)
        per = a.shown_value
        awarded.append({"id": a.id, "name": name, "rule": rule or name, "value": _num(per * a.count), "per": _num(per), "count": a.count, "unit": a.unit})
        unit = unit_word(a.unit, lang)
        amount = text("explain.times", lang, value=_fmt(per), count=a.count, total=_fmt(per * a.count), unit=unit) if a.count != 1 else f"{_fmt(per)} {unit}".strip()
        steps.append(text("explain.fan", lang, name=name, id=a.id, amount=amount, rule=rule or name))
    excluded = []
    for fid, by in ev.excluded:
        known = by in rs.section("fans")
        by_name = fan_name(rs, by, lang) if known else text("explain.fallback_by", lang)
        excluded.append({"id": fid, "name": fan_name(rs, fid, lang), "by": by if known else "fallback", "by_name": by_name})
        key = "explain.excluded" if known else "explain.excluded_fallback"
        steps.append(text(key, lang, name=fan_name(rs, fid, lang), id=fid, by=by_name, by_id=by))
    if ev.reason:
        steps.append(text("explain.not_a_win", lang, reason=ev.reason))
    if value is not None:
        steps += [localize(s, lang) for s in value.explain_steps()]
    if settled is not None:
        steps += [localize(s, lang) for s in settled.explain_steps()]
        parts = [f"{s} {_fmt(a)}" for s, a in settled.payments.items() if a]
        if settled.pot:
            parts.append(text("explain.pot", lang, pot=_fmt(settled.pot)))
        steps.append(text("explain.total", lang, parts=" + ".join(parts) or "0", points=_fmt(settled.points)))
    return {
        "decomposition": [str(b) for b in d.blocks],
        "form": d.form,
        "wait": d.wait,
        "readings": records,
        "awarded": awarded,
        "excluded": excluded,
        "steps": steps,
    }


def no_reading(lang: str) -> dict[str, Any]:
    return {"decomposition": [], "form": None, "wait": None, "readings": [], "awarded": [], "excluded": [], "steps": [text("explain.no_reading", lang)]}
