"""The coordinator's ChatPort on Discord: one public table message per game, edited in place.

Private hands: Discord lets a bot show an ephemeral message only as the answer to that
player's own interaction, so ``send_hand`` cannot push one. We chose not to DM hands (DMs
fail with 50007 for many users, and switching between the server and DMs is what players of
other bots complain about): ``send_hand`` is a no-op returning None, and a player sees their
hand with the table's "My hand" button or ``/uno hand``; every click then refreshes it.
"""

from __future__ import annotations

import logging

import discord

from bot.coordinator.ports import ChatKey, DeliveryFailed
from bot.coordinator.views import HandView, LobbyView, Notice, Public, TableView

from .components import lobby_components, table_components
from .embeds import lobby_embed, notice_content, table_embed

log = logging.getLogger(__name__)


class DiscordChatPort:
    def __init__(self, client: discord.Client) -> None:
        self.client = client
        self.sends = 0  # REST calls made, for the benchmark
        self.edits = 0
        self.failures: dict[str, int] = {}  # chat id -> publish failures (permissions, ...)

    def _render(self, message: Public) -> dict:
        if isinstance(message, TableView):
            return {"content": None, "embed": table_embed(message), "view": table_components(message)}
        if isinstance(message, LobbyView):
            return {"content": None, "embed": lobby_embed(message), "view": lobby_components(message)}
        assert isinstance(message, Notice)
        return {"content": notice_content(message), "embed": None, "view": None}

    async def publish(self, chat: ChatKey, message: Public, *, edit: str | None = None) -> str | None:
        channel = self.client.get_partial_messageable(int(chat.chat_id))
        kwargs = self._render(message)
        if edit is not None and not isinstance(message, Notice):
            try:
                self.edits += 1
                edited = await channel.get_partial_message(int(edit)).edit(**kwargs)
                return str(edited.id)
            except discord.NotFound:
                log.info("table message %s in %s is gone; posting a new one", edit, chat)
            except discord.HTTPException as error:
                raise self._failed(chat, error) from None
        mentions = tuple(u for u in getattr(message, "mentions", ()) if u.isdigit())
        allowed = discord.AllowedMentions(everyone=False, roles=False,
                                          users=[discord.Object(int(u)) for u in mentions])
        try:
            self.sends += 1
            sent = await channel.send(allowed_mentions=allowed, **{k: v for k, v in kwargs.items() if v is not None})
            return str(sent.id)
        except discord.HTTPException as error:
            raise self._failed(chat, error) from None

    def _failed(self, chat: ChatKey, error: discord.HTTPException) -> DeliveryFailed:
        """Missing permissions or a Discord error must not break the game: log, and tell the
        coordinator the message did not go out (it tries again later, so the table is
        repainted as soon as Discord accepts it)."""
        self.failures[chat.chat_id] = self.failures.get(chat.chat_id, 0) + 1
        if isinstance(error, discord.Forbidden):
            log.warning("missing permissions to post in channel %s (code %s): grant View Channel, "
                        "Send Messages and Embed Links", chat.chat_id, error.code)
        else:
            log.warning("could not post in channel %s: HTTP %s code %s", chat.chat_id, error.status, error.code)
        return DeliveryFailed("forbidden" if isinstance(error, discord.Forbidden) else "other",
                              f"HTTP {error.status}")

    async def send_hand(self, chat: ChatKey, user_id: str, view: HandView, *,
                        edit: str | None = None) -> str | None:
        return None  # see the module docstring: hands are shown as answers to the player's clicks
