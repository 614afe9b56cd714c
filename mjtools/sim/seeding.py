"""Seeds: hand i of a run with seed S always plays from the same seed, whatever the workers.

Seeds are derived by hashing (never Python's `hash`, which varies with PYTHONHASHSEED).
"""

from __future__ import annotations

import hashlib


def derive(*parts: object) -> int:
    """A 63-bit seed from any parts (ints and strings)."""
    text = ":".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.sha256(b"mjtools-sim:" + text).digest()[:8], "big") >> 1


def hand_seed(seed: int, index: int) -> int:
    return derive("hand", seed, index)
