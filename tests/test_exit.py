"""The command's exit (cli.main): the interpreter's finalization is skipped only when nothing
is left for it to do, and the output and exit status are the same either way."""

import os
import subprocess
import sys

# Runs the entry point as the console script does (no argv), with a module-level object whose
# finalizer says whether the interpreter tore the modules down.
PROBE = """
import sys
class Witness:
    def __del__(self):
        sys.stderr.write("finalized\\n")
witness = Witness()
if "--register" in sys.argv:
    import atexit
    atexit.register(lambda: sys.stderr.write("handler ran\\n"))
    sys.argv.remove("--register")
from mjtools.cli import main
main()
"""


def _run(tmp_path, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, MJTOOLS_CACHE_DIR=str(tmp_path / "cache"))
    return subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True, env=env)


def test_plain_call_skips_finalization_and_keeps_output(tmp_path):
    done = _run(tmp_path, "shanten", "123m456p789s1122z", "-f", "json")
    assert done.returncode == 0
    assert done.stdout.rstrip().endswith("}") and '"shanten": 0' in done.stdout
    assert "finalized" not in done.stderr


def test_exit_status_and_error_line_kept(tmp_path):
    done = _run(tmp_path, "score", "123x456p")
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith("mjtools: error:") and "123x" in done.stderr and "finalized" not in done.stderr


def test_registered_exit_handler_gets_the_ordinary_exit(tmp_path):
    done = _run(tmp_path, "--register", "shanten", "123m456p789s1122z", "-f", "json")
    assert done.returncode == 0
    assert '"shanten": 0' in done.stdout
    assert "handler ran" in done.stderr and "finalized" in done.stderr
