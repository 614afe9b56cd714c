"""`mjtools score`."""

from __future__ import annotations

import sys
from typing import Any

import click

from mjtools.batch.cases import ScoreCompute, default_rules, run_cases
from mjtools.cli.common import format_option, hand_argument, input_option, lang_option, note_untranslated, rules_option, workers_option
from mjtools.cli.options import add_options
from mjtools.cli.render import score_table
from mjtools.rules.hand_options import kv_pairs


@click.command()
@hand_argument
@rules_option
@format_option
@input_option
@workers_option
@add_options("score")
@click.option("--explain", is_flag=True, help="Show the decomposition, each fan's rule, exclusions and every step of the sums.")
@lang_option("Language of names, fixed words and explanations (default en, or $MJTOOLS_LANG).")
@click.option("--names", "names", type=click.Choice(["one", "all"]), default="one", show_default=True, help="Fan names in the record: one (`name`, in --lang) or all (also `names`, en/ja/zh).")
@click.option("--unicode", is_flag=True, help="Show tiles as Unicode glyphs in tables.")
def score(hand: tuple[str, ...], rules: str | None, fmt: str, input_file, workers: int, explain: bool, lang: str | None, names: str, unicode: bool, **opts: Any) -> None:
    """Is HAND (ending +WINNING_TILE) a legal win; its fans, value, and who pays whom.

    HAND-PART...: one hand, which may be split over several words (they are joined); for
    several hands, one per line, use --input FILE. A hand or situation that cannot occur
    (a meld from a seat that cannot give it, a fifth copy, --kong-bloom without a kong, ...)
    is refused (exit 2); a possible hand that is not a legal win answers valid: false
    (exit 0).

    \b
    Examples:
      mjtools score '234567m234p5688s+7s' --seat S
      mjtools score '1112345678999m+5m' --tsumo --riichi
    """
    compute = ScoreCompute(explain, lang or "en", names == "all")
    failed = run_cases("score", hand, input_file, fmt, opts, rules, compute, table=lambda recs: score_table(recs, unicode, lang or "en"), workers=workers)
    note_untranslated(default_rules(rules), lang, kv_pairs(opts.get("option"), "option"))
    if failed:
        sys.exit(1)
