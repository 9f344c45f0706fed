"""Every benchmark script still runs: each one, at its smallest, prints its figures.

The scripts drive the bot the way its frontends do, so a change to how the bot is assembled
can leave one measuring nothing (a web hand that no longer hears the coordinator waited for
a push that never came). The figures themselves are not checked here: ``bench/`` measures.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # each test starts a process

ROOT = Path(__file__).resolve().parent.parent

SMALLEST = {
    "engine.py": (["20", "1"], r"unobot official +\d+ games/s"),
    "coordinator.py": (["--games", "2", "--target", "1", "--memory-games", "0"],
                       r"2 concurrent game\(s\): +\d+ actions(.|\n)*latency by what the action "
                       r"sent: table only [\d.]+%: p50"),
    "coordinator.py --processes": (["--games", "3", "--target", "1", "--memory-games", "0",
                                    "--processes", "2"],
                                   r"3 concurrent game\(s\) over 2 processes: +\d+ actions"),
    "storage.py": (["--games", "1", "--target", "1", "--rounds", "2"],
                   r"median of 2 rounds:\n +memory +1 +\d+ +1\.00x"),
    "store_cost.py": (["--games", "1", "--target", "1", "--rounds", "1"],
                      r"median of 1 rounds:\n +memory +[\d.]+ +0\.0\n +sqlite +[\d.]+ +[\d.]+"),
    "webhand.py": (["--games", "1", "--moves", "5"], r"move -> every page p50 [\d.]+ ms"),
    "telegram.py": (["--games", "1", "--turns", "5", "--echo", "0", "--settings", "jump_in=on"],
                    r"the next player's hand posted: p50 [\d.]+ ms(.|\n)*Bot API calls per turn"),
    "discord.py": (["--games", "1", "--echo", "0", "--latency-ms", "1"],
                   r"REST latency simulated: 1 ms(.|\n)*per turn taken"),
    "render.py": (["--rounds", "1"], r"picture cache"),
}


def test_every_script_is_listed():
    scripts = {path.name for path in (ROOT / "bench").glob("*.py")}
    helpers = {"__init__.py", "players.py", "timing.py", "instructions.py"}  # valgrind: by hand
    assert scripts - helpers == {run.split()[0] for run in SMALLEST}


@pytest.mark.parametrize("script", sorted(SMALLEST))
def test_a_benchmark_prints_its_figures(script):
    args, figure = SMALLEST[script]
    run = subprocess.run([sys.executable, str(ROOT / "bench" / script.split()[0]), *args], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-3000:]
    assert re.search(figure, run.stdout), run.stdout[-3000:]
