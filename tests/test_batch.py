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
