"""Build the shipped distance tables (`mjtools/data/suit_tables.bin`); run as a module.

For every pattern of counts in one group of kinds (a suit: 9 kinds; honors: 7), 0-4 copies
each, and every target of m sets (m = 0..MAX_SETS) and p pairs (p = 0..1) formed inside the
group, a table holds the least number of tiles that must be added: the minimum over targets U
(m sets + p pairs, at most 4 copies of a kind) of sum(max(0, U_i - c_i)). A hand's distance is
the least sum of these over its groups; shanten is that distance minus one (`shanten.py`).

Variants: whether chows may be formed (suits: yes; honors, all-pungs shapes: no) and which
positions may hold the pair (any, 2-5-8 only, none). Patterns are keyed little-endian in base 5
(key = sum c_i * 5**i) and map to an id into a small list of distinct vectors.

This needs numpy and runs in about a minute; the output is committed so that users need
neither. `tests/test_tables.py` checks sampled entries against a direct search.
"""

from __future__ import annotations

import struct
import sys
import zlib
from pathlib import Path

MAX_SETS = 5  # 16-tile hands need five sets
NM = MAX_SETS + 1
OUT = Path(__file__).parent.parent / "data" / "suit_tables.bin"
MAGIC = b"MJT2"
BIG = 99

# name -> (positions, chows allowed, positions where the pair may sit)
VARIANTS = {
    "suit": (9, True, range(9)),
    "suit_258": (9, True, (1, 4, 7)),
    "suit_pungs": (9, False, range(9)),
    "suit_pungs_258": (9, False, (1, 4, 7)),
    "honor": (7, False, range(7)),
    "honor_nopair": (7, False, ()),
}


def build(positions: int, chows: bool, pair_ok) -> object:
    import numpy as np

    dp = np.full((1, 5, 5, NM, 2), BIG, dtype=np.int16)  # [prefix, a, b, m, p]
    dp[0, 0, 0, 0, 0] = 0
    for i in range(positions):
        can_chow = chows and i <= positions - 3
        n_prefix = dp.shape[0]
        new = np.full((5, n_prefix, 5, 5, NM, 2), BIG, dtype=np.int16)  # [c_i, prefix, a', b', m, p]
        for c in range(5):
            for k in range(5 if can_chow else 1):
                for t in range(2):
                    for q in range(2 if i in pair_ok else 1):
                        for a in range(5):
                            for b in range(5 - a):
                                need = a + b + k + 3 * t + 2 * q
                                if need > 4:
                                    continue
                                cost = max(0, need - c)
                                dm = k + t
                                for p0 in range(2 - q):
                                    s = dp[:, a, b, : NM - dm, p0]
                                    d = new[c, :, k, a, dm:, p0 + q]
                                    np.minimum(d, s + cost, out=d)
        dp = new.reshape(5 * n_prefix, 5, 5, NM, 2)
    final = dp[:, 0, 0, :, :].reshape(dp.shape[0], NM * 2)
    return np.minimum(final, BIG).astype(np.uint8)


def main() -> None:
    import numpy as np

    blobs: list[tuple[str, bytes]] = []
    for name, (positions, chows, pair_ok) in VARIANTS.items():
        table = build(positions, chows, tuple(pair_ok))
        vecs, ids = np.unique(table, axis=0, return_inverse=True)
        ids = ids.reshape(-1)
        assert len(vecs) < 65536
        print(f"{name}: {table.shape[0]} patterns, {len(vecs)} distinct vectors", file=sys.stderr)
        body = struct.pack("<II", len(vecs), table.shape[0]) + vecs.tobytes() + ids.astype("<u2").tobytes()
        blobs.append((name, zlib.compress(body, 9)))
    header = MAGIC + struct.pack("<II", NM, len(blobs))
    index = b"".join(struct.pack("<16sI", n.encode(), len(b)) for n, b in blobs)
    OUT.parent.mkdir(exist_ok=True)
    OUT.write_bytes(header + index + b"".join(b for _, b in blobs))
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes)", file=sys.stderr)


if __name__ == "__main__":
    main()
