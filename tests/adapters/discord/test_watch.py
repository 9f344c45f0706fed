"""/uno watch: anyone in the channel gets a link button to the read-only live table; the web
server's count of open pages reaches the table embed; without WEBAPP_URL the answer says why.
Real discord.py against the fake Discord, and the real web server behind the link."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest
from aiohttp.test_utils import TestClient, TestServer

from adapters.discord.app import DiscordConfig
from adapters.web import auth
from adapters.web.server import WebHand
from bot.coordinator import Coordinator, MemoryStore

from .fake_discord import EPHEMERAL, FakeUser
from .harness import BotHarness
from .test_web_hand_link import LINKS

ANA, BO, EVE = FakeUser(101, "Ana"), FakeUser(102, "Bo"), FakeUser(103, "Eve")


class WatchHarness(BotHarness):
    """The bot as assembled with WEBAPP_URL: the web hand tees the port and counts watchers."""

    def make_coordinator(self, port):
        self.web = WebHand(links=LINKS, store=self.store)
        return Coordinator(self.web.tee(port), self.store, self.clock, ai_delay=self.ai_delay,
                           seed=self.seed, notifier=port, table_opener=port, watchers=self.web)

    def config(self) -> DiscordConfig:
        return replace(super().config(), web_links=LINKS)


@pytest.fixture
async def watch_bot(fake):
    harness = WatchHarness(fake, MemoryStore())
    await harness.start()
    yield harness
    await harness.stop()
    harness.assert_no_errors()


def link_buttons(message: dict) -> list[dict]:
    return [c for row in message.get("components") or [] for c in row.get("components", [])
            if c.get("style") == 5]


async def started(bot) -> str:
    await bot.slash(ANA, "new")
    await bot.press_table(BO, "join")
    await bot.press_table(ANA, "start")
    return (await bot.store.active_games())[0].game_id


async def test_anyone_in_the_channel_gets_a_watch_link_and_the_table_counts_the_page(watch_bot):
    game = await started(watch_bot)
    record = await watch_bot.slash(EVE, "watch")  # Eve does not play
    message = watch_bot.fake.response_message(record)
    assert message["flags"] & EPHEMERAL
    buttons = link_buttons(message)
    assert len(buttons) == 1 and buttons[0]["label"] == "Watch the table"
    url = buttons[0]["url"]
    assert url.startswith("https://uno.example.org/watch#token=")
    claims = auth.read_token(LINKS.secret, url.split("#token=")[1], LINKS.now())
    assert (claims.kind, claims.platform, claims.user_id, claims.game_id) == ("watch", "discord", "", game)
    assert "#token=" not in str(watch_bot.table_message())  # the link is the asker's answer

    client = TestClient(TestServer(watch_bot.web.app()))
    await client.start_server()
    try:
        socket = await client.ws_connect("/api/watch/live")
        await socket.send_json({"token": url.split("#token=")[1]})
        state = (await socket.receive_json(timeout=2))["state"]
        assert state["watchers"] == 1 and len(state["table"]["seats"]) == 2
        # The next table sent says one person watches.
        current = (await watch_bot.store.active_games())[0].current().game.current
        await watch_bot.slash(ANA if current == str(ANA.id) else BO, "draw")
        for _ in range(50):
            fields = {f["name"]: f["value"] for e in watch_bot.table_message()["embeds"]
                      for f in e.get("fields", [])}
            if fields.get("Watching") == "1":
                break
            await asyncio.sleep(0.02)
        assert fields.get("Watching") == "1", fields
        await socket.close()
    finally:
        await client.close()


async def test_without_a_game_watching_is_refused_with_the_reason(watch_bot):
    record = await watch_bot.slash(EVE, "watch")
    message = watch_bot.fake.response_message(record)
    assert not link_buttons(message)
    assert "no game" in str(message).lower()


async def test_without_webapp_url_the_answer_says_watching_needs_the_web_page(bot):
    await started(bot)
    record = await bot.slash(EVE, "watch")
    message = bot.fake.response_message(record)
    assert not link_buttons(message)
    text = message["content"].replace("\\", "")  # markdown escapes
    assert "WEBAPP_URL" in text and "web page" in text
