"""setup.cfg lists every package (rules.d ships as mjtools.rules_d)."""

import configparser
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_package_listed():
    cfg = configparser.ConfigParser()
    cfg.read(ROOT / "setup.cfg")
    listed = set(cfg["options"]["packages"].split())
    found = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "mjtools").rglob("__init__.py")}
    assert found <= listed, found - listed
    assert "mjtools.rules_d" in listed
