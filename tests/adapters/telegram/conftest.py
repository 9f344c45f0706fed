"""The harness: the real python-telegram-bot Application (polling) against the fake Bot API,
with the real coordinator on a MemoryStore (or any GameStore) and a fake clock."""

from __future__ import annotations

import asyncio
import dataclasses
import urllib.parse
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from telegram.helpers import escape

from adapters.telegram import callbacks
from adapters.telegram.app import TelegramBot, TelegramConfig
from bot.coordinator import Coordinator
from bot.coordinator.clock import FakeClock
from bot.coordinator.memory_store import MemoryStore

from .fake_bot_api import ApiCall, FakeBotApi, StoredMessage, TgUser

GROUP = -100777
ANA = TgUser(1001, "Ana")
BO = TgUser(1002, "Bo")
CY = TgUser(1003, "Cy")
DEE = TgUser(1004, "Dee")  # a bystander


def make_config(api: FakeBotApi) -> TelegramConfig:
    # Real limiter, generous rates: the tests exercise its 429 retries, not its pacing.
    return TelegramConfig(token=api.token, api_base_url=f"http://127.0.0.1:{api.port}",
                          overall_rate=1000, group_rate=0, max_retries=3, poll_timeout=5)


class Harness:
    def __init__(self, api: FakeBotApi, store: Any, clock: FakeClock, seed: int = 7) -> None:
        self.api = api
        self.store = store
        self.clock = clock
        self.seed = seed
        self.bot: TelegramBot | None = None
        self.config_changes: dict[str, Any] = {}  # TelegramConfig fields a test sets

    async def start(self) -> TelegramBot:
        def make(port):
            return Coordinator(port, self.store, self.clock, ai_delay=0, seed=self.seed,
                               notifier=port, table_opener=port)

        self.bot = TelegramBot(dataclasses.replace(make_config(self.api), **self.config_changes),
                               make, self.store)
        await self.bot.start()
        return self.bot

    async def restart(self) -> TelegramBot:
        """A new Application and a new coordinator on the same store (a process restart)."""
        await self.stop()
        return await self.start()

    async def stop(self) -> None:
        if self.bot is not None:
            await self.bot.stop()
            self.bot = None

    # ---- acting like users -------------------------------------------------------------------

    def say(self, user: TgUser, text: str, chat: int = GROUP, **kw: Any) -> int:
        return self.api.send_text(user, chat, text, **kw)

    async def press(self, user: TgUser, message: StoredMessage, data: str) -> dict[str, Any]:
        """Press a button and return the params of the callback answer (always sent)."""
        callback_id = self.api.press(user, message, data)
        return (await self.api.wait_answer(callback_id)).params

    async def settle(self) -> None:
        """Wait until the queued group messages went out and the bot went quiet (for
        counting calls, never to order steps)."""
        if self.bot is not None and self.bot.port is not None:
            await self.bot.port.drain()
        await self.api.wait_idle(quiet=0.2)

    async def ask(self, user: TgUser, text: str, chat: int = GROUP, *, privately: bool = False,
                  **kw: Any) -> str:
        """Send a command and return the text of the bot's next message in that chat (with
        ``privately``: in the sender's private chat, where a refusal in a group is answered)."""
        await self.settle()  # answers to earlier commands are not taken for this one's
        mark = len(self.api.calls)
        self.say(user, text, chat=chat, **kw)
        where = user.id if privately else chat

        def replies() -> list[str]:
            return [c.params["text"] for c in self.api.calls[mark:]
                    if c.method == "sendMessage" and c.chat_id == where]

        return (await self.api.wait_for(replies, what=f"a reply to {text}"))[-1]

    async def until(self, check: Callable[[], Awaitable[Any]], what: str, timeout: float = 10.0) -> None:
        """Poll an async condition (e.g. on the store) until it holds, or fail after ``timeout``."""
        deadline = asyncio.get_running_loop().time() + timeout
        while not await check():
            if asyncio.get_running_loop().time() > deadline:
                raise AssertionError(f"timed out waiting for {what}")
            await asyncio.sleep(0.02)

    def lobby(self) -> StoredMessage:
        return next(m for m in reversed(self.api.chat_messages(GROUP))
                    if any("start=join_" in b.get("url", "") for b in m.buttons()))

    def game_id(self) -> str:
        url = next(b["url"] for b in self.lobby().buttons() if "url" in b)
        return urllib.parse.parse_qs(urllib.parse.urlparse(url).query)["start"][0].removeprefix("join_")

    async def open_game(self, creator: TgUser, *others: TgUser) -> str:
        """``/new`` in the group, the others tap Join (the deep link: /start join_<game>)."""
        self.say(creator, "/new")
        await self.api.wait_for(lambda: self._has_lobby(), what="the lobby message")
        game_id = self.game_id()
        for user in others:
            self.say(user, f"/start join_{game_id}", chat=user.id)
            await self.api.wait_for(lambda u=user: self._lobby_names(u), what=f"{user.first_name} joined")
        return game_id

    def _has_lobby(self) -> bool:
        try:
            self.lobby()
            return True
        except StopIteration:
            return False

    def _lobby_names(self, user: TgUser) -> bool:
        return self._has_lobby() and escape(user.first_name) in self.lobby().text

    async def start_game(self, creator: TgUser, players: list[TgUser]) -> None:
        answer = await self.press(creator, self.lobby(), callbacks.lobby(self.game_id(), "start"))
        assert "show_alert" not in answer or answer.get("show_alert") is False, answer
        for user in players:
            await self.api.wait_for(lambda u=user: self.hand_message(u), what=f"{user.first_name}'s hand")

    def hand_message(self, user: TgUser) -> StoredMessage | None:
        """The player's private hand message (the latest one carrying hand buttons or a hand)."""
        for message in reversed(self.api.chat_messages(user.id)):
            if any(d.startswith("h:") for d in data_of(message)) or message.edits:
                return message
        return None

    def table(self) -> StoredMessage | None:
        for message in reversed(self.api.chat_messages(GROUP)):
            if any(d.startswith("t:") for d in data_of(message)):
                return message
        return None


# The calls that show a photo table: its first post, a new picture, a new caption.
TABLE_METHODS = ("sendPhoto", "editMessageMedia", "editMessageCaption")


def shown_text(call: ApiCall) -> str | None:
    """The text a call puts in a message: its text, or a photo's caption (also inside the
    new media of editMessageMedia)."""
    media = call.params.get("media")
    if isinstance(media, dict) and "caption" in media:
        return str(media["caption"])
    for name in ("text", "caption"):
        if name in call.params:
            return str(call.params[name])
    return None


def table_calls(api: FakeBotApi, chat: int = GROUP) -> list[ApiCall]:
    return [c for c in api.calls_to(None, chat) if c.method in TABLE_METHODS]


def data_of(message: StoredMessage) -> list[str]:
    return [b["callback_data"] for b in message.buttons() if "callback_data" in b]


def hand_button(message: StoredMessage, verb: str) -> str | None:
    for data in data_of(message):
        action = callbacks.parse(data)
        if action.scope == "h" and action.verb == verb:
            return data
    return None


def playable_buttons(message: StoredMessage) -> list[tuple[str, str]]:
    """(label, data) of the card buttons marked playable."""
    out = []
    for button in message.buttons():
        data = button.get("callback_data", "")
        if data.startswith("h:") and callbacks.parse(data).verb in ("p", "w", "s") \
                and not button["text"].startswith("·"):
            out.append((button["text"], data))
    return out


@pytest.fixture
async def api():
    server = FakeBotApi()
    await server.start()
    yield server
    await server.stop()


@pytest.fixture
async def harness(api):
    h = Harness(api, MemoryStore(), FakeClock())
    yield h
    await h.stop()
