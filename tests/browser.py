"""Debian's chromium driven by playwright (never a browser download), for the tests that
need a real browser: skipped where it is missing, a failure under CI (.ci/run installs it)."""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"  # screenshots, gitignored


def browser_problem() -> str | None:
    try:
        import playwright.async_api  # noqa: F401
    except ImportError:
        return "playwright is not installed"
    if not Path(CHROMIUM).exists():
        return "Debian's chromium is not installed (.ci/run installs it)"
    return None


@contextlib.asynccontextmanager
async def chromium() -> AsyncIterator[Any]:
    """A launched headless chromium (a playwright Browser)."""
    problem = browser_problem()
    if problem:
        if os.environ.get("CI"):
            pytest.fail(f"CI is set but the browser test cannot run: {problem}")
        pytest.skip(problem)
    from playwright.async_api import async_playwright

    async with async_playwright() as driver:
        browser = await driver.chromium.launch(executable_path=CHROMIUM,
                                               args=["--no-sandbox", "--disable-gpu"])
        try:
            yield browser
        finally:
            await browser.close()
