import os
import random
import sys

import pytest
from click.testing import CliRunner

sys.path.insert(0, os.path.dirname(__file__))  # tests/gen.py
os.environ.setdefault("MJTOOLS_CACHE_DIR", os.path.join(os.path.dirname(__file__), ".cache-test"))

from mjtools.cli import cli  # noqa: E402

SEED = int(os.environ.get("MJTOOLS_TEST_SEED", "20261129"))


@pytest.fixture
def rng():
    return random.Random(SEED)


@pytest.fixture
def run():
    """Invoke the CLI in-process; returns the result (exit_code, stdout, stderr)."""
    runner = CliRunner()

    def _run(*args, input=None, env=None):
        return runner.invoke(cli, list(args), input=input, env=env, catch_exceptions=False)

    return _run


@pytest.fixture(scope="session")
def riichi():
    from mjtools.rules import load

    return load("riichi")


SHARES_FILE = os.path.join(os.environ["MJTOOLS_CACHE_DIR"], "sim-win-shares.jsonl")


def pytest_sessionstart(session):
    if not hasattr(session.config, "workerinput") and os.path.exists(SHARES_FILE):  # the controller only
        os.remove(SHARES_FILE)


def pytest_terminal_summary(terminalreporter):
    """Report the simulator's win shares per variant (tests/test_sim.py writes them, from any
    xdist worker, to SHARES_FILE)."""
    import json

    if not os.path.exists(SHARES_FILE):
        return
    with open(SHARES_FILE, encoding="utf-8") as f:
        rows = [json.loads(line) for line in f if line.strip()]
    terminalreporter.section("simulate: share of hands with a win")
    for r in sorted(rows, key=lambda r: r["name"]):
        draws = f"   draws (efficient) {100 * r['draws']:5.1f}%" if "draws" in r else ""
        terminalreporter.write_line(f"{r['name']:40} efficient {100 * r['efficient']:5.1f}%   random {100 * r['random']:5.1f}%{draws}")
