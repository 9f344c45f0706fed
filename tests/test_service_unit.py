"""The systemd unit in docs/operators is one systemd accepts, and says what the docs say."""

from __future__ import annotations

import configparser
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
UNIT = ROOT / "docs" / "operators" / "unobot.service"


def service_section() -> configparser.SectionProxy:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.read_string(UNIT.read_text())
    return parser["Service"]


def test_the_unit_restarts_on_failure_as_a_user_in_its_data_folder():
    service = service_section()
    assert service["Restart"] == "on-failure"
    assert service["User"] not in ("", "root", "0")
    assert service["WorkingDirectory"] == "/var/lib/unobot"  # .env and unobot.db live here
    assert service["ExecStart"].split()[1:] == ["run", "telegram"]
    guide = (ROOT / "docs" / "operators" / "service.md").read_text()
    assert "/var/lib/unobot" in guide and "unobot.service" in guide


@pytest.mark.slow
def test_systemd_analyze_verify_accepts_the_unit(tmp_path):
    if shutil.which("systemd-analyze") is None:
        pytest.skip("no systemd-analyze here")
    # verify checks that ExecStart exists: install a stand-in where the unit expects unobot.
    prefix = tmp_path / "opt" / "unobot"
    executable = prefix / ".venv" / "bin" / "unobot"
    executable.parent.mkdir(parents=True)
    executable.write_text("#!/bin/sh\nexit 0\n")
    executable.chmod(0o755)
    unit = tmp_path / "unobot.service"
    unit.write_text(UNIT.read_text().replace("/opt/unobot", str(prefix)))
    result = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True,
                            text=True, timeout=60)
    problems = [line for line in (result.stdout + result.stderr).splitlines()
                if "unobot.service" in line]
    assert result.returncode == 0 and not problems, result.stdout + result.stderr
