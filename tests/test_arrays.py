"""The numpy array API (`mjtools/arrays.py`) against the per-hand fast path, and life without numpy."""

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")

from gen import counts_of, mixed_hand, random_hand, ready_hand  # noqa: E402
from mjtools.analysis import arrays, fast  # noqa: E402
from mjtools.analysis.shapes import RIICHI, ShapeSpec  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SPECS = {
    "riichi": RIICHI,
    "sanma": ShapeSpec(kinds=frozenset(k for k in range(34) if not 1 <= k <= 7)),
    "quads_as_pairs": ShapeSpec(quads_as_pairs=True),
    "standard_only": ShapeSpec(forms=("standard",)),
    "sixteen": ShapeSpec(hand_size=16),
}


def sample(spec: ShapeSpec, n: int, seed: int) -> list[list[int]]:
    rng = random.Random(seed)
    kinds = sorted(spec.kinds)
    out = []
    for i in range(n):
        if spec is RIICHI or spec.kinds == RIICHI.kinds and spec.hand_size == 13:
            out.append(counts_of(ready_hand(rng) if i % 3 == 0 else mixed_hand(rng, 13 + i % 2)))
        else:
            out.append(counts_of(random_hand(rng, spec.hand_size + i % 2 - 3 * (i % 4 == 3), kinds)))
    return out


@pytest.mark.parametrize("name", sorted(SPECS))
@pytest.mark.parametrize("melds", [0, 1])
def test_arrays_equal_fast(name, melds):
    spec = SPECS[name]
    hands = sample(spec, 600, 50 + sorted(SPECS).index(name))
    eng = fast.engine_for(spec)
    a = arrays.engine_for(spec).analyse(np.array(hands, dtype=np.uint8), melds)
    for i, c in enumerate(hands):
        std, sp, ko = eng.distances(c, melds)
        assert (a.standard[i], a.seven_pairs[i], a.thirteen_orphans[i]) == (std, sp, ko), c
        assert a.shanten[i] == eng.shanten(c, melds), c
        want = eng.effective_mask(c, melds)[1]
        assert fast.mask_of(np.flatnonzero(a.effective[i]).tolist()) == want, c


def test_shanten_array_and_drawable():
    hands = sample(RIICHI, 300, 60)
    arr = np.array(hands)
    assert arrays.shanten_array(arr).tolist() == [fast.shanten(c) for c in hands]
    s, eff = arrays.effective_array(arr)
    assert eff.shape == (300, 34) and s.tolist() == [fast.shanten(c) for c in hands]
    blocked = np.ones(34, dtype=bool)
    blocked[:9] = False  # no characters left to draw
    a = arrays.engine_for(RIICHI).analyse(arr, 0, True, blocked)
    assert not a.effective[:, :9].any()
    assert (a.effective == (eff & blocked)).all()


def test_bad_arrays_are_refused():
    with pytest.raises(ValueError):
        arrays.shanten_array(np.zeros((3, 33), dtype=int))
    with pytest.raises(ValueError):
        arrays.shanten_array(np.full((1, 34), 5))
    with pytest.raises(ValueError):
        arrays.shanten_array(np.zeros((1, 34)), ShapeSpec(pair_258=True))
    assert arrays.shanten_array(np.zeros((0, 34), dtype=np.uint8)).shape == (0,)


def test_batch_without_numpy(tmp_path):
    """With numpy unimportable the batch takes the pure-Python path: same output."""
    rng = random.Random(61)
    from mjtools.tiles.kinds import kinds_str

    f = tmp_path / "hands.txt"
    f.write_text("\n".join(kinds_str(random_hand(rng, 13 + i % 2)) for i in range(200)) + "\n#\nnonsense\n", encoding="utf-8")
    code = (
        "import sys\n"
        "if sys.argv[1] == 'hide': sys.modules['numpy'] = None\n"
        "from mjtools.cli import main\n"
        "try:\n"
        "    main(['shanten', '--input', sys.argv[2], '-f', 'jsonl'])\n"
        "finally:\n"
        "    print('numpy' if 'mjtools.batch.vectorised' in sys.modules else 'python', file=sys.stderr)\n"
    )
    env = dict(os.environ, MJTOOLS_CACHE_DIR=str(tmp_path / "cache"))
    got = [subprocess.run([sys.executable, "-c", code, mode, str(f)], capture_output=True, text=True, env=env, cwd=ROOT) for mode in ("hide", "show")]
    assert got[0].returncode == got[1].returncode == 1
    assert got[0].stdout == got[1].stdout and got[0].stdout.count("\n") == 201
    assert "Traceback" not in got[0].stderr
    assert got[0].stderr.split() == ["python"] and got[1].stderr.split() == ["numpy"]
