"""A batch never drops a line: N cases give N records, in order, failures as error records."""

import json
import random

from gen import random_hand
from mjtools.tiles.kinds import kinds_str


def test_ten_thousand_cases_one_percent_bad(run, tmp_path):
    rng = random.Random(5)
    lines, bad = [], set()
    for i in range(10_000):
        if rng.random() < 0.01:
            lines.append(rng.choice(["123x", "m12", "(12m)", "55555m", "1m" * 20, "[123m]"]))
            bad.add(i + 1)
        else:
            lines.append(kinds_str(random_hand(rng, 13)))
    f = tmp_path / "hands.txt"
    f.write_text("\n".join(lines) + "\n")
    r = run("shanten", "--input", str(f), "-f", "jsonl")
    recs = [json.loads(x) for x in r.stdout.splitlines()]
    assert len(recs) == 10_000
    assert [x["line"] for x in recs] == list(range(1, 10_001))
    assert {x["line"] for x in recs if "error" in x} == bad
    assert bad and r.exit_code == 1


def test_heap_frozen_during_a_batch_and_handed_back(run, tmp_path, monkeypatch):
    """A batch moves what it keeps to the collector's permanent generation every FREEZE_EVERY
    lines (batch/cases.LongLived) and hands it back when it ends; the records do not change."""
    import gc

    from mjtools.batch import cases

    rng = random.Random(11)
    lines = [kinds_str(random_hand(rng, 14)) for _ in range(12)] + ["123x"]
    f = tmp_path / "hands.txt"
    f.write_text("\n".join(lines) + "\n")
    seen: list[int] = []
    compute = cases.ScoreCompute.__call__

    def watched(self, text, opts, rules):
        seen.append(gc.get_freeze_count())
        return compute(self, text, opts, rules)

    monkeypatch.setattr(cases.ScoreCompute, "__call__", watched)
    monkeypatch.setattr(cases, "FREEZE_EVERY", 10**9)
    plain = run("score", "--input", str(f), "-f", "jsonl")
    assert not any(seen)
    seen.clear()
    monkeypatch.setattr(cases, "FREEZE_EVERY", 4)
    frozen = run("score", "--input", str(f), "-f", "jsonl")
    assert frozen.stdout == plain.stdout and frozen.exit_code == plain.exit_code == 1
    assert seen[:3] == [0, 0, 0] and all(seen[3:])  # frozen from line 4 on
    assert gc.get_freeze_count() == 0
