"""Reading `--input` (a file or stdin) the same way whatever it holds: UTF-8 with a leading BOM
allowed, an undecodable byte kept in its line (which then becomes an error record, never the
end of the batch), and no line read beyond MAX_LINE_CHARS (an over-long line is counted, not
kept, and becomes an error record with its length). Lines end at a newline (`\\n`, `\\r\\n`
or `\\r`), as Python's text files read them."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TextIO

MAX_LINE_CHARS = 65536  # a case line (a hand, or a JSON case with its options) is far shorter
ENCODING = "utf-8-sig"  # UTF-8; a byte-order mark at the start is read as nothing
ERRORS = "surrogateescape"  # an undecodable byte b reads as the lone surrogate U+DC00+b


class Overlong(str):
    """Stands in for an input line longer than MAX_LINE_CHARS: its length, not its text (the
    string itself is a bare newline, so that a chunk of lines keeps one newline per line)."""

    length: int

    def __new__(cls, length: int) -> Overlong:
        self = super().__new__(cls, "\n")
        self.length = length
        return self


def stdin() -> TextIO:
    """Standard input, read as ENCODING with ERRORS (before anything is read from it)."""
    import sys

    stream = sys.stdin
    try:
        stream.reconfigure(encoding=ENCODING, errors=ERRORS)  # type: ignore[union-attr]
    except (AttributeError, ValueError, OSError):  # not a text file, or read from already
        pass
    return stream


def case_problem(raw: str) -> str | None:
    """Why a case line cannot be read (too long, not UTF-8), or None."""
    if isinstance(raw, Overlong):
        return f"the line is {raw.length} characters long (at most {MAX_LINE_CHARS})"
    if len(raw) > MAX_LINE_CHARS:
        return f"the line is {len(raw)} characters long (at most {MAX_LINE_CHARS})"
    if not raw.isascii():
        for i, ch in enumerate(raw):
            if "\udc80" <= ch <= "\udcff":
                return f"not UTF-8 text (byte 0x{ord(ch) - 0xDC00:02x} at character {i + 1})"
    return None


def read_lines(stream: TextIO) -> Iterator[str]:
    """The lines of `stream` one at a time (answers a terminal line by line)."""
    while True:
        line = stream.readline(MAX_LINE_CHARS + 1)
        if not line:
            return
        if len(line) <= MAX_LINE_CHARS or line.endswith("\n"):
            yield line
            continue
        n = len(line)
        while line and not line.endswith("\n"):
            line = stream.readline(MAX_LINE_CHARS)
            n += len(line)
        yield Overlong(n - line.endswith("\n"))


def read_chunks(stream: TextIO, size: int) -> Iterator[list[str]]:
    """The lines of `stream` about `size` characters at a time, each ending in a newline but
    perhaps the input's last (which comes with the chunk before it); an over-long line comes
    as an `Overlong`."""
    tail = ""  # the unfinished line of the previous block
    skipped = 0  # when > 0: the characters of an over-long line seen so far
    pending: list[str] = []  # a chunk held back until the next read says whether it was the last
    while True:
        block = stream.read(size)
        if not block:
            if skipped:
                pending.append(Overlong(skipped))
            elif tail:
                pending.append(tail)
            if pending:
                yield pending
            return
        parts = block.split("\n")
        last = parts.pop()
        if not parts:  # no line ends in this block
            if skipped:
                skipped += len(last)
            else:
                tail += last
                if len(tail) > MAX_LINE_CHARS:
                    skipped, tail = len(tail), ""
            continue
        if skipped:
            first: str = Overlong(skipped + len(parts[0]))
            skipped = 0
        else:
            first = tail + parts[0] + "\n"
        lines = [first] + [p + "\n" for p in parts[1:]]
        if max(map(len, lines)) > MAX_LINE_CHARS + 1:
            lines = [Overlong(len(x) - 1) if len(x) > MAX_LINE_CHARS + 1 else x for x in lines]
        tail = last
        if len(tail) > MAX_LINE_CHARS:
            skipped, tail = len(tail), ""
        if pending:
            yield pending
        pending = lines
