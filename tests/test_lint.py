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


def test_mypy_finds_nothing_in_bot_and_holds_views_frozen(tmp_path):
    # Views and moves are plain slotted dataclasses at run time (bot/coordinator/values.py):
    # the type checker is what refuses a change to one. The one error must be the snippet's.
    snippet = tmp_path / "changes_a_view.py"
    snippet.write_text("from bot.coordinator.views import TableView, Text\n"
                       "Text('x').msgid = 'y'\n"
                       "def hide(view: TableView) -> None:\n"
                       "    view.current = None\n")
    result = run("mypy", "bot", str(snippet))
    errors = [line for line in result.stdout.splitlines() if ": error:" in line]
    assert len(errors) == 2, result.stdout + result.stderr
    assert all(line.startswith(str(snippet)) and "read-only" in line for line in errors), result.stdout
