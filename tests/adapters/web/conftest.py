"""A web hand over a real coordinator (MemoryStore, FakeChat behind the live tee, FakeClock)
and an aiohttp test client; helpers for credentials."""

from __future__ import annotations

import json

import pytest
from aiohttp.test_utils import TestClient, TestServer

from adapters.web import auth
from adapters.web.links import WebLinks
from adapters.web.server import WebHand
from bot.coordinator import Coordinator
from tests.coordinator.conftest import Harness

SECRET = b"test-web-secret"
BOT_TOKEN = "123456:TEST-TOKEN"


class WebHarness(Harness):
    def __init__(self) -> None:
        super().__init__()
        self.web = WebHand(links=WebLinks("https://uno.example", SECRET, self.clock.now),
                           store=self.store, telegram_token=BOT_TOKEN)
        # The coordinator publishes through the web hand's tee, as the bot is assembled.
        self.coordinator = Coordinator(self.web.tee(self.chat), self.store, self.clock, ai_delay=0,
                                       seed=self.seed, notifier=self.chat, watchers=self.web)
        self.web.serve_commands(self.coordinator.handle)

    async def two_players(self, **kw) -> list:
        """Ana (1001) and Bo (1002) in a started game, with Telegram-like numeric ids."""
        from bot.coordinator import commands as cmds
        from bot.coordinator.ports import User

        people = [User("1001", "Ana", is_admin=True), User("1002", "Bo")]
        if kw.get("settings"):
            await self.store.save_chat_settings(self.key, await self._settings(kw["settings"]))
        assert (await self.do(cmds.NewGame, people[0])).ok
        assert (await self.do(cmds.Join, people[1])).ok
        assert (await self.do(cmds.StartGame, people[0])).ok
        return people

    async def game_id(self) -> str:
        return (await self.record()).game_id

    def init_data(self, user_id: str, *, name: str = "Ana", auth_date: float | None = None,
                  token: str = BOT_TOKEN) -> str:
        user = json.dumps({"id": int(user_id), "first_name": name,
                           "language_code": "en"})
        when = self.clock.now() if auth_date is None else auth_date
        return auth.sign_init_data({"auth_date": str(int(when)), "user": user,
                                    "query_id": "AAH"}, token)

    def link_token(self, user_id: str, game_id: str, *, ttl: float = 600,
                   platform: str = "telegram", secret: bytes = SECRET, kind: str = "link") -> str:
        return auth.sign_token(secret, platform=platform, user_id=user_id, game_id=game_id,
                               expires=self.clock.now() + ttl, kind=kind)


@pytest.fixture
async def web():
    harness = WebHarness()
    client = TestClient(TestServer(harness.web.app()))
    await client.start_server()
    harness.client = client
    yield harness
    await client.close()
