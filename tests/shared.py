"""Where the tests find the project's shared reference material (seeds, rules reference).

The rules reference lives outside the package: `shared/` beside the checkout or above it, or
wherever $MJTOOLS_SHARED points. Without it the tests that read it skip (README says how many)."""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SKIP_REASON = "the shared reference (seeds/, rules-reference/) is neither beside the checkout nor named by MJTOOLS_SHARED"


def shared_dir() -> Path | None:
    """The shared/ folder with seeds/ in it, or None."""
    for base in (os.environ.get("MJTOOLS_SHARED"), ROOT.parent / "shared", ROOT.parent.parent / "shared"):
        if base and (Path(base) / "seeds").is_dir():
            return Path(base)
    return None
