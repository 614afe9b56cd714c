"""Read game records from files or stdin; the format is told by the content, not the name."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator

from mjtools.errors import UsageError
from mjtools.gamelog.model import Game, RecordError

MAX_BYTES = 64 * 1024 * 1024  # a record larger than this is refused, not read into memory (Tenhou's are ~50 KB)


def decode(data: bytes, source: str) -> str:
    if data[:2] == b"\x1f\x8b":
        import zlib

        # Decompressed with a bound, member by member: a small gzip bomb is refused, not expanded.
        out, rest = b"", data
        while rest:
            d = zlib.decompressobj(wbits=31)
            try:
                out += d.decompress(rest, MAX_BYTES + 1 - len(out))
            except zlib.error as e:
                raise RecordError(f"not a readable gzip file ({e})", source) from None
            if len(out) > MAX_BYTES or d.unconsumed_tail:
                raise RecordError(f"larger than {MAX_BYTES // (1024 * 1024)} MiB once decompressed", source)
            if not d.eof:
                raise RecordError("not a readable gzip file (truncated)", source)
            rest = d.unused_data
        data = out
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise RecordError(f"not UTF-8 text (byte {e.start})", source) from None


def detect(text: str) -> str:
    """mjlog (XML), tenhou6 (one JSON object with "log") or mjai (one JSON event per line)."""
    head = text.lstrip()[:4096]
    if head.startswith("<"):
        return "mjlog"
    if head.startswith("{") or head.startswith("["):
        first = head.split("\n", 1)[0]
        try:
            obj = json.loads(first)
        except ValueError:
            obj = None
        if isinstance(obj, dict) and "type" in obj:
            return "mjai"
        if isinstance(obj, dict) and "log" in obj:
            return "tenhou6"
        if head.startswith("{") and '"log"' in text[:1 << 20]:
            return "tenhou6"
        if '"type"' in first:
            return "mjai"
    raise UsageError("not a game record: expected mjlog XML, tenhou.net/6 JSON or mjai JSON lines")


def parse(text: str, source: str) -> Game:
    fmt = detect(text)
    if fmt == "mjlog":
        from mjtools.gamelog.mjlog import read_mjlog

        return read_mjlog(text, source)
    if fmt == "tenhou6":
        from mjtools.gamelog.tenhou6 import read_tenhou6

        return read_tenhou6(text, source)
    from mjtools.gamelog.mjai import read_mjai

    return read_mjai(text, source)


def read_sources(paths: tuple[str, ...]) -> Iterator[tuple[str, str]]:
    """(source name, text) of each path; `-` or no path reads stdin."""
    for path in paths or ("-",):
        if path == "-":
            data = sys.stdin.buffer.read(MAX_BYTES + 1)
            name = "-"
        else:
            from mjtools.rules.files import read_bytes

            data = read_bytes(path, rule_file=False, limit=MAX_BYTES)  # a regular file only: a FIFO cannot hang it
            name = path
        if len(data) > MAX_BYTES:
            raise UsageError(f"{name}: larger than {MAX_BYTES // (1024 * 1024)} MiB")
        try:
            yield name, decode(data, name)
        except RecordError as e:
            raise UsageError(str(e)) from None
