"""Fixtures: a fake Discord on 127.0.0.1 and the real bot (discord.py + our adapter) on it."""

from __future__ import annotations

import logging

import discord
import pytest
import yarl

from .fake_discord import FakeDiscord
from .harness import BotHarness


@pytest.fixture
async def fake(monkeypatch):
    server = FakeDiscord()
    await server.start()
    # discord.py reads both at connect time: every REST call and the gateway go to the fake
    monkeypatch.setattr(discord.http.Route, "BASE", server.api_base)
    monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(server.gateway_url))
    yield server
    await server.close()


@pytest.fixture
async def bot(fake):
    from bot.coordinator import MemoryStore

    harness = BotHarness(fake, MemoryStore())
    await harness.start()
    yield harness
    await harness.stop()
    harness.assert_no_errors()


@pytest.fixture(autouse=True)
def _quiet_discord_logs():
    logging.getLogger("discord").setLevel(logging.WARNING)
