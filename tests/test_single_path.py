"""A single-hand command stays light: with a warm rules cache it imports no yaml, jsonschema,
numpy or tabulate (the JSON rules cache in rules/loader.py and the table cache are hit)."""

import os
import subprocess
import sys

PROBE = """
import sys
from mjtools.cli import main
try:
    main(sys.argv[1:])
finally:
    heavy = [m for m in ("yaml", "jsonschema", "numpy", "tabulate") if m in sys.modules]
    print("HEAVY=" + ",".join(heavy), file=sys.stderr)
"""


def _run(tmp_path, *args):
    env = dict(os.environ, MJTOOLS_CACHE_DIR=str(tmp_path / "cache"))
    return subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True, env=env)


def test_single_hand_imports_nothing_heavy(tmp_path):
    for args in (("shanten", "123m456p789s1122z", "-f", "json"), ("wait", "123m456p789s1122z", "-f", "json"), ("shanten", "1289m3457p12368s+4z", "-f", "jsonl")):
        first = _run(tmp_path, *args)  # cold: fills the caches (may read YAML)
        again = _run(tmp_path, *args)
        assert first.returncode == again.returncode == 0, again.stderr
        assert first.stdout == again.stdout
        assert again.stderr.strip().splitlines()[-1] == "HEAVY=", again.stderr
    assert any(f.name.startswith("table-suit-") for f in (tmp_path / "cache").iterdir())
