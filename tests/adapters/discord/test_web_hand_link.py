"""With WEBAPP_URL set, a player's ephemeral hand view links to their own web hand with a
signed, short-lived token for that player and game only: real discord.py, fake Discord."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from adapters.discord.app import DiscordConfig
from adapters.web import auth
from adapters.web.links import WebLinks
from bot.coordinator import MemoryStore

from .fake_discord import FakeUser
from .harness import BotHarness

ANA, BO = FakeUser(101, "Ana"), FakeUser(102, "Bo")
LINKS = WebLinks("https://uno.example.org", b"link-secret")


class WebHarness(BotHarness):
    def config(self) -> DiscordConfig:  # the same bot, configured with the web hand
        return replace(super().config(), web_links=LINKS)


@pytest.fixture
async def web_bot(fake):
    harness = WebHarness(fake, MemoryStore())
    await harness.start()
    yield harness
    await harness.stop()
    harness.assert_no_errors()


def link_in(message: dict) -> str | None:
    for embed in message.get("embeds", []):
        for field in embed.get("fields", []):
            found = re.search(r"\((https://uno\.example\.org/#token=[^)]+)\)", field["value"])
            if found:
                return found.group(1)
    return None


async def test_each_hand_view_links_to_that_players_own_web_hand(web_bot):
    await web_bot.slash(ANA, "new")
    await web_bot.press_table(BO, "join")
    await web_bot.press_table(ANA, "start")
    game = (await web_bot.store.active_games())[0].game_id
    for user in (ANA, BO):
        message = await web_bot.open_hand(user)
        link = link_in(message)
        assert link is not None, message
        claims = auth.read_token(LINKS.secret, link.split("#token=")[1], LINKS.now())
        assert (claims.platform, claims.user_id, claims.game_id, claims.kind) == \
            ("discord", str(user.id), game, "link")
        assert claims.expires <= LINKS.now() + auth.LINK_TTL
    # The public table never carries a link (it would be a key to somebody's hand).
    assert "#token=" not in str(web_bot.table_message())


async def test_without_webapp_url_the_hand_view_has_no_link(bot):
    await bot.slash(ANA, "new")
    await bot.press_table(BO, "join")
    await bot.press_table(ANA, "start")
    assert link_in(await bot.open_hand(ANA)) is None
