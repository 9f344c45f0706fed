"""The suite as a test: no fixed sleep right before an assertion.

``await asyncio.sleep(0.05)`` followed by ``assert ...`` either wastes time or, on a loaded
machine, runs the assertion before the thing it checks happened; a "nothing happened" check
then passes falsely. Wait on a condition instead (``tests.waiting.wait_until``, the harnesses'
``wait_for``/``until``) or drive a ``FakeClock``. Sleeps that simulate a slow platform inside
a fake, or that are the step of a bounded polling loop, are not followed by an assertion and
are left alone.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def _number(node: ast.expr) -> float | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float) \
            and not isinstance(node.value, bool):
        return float(node.value)
    return None


def _sleep_call(node: ast.expr) -> tuple[str, float] | None:
    """("asyncio"|"time", seconds) for ``asyncio.sleep(<constant>)``/``time.sleep(<constant>)``
    (or a bare ``sleep`` imported from either), else None."""
    call = node.value if isinstance(node, ast.Await) else node
    if not isinstance(call, ast.Call) or not call.args:
        return None
    func = call.func
    if isinstance(func, ast.Attribute) and func.attr == "sleep" and isinstance(func.value, ast.Name):
        module = func.value.id
    elif isinstance(func, ast.Name) and func.id == "sleep":
        module = "asyncio" if isinstance(node, ast.Await) else "time"
    else:
        return None
    seconds = _number(call.args[0])
    if module not in ("asyncio", "time") or seconds is None:
        return None
    return module, seconds


def _is_fixed_sleep(stmt: ast.stmt) -> bool:
    if not isinstance(stmt, ast.Expr):
        return False
    found = _sleep_call(stmt.value)
    if found is None:
        return False
    module, seconds = found
    if module == "asyncio":
        return isinstance(stmt.value, ast.Await) and seconds > 0  # sleep(0) only yields
    return True


def _blocks(tree: ast.AST) -> Iterator[list[ast.stmt]]:
    for node in ast.walk(tree):
        for name in ("body", "orelse", "finalbody"):
            block = getattr(node, name, None)
            if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                yield block


def sleeps_before_asserts(source: str) -> list[int]:
    """Line numbers of fixed sleeps directly followed by an ``assert`` in the same block."""
    found = []
    for block in _blocks(ast.parse(source)):
        for stmt, following in pairwise(block):
            if _is_fixed_sleep(stmt) and isinstance(following, ast.Assert):
                found.append(stmt.lineno)
    return sorted(found)


def test_the_finder_sees_a_sleep_before_an_assert_and_nothing_else():
    source = '''
import asyncio, time

async def bad(x):
    await asyncio.sleep(0.05)
    assert not x
    if x:
        time.sleep(1)
        assert x

async def fine(x, delay):
    await asyncio.sleep(0)  # a yield to the loop
    assert x
    await asyncio.sleep(delay)  # a fake's latency
    assert x
    for _ in range(10):  # a polling step
        if x:
            break
        await asyncio.sleep(0.01)
    assert x

async def simulated_platform():
    await asyncio.sleep(0.02)
    return 1
'''
    assert sleeps_before_asserts(source) == [5, 8]


def test_no_fixed_sleep_is_followed_by_an_assertion():
    offenders = []
    for path in sorted(TESTS.rglob("*.py")):
        for line in sleeps_before_asserts(path.read_text(encoding="utf-8")):
            offenders.append(f"{path.relative_to(TESTS.parent)}:{line}")
    assert not offenders, (
        "a fixed sleep before an assertion (wait on a condition or use the FakeClock): "
        + ", ".join(offenders))
