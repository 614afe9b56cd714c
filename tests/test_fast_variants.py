"""Every shipped variant: the fast paths (batch and per hand) give the general engine's bytes.

For each variant whose shape spec the fast path covers, a seeded file of plain hands drawn from
its tile set (hand size and one more, a few with tiles the variant refuses) goes through the
batch, and through the per-line path with the fast engine switched off; the outputs must be
identical. Wait records (waits, live counts, improvements) are compared the same way.
"""

import random

import pytest

from gen import complete_hand, random_hand
from mjtools.analysis import fast
from mjtools.batch import plain
from mjtools.rules import available
from mjtools.tiles.kinds import kinds_str

VARIANTS = [rs for rs in available() if fast.supported(rs.base_spec)]


def plain_lines(rs, n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    kinds = sorted(rs.base_spec.kinds)
    size = rs.hand_size
    out = []
    for i in range(n):
        if i % 3 == 0:
            base = complete_hand(rng, rs.base_spec.sets_needed, kinds)
            if base is not None:
                base.pop(rng.randrange(len(base)))  # ready or better
                out.append(kinds_str(base if i % 2 else base + [rng.choice(kinds)]))
                continue
        if i % 11 == 5:  # anything from the full set: tiles the variant lacks are errors
            out.append(kinds_str(random_hand(rng, size + i % 2)))
            continue
        out.append(kinds_str(random_hand(rng, size + i % 2, kinds)))
    return out


def _both(run, monkeypatch, path, command, *extra):
    fast_out = run(command, "--input", str(path), "-f", "jsonl", *extra)
    with monkeypatch.context() as m:
        m.setattr(plain, "run_shanten", lambda *a, **k: None)
        m.setattr(fast, "engine_for", lambda spec: None)
        general = run(command, "--input", str(path), "-f", "jsonl", *extra)
    return (fast_out.exit_code, fast_out.stdout), (general.exit_code, general.stdout)


@pytest.mark.parametrize("rs", VARIANTS, ids=lambda rs: rs.id)
def test_shanten_batch_every_variant(rs, run, tmp_path, monkeypatch):
    path = tmp_path / "hands.txt"
    path.write_text("\n".join(plain_lines(rs, 45, 70)) + "\n", encoding="utf-8")
    got, want = _both(run, monkeypatch, path, "shanten", "-r", rs.id, "--visible", "1p1p9s")
    assert got == want
    assert f'"rules": "{rs.id}"' in got[1]


@pytest.mark.parametrize("rs", [rs for rs in VARIANTS if rs.id in ("riichi", "riichi-sanma", "taiwan-16")], ids=lambda rs: rs.id)
def test_wait_records(rs, run, tmp_path, monkeypatch):
    lines = [x for x in plain_lines(rs, 12, 71) if len(x) and sum(c.isdigit() for c in x) == rs.hand_size][:3]
    path = tmp_path / "ready.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    got, want = _both(run, monkeypatch, path, "wait", "-r", rs.id)
    assert got == want


@pytest.mark.slow
@pytest.mark.parametrize("rs", VARIANTS, ids=lambda rs: rs.id)
def test_every_variant_slow(rs, run, tmp_path, monkeypatch):
    path = tmp_path / "hands.txt"
    path.write_text("\n".join(plain_lines(rs, 400, 72)) + "\n", encoding="utf-8")
    got, want = _both(run, monkeypatch, path, "shanten", "-r", rs.id)
    assert got == want
    ready = tmp_path / "ready.txt"
    ready.write_text("\n".join(x for x in plain_lines(rs, 30, 73) if sum(c.isdigit() for c in x) == rs.hand_size) + "\n", encoding="utf-8")
    got, want = _both(run, monkeypatch, ready, "wait", "-r", rs.id)
    assert got == want
