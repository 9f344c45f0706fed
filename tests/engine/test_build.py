"""The engine as installed: compiled by setup.py from its current sources, and the same
engine uncompiled (the fallback where there is no C compiler) passing the engine suite."""

import os
import shutil
import subprocess
import sys
import sysconfig
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

import bot.engine
from bot.engine import COMPILED

ENGINE = Path(bot.engine.__file__).resolve().parent
ROOT = ENGINE.parent.parent
PURE = bool(os.environ.get("UNOBOT_PURE_PYTHON"))
# What setup.py needs to compile: a C compiler and the Python headers. Without them the install
# goes on with the engine uncompiled, by design.
CAN_COMPILE = (shutil.which((sysconfig.get_config_var("CC") or "cc").split()[0]) is not None
               and Path(sysconfig.get_paths()["include"], "Python.h").exists())


def compiled_modules() -> dict[Path, Path]:
    """Each compiled module of the engine and its source."""
    found = {}
    for suffix in EXTENSION_SUFFIXES:
        for binary in ENGINE.glob(f"*{suffix}"):
            source = ENGINE / (binary.name[: -len(suffix)] + ".py")
            if source.exists():
                found[binary] = source
    return found


@pytest.mark.skipif(PURE, reason="UNOBOT_PURE_PYTHON: the engine runs from its sources")
@pytest.mark.skipif(not CAN_COMPILE, reason="no C compiler or Python headers: the engine runs uncompiled")
def test_the_engine_is_compiled():
    assert COMPILED, "the engine runs uncompiled: reinstall it (make test does) to build it"
    assert len(compiled_modules()) >= 10


@pytest.mark.skipif(PURE, reason="UNOBOT_PURE_PYTHON: the engine runs from its sources")
def test_no_compiled_module_is_older_than_its_source():
    stale = [source.name for binary, source in compiled_modules().items()
             if source.stat().st_mtime > binary.stat().st_mtime]
    assert not stale, f"{stale} changed since the engine was compiled: run make test (it reinstalls)"


@pytest.mark.skipif(PURE, reason="this is the uncompiled run")
@pytest.mark.slow
def test_the_uncompiled_engine_passes_the_engine_suite():
    env = {**os.environ, "UNOBOT_PURE_PYTHON": "1"}
    run = subprocess.run([sys.executable, "-m", "pytest", "-x", "-p", "no:cacheprovider",
                          "tests/engine"], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=600)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert " passed" in run.stdout


def test_pure_mode_really_runs_the_sources():
    assert not (PURE and COMPILED)
