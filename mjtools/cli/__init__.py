"""The `mjtools` Click group. Subcommands load lazily so that a single call stays fast.

The top layer: a thin function per subcommand over batch, sim, explain and rules.
"""

from __future__ import annotations

import importlib
import sys

import click

from mjtools import __version__

COMMANDS = {
    "score": "mjtools.cli.score:score",
    "wait": "mjtools.cli.analysis:wait",
    "shanten": "mjtools.cli.analysis:shanten",
    "rules": "mjtools.cli.rules:rules",
    "simulate": "mjtools.cli.simulate:simulate",
    "replay": "mjtools.cli.replay:replay",
    "explain-rule": "mjtools.cli.explain:explain_rule",
}


# Click 8.2+ raises this for a group called without a subcommand (8.1 printed the help itself).
NO_ARGS_IS_HELP: type[Exception] | tuple[()] = getattr(click.exceptions, "NoArgsIsHelpError", ())


def register(name: str, target: str) -> None:
    COMMANDS[name] = target


class LazyGroup(click.Group):
    """Loads subcommands on first use and converts every error once, at the edge."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):  # type: ignore[override]
        from mjtools.errors import MjError

        try:
            return super().main(args=args, prog_name=prog_name or "mjtools", complete_var=complete_var, standalone_mode=False, **extra)
        except MjError as e:
            from mjtools.cli.common import fail

            fail(e)
        except NO_ARGS_IS_HELP as e:
            # Bare `mjtools` or `mjtools rules` asks what there is: the help, and success.
            click.echo(e.ctx.get_help())
            sys.exit(0)
        except click.exceptions.Abort:
            click.echo("mjtools: aborted", err=True)
            sys.exit(130)
        except click.ClickException as e:
            hint = ""
            ctx = getattr(e, "ctx", None)
            if ctx is not None:
                hint = f" (see `{ctx.command_path} --help`)"
            click.echo(f"mjtools: error: {e.format_message()}{hint}", err=True)
            sys.exit(2 if e.exit_code == 1 else e.exit_code)
        except BrokenPipeError:
            sys.stderr.close()
            sys.exit(0)
        except KeyboardInterrupt:
            sys.exit(130)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        target = COMMANDS.get(name)
        if target is None:
            return None
        module, attr = target.split(":")
        return getattr(importlib.import_module(module), attr)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, "-V", "--version", prog_name="mjtools")
def cli() -> None:
    """Mahjong analysis across regional variants: score, wait, shanten, simulate, explain-rule.

    Hands use a compact notation: 123m456p789s1122z+3z (m characters, p dots, s bamboo,
    z honors 1-7 = E S W N White Green Red; (meld), [concealed kong], +winning tile).
    """


def main(argv: list[str] | None = None) -> None:
    """Entry point of the `mjtools` command."""
    rc = cli.main(args=argv, prog_name="mjtools")
    sys.exit(rc if isinstance(rc, int) else 0)
