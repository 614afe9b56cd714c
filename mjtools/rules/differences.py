"""What a rule file changes in the file it extends, each change with its explanation and source.

A preset (tenhou, majsoul, wrc, ...) changes option defaults and a few settings. For an option:
its name, the base's value and the new one, the text of the new choice and the `source` the
preset gives. For a setting: the key path, both values, and the text and source of the preset's
special rule whose `sets` names the path (or of the section, e.g. `game.source`). New special
rules and `unsupported` entries of the preset are listed too.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from mjtools.rules.freeze import thaw
from mjtools.rules.model import Ruleset, pick

# Not rules: documentation, identity, and the sections listed on their own below.
_SKIP = {"id", "extends", "names", "summary", "aliases", "sources", "status", "examples", "options", "special_rules", "unsupported", "schema_version", "abstract"}


def _flatten(node: Any, prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    if isinstance(node, dict) and node and not ("option" in node and set(node) <= {"option", "map"}):
        for k, v in node.items():
            out.update(_flatten(v, f"{prefix}.{k}" if prefix else str(k)))
    else:
        out[prefix] = node
    return out


def _plain(data: Mapping[str, Any]) -> dict[str, Any]:
    return json.loads(json.dumps(thaw({k: v for k, v in data.items() if k not in _SKIP})))


def parent(rs: Ruleset) -> Ruleset | None:
    from mjtools.rules import load_path

    return load_path(Path(rs.files[1])) if len(rs.files) > 1 else None


def _explained_by(rs: Ruleset, path: str) -> Mapping[str, Any] | None:
    """The leaf's special rule that says it sets `path` (or a prefix of it)."""
    for sid, rule in rs.section("special_rules").items():
        for p in rule.get("sets", ()):
            if path == p or path.startswith(p + "."):
                return {"id": sid, **rule}
    section = rs.raw.get(path.split(".")[0])
    if isinstance(section, Mapping) and section.get("source") and rs.origin(path.split(".")[0] + ".source") == rs.files[0]:
        return section
    return None


def differences(rs: Ruleset, lang: str = "en") -> list[dict[str, Any]]:
    base = parent(rs)
    if base is None:
        return []
    out: list[dict[str, Any]] = []
    for oid, opt in rs.options.items():
        if oid not in base.options:
            out.append({"kind": "option", "path": f"options.{oid}", "id": oid, "from": None, "to": opt.get("default"), "text": pick(opt.get("text"), lang), "source": opt.get("source")})
            continue
        old, new = base.options[oid].get("default"), opt.get("default")
        if str(old) != str(new):
            choices = opt.get("choices")
            what = pick(choices.get(new) if isinstance(choices, Mapping) and isinstance(choices.get(new), Mapping) else None, lang) if choices else None
            out.append({"kind": "option", "path": f"options.{oid}", "id": oid, "name": pick(opt.get("names"), lang) or oid, "from": old, "to": new, "text": what or pick(opt.get("text"), lang), "source": opt.get("source")})
    a, b = _flatten(_plain(base.raw)), _flatten(_plain(rs.raw))
    for path in sorted(set(a) | set(b)):
        if path.startswith("fans.") and any(path.endswith(x) for x in (".names", ".text")):
            continue
        if path.split(".")[-1] in ("source", "text", "names", "en", "zh_hans", "zh_hant", "ja") and path.split(".")[0] in ("game",):
            continue
        if a.get(path, "<absent>") != b.get(path, "<absent>"):
            why = _explained_by(rs, path)
            out.append({"kind": "setting", "path": path, "from": a.get(path), "to": b.get(path), "text": pick(why.get("text"), lang) if why else None, "source": why.get("source") if why else None, "rule": why.get("id") if why else None})
    for sid, rule in rs.section("special_rules").items():
        if sid not in base.section("special_rules"):
            out.append({"kind": "special_rule", "path": f"special_rules.{sid}", "id": sid, "name": pick(rule.get("names"), lang) or sid, "text": pick(rule.get("text"), lang), "source": rule.get("source")})
    for uid, what in (rs.raw.get("unsupported") or {}).items():
        if uid not in (base.raw.get("unsupported") or {}):
            out.append({"kind": "unsupported", "path": f"unsupported.{uid}", "id": uid, "text": pick(what, lang), "source": None})
    return out


def lines(rs: Ruleset, lang: str = "en") -> list[str]:
    """The differences as lines of text for explain-rule."""
    out = []
    for d in differences(rs, lang):
        src = f" [{d['source']}]" if d.get("source") else ""
        if d["kind"] == "option":
            out.append(f"{d.get('name', d['id'])} ({d['id']}): {_word(d['from'])} -> {_word(d['to'])}: {d['text']}{src}")
        elif d["kind"] == "setting":
            out.append(f"{d['path']}: {_word(d['from'])} -> {_word(d['to'])}" + (f": {d['text']}" if d["text"] else "") + src)
        elif d["kind"] == "special_rule":
            out.append(f"{d['name']} ({d['id']}): {d['text']}{src}")
        else:
            out.append(f"not implemented ({d['id']}): {d['text']}")
    return out


def _word(v: Any) -> str:
    return "none" if v is None else json.dumps(v, ensure_ascii=False) if not isinstance(v, str) else v
