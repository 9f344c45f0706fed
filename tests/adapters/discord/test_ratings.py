"""/uno top (this season, the previous one, everywhere) and /uno stats through the real
discord.py client against the fake Discord, on rated hands stored as the coordinator
stores them, in English and Chinese."""

from __future__ import annotations

import json
import random

from bot.coordinator.ports import ChatKey
from tests.rating_history import random_hands, store_hands

from .fake_discord import EPHEMERAL, FakeUser
from .test_game import ANA, BO, CY

CHAT = ChatKey("discord", "1000")
DAY = 86400.0
LI = FakeUser(103, "Cy", locale="zh-CN")  # Cy's client in Chinese


def shown(fake, record) -> str:
    message = fake.response_message(record)
    assert message["flags"] & EPHEMERAL
    text = json.dumps([message.get("content"), message.get("embeds")], ensure_ascii=False)
    return text.replace("\\\\", "")  # markdown escapes (a minus is sent as "\\-")


async def test_top_seasons_and_stats(bot, fake):
    people = [(str(u.id), u.name) for u in (ANA, BO, CY)]
    now = bot.clock.now()
    await store_hands(bot.store, CHAT, "old", random_hands(random.Random(5), people, 12),
                      start=now - 40 * DAY)
    await store_hands(bot.store, CHAT, "new", random_hands(random.Random(6), people, 12),
                      start=now - DAY)
    table = await bot.store.rating_table("discord", CHAT, now)
    top = shown(fake, await bot.slash(ANA, "top"))
    assert "Season 2 of this channel" not in top and "Season 2 of this chat" in top
    assert f"{table.rows[0].rating:.1f}" in top and table.rows[0].name in top
    previous = shown(fake, await bot.slash(ANA, "top", season="previous"))
    assert "Season 1 of this chat, final table" in previous
    assert "Ratings across all chats" in shown(fake, await bot.slash(BO, "top", scope="global"))
    stats = shown(fake, await bot.slash(ANA, "stats"))
    for scope in (CHAT, None):
        mine = await bot.store.player_rating("discord", str(ANA.id), scope, now)
        assert f"Rating: {mine.rated.rating:.1f} (μ {mine.rated.mu:.1f}" in stats, stats
    assert f"Rank: {mine.rank}" in stats
    zh = shown(fake, await bot.slash(LI, "top", season="previous"))
    assert "第1赛季最终排名" in zh
    assert "等级分：" in shown(fake, await bot.slash(LI, "stats"))
