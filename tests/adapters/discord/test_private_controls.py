"""A hand view's buttons answer their owner only: the button's ``interaction_check`` turns
anyone else away in their own language before a command is made. Real discord.py, fake
Discord; the buttons reach the frontend through the bot's client, sharded or not."""

from __future__ import annotations

import pytest

from adapters.discord.app import DiscordApp, DiscordConfig
from bot.coordinator import MemoryStore
from bot.i18n import gettext

from .fake_discord import EPHEMERAL, FakeUser
from .harness import BotHarness
from .players import CHAT

ANA, BO = FakeUser(101, "Ana"), FakeUser(102, "Bo")
ZED = FakeUser(199, "Zed", locale="zh-CN")  # no seat at this table, reads Chinese
REFUSAL = "These are another player's cards. Press {button} on the table to see yours."


def refusal(language: str) -> str:
    """The refusal as a person reads it, the table's button named in their language."""
    return gettext(REFUSAL, language).format(button=gettext("My hand", language))


class RecordingCoordinator:
    """The real coordinator, remembering whose commands reached it."""

    def __init__(self, inner) -> None:
        self.inner = inner
        self.senders: list[str] = []

    async def handle(self, command):
        self.senders.append(command.user.id)
        return await self.inner.handle(command)

    def __getattr__(self, name):
        return getattr(self.inner, name)


@pytest.fixture
async def recorded(fake):
    harness = BotHarness(fake, MemoryStore(), coordinator_wrapper=RecordingCoordinator)
    await harness.start()
    yield harness
    await harness.stop()
    harness.assert_no_errors()


async def test_every_button_of_a_hand_view_turns_anyone_else_away_before_any_command(recorded, fake):
    bot = recorded
    await bot.slash(ANA, "new")
    await bot.press_table(BO, "join")
    await bot.press_table(ANA, "start")
    message = await bot.open_hand(ANA)
    before = await bot.store.load(CHAT)
    coordinator = bot.app.coordinator
    already = len(coordinator.senders)
    buttons = [c for _, c in bot.hand_buttons(message)]
    assert len(buttons) > 5  # cards and the controls, enabled or not
    for presser, language in ((BO, "en"), (ZED, "zh_CN")):
        for button in buttons:
            record = await bot.click(presser, int(message["id"]), button["custom_id"])
            assert record.callback_type == 4 and record.callback["data"]["flags"] & EPHEMERAL
            assert record.callback["data"]["content"] == refusal(language)
    assert coordinator.senders[already:] == []
    after = await bot.store.load(CHAT)
    assert after.version == before.version and after.match == before.match
    assert fake.messages[int(message["id"])]["components"] == message["components"]
    # and the owner's own press still plays
    owner_press = next(c for h, c in bot.hand_buttons(message) if h.action == "b")
    record = await bot.click(ANA, int(message["id"]), owner_press["custom_id"])
    assert record.callback_type == 7 and coordinator.senders[-1] == str(ANA.id)


async def test_buttons_reach_the_frontend_on_a_sharded_client(fake):
    store = MemoryStore()
    harness = BotHarness(fake, store)
    config = DiscordConfig(token=fake.token, shard_count=2, shard_ids=(0,), guild_ready_timeout=0.01)
    harness.app = DiscordApp(config, harness.make_coordinator, store, on_error=harness.errors.append)
    await harness.app.start()
    try:
        await harness.app.wait_ready()
        await harness.slash(ANA, "new")
        record = await harness.press_table(BO, "join")
        assert "joined" in record.callback["data"]["content"]
        await harness.press_table(ANA, "start")
        message = await harness.open_hand(BO)
        refresh = next(c for h, c in harness.hand_buttons(message) if h.action == "b")
        record = await harness.click(ANA, int(message["id"]), refresh["custom_id"])
        assert record.callback["data"]["content"] == refusal("en") == \
            "These are another player's cards. Press My hand on the table to see yours."
    finally:
        await harness.app.stop()
    assert not harness.errors
