"""The key of a chat: which platform, which chat on it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, eq=False, slots=True)
class ChatKey:
    """One chat (Telegram group, Discord channel, the console) on one platform.

    The key of every per-chat table (locks, queues, timers): its hash is worked out once,
    not on every lookup (a dataclass's is, through a new tuple: dozens of times a move)."""

    platform: str  # "telegram" | "discord" | "console"
    chat_id: str
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_hash", hash((self.platform, self.chat_id)))

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ChatKey):
            return NotImplemented
        return self.platform == other.platform and self.chat_id == other.chat_id

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled by its fields: a string's hash differs from one process to the next.
        return ChatKey, (self.platform, self.chat_id)

    def __str__(self) -> str:
        return f"{self.platform}:{self.chat_id}"

    def to_json(self) -> list[str]:
        return [self.platform, self.chat_id]

    @classmethod
    def from_json(cls, data: list[str]) -> ChatKey:
        return cls(str(data[0]), str(data[1]))
