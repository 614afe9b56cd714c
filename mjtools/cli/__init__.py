"""The `mjtools` Click group. Subcommands load lazily so that a single call stays fast.

The top layer: a thin function per subcommand over batch, sim, explain and rules.
"""

from __future__ import annotations

import importlib
import io
import os
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
        except OutputClosed:
            sys.exit(0)  # the reader went away (`| head -1`): nothing more to say
        except KeyboardInterrupt:
            click.echo("mjtools: aborted", err=True)
            sys.exit(130)
        except RuntimeError as e:
            # Ctrl-C while a class is being defined (a lazy import) comes wrapped in a RuntimeError.
            if isinstance(e.__cause__ or e.__context__, KeyboardInterrupt):
                click.echo("mjtools: aborted", err=True)
                sys.exit(130)
            raise

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


class OutputClosed(Exception):
    """Standard output's reader went away (a closed pipe): the command stops quietly, exit 0.
    Not an OSError, so that Click's own EPIPE handling (exit 1) never sees it."""


class _GuardedOut(io.RawIOBase):
    """Standard output's file descriptor, with write errors made into what the CLI reports: a
    closed pipe -> OutputClosed (exit 0), any other failure (a full disk, /dev/full) ->
    OutputError (one line, exit 3). After a failure writes are dropped, so that the flush at
    exit does not fail a second time."""

    def __init__(self, fd: int) -> None:
        super().__init__()
        self.fd = fd
        self.failed = False

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self.fd

    def isatty(self) -> bool:
        return os.isatty(self.fd)

    def write(self, data) -> int:  # type: ignore[override]
        if self.failed:
            return len(data)
        try:
            return os.write(self.fd, data)
        except BrokenPipeError:
            self.failed = True
            raise OutputClosed() from None
        except OSError as e:
            from mjtools.errors import OutputError

            self.failed = True
            raise OutputError(f"cannot write the output: {e.strerror or e}") from None


def _json_escape(err: UnicodeError) -> tuple[str, int]:
    """Characters an output encoding cannot carry, as JSON writes them (`\\u4e2d`; beyond
    U+FFFF a surrogate pair): JSON output reads back the same, and text output stays legible."""
    out = []
    for ch in err.object[err.start : err.end]:  # type: ignore[attr-defined]
        n = ord(ch)
        if n > 0xFFFF:
            n -= 0x10000
            out.append(f"\\u{0xD800 + (n >> 10):04x}\\u{0xDC00 + (n & 0x3FF):04x}")
        else:
            out.append(f"\\u{n:04x}")
    return "".join(out), err.end  # type: ignore[attr-defined]


def guard_stdout() -> None:
    """Put standard output behind _GuardedOut, in the same encoding; characters the encoding
    cannot carry (Chinese text under cp1252, a lone surrogate under UTF-8) are written as JSON
    escapes instead of ending in a UnicodeEncodeError."""
    import codecs

    out = sys.stdout
    try:
        fd = out.fileno()
        encoding = out.encoding
    except (AttributeError, OSError, ValueError):  # not a file (an embedding host, a test runner)
        return
    out.flush()
    codecs.register_error("mjtools-json-escape", _json_escape)
    text = io.TextIOWrapper(io.BufferedWriter(_GuardedOut(fd)), encoding=encoding, errors="mjtools-json-escape", line_buffering=out.line_buffering, write_through=getattr(out, "write_through", False))
    sys.stdout = text


def _flushed(rc: int) -> int:
    """The exit status once standard output is flushed: a closed pipe ends quietly (0), an
    output that cannot be written with one line on stderr (3)."""
    from mjtools.errors import OutputError

    try:
        sys.stdout.flush()
    except OutputClosed:
        return 0 if rc in (0, 1) else rc
    except OutputError as e:
        click.echo(f"mjtools: error: {e.one_line()}", err=True)
        return e.exit_code
    return rc


def main(argv: list[str] | None = None) -> None:
    """Entry point of the `mjtools` command."""
    guard_stdout()
    try:
        rc = cli.main(args=argv, prog_name="mjtools")
    except SystemExit as e:
        rc = e.code
    rc = _flushed(rc if isinstance(rc, int) else 0 if rc is None else 2)
    if argv is None:
        _exit_now(rc)
    sys.exit(rc)


def _exit_now(rc: int) -> None:
    """End the process without the interpreter's finalization when nothing is left for it to
    do: the output is flushed, no exit handler is registered (a worker pool, a temporary
    directory, a coverage tool registers one) and no other thread runs. Tearing down the
    ~150 modules a call loaded cost as much as a quarter of a single call (callgrind: 20-25 M
    instructions of ~280 M); otherwise the ordinary exit."""
    import atexit
    import threading

    pending = getattr(atexit, "_ncallbacks", lambda: 1)()
    if pending or threading.active_count() > 1:
        return
    try:
        sys.stderr.flush()
    except (OSError, ValueError):
        return
    os._exit(rc)
