"""A single-hand command stays light: with a warm rules cache it imports no yaml, jsonschema,
numpy, tabulate or wcwidth (the JSON rules cache in rules/loader.py and the table cache are hit), and a
shanten call on the common shape spec loads neither the general engine nor modules that only
other paths need (start-up time: see the lazy imports in rules/loader.py, tables.py, engine.py
and cli/analysis.py)."""

import os
import subprocess
import sys

HEAVY = ("yaml", "jsonschema", "numpy", "tabulate", "wcwidth")
# Off the path of `shanten HAND` on the common spec (the fast path answers it).
LAZY = ("pathlib", "hashlib", "struct", "mjtools.analysis.shanten", "mjtools.analysis.waits", "mjtools.analysis.groupdp", "mjtools.analysis.forms", "mjtools.cli.render")

PROBE = f"""
import sys
from mjtools.cli import main
try:
    main(sys.argv[1:])
finally:
    for label, names in (("HEAVY", {HEAVY!r}), ("LAZY", {LAZY!r})):
        print(label + "=" + ",".join(m for m in names if m in sys.modules), file=sys.stderr)
"""


def _run(tmp_path, *args):
    env = dict(os.environ, MJTOOLS_CACHE_DIR=str(tmp_path / "cache"))
    return subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True, env=env)


def test_single_hand_imports_nothing_heavy(tmp_path):
    for args in (
        ("shanten", "123m456p789s1122z", "-f", "json"),
        ("wait", "123m456p789s1122z", "-f", "json"),
        ("shanten", "1289m3457p12368s+4z", "-f", "jsonl"),
        ("shanten", "1289m3457p12368s+4z"),  # the table form
        ("wait", "123m456p789s1122z"),
        ("score", "234567m234p5688s+7s", "--seat", "S"),
    ):
        first = _run(tmp_path, *args)  # cold: fills the caches (may read YAML)
        again = _run(tmp_path, *args)
        assert first.returncode == again.returncode == 0, again.stderr
        assert first.stdout == again.stdout
        heavy, lazy = again.stderr.strip().splitlines()[-2:]
        assert heavy == "HEAVY=", again.stderr
        if args[0] == "shanten" and "-f" in args:  # the table form needs cli.render
            assert lazy == "LAZY=", again.stderr
    assert any(f.name.startswith("table-suit-") for f in (tmp_path / "cache").iterdir())
