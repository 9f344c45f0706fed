"""ruff everywhere and mypy on bot/, as the team guide asks: a style or typing slip fails CI."""

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


def test_mypy_finds_nothing_in_bot():
    result = run("mypy", "bot")
    assert result.returncode == 0, result.stdout + result.stderr
