"""/top, /top previous, /top global and /stats through the real Telegram bot, on rated hands
stored as the coordinator stores them, in English and Chinese."""

from __future__ import annotations

import random
import time
from dataclasses import replace

from bot.coordinator.ports import ChatKey
from tests.rating_history import random_hands, store_hands

from .conftest import ANA, BO, CY, DEE, GROUP, Harness

DAY = 86400.0
CHAT = ChatKey("telegram", str(GROUP))
PEOPLE = [(str(u.id), u.first_name) for u in (ANA, BO, CY)]


async def season_history(harness: Harness) -> None:
    """Season 1 (30 days, ended 10 days ago) and season 2 (running), 12 hands each."""
    now = harness.clock.now()
    await store_hands(harness.store, CHAT, "old", random_hands(random.Random(1), PEOPLE, 12),
                      start=now - 40 * DAY)
    await store_hands(harness.store, CHAT, "new", random_hands(random.Random(2), PEOPLE, 12),
                      start=now - DAY)


def day(when: float) -> str:
    return time.strftime("%Y-%m-%d", time.gmtime(when))


async def test_top_and_stats_show_ratings_seasons_and_ranks(harness: Harness):
    await harness.start()
    await season_history(harness)
    now = harness.clock.now()
    table = await harness.store.rating_table("telegram", CHAT, now)
    top = await harness.ask(ANA, "/top")
    assert f"Season 2 of this chat, until {day(now + 20 * DAY)}" in top
    first = table.rows[0]
    assert f"1. \u2068{first.name}\u2069: {first.rating:.1f} ({first.hands} hands)" in top
    assert top.index(table.rows[0].name) < top.index(table.rows[1].name) < top.index(
        table.rows[2].name)
    assert "μ − 3σ" in top
    previous = await harness.ask(ANA, "/top previous")
    old = await harness.store.rating_table("telegram", CHAT, now, previous=True)
    assert f"Season 1 of this chat, final table ({day(now - 40 * DAY)} to {day(now - 10 * DAY)})" \
        in previous
    assert f"{old.rows[0].rating:.1f}" in previous
    assert "Ratings across all chats" in await harness.ask(ANA, "/top global")
    mine = await harness.store.player_rating("telegram", str(ANA.id), CHAT, now)
    stats = await harness.ask(ANA, "/stats")
    assert f"Rating: {mine.rated.rating:.1f}" in stats and f"Rank: {mine.rank}" in stats
    assert "Trend: " in stats and "over the last 10 hands" in stats
    bystander = await harness.ask(DEE, "/stats")
    assert "Rating: none yet" in bystander


async def test_the_same_in_chinese(harness: Harness):
    await harness.start()
    await season_history(harness)
    ana, bo, cy = (replace(u, language_code="zh-hans") for u in (ANA, BO, CY))  # Chinese clients
    top = await harness.ask(ana, "/top")
    assert "本群第2赛季" in top and "局）" in top
    previous = await harness.ask(bo, "/top 上赛季")
    assert "第1赛季最终排名" in previous
    stats = await harness.ask(cy, "/stats")
    assert "等级分：" in stats and "排名：第" in stats
    refused = await harness.ask(cy, "/top global previous", privately=True)
    assert "赛季按群划分" in refused


async def test_season_days_is_a_chat_setting(harness: Harness):
    await harness.start()
    await harness.open_game(ANA, BO)
    changed = await harness.ask(ANA, "/settings season_days=7")
    assert changed == "Settings saved.\nDays in a rating season (from the next season on): 7"
    assert (await harness.store.chat_settings(CHAT)).season_days == 7
    refused = await harness.ask(ANA, "/settings season_days=0", privately=True)
    assert "season_days" in refused
