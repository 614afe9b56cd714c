"""`mjtools score`."""

from __future__ import annotations

import sys
from typing import Any

import click

from mjtools.batch.cases import ScoreCompute, run_cases
from mjtools.cli.common import format_option, input_option, rules_option, workers_option
from mjtools.cli.options import add_options
from mjtools.cli.render import score_table


@click.command()
@click.argument("hand", nargs=-1)
@rules_option
@format_option
@input_option
@workers_option
@add_options("score")
@click.option("--explain", is_flag=True, help="Show the decomposition, each fan's rule, exclusions and every step of the sums.")
@click.option("--lang", type=click.Choice(["en", "zh", "ja"]), default=None, envvar="MJTOOLS_LANG", help="Language of names and explanations (default en, or $MJTOOLS_LANG).")
@click.option("--unicode", is_flag=True, help="Show tiles as Unicode glyphs in tables.")
def score(hand: tuple[str, ...], rules: str | None, fmt: str, input_file, workers: int, explain: bool, lang: str | None, unicode: bool, **opts: Any) -> None:
    """Is HAND (ending +WINNING_TILE) a legal win; its fans, value, and who pays whom.

    \b
    Examples:
      mjtools score '234567m234p5688s+7s' --seat S
      mjtools score '1112345678999m+5m' --tsumo --riichi
    """
    compute = ScoreCompute(explain, lang or "en")
    if run_cases("score", hand, input_file, fmt, opts, rules, compute, table=lambda recs: score_table(recs, unicode, lang or "en"), workers=workers):
        sys.exit(1)
