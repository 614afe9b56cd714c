"""benchmarks/instr_scoring.py: its usage check and its reading of callgrind's totals (the
measurement itself needs valgrind and is run by hand)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

_PATH = Path(__file__).resolve().parent.parent / "benchmarks" / "instr_scoring.py"
_spec = importlib.util.spec_from_file_location("instr_scoring", _PATH)
assert _spec is not None and _spec.loader is not None
instr = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(instr)


def test_totals_read_by_event_name(tmp_path: Path) -> None:
    out = tmp_path / "cg.out"
    out.write_text("version: 1\nevents: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw\nsummary: 0\ntotals: 600 10 20 0 0 0 0 7 5\n")
    got = instr._totals(str(out))
    assert got["Ir"] == 600 and got["DLmr"] == 7 and got["DLmw"] == 5


def test_usage_errors_exit_2(capsys) -> None:  # type: ignore[no-untyped-def]
    assert instr.main([]) == 2
    assert instr.main(["mcr", "many"]) == 2
    assert instr.main(["--cache", "mcr"]) == 2
    assert "usage: instr_scoring.py" in capsys.readouterr().err
