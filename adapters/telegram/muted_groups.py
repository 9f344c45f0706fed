"""Groups where the bot may not send messages: an admin restricted it, or the group lets only
admins write. Telegram refuses each message there ("not enough rights"). The first refusal is
logged as a warning for the operator, the next ones there for an hour quietly (a group that
forbids media gets its tables and recaps as text instead of photos). A lobby refused so
closes at once and its creator is told privately why: nobody could see it to join, and it
would hold the group's one open game until it expired. A running game goes on: its players
are told privately that their hands and turns still come there. The sender of a command
whose answer the group refuses is told privately why."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Coroutine
from typing import Any

from cachetools import FIFOCache, TTLCache
from telegram.error import TelegramError

from bot.coordinator import N_

log = logging.getLogger(__name__)

KEPT = 4096  # groups remembered as refusing the bot's messages
# What Telegram's refusals say when the bot lacks the right to send there (the wording has
# changed over the years; a photo or a sticker is refused in its own words).
NO_RIGHTS = ("not enough rights", "have no rights to send", "chat_write_forbidden")

CANNOT_WRITE = N_("I cannot write in {group}: an admin must let me send messages there. Then "
                  "open the game again with /new.")
CANNOT_ANSWER = N_("I cannot write in {group}: an admin must let me send messages there.")
PLAYS_ON = N_("I cannot write in {group}: an admin must let me send messages there. The game "
              "goes on here: your cards and your turns come in this chat.")
WARN_EVERY = 3600.0  # seconds between two warnings about one group
PHOTOS_AGAIN_AFTER = 3600.0  # seconds before a group that refused a photo is sent one again
TOLD_FOR = 60.0  # seconds: one person is told this once in that time, however many commands

OnMuted = Callable[[int], Coroutine[Any, Any, object]]


def lacks_rights(error: TelegramError) -> bool:
    """Whether ``error`` is Telegram refusing a message because the bot may not send it there."""
    message = error.message.lower()
    return any(words in message for words in NO_RIGHTS)


class MutedGroups:
    def __init__(self) -> None:
        # chat id -> Telegram's words, while the last message sent there was refused so
        self._muted: FIFOCache[int, str] = FIFOCache(KEPT)
        self._warned: TTLCache[int, bool] = TTLCache(KEPT, WARN_EVERY, timer=time.monotonic)
        # Groups that refused a photo (they forbid media): their tables go as text, and a
        # photo is tried again an hour later (an admin may have allowed media since).
        self._no_photos: TTLCache[int, bool] = TTLCache(KEPT, PHOTOS_AGAIN_AFTER, timer=time.monotonic)
        # (chat id, user id) told privately that the group refuses the bot's answers, lately
        self._told: TTLCache[tuple[int, int], bool] = TTLCache(KEPT, TOLD_FOR, timer=time.monotonic)
        self._telling: dict[int, asyncio.Task[object]] = {}  # chat id -> its task, while it runs
        # Closes the group's lobby, or tells its game's players (set by the context).
        self.on_muted: OnMuted | None = None

    def muted(self, chat_id: int) -> bool:
        """Whether the last message sent to ``chat_id`` was refused for lack of rights."""
        return chat_id in self._muted

    def refused(self, chat_id: int, reason: str) -> None:
        if chat_id not in self._warned:
            self._warned[chat_id] = True
            log.warning("chat %s refuses the bot's messages (%s): a lobby there closes, a game "
                        "goes on privately, until an admin lets the bot write", chat_id, reason)
        newly = chat_id not in self._muted
        self._muted[chat_id] = reason
        if newly:
            self._in_background(chat_id)

    def delivered(self, chat_id: int) -> None:
        self._muted.pop(chat_id, None)

    def photos_refused(self, chat_id: int) -> bool:
        return chat_id in self._no_photos

    def refuse_photos(self, chat_id: int, error: TelegramError) -> None:
        """A photo sent to ``chat_id`` was refused: for lack of rights, its photos go as text
        from now on; for any other reason, ``error`` is raised again."""
        if not lacks_rights(error):
            raise error
        if chat_id not in self._no_photos:
            log.info("chat %s refuses the bot's photos (%s): its tables go as text", chat_id, error.message)
        self._no_photos[chat_id] = True

    def first_telling(self, chat_id: int, user_id: int) -> bool:
        """Whether to tell ``user_id`` privately that ``chat_id`` refuses the bot's answers:
        not again for a minute, however many commands they send meanwhile."""
        if (chat_id, user_id) in self._told:
            return False
        self._told[(chat_id, user_id)] = True
        return True

    def lobby_refused(self, chat_id: int) -> None:
        """A new lobby's message was refused (the group refused the bot before, too): close it."""
        self._in_background(chat_id)

    def _in_background(self, chat_id: int) -> None:
        """``on_muted``, in a task of its own (this is the middle of a delivery to that chat),
        unless one for the chat is running already: a new lobby's first refusal asks twice."""
        if self.on_muted is None or chat_id in self._telling:
            return
        task = self._telling[chat_id] = asyncio.get_running_loop().create_task(self.on_muted(chat_id))
        task.add_done_callback(lambda _: self._telling.pop(chat_id, None))
