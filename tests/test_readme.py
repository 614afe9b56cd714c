"""The README is the front door: its examples run, every subcommand appears, CI runs its test command."""

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def blocks(lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", README, re.S)


def example_commands() -> list[str]:
    """Every line of a ```bash block is an example (setup commands live in ```shell blocks)."""
    return [line for b in blocks("bash") for line in b.strip().splitlines() if line.strip()]


def test_two_commands():
    setup = blocks("shell")
    assert "pip install ." in setup[0] and "mjtools " in setup[0]
    assert "pip install '.[test]'" in setup[1] and "pytest" in setup[1]


def test_ci_runs_the_readme_test_command():
    setup = blocks("shell")[1].strip()
    test_cmd = setup.split("&& ", 2)[-1]  # after the venv set-up
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert test_cmd in ci, (test_cmd, ci)
    assert "pytest -n 2 -m slow" in ci


def test_every_subcommand_appears():
    from mjtools.cli import COMMANDS

    for name in COMMANDS:
        assert re.search(rf"mjtools {name}\b", README), name


def _mjtools() -> str:
    exe = shutil.which("mjtools")
    return exe or f"{sys.executable} -m mjtools"


@pytest.mark.parametrize("command", example_commands())
def test_example_runs(command, tmp_path):
    cmd = command.replace("mjtools ", _mjtools() + " ", 1) if command.startswith("mjtools ") else command
    proc = subprocess.run(["bash", "-c", cmd], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip()
    assert "Traceback" not in proc.stderr


def test_help_lines_are_in_readme():
    """Each subcommand's one-line help names what the README says it does."""
    from click.testing import CliRunner

    from mjtools.cli import cli

    out = CliRunner().invoke(cli, ["--help"]).output
    for name in ("score", "wait", "shanten", "rules"):
        assert name in out


def test_readme_says_how_long_the_tests_take_and_what_skips():
    """The development section gives the test time and the number of tests that skip without
    the shared reference, which is what the test modules would skip."""
    import test_replay
    import test_seed_quotes
    import test_terms

    dev = README.split("## Development", 1)[1]
    assert re.search(r"about \d+ minutes", dev) and "MJTOOLS_SHARED" in dev and "shared/" in dev
    skips = int(re.search(r"(\d+) tests skip", dev).group(1))
    gated = [f for f in vars(test_terms).values() if any(m.name == "skipif" for m in getattr(f, "pytestmark", []))]
    logs = 0  # the replay tests of the real Tenhou logs, with their parametrizations
    for f in vars(test_replay).values():
        marks = getattr(f, "pytestmark", [])
        if any(m.name == "skipif" for m in marks):
            n = 1
            for m in marks:
                if m.name == "parametrize":
                    n *= len(m.args[1])
            logs += n
    assert skips == len(test_seed_quotes.RULE_IDS) + len(gated) + logs
