"""Typed errors. Every user-facing failure is one of these; the CLI turns them into one line."""

from __future__ import annotations


class MjError(Exception):
    """Base class for every error mjtools reports to a user."""

    exit_code = 2  # the exit status of a command that ends on this error (docs/cli-contract.md)

    def one_line(self) -> str:
        return str(self)


class NotationError(MjError, ValueError):
    """A hand or tile string that does not follow the notation; carries the offending position."""

    def __init__(self, message: str, text: str = "", position: int | None = None, length: int = 1):
        super().__init__(message)
        self.message = message
        self.text = text
        self.position = position
        self.length = max(1, length)

    def one_line(self) -> str:
        if self.position is None:
            return f"{self.message}: {self.text!r}" if self.text else self.message
        return f"{self.message} at position {self.position + 1} of {self.text!r}"

    def caret(self) -> str:
        """The input and a caret line under the offending characters (for terminals)."""
        if self.position is None or not self.text:
            return ""
        return f"  {self.text}\n  {' ' * self.position}{'^' * self.length}"


class IllegalHandError(MjError, ValueError):
    """A well-formed hand that cannot exist under the variant (tile counts, tile set)."""


class TileCountError(IllegalHandError):
    """A hand whose tile count fits neither the variant's hand size nor hand size + 1."""


class CopiesError(NotationError):
    """More copies of a tile than the tile set has (a position points at the tile)."""


# Errors about how many tiles a hand holds: where several command-line words were joined into
# one hand, the message says so (a user who meant several hands needs --input).
COUNT_ERRORS = (TileCountError, CopiesError)


class RuleFileError(MjError, ValueError):
    """A rule file that cannot be read, merged or validated; names the file and key path."""

    def __init__(self, message: str, file: str | None = None, path: str | None = None):
        self.message = message
        self.file = file
        self.path = path
        super().__init__(self.one_line())

    def one_line(self) -> str:
        where = self.file or "<rules>"
        if self.path:
            where += f": {self.path}"
        return f"{where}: {self.message}"


class UnknownRulesError(RuleFileError):
    """A --rules value that names no shipped variant and no file."""

    def one_line(self) -> str:
        return self.message


class UsageError(MjError):
    """A combination of options that makes no sense (e.g. --ura without --riichi)."""


class OutputError(MjError):
    """The output cannot be written (a full disk, /dev/full, an I/O error): exit status 3."""

    exit_code = 3
