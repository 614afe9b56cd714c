"""Every worked example of every rule file (shipped and in examples/) runs as a test."""

import glob
from pathlib import Path

import pytest

from mjtools.batch.examples import mismatches, run_example
from mjtools.rules import load_path

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted(glob.glob(str(ROOT / "rules.d" / "*.yaml"))) + sorted(glob.glob(str(ROOT / "examples" / "*.yaml")))


def cases():
    for f in FILES:
        rs = load_path(Path(f))
        # Inherited examples are tested in the file that defines them.
        own = {e for e in rs.examples if Path(rs.origin(f"examples.{e}")).resolve() == Path(f).resolve()}
        if rs.abstract:
            continue
        for eid in sorted(own):
            yield pytest.param(f, eid, id=f"{rs.id}:{eid}")


@pytest.mark.parametrize("file, eid", list(cases()))
def test_example(file, eid):
    rs = load_path(Path(file))
    ex = rs.examples[eid]
    rec = run_example(rs, ex)
    problems = mismatches(rec, ex["expect"])
    assert not problems, f"{rs.id}:{eid}: " + "; ".join(problems)
    if "payments" in rec and "pot" in rec and rec.get("valid"):
        assert abs(sum(rec["payments"].values()) + rec["pot"] - rec["points"]) < 1e-6
    if "net" not in rec and rec.get("valid") and "ledger" in rec:
        assert sum(e["amount"] for e in rec["ledger"]) == rec["points"], f"{rs.id}:{eid}: ledger"
    if "net" in rec:
        assert abs(sum(rec["net"].values()) + rec.get("pot", 0)) < 1e-6
