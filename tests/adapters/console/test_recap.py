"""The console prints a finished match's recap as text (no picture), and ``recap`` (回顾)
prints the last one again; in English and Chinese."""

from __future__ import annotations

import asyncio

import pytest

from bot.coordinator.memory_store import MemoryStore

from .test_console import Terminal, console_args, make_session, scripted_human


@pytest.mark.parametrize("lang, word, played, won", [
    ("en", "recap", "hands played.", "Hands won: "),
    ("zh", "回顾", "局。", "赢下的局数："),
])
async def test_the_recap_after_the_match_and_again(lang, word, played, won):
    store, terminal = MemoryStore(), Terminal()
    reader, _ = scripted_human()
    session = make_session(console_args(lang=lang, target=30), store, reader, terminal)
    assert await asyncio.wait_for(session.run(), 60) == 0
    out = terminal.text
    assert out.count("📈") == 1 and won in out
    assert played in out or "hand played." in out
    lines = iter([word])

    async def typist(session):
        return next(lines, None)

    again = Terminal()
    assert await asyncio.wait_for(make_session(console_args(lang=lang), store, typist,
                                               again).run(), 60) == 0
    recap = out[out.index("📈"):].split("\n")[:3]
    assert "\n".join(recap) in again.text
