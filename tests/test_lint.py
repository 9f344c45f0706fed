"""ruff everywhere and mypy on bot/ and adapters/: a style or typing slip fails CI."""

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # each test starts processes

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)


def test_ruff_finds_nothing():
    result = run("ruff", "check", "bot", "adapters", "storage", "tests", "bench")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_finds_nothing_in_bot_and_adapters_and_holds_views_read_only():
    # The one file with errors is the one written to have them, an error on each line that
    # changes a view or a move (at run time they are plain slotted dataclasses): the adapters,
    # which draw the views, are checked too.
    refused = Path("tests/typing_checks/views_are_read_only.py")
    result = run("mypy", "bot", "adapters", str(refused))
    errors = [line for line in result.stdout.splitlines() if ": error:" in line]
    expected = [number for number, line in enumerate((ROOT / refused).read_text().splitlines(), 1)
                if line.endswith("# refused: read-only")]
    assert len(expected) == 3
    assert [int(line.split(":")[1]) for line in errors] == expected, result.stdout + result.stderr
    assert all(line.startswith(str(refused)) and "read-only" in line for line in errors), result.stdout
