"""Where mjtools keeps what it can rebuild: validated rulesets (rules/loader.py) and the
decompressed distance tables (analysis/tables.py). Both layers need it, so it sits below them."""

from __future__ import annotations

import os


def cache_dir() -> str | None:
    """$MJTOOLS_CACHE_DIR, else $XDG_CACHE_HOME/mjtools or ~/.cache/mjtools; none if $MJTOOLS_NO_CACHE."""
    if os.environ.get("MJTOOLS_NO_CACHE"):
        return None
    explicit = os.environ.get("MJTOOLS_CACHE_DIR")
    if explicit:
        return explicit
    return os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "mjtools")
