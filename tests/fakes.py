"""Small fakes with state you can assert on (no mocks of our own functions).

``FakeChat`` implements the coordinator's ``ChatPort``: it records every public message and
every private hand, can make a user unreachable (``DeliveryFailed("blocked")``), and counts
sends versus edits.
"""

from __future__ import annotations

import itertools
from collections import defaultdict

from bot.coordinator.ports import ChatKey, DeliveryFailed
from bot.coordinator.views import HandView, LobbyView, Notice, Public, TableView


class FakeChat:
    def __init__(self) -> None:
        self.public: list[tuple[ChatKey, Public, str | None]] = []  # (chat, message, edited id)
        self.private: dict[str, list[HandView]] = defaultdict(list)
        self.unreachable: set[str] = set()
        self.told: dict[str, list[Notice]] = defaultdict(list)  # private "a game opened" notes
        self.public_sends = 0
        self.public_edits = 0
        self.private_sends = 0
        self.private_edits = 0
        self.failed_private = 0
        self._ids = itertools.count(1)
        self.message_ids: list[str] = []  # ids of public messages returned, in order

    # ---- ChatPort -------------------------------------------------------------------------
    async def publish(self, chat: ChatKey, message: Public, *, edit: str | None = None) -> str:
        self.public.append((chat, message, edit))
        if edit is not None:
            self.public_edits += 1
            return edit
        self.public_sends += 1
        message_id = f"m{next(self._ids)}"
        self.message_ids.append(message_id)
        return message_id

    async def notify_user(self, chat: ChatKey, user_id: str, message: Notice) -> None:
        if user_id in self.unreachable:
            raise DeliveryFailed("blocked", "user has not started the bot")
        self.told[user_id].append(message)

    async def send_hand(self, chat: ChatKey, user_id: str, view: HandView, *,
                        edit: str | None = None) -> str:
        if user_id in self.unreachable:
            self.failed_private += 1
            raise DeliveryFailed("blocked", "user has not started the bot")
        self.private[user_id].append(view)
        if edit is not None:
            self.private_edits += 1
            return edit
        self.private_sends += 1
        return f"p{next(self._ids)}"

    # ---- test helpers ---------------------------------------------------------------------
    def block(self, user_id: str) -> None:
        self.unreachable.add(user_id)

    def unblock(self, user_id: str) -> None:
        self.unreachable.discard(user_id)

    def messages(self, chat: ChatKey | None = None, kind: type | None = None) -> list[Public]:
        return [m for c, m, _ in self.public
                if (chat is None or c == chat) and (kind is None or isinstance(m, kind))]

    def tables(self, chat: ChatKey | None = None) -> list[TableView]:
        return self.messages(chat, TableView)  # type: ignore[return-value]

    def notices(self, chat: ChatKey | None = None) -> list[Notice]:
        return self.messages(chat, Notice)  # type: ignore[return-value]

    def lobbies(self, chat: ChatKey | None = None) -> list[LobbyView]:
        return self.messages(chat, LobbyView)  # type: ignore[return-value]

    def last_table(self, chat: ChatKey | None = None) -> TableView:
        return self.tables(chat)[-1]

    def last_hand(self, user_id: str) -> HandView:
        return self.private[user_id][-1]

    def notice_ids(self, chat: ChatKey | None = None) -> list[str]:
        return [n.text.msgid for n in self.notices(chat)]

    @property
    def public_count(self) -> int:
        return len(self.public)

    @property
    def private_count(self) -> int:
        return sum(len(v) for v in self.private.values())
