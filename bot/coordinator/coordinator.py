"""The coordinator: commands in, engine in the middle, views out through the ports.

This is the service and its one error boundary: ``handle`` runs a command and never raises,
``resume`` picks up after a restart, ``close`` shuts down. The work is done by its parts:
the unit of work (``unit_of_work``: load → work → save under the chat's lock), the delivery
(``delivery``: tables and hands out, in commit order), the scheduler (``scheduler``: timers
and AI seats) and the command handlers (``handlers``)."""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable
from functools import cache, partial
from typing import Any

from bot.ai import get_strategy

from . import commands as cmds
from . import moved_chats
from .context import Context, owns
from .delivery import Deliverer
from .failures import FailureLog
from .handlers import HANDLERS, series
from .locales import safe_locale
from .locks import ChatLocks
from .ports import ChatKey, ChatPort, Clock, GameStore, Notifier, Ownership, TableOpener, Watchers
from .refusals import MESSAGES, Refusal
from .replies import named
from .scheduler import Scheduler, TimerLag
from .unit_of_work import UnitOfWork
from .views import Reply, Text

log = logging.getLogger(__name__)

SWEEP_FROM = 256  # chats remembered in memory before idle ones are forgotten (then 2x live)
RETENTION = 30 * 86400.0  # finished games keep their final cards this long (seconds)
COMPACT_EVERY = 86400.0  # how often a running bot compacts finished games


class Coordinator:
    """``notifier`` and ``table_opener`` are what the platform can do beyond the ChatPort
    (None: it cannot); ``strategies`` gives each AI level's strategy by name; ``on_failure``
    and ``timer_lag`` tell the operator's metrics of each unexpected error and of how late
    each deadline timer fired; ``watchers`` counts the spectators of each game's live page
    (a web server), shown on the table."""

    def __init__(self, chat: ChatPort, store: GameStore, clock: Clock, *, ai_delay: float = 1.0,
                 hand_pause: float = 0.0, lobby_timeout: float = 600.0, seed: int | None = None,
                 delivery_wait: float = 1.0, retry_delay: float = 1.0,
                 retention: float = RETENTION, notifier: Notifier | None = None,
                 table_opener: TableOpener | None = None, ownership: Ownership | None = None,
                 strategies: Callable[[str], Any] | None = None,
                 on_failure: Callable[[BaseException], None] | None = None,
                 timer_lag: TimerLag | None = None, watchers: Watchers | None = None) -> None:
        self.chat = chat
        self.store = store
        self.clock = clock
        self.retention = retention
        self.log_failure = FailureLog(on_failure)
        self.locks = ChatLocks(after_release=self._housekeeping_due)
        self.delivery = Deliverer(chat, store, self.locks, self.log_failure,
                                  delivery_wait=delivery_wait, retry_delay=retry_delay,
                                  watchers=watchers)
        self.uow = UnitOfWork(store, clock, self.locks, self.delivery, self.log_failure,
                              hand_pause=hand_pause)
        self.scheduler = Scheduler(clock, self.uow, strategies or cache(get_strategy),
                                   self.log_failure, ai_delay=ai_delay, timer_lag=timer_lag,
                                   owns=partial(owns, ownership))
        rng = random.Random(seed) if seed is not None else random.SystemRandom()
        self.context = Context(chat, store, clock, self.uow, self.delivery, self.scheduler,
                               self.log_failure, rng, lobby_timeout=lobby_timeout,
                               notifier=notifier, table_opener=table_opener, ownership=ownership)
        self.uow.on_saved.append(self.scheduler.saved)
        self.uow.saves_again = self.scheduler.moves_at_once
        self.uow.series_follow_up = lambda record: series.advance(self.context, record)
        self._sweep_at = SWEEP_FROM
        self._compacted_at = clock.now()  # resume() compacts at start, then once a day
        self._housekeeping: asyncio.Task[int] | None = None
        self._closed = False

    # ---- the one entry point -------------------------------------------------------------
    async def handle(self, cmd: cmds.Command) -> Reply:
        """Run one command. Never raises: refusals and failures become a Reply."""
        handler = HANDLERS.get(type(cmd))
        try:
            if handler is None:
                raise Refusal("bad_action")
            cmd = await series.route(self.context, cmd)
            reply = await handler(self.context, cmd)
        except Refusal as refusal:
            reply = Reply(ok=False, text=refusal.text, error=refusal.code, asks=refusal.asks,
                          locale=await safe_locale(self.store, cmd.chat, cmd.user))
        except Exception as error:
            self.log_failure(error, f"command {type(cmd).__name__}", cmd.chat)
            return Reply(ok=False, text=Text(MESSAGES["internal"]), error="internal",
                         locale=await safe_locale(self.store, cmd.chat, cmd.user))
        await self.scheduler.drive_ai(cmd.chat)
        return named(reply, cmd.names)

    async def resume(self) -> None:
        """After a restart: deliver what a game still owed when the last process stopped (a
        stored outbox), re-arm every stored deadline (a passed one fires at once) and let AI
        seats that must act do so."""
        owned = self.context.owns  # with several processes: only this one's games
        await self.delivery.resume(owned)
        await self.compact_finished()
        for record in await self.store.active_games():
            if owned(record):
                await self.scheduler.resume(record)
        await series.resume(self.context, [r for r in await self.store.active_games() if owned(r)])
        if self.scheduler.ai_delay == 0:
            for record in await self.store.active_games():
                if owned(record):
                    await self.scheduler.drive_ai(record.chat)

    async def close(self, delivery_timeout: float = 5.0) -> None:
        """Stop the timers, let queued deliveries finish (a few seconds at most) and store
        that they were delivered, so the next start does not announce them again."""
        self._closed = True
        self.scheduler.close()
        if self._housekeeping is not None:
            await asyncio.gather(self._housekeeping, return_exceptions=True)
        await self.delivery.close(delivery_timeout)

    async def user_reachable(self, platform: str, user_id: str) -> int:
        """A user who could not be reached started the bot: resend their hands. Returns how
        many games were refreshed."""
        count = 0
        try:
            for record in await self.store.active_games_of(platform, user_id):
                if record.status != "running":
                    continue
                await self.delivery.refresh_hand(record.chat, user_id)
                count += 1
        except Exception as error:  # like handle(): the adapter gets an answer, the log the rest
            self.log_failure(error, "resending hands", ChatKey(platform, "?"))
        return count

    async def chat_moved(self, old: ChatKey, new: ChatKey) -> bool:
        """The platform gave chat ``old`` the id ``new`` (see ``moved_chats``): its stored rows
        move, a game open there goes on under the new id with its table posted anew (a match
        at two tables in that chat, both tables too), and the old chats' timers stop. Whether
        anything moved. Never raises."""
        try:
            if not await self._move_rows(old, new):
                return False
            hub = await self.store.load(new)
            tables = moved_chats.table_chats(hub, old, new)
            for table_old, table_new in tables:
                await self._move_rows(table_old, table_new)
            if old in self.context.hubs:
                self.context.hubs.discard(old)
                self.context.hubs.add(new)
            gone = {old, *(chat for chat, _ in tables)}
            for chat in gone:
                self.scheduler.disarm(chat)
            self._forget(gone)
            await self.uow.transact(new, lambda tx: moved_chats.show_here(tx, old, new))
            for _, table in tables:
                await self.uow.transact(
                    table, lambda tx: moved_chats.show_here(tx, old, new, notice=False))
            for chat in [new, *(chat for _, chat in tables)]:
                await self.scheduler.drive_ai(chat)
            log.info("chat %s moved to %s", old, new)
            return True
        except Exception as error:
            self.log_failure(error, "moving a chat to its new id", old)
            return False

    async def _move_rows(self, old: ChatKey, new: ChatKey) -> bool:
        first, second = moved_chats.lock_order(old, new)
        async with self.locks.hold(first), self.locks.hold(second):
            return await self.store.move_chat(old, new)

    # ---- housekeeping --------------------------------------------------------------------
    def _housekeeping_due(self) -> None:
        """After each chat lock is let go: forget idle chats once many are remembered, and
        compact finished games once a day."""
        if len(self.locks) > self._sweep_at:
            self.forget_idle_chats()
        if self.clock.now() - self._compacted_at > COMPACT_EVERY and not self._closed \
                and (self._housekeeping is None or self._housekeeping.done()):
            self._compacted_at = self.clock.now()
            self._housekeeping = asyncio.get_running_loop().create_task(self.compact_finished())

    def deliveries_waiting(self) -> int:
        """Deliveries queued behind the platform (growing: it is slow or refusing them)."""
        return self.delivery.courier.waiting()

    def remembered_chats(self) -> set[ChatKey]:
        """Every chat this process holds something in memory for."""
        return (self.locks.chats() | set(self.log_failure.game_ids)
                | self.scheduler.remembered() | self.delivery.remembered())

    def forget_idle_chats(self) -> int:
        """Drop what memory holds for chats with nothing going on: no lock held or awaited,
        no timer armed, no delivery queued. All of it is in the store or rebuilt on demand, so
        per-chat memory follows the chats in play, not every chat ever seen. Returns how many
        chats were forgotten."""
        busy = self.locks.busy() | self.scheduler.busy()
        idle = {chat for chat in self.remembered_chats()
                if chat not in busy and not self.delivery.busy(chat)}
        self._forget(idle)
        self._sweep_at = max(SWEEP_FROM, 2 * len(self.locks))
        return len(idle)

    def _forget(self, chats: set[ChatKey]) -> None:
        """Drop what each part holds in memory for ``chats`` (a lock only when unused)."""
        self.locks.forget(chats)
        self.log_failure.forget(chats)
        self.scheduler.forget(chats)
        self.delivery.forget(chats)
        now = self.clock.now()
        self.context.false_calls = {k: t for k, t in self.context.false_calls.items()
                                    if k[0] not in chats or t > now}

    async def compact_finished(self) -> int:
        """Finished games older than ``retention`` drop their final cards (results and stats
        stay: they live in their own tables). Returns how many games were compacted."""
        try:
            return await self.store.compact_finished(self.clock.now() - self.retention)
        except Exception as error:
            log.warning("compacting finished games failed (%s)", type(error).__name__)
            return 0
