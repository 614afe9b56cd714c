"""`mjtools score`."""

from __future__ import annotations

from typing import Any

import click

from mjtools.cli.common import format_option, input_option, load_rules, rules_option, run_cases
from mjtools.cli.options import add_options, build_context
from mjtools.cli.render import score_table


def compute(text: str, opts: dict[str, Any], rules: str, explain: bool = False, lang: str = "en") -> dict[str, Any]:
    from mjtools.notation import parse_hand
    from mjtools.scoring import score as score_hand

    table = opts.pop("table", None)
    options = dict(opts.pop("option", {}))
    if table is not None:
        from mjtools.cli.options import _kv
        from mjtools.scoring.table import settle_table

        # A table case may set rule options like a hand case: "option": ["claims=multiple_ron"].
        table = dict(table)
        options.update(_kv(table.pop("option", None), "option"))
        return settle_table(table, load_rules(rules, options), lang)
    rs = load_rules(rules, options)
    ctx = build_context(opts, rs)
    return score_hand(parse_hand(text), rs, ctx, text, explain=explain, lang=lang)


@click.command()
@click.argument("hand", nargs=-1)
@rules_option
@format_option
@input_option
@add_options("score")
@click.option("--explain", is_flag=True, help="Show the decomposition, each fan's rule, exclusions and every step of the sums.")
@click.option("--lang", type=click.Choice(["en", "zh", "ja"]), default=None, envvar="MJTOOLS_LANG", help="Language of names and explanations (default en, or $MJTOOLS_LANG).")
@click.option("--unicode", is_flag=True, help="Show tiles as Unicode glyphs in tables.")
def score(hand: tuple[str, ...], rules: str | None, fmt: str, input_file, explain: bool, lang: str | None, unicode: bool, **opts: Any) -> None:
    """Is HAND (ending +WINNING_TILE) a legal win; its fans, value, and who pays whom.

    \b
    Examples:
      mjtools score '234567m234p5688s+7s' --seat S
      mjtools score '1112345678999m+5m' --tsumo --riichi
    """
    run_cases("score", hand, input_file, fmt, opts, rules, lambda t, o, r: compute(t, o, r, explain, lang or "en"), table=lambda recs: score_table(recs, unicode, lang or "en"))
