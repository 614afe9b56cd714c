"""Click options for the hand-context table of rules/hand_options.py."""

from __future__ import annotations

from collections.abc import Callable

import click

from mjtools.rules.hand_options import OPTIONS


def add_options(command: str) -> Callable:
    """Decorator adding the hand-context options that `command` accepts."""

    def deco(fn: Callable) -> Callable:
        for o in reversed(OPTIONS):
            if command not in o.commands:
                continue
            decls = [f"--{o.name}"] + ([o.short] if o.short else [])
            if o.key == "from":
                decls.append("from_")
            if o.kind == "flag":
                fn = click.option(*decls, is_flag=True, default=None, help=o.help)(fn)
            elif o.kind == "int":
                fn = click.option(*decls, type=int, default=None, metavar="N", help=o.help)(fn)
            else:
                fn = click.option(*decls, multiple=o.multiple, default=None, metavar=o.metavar, help=o.help)(fn)
        return fn

    return deco
