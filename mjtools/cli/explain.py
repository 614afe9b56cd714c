"""`mjtools explain-rule`: variants, rules and terms explained from the rule files."""

from __future__ import annotations

import sys

import click

from mjtools.cli.common import complete_rules, format_option, lang_option, note_untranslated, rules_option
from mjtools.errors import UsageError

LANG_HELP = "Language: en, zh or ja (default en, or $MJTOOLS_LANG; never the locale)."




def _emit(fmt: str, command: str, records: list[dict], table: str, batch: bool = False) -> None:
    from mjtools.output import Renderer

    if fmt == "table":
        click.echo(table, nl=False)
        return
    out = Renderer(fmt, command, batch=batch)
    for r in records:
        out.emit(r)
    out.close()


@click.command("explain-rule")
@click.argument("rule_id", metavar="[ID", required=False, shell_complete=complete_rules)
@click.argument("rule", metavar="[RULE]]", required=False)
@click.option("--list", "list_", is_flag=True, help="List every variant: names, players, tiles, hand size, wildcards, score model.")
@click.option("--search", "search_term", metavar="TERM", help="Find a rule term (Chinese or English, 简体 or 繁體) across every variant.")
@click.option("-o", "--option", "options", multiple=True, metavar="NAME=VALUE", help="Set a rule option of ID (shown as its current value).")
@rules_option
@format_option
@lang_option(LANG_HELP, "en")
def explain_rule(rule_id: str | None, rule: str | None, list_: bool, search_term: str | None, options: tuple[str, ...], rules: str | None, fmt: str, lang: str) -> None:
    """Explain a variant, one of its rules, or a rule term across variants.

    \b
    ID        a variant id, alias or rule-file path: tiles, calls, how to win, what is
              required, scoring and payment, special rules, options (current values) and
              what it inherits from which file.
    ID RULE   one fan, option, special rule or setting, found by id, alias, Chinese name
              (简体 or 繁體), English name or a unique prefix: its text, value, what it
              excludes or is excluded by, option values, and worked examples computed live.

    \b
    Examples:
      mjtools explain-rule --list
      mjtools explain-rule riichi
      mjtools explain-rule riichi pinfu --lang zh
      mjtools explain-rule riichi 一炮多响
      mjtools explain-rule --search 杠上开花
    """
    from mjtools.explain import render
    from mjtools.rules import available, load
    from mjtools.rules.hand_options import kv_pairs

    if rules is not None:
        # `-r ID` is the common way to name the variant; the one argument left is then RULE.
        if rule is not None:
            raise UsageError("with --rules, give only RULE (the variant is --rules)")
        rule_id, rule = rules, rule_id

    if search_term is not None:
        if rule is not None:
            raise UsageError("--search takes a TERM; give no RULE with it")
        from mjtools.explain.search import search

        variants = [load(rule_id, kv_pairs(list(options), "option"))] if rule_id else available()
        rec = search(search_term, variants, lang)
        rows = [dict(f, term=t["id"]) for t in rec["terms"] for f in t["found"]] + rec["rules"]
        _emit(fmt, "explain-rule-search", [rec] if fmt == "json" else rows, render.search_text(rec, lang), batch=fmt != "json")
        return
    if list_ or rule_id is None:
        if rule_id is not None:
            raise UsageError("--list takes no ID")
        from mjtools.explain.overview import listing

        rows = [listing(rs, lang) for rs in available()]
        _emit(fmt, "explain-rule-list", rows, render.listing_table(rows, lang), batch=True)
        return
    rs = load(rule_id, kv_pairs(list(options), "option"))
    note_untranslated(rule_id, lang, kv_pairs(list(options), "option"))
    if rule is None:
        from mjtools.explain.overview import overview

        rec = overview(rs, lang)
        _emit(fmt, "explain-rule", [rec], render.overview_text(rec, lang))
        return
    from mjtools.explain.detail import detail
    from mjtools.explain.entries import find

    entry, term = find(rs, rule)
    rec = detail(rs, entry, lang, term)
    _emit(fmt, "explain-rule", [rec], render.detail_text(rec, lang))
    if any(ex["holds"] is False for ex in rec["examples"]):
        sys.exit(1)  # an example that no longer holds is a failed case, as in batch mode
