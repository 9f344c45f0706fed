"""``top`` and ``stats`` in the console, in English and Chinese, on a store that already
holds rated hands of the console's chat (a shared database)."""

from __future__ import annotations

import random
import time

import pytest

from adapters.console.app import CHAT, HUMAN_ID
from adapters.console.parse import Context, parse_line
from bot.coordinator import commands as cmd
from bot.coordinator.memory_store import MemoryStore
from bot.coordinator.ports import User
from tests.rating_history import random_hands, store_hands

from .test_console import Terminal, console_args, make_session

DAY = 86400.0
PEOPLE = [(HUMAN_ID, "you"), ("p2", "Bea"), ("p3", "Cal")]


async def rated_store() -> MemoryStore:
    store, now = MemoryStore(), time.time()
    await store_hands(store, CHAT, "old", random_hands(random.Random(8), PEOPLE, 12),
                      start=now - 40 * DAY)
    await store_hands(store, CHAT, "new", random_hands(random.Random(9), PEOPLE, 12),
                      start=now - DAY)
    return store


def test_top_is_read_in_both_languages():
    ctx = Context(CHAT, User(HUMAN_ID, "you"))
    assert parse_line("top", ctx) == cmd.ShowLeaderboard(CHAT, ctx.user)
    assert parse_line("top previous", ctx) == cmd.ShowLeaderboard(CHAT, ctx.user,
                                                                  season="previous")
    assert parse_line("排行 上赛季", ctx) == cmd.ShowLeaderboard(CHAT, ctx.user, season="previous")
    assert parse_line("top global", ctx) == cmd.ShowLeaderboard(CHAT, ctx.user, scope="global")


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_top_and_stats_print_the_ratings(lang):
    store, terminal = await rated_store(), Terminal()
    lines = iter(["top", "top previous", "stats", "quit"])

    async def typist(session):
        return next(lines, None)

    session = make_session(console_args(lang=lang), store, typist, terminal)
    assert await session.run() == 0
    out = terminal.text
    now = time.time()
    current = await store.rating_table("console", CHAT, now)
    previous = await store.rating_table("console", CHAT, now, previous=True)
    mine = await store.player_rating("console", HUMAN_ID, CHAT, now)
    for table in (current, previous):
        assert f"{table.rows[0].name}: {table.rows[0].rating:.1f}" in out \
            or f"{table.rows[0].name}：{table.rows[0].rating:.1f}" in out
    if lang == "en":
        assert "Season 2 of this chat, until" in out and "Season 1 of this chat, final" in out
        assert f"Rating: {mine.rated.rating:.1f}" in out
    else:
        assert "本群第2赛季" in out and "第1赛季最终排名" in out
        assert f"等级分：{mine.rated.rating:.1f}" in out
