"""Patterns about the wait the winning tile completed."""

from __future__ import annotations

from collections.abc import Callable

from mjtools.patterns import pattern
from mjtools.patterns.ctx import Ctx

# mjtools.waits is imported on first use (it pulls in the shanten tables, which start-up need
# not load), then kept here: an import statement per reading costs about a microsecond.
_OTHER_WAIT: list[Callable[[Ctx], bool]] = []


@pattern("edge_wait", needs=("chow",), placement="any")
def edge_wait(ctx: Ctx) -> int:
    """12 waiting on 3, or 89 on 7 (边张)."""
    return int(ctx.d.wait == "edge")


@pattern("closed_wait", needs=("chow",), placement="any")
def closed_wait(ctx: Ctx) -> int:
    """A chow's middle tile (嵌张 / 夹)."""
    return int(ctx.d.wait == "closed")


@pattern("pair_wait", needs=("standard", "pair_wait"), placement="pair")
def pair_wait(ctx: Ctx) -> int:
    """Won on the partner of a single tile (单吊)."""
    return int(ctx.d.wait == "pair" and ctx.standard)


@pattern("two_sided_wait", needs=("chow",), placement="any")
def two_sided_wait(ctx: Ctx) -> int:
    return int(ctx.d.wait == "two_sided")


@pattern("single_wait_any")
def single_wait_any(ctx: Ctx) -> int:
    """Only one kind could have won (独听), whatever the wait's shape."""
    if not _OTHER_WAIT:
        from mjtools.analysis.waits import other_wait_exists

        _OTHER_WAIT.append(other_wait_exists)
    return int(not _OTHER_WAIT[0](ctx))
