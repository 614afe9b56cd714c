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


LANGS = ("en", "zh", "ja")


class LangChoice(click.Choice):
    """en, zh or ja; a bad value from $MJTOOLS_LANG is reported as the variable's, not as an
    option the user never typed."""

    def convert(self, value, param, ctx):  # type: ignore[no-untyped-def]
        from click.core import ParameterSource

        if value not in self.choices and ctx is not None and param is not None and ctx.get_parameter_source(param.name) is ParameterSource.ENVIRONMENT:
            from mjtools.errors import UsageError

            raise UsageError(f"$MJTOOLS_LANG={value}: the language is one of {', '.join(LANGS)} (the variable stands for --lang)")
        return super().convert(value, param, ctx)


def lang_option(help: str, default: str | None = None) -> Callable:
    return click.option("--lang", type=LangChoice(LANGS), default=default, envvar="MJTOOLS_LANG", show_default=default is not None, help=help)


def complete_rules(ctx: click.Context, param: click.Parameter, incomplete: str) -> list:
    """Shell completion of a variant: ids and aliases starting with what was typed."""
    from click.shell_completion import CompletionItem

    from mjtools.rules import names

    low = incomplete.lower()
    return [CompletionItem(n) for n in names() if n.startswith(low)]


def rules_option(fn: Callable) -> Callable:
    return click.option("-r", "--rules", "rules", default=None, metavar="ID|PATH", help=RULES_HELP, shell_complete=complete_rules)(fn)


def format_option(fn: Callable) -> Callable:
    return click.option("-f", "--format", "fmt", type=click.Choice(FORMATS), default="table", show_default=True, help="Output format.")(fn)


def input_option(fn: Callable) -> Callable:
    from mjtools.batch.reading import ENCODING, ERRORS

    return click.option("--input", "input_file", type=click.File("r", encoding=ENCODING, errors=ERRORS), default=None, metavar="FILE", help="Read one case per line (a hand, or a JSON object); `-` for stdin.")(fn)


def workers_option(fn: Callable) -> Callable:
    return click.option(
        "--workers",
        type=click.IntRange(min=1),
        default=1,
        show_default=True,
        metavar="N",
        help="Worker processes for a batch (--input): records come back in input order, the same as with one worker.",
    )(fn)


def fail(e: MjError) -> None:
    """The error edge: one line on stderr (a caret under the input on a terminal), exit 2 (3
    when the output cannot be written)."""
    click.echo(f"mjtools: error: {e.one_line()}", err=True)
    if isinstance(e, NotationError) and sys.stderr.isatty():
        click.echo(e.caret(), err=True)
    sys.exit(e.exit_code)


def note_untranslated(rules: str | None, lang: str | None, options: dict | None = None) -> None:
    """Say once, on stderr, when the variant's rule texts are not all in `lang` (the missing
    ones are shown in English)."""
    if not lang or lang == "en":
        return
    from mjtools.messages import text
    from mjtools.rules import load
    from mjtools.rules.model import lacks_text

    rs = load(rules or "riichi", options or {})
    if lacks_text(rs, lang):
        click.echo("mjtools: note: " + text("note.fallback", lang, rules=rs.id, language=lang), err=True)

