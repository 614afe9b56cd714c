"""The shipped distance tables against a direct search over targets."""

import itertools
import random

import pytest

from mjtools.analysis import tables
from mjtools.analysis.tables import INF, WIDTH


def _targets(chows: bool, pair_ok, positions=9):
    """Every target (count vector) of m sets + p pairs inside one group, <= 4 copies."""
    sets = [tuple(3 if j == i else 0 for j in range(positions)) for i in range(positions)]
    if chows:
        sets += [tuple(1 if i <= j <= i + 2 else 0 for j in range(positions)) for i in range(positions - 2)]
    out = {}
    for m in range(tables.MAX_SETS + 1):
        for combo in itertools.combinations_with_replacement(range(len(sets)), m):
            base = [sum(sets[c][j] for c in combo) for j in range(positions)]
            if max(base, default=0) > 4:
                continue
            out.setdefault((m, 0), set()).add(tuple(base))
            for pos in pair_ok:
                t = list(base)
                t[pos] += 2
                if t[pos] <= 4:
                    out.setdefault((m, 1), set()).add(tuple(t))
    return out


@pytest.mark.parametrize("variant,chows,pair_ok,positions", [
    ("suit", True, range(9), 9),
    ("suit_258", True, (1, 4, 7), 9),
    ("suit_pungs", False, range(9), 9),
    ("honor", False, range(7), 7),
    ("honor_nopair", False, (), 7),
])
def test_sampled_entries(variant, chows, pair_ok, positions):
    targets = _targets(chows, tuple(pair_ok), positions)
    rng = random.Random(7)
    for _ in range(25):
        counts = [rng.choice([0, 0, 0, 1, 1, 2, 3, 4]) for _ in range(positions)]
        key = sum(c * 5**i for i, c in enumerate(counts))
        vec = tables.VECTORS[tables.vector(variant, key)]
        for i in range(WIDTH):
            m, p = divmod(i, 2)
            want = min((sum(max(0, t[j] - counts[j]) for j in range(positions)) for t in targets.get((m, p), [])), default=INF)
            assert vec[i] == min(want, INF), (variant, counts, m, p)
