"""What the command handlers work with: the parts of a running coordinator, as one value."""

from __future__ import annotations

import random
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from .delivery import Deliverer
from .failures import FailureLog
from .ports import ChatKey, ChatPort, Clock, GameRecord, GameStore, Notifier, Ownership, TableOpener
from .replies import reply
from .scheduler import Scheduler
from .transaction import Tx
from .unit_of_work import UnitOfWork
from .views import Reply, Text


@dataclass
class Context:
    chat: ChatPort
    store: GameStore
    clock: Clock
    uow: UnitOfWork
    delivery: Deliverer
    scheduler: Scheduler
    log_failure: FailureLog
    rng: random.Random
    lobby_timeout: float = 600.0
    notifier: Notifier | None = None  # optional platform abilities (ports.py)
    table_opener: TableOpener | None = None
    ownership: Ownership | None = None  # None: this process runs every chat
    hubs: set[ChatKey] = field(default_factory=set)  # chats whose match is played at two tables
    # (chat, user) -> end of the cool-down after a wrong UNO! call. Kept in memory: a rate
    # limit, not game state (a restart may forget it harmlessly).
    false_calls: dict[tuple[ChatKey, str], float] = field(default_factory=dict)

    async def transact(self, chat: ChatKey, work: Callable[[Tx], Any],
                       prepare: Callable[[], Awaitable[None]] | None = None) -> tuple[Any, Tx]:
        return await self.uow.transact(chat, work, prepare)

    async def answer(self, cmd: Any, work: Callable[[Tx], Text | None],
                     prepare: Callable[[], Awaitable[None]] | None = None) -> Reply:
        """Run ``work`` as one transaction and answer the sender with the text it returns."""
        text, tx = await self.transact(cmd.chat, work, prepare)
        return reply(tx, cmd.user, text)

    def owns(self, record: GameRecord) -> bool:
        """Whether this process runs ``record``'s game now (its timers, AI seats, deliveries)."""
        return owns(self.ownership, record.owner)

    @staticmethod
    def new_game_id() -> str:
        # Always random, even for a seeded coordinator: ids must stay unique in a database that
        # outlives one run (the seed decides the deal and the AI's choices, not the id).
        return secrets.token_hex(5)


def owns(ownership: Ownership | None, owner: str | None) -> bool:
    return ownership is None or owner is None or ownership.owns(owner)
