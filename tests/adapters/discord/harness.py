"""The bot under test and a "player" robot that reads the messages like a person would.

Players act only on what Discord would show them: the components of recorded messages (the
public table, their own ephemeral hand message) and slash commands.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from adapters.discord.app import DiscordApp, DiscordConfig
from adapters.discord.custom_ids import HandId, TableId, decode
from bot.coordinator import Coordinator, FakeClock

from .fake_discord import EPHEMERAL, FakeDiscord, FakeUser, InteractionRecord

MENTION = re.compile(r"<@(\d+)>")


class _ErrorLog(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


class BotHarness:
    def __init__(self, fake: FakeDiscord, store: Any, *, seed: int = 7, ack_after: float = 2.0,
                 clock: FakeClock | None = None, coordinator_wrapper: Any = None, ai_delay: float = 0) -> None:
        self.fake = fake
        self.store = store
        self.seed = seed
        self.ack_after = ack_after
        self.clock = clock or FakeClock()
        self.coordinator_wrapper = coordinator_wrapper
        self.ai_delay = ai_delay
        self.errors: list[BaseException] = []
        self.log = _ErrorLog()
        self.app: DiscordApp | None = None

    def make_coordinator(self, port):
        coordinator = Coordinator(port, self.store, self.clock, ai_delay=self.ai_delay, seed=self.seed,
                                  notifier=port, table_opener=port)
        return self.coordinator_wrapper(coordinator) if self.coordinator_wrapper else coordinator

    def config(self) -> DiscordConfig:
        """The bot's configuration (a subclass adds what its bot is configured with)."""
        return DiscordConfig(token=self.fake.token, ack_after=self.ack_after, guild_ready_timeout=0.01)

    async def start(self) -> None:
        self.app = DiscordApp(self.config(), self.make_coordinator, self.store, on_error=self.errors.append)
        self.app.client.on_error = self._client_error  # type: ignore[method-assign]
        for name in ("discord", "adapters", "bot"):
            logging.getLogger(name).addHandler(self.log)
        await self.app.start()
        await self.app.wait_ready(timeout=10)

    async def _client_error(self, event: str, *args: Any, **kwargs: Any) -> None:
        import sys

        self.errors.append(sys.exc_info()[1] or RuntimeError(event))

    async def stop(self) -> None:
        if self.app is not None:
            await self.app.stop()
        for name in ("discord", "adapters", "bot"):
            logging.getLogger(name).removeHandler(self.log)

    def assert_no_errors(self) -> None:
        logged = [f"{r.name}: {r.getMessage()} {r.exc_info[1] if r.exc_info else ''}" for r in self.log.records]
        assert not self.errors and not logged, (self.errors, logged)
        assert not self.fake.unhandled, self.fake.unhandled
        # a hand is private: every message state that ever carried hand buttons or the hand's
        # picture was ephemeral, and the picture was shown to the hand's owner only
        for _, message in self.fake.message_history:
            if any(str(c.get("custom_id", "")).startswith("uno:h:") for c in self.fake.iter_components(message)):
                assert message["flags"] & EPHEMERAL, message
            if "hand.png" in self.fake.message_files(message):
                assert message["flags"] & EPHEMERAL, message
                owners = {h.owner for h, _ in self.hand_buttons(message)}
                assert owners <= {message["interaction_metadata"]["user"]["id"]}, message
        # every picture an embed names went with its message
        assert not self.fake.unresolved, self.fake.unresolved

    # ---- reading what players see ----------------------------------------------------------

    def table_message(self, channel_id: int | None = None) -> dict[str, Any]:
        """The latest public message carrying table/lobby buttons (an embed: not a notice)."""
        tables = [m for m in self.fake.channel_messages(channel_id) if m.get("embeds") and any(
            isinstance(decode(c.get("custom_id", "")), TableId) for c in self.fake.iter_components(m))]
        assert tables, "no table message posted"
        return max(tables, key=lambda m: int(m["id"]))

    def pings(self, channel_id: int | None = None) -> list[dict[str, Any]]:
        """The turn mentions standing in the channel: table messages whose content mentions
        the player to act."""
        return [m for m in self.fake.channel_messages(channel_id)
                if m.get("embeds") and MENTION.search(m.get("content") or "")
                and any(isinstance(decode(c.get("custom_id", "")), TableId) for c in self.fake.iter_components(m))]

    def table_button(self, action: str, message: dict[str, Any] | None = None) -> tuple[int, str]:
        message = message or self.table_message()
        for comp in self.fake.iter_components(message):
            parsed = decode(comp.get("custom_id", ""))
            if isinstance(parsed, TableId) and parsed.action == action:
                return int(message["id"]), comp["custom_id"]
        raise AssertionError(f"no {action!r} button on the table")

    def current_player_id(self, channel_id: int | None = None) -> str | None:
        embed = (self.table_message(channel_id).get("embeds") or [{}])[0]
        for field in embed.get("fields", []):
            if field["name"] == "Turn":
                found = MENTION.search(field["value"])
                return found.group(1) if found else None
        return None

    @staticmethod
    def hand_buttons(message: dict[str, Any]) -> list[tuple[HandId, dict[str, Any]]]:
        out = []
        for row in message.get("components") or []:
            for comp in row.get("components", []):
                parsed = decode(comp.get("custom_id", ""))
                if isinstance(parsed, HandId):
                    out.append((parsed, comp))
        return out

    # ---- acting ----------------------------------------------------------------------------

    async def press_table(self, user: FakeUser, action: str, channel_id: int | None = None) -> InteractionRecord:
        mid, custom_id = self.table_button(action, self.table_message(channel_id))
        return await self.click(user, mid, custom_id)

    async def slash(self, user: FakeUser, sub: str, channel_id: int | None = None, **options: Any) -> InteractionRecord:
        return await self.settled(await self.fake.wait(await self.fake.slash(user, sub, channel_id, **options)))

    async def click(self, user: FakeUser, message_id: int, custom_id: str) -> InteractionRecord:
        return await self.settled(await self.fake.wait(await self.fake.click(user, message_id, custom_id)))

    async def settled(self, record: InteractionRecord) -> InteractionRecord:
        """After the answer, until the bot is done with the interaction (it may tidy up: an
        older hand view turned into a stub, a hand refreshed)."""
        assert self.app is not None
        await self.app.frontend.settled()
        await self.app.chat_port.settled()
        return record

    async def open_hand(self, user: FakeUser, channel_id: int | None = None) -> dict[str, Any]:
        record = await self.press_table(user, "hand", channel_id)
        message = self.fake.response_message(record)
        assert message["flags"] & EPHEMERAL
        return message

