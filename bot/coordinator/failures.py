"""One way to log what went wrong: with the chat and its game, never the exception's text."""

from __future__ import annotations

import logging
import traceback
from collections.abc import Callable, Iterable

from .ports import ChatKey

log = logging.getLogger("bot.coordinator")


class FailureLog:
    """Logs unexpected errors with the game the chat last played (remembered per chat for the
    log line only), the type and the stack. The text is left out: it may quote a hand
    (engine subjects, stored JSON), and hands are secret. ``observer`` hears of each failure
    too (the operator's error counter), after it is logged."""

    def __init__(self, observer: Callable[[BaseException], None] | None = None) -> None:
        self.game_ids: dict[ChatKey, str] = {}
        self.observer = observer

    def seen(self, chat: ChatKey, game_id: str) -> None:
        self.game_ids[chat] = game_id

    def __call__(self, error: BaseException, what: str, chat: ChatKey) -> None:
        stack = "".join(traceback.format_tb(error.__traceback__))
        log.error("%s in chat %s (game %s) failed with %s\n%s", what, chat,
                  self.game_ids.get(chat), type(error).__name__, stack)
        if self.observer is not None:
            self.observer(error)

    def forget(self, chats: Iterable[ChatKey]) -> None:
        for chat in chats:
            self.game_ids.pop(chat, None)
