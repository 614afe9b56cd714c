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


def pytest_terminal_summary(terminalreporter):
    """Report the simulator's win shares per variant (tests/test_sim.py fills them in)."""
    mod = sys.modules.get("test_sim")
    shares = getattr(mod, "WIN_SHARES", None)
    if shares:
        terminalreporter.section("simulate: share of hands with a win")
        for name, s in sorted(shares.items()):
            terminalreporter.write_line(f"{name:40} efficient {100 * s['efficient']:5.1f}%   random {100 * s['random']:5.1f}%")
