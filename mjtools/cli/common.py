"""Shared CLI machinery: the common options and the error edge (cases run in mjtools/batch/)."""

from __future__ import annotations

import sys
from collections.abc import Callable

import click

from mjtools.errors import MjError, NotationError
from mjtools.output import FORMATS

RULES_HELP = "Variant id or alias (`mjtools rules list`), or a path to a rule file. Default: riichi, or $MJTOOLS_RULES."


# One hand, which may span several words (the notation allows spaces between groups); the
# usage line says it is one hand, and a tile-count error on joined words points to --input.
HAND_METAVAR = "[HAND-PART]..."


def hand_argument(fn: Callable) -> Callable:
    return click.argument("hand", nargs=-1, metavar=HAND_METAVAR)(fn)


def rules_option(fn: Callable) -> Callable:
    return click.option("-r", "--rules", "rules", default=None, metavar="ID|PATH", help=RULES_HELP)(fn)


def format_option(fn: Callable) -> Callable:
    return click.option("-f", "--format", "fmt", type=click.Choice(FORMATS), default="table", show_default=True, help="Output format.")(fn)


def input_option(fn: Callable) -> Callable:
    return click.option("--input", "input_file", type=click.File("r", encoding="utf-8"), default=None, metavar="FILE", help="Read one case per line (a hand, or a JSON object); `-` for stdin.")(fn)


def fail(e: MjError) -> None:
    """The error edge: one line on stderr (a caret under the input on a terminal), exit 2."""
    click.echo(f"mjtools: error: {e.one_line()}", err=True)
    if isinstance(e, NotationError) and sys.stderr.isatty():
        click.echo(e.caret(), err=True)
    sys.exit(2)
