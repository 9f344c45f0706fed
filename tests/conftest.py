"""Suite-wide settings: loopback only, no proxies, PTB's timedelta behaviour fixed, and the
cycle collector and the loggers' levels as they were before each test."""

import gc
import logging
import os

import pytest

os.environ.setdefault("PTB_TIMEDELTA", "1")
os.environ["NO_PROXY"] = "127.0.0.1,localhost"
os.environ["no_proxy"] = "127.0.0.1,localhost"
for var in ("HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy", "ALL_PROXY", "all_proxy"):
    os.environ.pop(var, None)

# UNOBOT_PURE_PYTHON=1: import the engine from its sources even where setup.py compiled it, so
# the suite can check the uncompiled engine too (tests/engine/test_build.py runs it that way).
if os.environ.get("UNOBOT_PURE_PYTHON"):
    import importlib.abc
    import importlib.util
    import sys
    from pathlib import Path

    class EngineSourceFinder(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path, target=None):
            if not name.startswith("bot.engine.") or not path:
                return None
            source = Path(path[0]) / (name.rpartition(".")[2] + ".py")
            return importlib.util.spec_from_file_location(name, source) if source.exists() else None

    sys.meta_path.insert(0, EngineSourceFinder())


@pytest.fixture(autouse=True)
def collector_as_cpython_sets_it():
    """A test that runs ``unobot run`` in this process tunes the collector (bot/runtime.py)
    as the bot does: the tests after it still run with CPython's settings."""
    thresholds = gc.get_threshold()
    yield
    if gc.get_threshold() != thresholds or gc.get_freeze_count():
        gc.unfreeze()
        gc.set_threshold(*thresholds)


@pytest.fixture(autouse=True)
def logger_levels_as_they_were():
    """A test that runs the command line in this process sets the loggers up as ``unobot``
    does (bot/logs.py: our packages at the configured level): a later test in the same worker
    that captures INFO lines would otherwise see none."""
    names = [None, *logging.root.manager.loggerDict]
    levels = {name: logging.getLogger(name).level for name in names}
    yield
    for name, logger in [(None, logging.root), *logging.root.manager.loggerDict.items()]:
        if isinstance(logger, logging.Logger) and logger.level != levels.get(name, logging.NOTSET):
            logger.setLevel(levels.get(name, logging.NOTSET))
