"""`mjtools shanten` and `mjtools wait`."""

from __future__ import annotations

import sys
from typing import Any

import click

from mjtools.batch.cases import analysis_compute, run_cases
from mjtools.cli.common import format_option, hand_argument, input_option, rules_option, workers_option
from mjtools.cli.options import add_options


# The terminal tables (cli/render.py) load only for `-f table`.
def shanten_table(records: list[dict[str, Any]], unicode: bool) -> str:
    from mjtools.cli.render import shanten_table

    return shanten_table(records, unicode)


def wait_table(records: list[dict[str, Any]], unicode: bool) -> str:
    from mjtools.cli.render import wait_table

    return wait_table(records, unicode)


@click.command()
@hand_argument
@rules_option
@format_option
@input_option
@workers_option
@add_options("shanten")
@click.option("--unicode", is_flag=True, help="Show tiles as Unicode glyphs in tables.")
def shanten(hand: tuple[str, ...], rules: str | None, fmt: str, input_file, workers: int, unicode: bool, **opts: Any) -> None:
    """How far HAND is from ready; with a drawn tile, every discard ranked.

    Per form (standard, seven pairs, thirteen orphans, ...) the shanten is -1 when complete
    and 0 when ready. With hand size + 1 tiles, each discard is listed with its shanten and
    effective tiles, best first; for a ready hand the effective tiles are the ones it wins on.

    HAND-PART...: one hand, which may be split over several words (they are joined); for
    several hands, one per line, use --input FILE.

    Shanten counts shapes: --tsumo, --ron, --seat, --round and dora indicators do not
    change it (they are accepted so that one set of options serves score, wait and
    shanten). --void, --wild, a wildcard --indicator and --visible (live counts) do.

    \b
    Example:
      mjtools shanten '1289m3457p12368s+4z'
    """
    table = lambda recs: shanten_table(recs, unicode)  # noqa: E731
    if input_file is not None or hand == ("-",):
        from mjtools.batch.plain import run_shanten

        failed = run_shanten(hand, input_file, fmt, opts, rules, table, workers)
        if failed is not None:
            if failed:
                sys.exit(1)
            return
    if run_cases("shanten", hand, input_file, fmt, opts, rules, analysis_compute("shanten"), table=table, workers=workers):
        sys.exit(1)


@click.command()
@hand_argument
@rules_option
@format_option
@input_option
@workers_option
@add_options("wait")
@click.option("--unicode", is_flag=True, help="Show tiles as Unicode glyphs in tables.")
def wait(hand: tuple[str, ...], rules: str | None, fmt: str, input_file, workers: int, unicode: bool, **opts: Any) -> None:
    """Which tiles complete a ready HAND, and how many of each are still live.

    `winning` says whether each completed hand is a legal win (yaku, minimum fan, ...) by
    ron and by tsumo (--ron or --tsumo: that way only; --seat and --round decide the wind
    yaku). With hand size + 1 tiles, the waits after each discard: the cut copy is no longer
    live, and where the variant has furiten a wait on the cut kind wins by tsumo only.
    Improvements are draws (other than a winning tile) after which a discard leaves more
    live winning tiles.

    HAND-PART...: one hand, which may be split over several words (they are joined); for
    several hands, one per line, use --input FILE.

    \b
    Example:
      mjtools wait '123m456p789s1122z'
    """
    if run_cases("wait", hand, input_file, fmt, opts, rules, analysis_compute("wait"), table=lambda recs: wait_table(recs, unicode), workers=workers):
        sys.exit(1)
