"""A variant explained for a player, generated from its resolved rule file.

Sections: what it is (status, summary), where it comes from (the extends chain and what each file
sets), tiles, players and hands, wall, calls, wildcards, how to win, scoring (with every fan),
payment, how a hand is played, special rules, options with their current values, and what mjtools
does not implement. Settings are described with the fixed words of data/messages.json; a key the
catalogue does not know is shown as `key: value`, so nothing in the file is left out.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from mjtools.messages import has, text, unit_word
from mjtools.rules.freeze import thaw
from mjtools.rules.model import Ruleset, pick
from mjtools.tiles.kinds import kind_name, parse_kind

# Sections of settings, in the order a player meets them.
SETTING_SECTIONS = ("wall", "calls", "win", "scoring", "settlement", "play")


def fmt(value: Any, lang: str, prefix: str = "") -> str:
    """A setting value in words: yes/no, enum words from the catalogue, lists, compact JSON."""
    if isinstance(value, bool):
        return text("word.yes" if value else "word.no", lang)
    if value is None:
        return text("word.none", lang)
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, str):
        for key in ([f"{prefix}.{value}"] if prefix else []) + [f"val.{value}"]:
            if has(key):
                return text(key, lang)
        return value
    if isinstance(value, (list, tuple)):
        return ", ".join(fmt(v, lang, prefix) for v in value) or text("word.none", lang)
    if isinstance(value, Mapping):
        # Flat mappings as `key: value; ...`; nested ones (liability rules, chickens) by their
        # entries' names, so a long block of settings stays one readable line.
        if all(not isinstance(v, Mapping) for v in value.values()):
            return "; ".join(f"{k}: {fmt(v, lang)}" for k, v in value.items())
        return ", ".join((pick(v.get("names"), lang) if isinstance(v, Mapping) and v.get("names") else str(k)) for k, v in value.items())
    return f"{value:g}" if isinstance(value, (int, float)) else str(value)


def setting_line(section: str, key: str, value: Any, lang: str) -> str:
    """One setting in words: `set.SECTION.KEY` from the catalogue, else `key: value`."""
    tmpl = f"set.{section}.{key}"
    shown = fmt(value, lang, f"val.{section}.{key}")
    if has(tmpl):
        return text(tmpl, lang, value=shown)
    return f"{key}: {shown}"


def _section(sid: str, lang: str, lines: list[str]) -> dict[str, Any]:
    return {"id": sid, "title": text(f"overview.{sid}", lang), "lines": [ln for ln in lines if ln]}


def tile_count(rs: Ruleset) -> int:
    return sum(rs.copies)


def _tiles(rs: Ruleset, lang: str) -> list[str]:
    t = rs.section("tiles")
    lines = [text("tiles.total", lang, n=tile_count(rs))]
    suits = ", ".join(text(f"suit.{s}", lang) for s in t.get("suits", ()))
    if suits:
        lines.append(text("tiles.suits", lang, suits=suits))
    honors = t.get("honors", ())
    if honors:
        names = " ".join(kind_name(parse_kind(f"{n}z"), "zh" if lang != "en" else "en") for n in sorted(honors))
        lines.append(text("tiles.honors", lang, honors=names))
    else:
        lines.append(text("tiles.no_honors", lang))
    if t.get("exclude"):
        lines.append(text("tiles.exclude", lang, tiles=" ".join(t["exclude"])))
    if t.get("flowers"):
        lines.append(text("tiles.flowers", lang, n=len(t["flowers"])))
    if t.get("jokers"):
        lines.append(text("tiles.jokers", lang, n=t["jokers"]))
    if t.get("bonus"):
        lines.append(text("tiles.bonus", lang, tiles=" ".join(t["bonus"])))
    red = {s: n for s, n in (t.get("red_fives") or {}).items() if n}
    if red:
        lines.append(text("tiles.red_fives", lang, list=", ".join(f"{s} {n}" for s, n in red.items())))
    copies = {k: v for k, v in (t.get("copies") or {}).items()}
    if copies:
        lines.append(text("tiles.copies", lang, list=", ".join(f"{k} {v}" for k, v in copies.items())))
    return lines


def _players(rs: Ruleset, lang: str) -> list[str]:
    hand = rs.section("hand")
    lines = [text("players.count", lang, n=rs.players, seats=" ".join(rs.seats))]
    extra = hand.get("dealer_extra", 0)
    lines.append(text("players.hand_dealer" if extra else "players.hand", lang, n=rs.hand_size, dealer=rs.hand_size + extra))
    return lines


def wildcard_summary(rs: Ruleset, lang: str) -> str:
    wc = rs.section("wildcards")
    if not wc:
        return text("word.none", lang)
    name = pick(wc.get("names"), lang) or wc.get("kind", "")
    how = []
    if wc.get("fixed"):
        how.append(text("wild.fixed", lang, tiles=" ".join(wc["fixed"])))
    if wc.get("indicator"):
        how.append(text("wild.indicator", lang))
    if rs.section("tiles").get("jokers"):
        how.append(text("wild.jokers", lang, n=rs.section("tiles")["jokers"]))
    return f"{name} ({'; '.join(how)})" if how else name


def _kong_payments(value: Mapping[str, Any], lang: str) -> str:
    """`exposed kong: the feeder pays 2; ...` from settlement.kong_payments."""
    parts = []
    for kind, how in value.items():
        if isinstance(how, Mapping):
            who = fmt(how.get("from", "each"), lang, "val.kong_from")
            parts.append(f"{fmt(kind, lang, 'val.kong')}: {who} {fmt(how.get('amount', 0), lang)}")
    return "; ".join(parts)


def _generic(section: str, data: Mapping[str, Any], lang: str, skip: tuple[str, ...] = ()) -> list[str]:
    lines = []
    for key, value in data.items():
        if key in skip:
            continue
        if section == "settlement" and key == "kong_payments" and isinstance(value, Mapping):
            lines.append(text("set.settlement.kong_payments", lang, value=_kong_payments(value, lang)))
            continue
        if isinstance(value, Mapping) and value and not has(f"set.{section}.{key}"):
            inner = "; ".join(f"{k}: {fmt(v, lang, f'val.{section}.{key}.{k}')}" for k, v in value.items())
            lines.append(f"{key}: {inner}")
        else:
            lines.append(setting_line(section, key, value, lang))
    return lines


def _win(rs: Ruleset, lang: str) -> list[str]:
    win = rs.section("win")
    lines = [text("win.forms", lang, forms=", ".join(text(f"form.{f}", lang) if has(f"form.{f}") else f for f in win["forms"]))]
    for req in win.get("require", ()):
        lines.append(text(f"require.{req}", lang) if has(f"require.{req}") else req)
    minimum = win.get("minimum") or {}
    if minimum.get("yaku"):
        lines.append(text("win.min_yaku", lang))
    for key in ("fan", "fan_ron", "points_tsumo", "points_ron"):
        if minimum.get(key):
            lines.append(text(f"win.min_{key}", lang, n=fmt(minimum[key], lang)))
    if minimum.get("exclude_fans"):
        lines.append(text("win.min_exclude", lang, fans=", ".join(minimum["exclude_fans"])))
    lines += _generic("win", win, lang, skip=("forms", "require", "minimum"))
    return lines


def fan_value(fan: Mapping[str, Any], unit: str, lang: str, limit_value: Any = None) -> str:
    """A fan's value in words: per instance, concealed / open, limit. A limit hand of a
    doubling variant says the count it scores (`limit_value`, the file's scoring.limit_value),
    not the count written on the fan."""
    v = fan["value"]
    if fan.get("limit") and fan.get("limit") != "yakuman" and limit_value is not None:
        return text("fanval.limit_hand", lang, v=fmt(limit_value, lang), unit=unit_word(fan.get("unit", unit), lang))
    unit = unit_word(fan.get("unit", unit), lang)
    if isinstance(v, Mapping):
        closed, opened = v.get("closed"), v.get("open", v.get("closed"))
        if opened is None:
            out = text("fanval.closed_only", lang, v=fmt(closed, lang), unit=unit)
        elif opened == closed:
            out = f"{fmt(closed, lang)} {unit}".strip()
        else:
            out = text("fanval.closed_open", lang, closed=fmt(closed, lang), open=fmt(opened, lang), unit=unit)
    else:
        out = f"{fmt(v, lang)} {unit}".strip()
    if fan.get("per") == "instance":
        out = text("fanval.each", lang, v=out)
    if fan.get("limit") == "yakuman":
        # A yakuman's value counts yakuman, not han: 2 = a double yakuman.
        out = text("fanval.yakuman", lang, v=out.replace(unit, "").strip())
    elif fan.get("limit"):
        out += " " + text("fanval.limit", lang, kind=fmt(fan["limit"], lang, "val.limit"))
    if fan.get("fallback"):
        out += " " + text("fanval.fallback", lang)
    return out


def _scoring(rs: Ruleset, lang: str) -> list[str]:
    sc = rs.section("scoring")
    model = sc["model"]
    lines = [text("scoring.model", lang, model=model, how=text(f"model.{model}", lang) if has(f"model.{model}") else model)]
    lines += _generic("scoring", sc, lang, skip=("model",))
    unit = sc.get("unit", "")
    fans = rs.section("fans")
    on = [f for f in fans.values() if f.get("enabled", True)]
    lines.append(text("scoring.fans", lang, n=len(on)))
    for fid, fan in fans.items():
        off = "" if fan.get("enabled", True) else " " + text("fanval.off", lang)
        lines.append(f"  {pick(fan.get('names'), lang) or fid} ({fid}): {fan_value(fan, unit, lang, sc.get('limit_value'))}{off}")
    return lines


def _inherits(rs: Ruleset, lang: str) -> list[str]:
    files = list(rs.files)
    if len(files) == 1:
        return [text("inherits.single", lang, file=files[0])]
    # The leaf is named by its id; the files it extends by their file names (= shipped ids).
    names = [rs.id] + [Path(f).stem for f in files[1:]]
    lines = []
    for child, base, file in zip(names, names[1:], files[1:]):
        lines.append(text("inherits.extends", lang, child=child, base=base, file=file))
    for name, f in zip(names[:-1], files[:-1]):
        keys = sorted({_group(p) for p, origin in rs.origins.items() if origin == f and p and _group(p) != "extends"})
        lines.append(text("inherits.sets", lang, file=name, keys=", ".join(keys) or text("word.none", lang)))
    lines.append(text("inherits.rest", lang, file=names[-1]))
    return lines


def _group(path: str) -> str:
    """A key path shortened to what a reader cares about: `fans.pinfu`, `names`, `status`."""
    parts = path.split(".")
    return parts[0] if parts[0] in ("names", "summary", "sources", "aliases", "extends") else ".".join(parts[:2])


def _options(rs: Ruleset, lang: str) -> list[str]:
    lines = []
    for oid, opt in rs.options.items():
        current = rs.option_values.get(oid)
        name = pick(opt.get("names"), lang) or oid
        lines.append(text("options.line", lang, name=name, id=oid, value=option_word(current), default=option_word(opt.get("default")), text=pick(opt.get("text"), lang)))
        choices = opt.get("choices")
        if isinstance(choices, Mapping):
            for value, what in choices.items():
                mark = "*" if str(value) == str(current) else "-"
                lines.append(f"    {mark} {option_word(value)}: {pick(what, lang) if isinstance(what, Mapping) else what}")
    return lines or [text("word.none", lang)]


def option_word(value: Any) -> str:
    """An option value as `-o NAME=VALUE` takes it (true, false, null, numbers, words)."""
    return json.dumps(thaw(value), ensure_ascii=False) if not isinstance(value, str) else value


def status_line(rs: Ruleset, lang: str) -> str:
    status = rs.raw.get("status")
    return text(f"status.{status}", lang) if status and has(f"status.{status}") else ""


def overview(rs: Ruleset, lang: str = "en") -> dict[str, Any]:
    """The explain-rule record of a whole variant."""
    from mjtools.rules.differences import lines

    d = rs.data
    diff_lines = lines(rs, lang)
    about = [status_line(rs, lang), pick(rs.raw.get("summary"), lang)]
    if rs.raw.get("aliases") and rs.origin("aliases") == rs.files[0]:  # a base's aliases name the base
        about.append(text("overview.aliases", lang, aliases=", ".join(rs.raw["aliases"])))
    sections = [
        _section("about", lang, about),
        _section("inherits", lang, _inherits(rs, lang)),
        *([_section("differences", lang, diff_lines)] if diff_lines else []),
        _section("tiles", lang, _tiles(rs, lang)),
        _section("players", lang, _players(rs, lang)),
        _section("wall", lang, _generic("wall", rs.section("wall"), lang) or [text("word.none", lang)]),
        _section("calls", lang, _generic("calls", rs.section("calls"), lang)),
        _section("wildcards", lang, [wildcard_summary(rs, lang)] + _generic("wildcards", rs.section("wildcards"), lang, skip=("names", "kind"))),
        _section("win", lang, _win(rs, lang)),
        _section("scoring", lang, _scoring(rs, lang)),
        _section("settlement", lang, _generic("settlement", rs.section("settlement"), lang) or [text("word.none", lang)]),
        _section("play", lang, _generic("play", rs.section("play"), lang) or [text("word.none", lang)]),
        _section("special_rules", lang, [f"{pick(s.get('names'), lang) or sid} ({sid}): {pick(s.get('text'), lang)}" for sid, s in rs.section("special_rules").items()] or [text("word.none", lang)]),
        _section("options", lang, _options(rs, lang)),
    ]
    if rs.section("situations"):
        sections.append(_section("situations", lang, [f"--situation {sid}: {pick(x.get('names'), lang) or sid}. {pick(x.get('text'), lang)}" for sid, x in rs.section("situations").items()]))
    if d.get("unsupported"):
        sections.append(_section("unsupported", lang, [f"{k}: {pick(v, lang)}" for k, v in d["unsupported"].items()]))
    title = f"{rs.name(lang)} ({rs.id})"
    body = "\n\n".join(s["title"] + "\n" + "\n".join(f"  {ln}" for ln in s["lines"]) for s in sections)
    examples = [{"id": eid, "illustrates": list(ex.get("illustrates", ())), "command": ex.get("command", "score"), "hand": ex.get("hand")} for eid, ex in rs.examples.items()]
    return {"rules": rs.id, "rule": None, "kind": "variant", "title": title, "status": rs.raw.get("status"), "files": list(rs.files), "sections": sections, "text": body, "examples": examples}


def listing(rs: Ruleset, lang: str = "en") -> dict[str, Any]:
    """One row of `explain-rule --list`."""
    return {
        "id": rs.id,
        "zh": rs.name("zh"),
        "en": rs.name("en"),
        "players": rs.players,
        "tiles": tile_count(rs),
        "hand": rs.hand_size,
        "wildcards": wildcard_summary(rs, lang),
        "model": rs.section("scoring").get("model"),
        "status": rs.raw.get("status", ""),
        "aliases": list(rs.raw.get("aliases", ())),
    }
