"""One way to log what went wrong: with the chat and its game, never the exception's text."""

from __future__ import annotations

import logging
import traceback
from collections.abc import Iterable

from .ports import ChatKey

log = logging.getLogger("bot.coordinator")


class FailureLog:
    """Logs unexpected errors with the game the chat last played (remembered per chat for the
    log line only), the type and the stack. The text is left out: it may quote a hand
    (engine subjects, stored JSON), and hands are secret."""

    def __init__(self) -> None:
        self.game_ids: dict[ChatKey, str] = {}

    def seen(self, chat: ChatKey, game_id: str) -> None:
        self.game_ids[chat] = game_id

    def __call__(self, error: BaseException, what: str, chat: ChatKey) -> None:
        stack = "".join(traceback.format_tb(error.__traceback__))
        log.error("%s in chat %s (game %s) failed with %s\n%s", what, chat,
                  self.game_ids.get(chat), type(error).__name__, stack)

    def forget(self, chats: Iterable[ChatKey]) -> None:
        for chat in chats:
            self.game_ids.pop(chat, None)
