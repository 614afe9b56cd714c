"""`mjtools rules list | show ID [--resolved] | validate FILE... | diff A B`."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from mjtools.cli.common import complete_rules, format_option
from mjtools.errors import MjError, RuleFileError


@click.group()
def rules() -> None:
    """List, show, validate and compare rule files (rules.d/ and your own)."""


@rules.command("list")
@format_option
@click.option("--all", "show_all", is_flag=True, help="Include abstract base files.")
def list_(fmt: str, show_all: bool) -> None:
    """The variants on the rule search path ($MJTOOLS_RULES_PATH, then the shipped rules.d/)."""
    from mjtools.output import Renderer, simple_table
    from mjtools.rules import available

    # JSON keeps the aliases a list; the table shows them joined.
    out = Renderer(fmt, "rules", batch=True, table=lambda recs: simple_table([{**r, "aliases": ", ".join(r["aliases"])} for r in recs]))
    for rs in available(include_abstract=show_all):
        out.emit({
            "id": rs.id,
            "en": rs.name("en"),
            "zh": rs.name("zh"),
            "players": rs.players,
            "hand": rs.hand_size,
            "model": rs.section("scoring").get("model"),
            "status": rs.raw.get("status", ""),
            "aliases": list(rs.raw.get("aliases", ())),
        })
    out.close()


@rules.command()
@click.argument("name", shell_complete=complete_rules)
@click.option("--resolved", is_flag=True, help="Show the merged result of the extends chain (options applied).")
@click.option("-o", "--option", "options", multiple=True, metavar="NAME=VALUE", help="Set a rule option (with --resolved).")
def show(name: str, resolved: bool, options: tuple[str, ...]) -> None:
    """Print a rule file as YAML (the file itself, or --resolved)."""
    import yaml

    from mjtools.rules import load
    from mjtools.rules.freeze import thaw
    from mjtools.rules.hand_options import kv_pairs
    from mjtools.rules.loader import find

    if not resolved:
        if options:
            raise click.UsageError("--option needs --resolved")
        from mjtools.rules.files import read_bytes

        path = find(name)
        data = read_bytes(path)  # a rule file only (a regular .yaml file, size-capped)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise RuleFileError("not UTF-8 text", path) from None
        click.echo(text, nl=False)
        return
    rs = load(name, kv_pairs(list(options), "option"))
    data = thaw(rs.data)
    data["options"] = {k: {**v, "value": rs.option_values[k]} for k, v in thaw(rs.options).items()}
    click.echo(f"# {rs.id}: resolved from " + " <- ".join(Path(f).name for f in reversed(rs.files)))
    click.echo(yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=100), nl=False)


@rules.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
def validate(files: tuple[str, ...]) -> None:
    """Check rule files against the schema and the pattern registry; one line per problem."""
    from mjtools.rules import load_path

    bad = 0
    for f in files:
        try:
            rs = load_path(Path(f))
            click.echo(f"{f}: ok ({rs.id}, {len(rs.fans)} fans, {len(rs.examples)} examples)")
        except MjError as e:
            bad += 1
            click.echo(f"mjtools: error: {e.one_line()}", err=True)
    if bad:
        sys.exit(2)


def _flatten(node: Any, prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    if isinstance(node, dict) and node:
        for k, v in node.items():
            out.update(_flatten(v, f"{prefix}.{k}" if prefix else str(k)))
    else:
        out[prefix] = node
    return out


# Documentation inside fans, options and special rules: not a difference in the rules.
DOC_KEYS = {"names", "text", "source", "aliases"}
LANGS = {"en", "zh_hans", "zh_hant", "ja"}  # an option choice's text: documentation too


def _doc_stems(flat: dict[str, Any]) -> set[str]:
    out = set()
    for key in flat:
        parts = key.split(".")
        for i, p in enumerate(parts):
            if p in DOC_KEYS:
                out.add(".".join(parts[:i]))
                break
    return out


def diff_rulesets(a: str, b: str) -> list[dict[str, Any]]:
    from mjtools.rules import load
    from mjtools.rules.freeze import thaw

    # A JSON round trip gives both sides the same key spellings (a ruleset read from the cache
    # has "null"/"true" where a fresh one has None/True).
    da = json.loads(json.dumps(thaw(load(a).data)))
    db = json.loads(json.dumps(thaw(load(b).data)))
    for d in (da, db):
        for k in ("id", "examples", "names", "summary", "aliases", "sources"):
            d.pop(k, None)
    fa, fb = _flatten(da), _flatten(db)
    # A node made of documentation only (a special rule) still differs by being there or not.
    sa, sb = _doc_stems(fa), _doc_stems(fb)
    for stem in sa ^ sb:
        if not any(k.startswith(stem + ".") and not DOC_KEYS & set(k.split(".")) for k in set(fa) | set(fb)):
            fa[stem] = "present" if stem in sa else "<absent>"
            fb[stem] = "present" if stem in sb else "<absent>"
    rows = []
    for key in sorted(set(fa) | set(fb)):
        parts = key.split(".")
        if DOC_KEYS & set(parts) or ("choices" in parts and parts[-1] in LANGS):
            continue
        if fa.get(key, "<absent>") != fb.get(key, "<absent>"):
            rows.append({"path": key, a: fa.get(key, "<absent>"), b: fb.get(key, "<absent>")})
    return rows


@rules.command()
@click.argument("a", shell_complete=complete_rules)
@click.argument("b", shell_complete=complete_rules)
@format_option
def diff(a: str, b: str, fmt: str) -> None:
    """The key paths where two resolved rulesets differ (names, texts and examples aside)."""
    rows = diff_rulesets(a, b)
    if fmt == "table":
        for r in rows:
            click.echo(f"{r['path']}: {json.dumps(r[a], ensure_ascii=False)} -> {json.dumps(r[b], ensure_ascii=False)}")
        return
    from mjtools.output import Renderer

    out = Renderer(fmt, "rules", batch=True)
    for r in rows:
        out.emit(r)
    out.close()
