"""Time in the game: turn, lobby and next-hand deadlines, and the AI seats' moves.

Deadlines are absolute times kept in the record, so a restarted process arms them again
from the store. AI seats move after ``ai_delay`` seconds (0: at once, inline, until a person
must act). Work that fails is tried again with one backoff on the injected clock."""

from __future__ import annotations

import logging
import random
from collections.abc import Awaitable, Callable
from typing import Any

from . import lobby, play
from .backoff import Backoff
from .failures import FailureLog
from .ports import ChatKey, Clock, GameRecord, TimerHandle
from .refusals import Refusal
from .transaction import Tx
from .unit_of_work import UnitOfWork

log = logging.getLogger(__name__)

MAX_AI_STEPS = 200_000  # a safety stop for one inline run of AI moves (ai_delay == 0)
# Timer work or an AI move that failed is tried again after 0.5 s, doubling up to 30 s.
TIMER_RETRY = Backoff(first=0.5, most=30.0)
DEADLINES = ("turn", "lobby", "next_hand")

Strategies = Callable[[str], Any]  # an AI level's name -> its strategy (bot.ai)
TimerLag = Callable[[float], None]  # told how many seconds a deadline timer fired late


class Scheduler:
    def __init__(self, clock: Clock, uow: UnitOfWork, strategies: Strategies,
                 log_failure: FailureLog, *, ai_delay: float = 1.0,
                 timer_lag: TimerLag | None = None,
                 owns: Callable[[str | None], bool] = lambda owner: True) -> None:
        self.clock = clock
        self.timer_lag = timer_lag
        self.uow = uow
        self.strategies = strategies
        self.log_failure = log_failure
        self.ai_delay = ai_delay
        self.closed = False
        self._timers: dict[tuple[ChatKey, str], TimerHandle] = {}
        self._ai_due: dict[ChatKey, bool] = {}  # hint from the last transaction (absent: look)
        self._ai_failures: dict[ChatKey, int] = {}  # AI moves failed in a row (retry backoff)
        # Several processes (shards): timers run only where the game's owner runs. The owner
        # is checked again when a timer fires: a shard moved away takes its games along.
        self.owns = owns
        self._owners: dict[ChatKey, str | None] = {}

    # ---- after every save ----------------------------------------------------------------
    def saved(self, record: GameRecord, tx: Tx) -> None:
        """A transaction saved ``record``: arm its deadlines and let its AI seats look."""
        self.arm(record)
        self._ai_due[record.chat] = tx.ai_may_act()
        if self.ai_delay > 0:
            self.schedule_ai(record)

    def moves_at_once(self, chat: ChatKey) -> bool:
        """Whether an AI seat of the chat moves right after the last save, inline (no delay)."""
        return self.ai_delay == 0 and not self.closed and self._ai_due.get(chat, False) \
            and self._runs(chat)

    def look_again(self, chat: ChatKey) -> None:
        """Forget the hint that no AI seat can act (the position changed outside a move)."""
        self._ai_due.pop(chat, None)

    # ---- deadlines -----------------------------------------------------------------------
    def _runs(self, chat: ChatKey) -> bool:
        return self.owns(self._owners.get(chat))

    def arm(self, record: GameRecord) -> None:
        self._owners[record.chat] = record.owner
        for key in DEADLINES:
            handle = self._timers.pop((record.chat, key), None)
            if handle is not None:
                handle.cancel()
            when = record.deadlines.get(key) if record.active else None
            if when is not None and not self.closed and self._runs(record.chat):
                self._timers[(record.chat, key)] = self.clock.call_at(
                    when, self._deadline_callback(record.chat, record.game_id, key, when))

    def _deadline_callback(self, chat: ChatKey, game_id: str, key: str, when: float,
                           attempt: int = 0) -> Callable[[], Awaitable[None]]:
        async def fire() -> None:
            self._timers.pop((chat, key), None)
            if not self._runs(chat):
                return  # the game's shard runs in another process now: its timers are there
            if self.timer_lag is not None and attempt == 0:  # a retry is late on purpose
                self.timer_lag(max(0.0, self.clock.now() - when))
            done = False
            try:
                done, _ = await self.uow.transact(
                    chat, lambda tx: self._on_deadline(tx, game_id, key, when))
            except Refusal as refusal:
                log.warning("the %s timer in chat %s was refused (%s); trying again",
                            key, chat, refusal.code)
            except Exception as error:
                self.log_failure(error, f"the {key} timer", chat)
            if not done:
                # Early (the wall clock stepped back), or the work failed (a transient error,
                # "busy"): the deadline still stands, so it fires again; a newer transaction
                # re-arms it from the record anyway, and a game that moved on makes it stale.
                self._rearm_deadline(chat, game_id, key, when, attempt)
            await self.drive_ai(chat)

        return fire

    def _rearm_deadline(self, chat: ChatKey, game_id: str, key: str, when: float,
                        attempt: int) -> None:
        if self.closed or (chat, key) in self._timers:
            return  # shut down, or a transaction armed this key again meanwhile
        now = self.clock.now()
        at = when if now < when else now + TIMER_RETRY.delay(attempt + 1)
        self._timers[(chat, key)] = self.clock.call_at(
            at, self._deadline_callback(chat, game_id, key, when, attempt + 1))

    @staticmethod
    def _on_deadline(tx: Tx, game_id: str, key: str, when: float) -> bool:
        """Do the deadline's work; False when it is early (then it must fire again)."""
        record = tx.record
        if record is None or record.game_id != game_id or record.deadlines.get(key) is None:
            return True
        if abs(record.deadlines[key] - when) > 1e-3:
            return True  # re-armed since: a newer timer owns this deadline
        if tx.now + 1e-3 < when:
            return False  # the clock says not yet (stepped back since the timer was set)
        if key == "turn":
            play.turn_timeout(tx, when)
        elif key == "lobby" and record.status == "lobby":
            lobby.expire_lobby(tx)
        elif key == "next_hand" and record.status == "running":
            tx.next_hand()
        return True

    # ---- AI seats ------------------------------------------------------------------------
    @staticmethod
    def _ai_rng(record: GameRecord) -> random.Random:
        # Derived from the game's seed and version: the same position gets the same choice.
        return _SeededOnUse(f"{record.options.seed}:{record.version}")

    @staticmethod
    def has_ai(record: GameRecord | None) -> bool:
        return bool(record and record.status == "running" and record.has_match
                    and any(s.ai for s in record.seats))

    async def _ai_step(self, chat: ChatKey) -> bool:
        def work(tx: Tx) -> tuple[bool, float | None]:
            if tx.record is None or not self.has_ai(tx.record):
                return False, None
            acted = play.ai_step(tx, self.strategies, self._ai_rng(tx.record))
            return acted, None if acted else play.ai_wake_at(tx)

        (acted, wake), _ = await self.uow.transact(chat, work)
        self._ai_failures.pop(chat, None)
        if not acted:
            self._ai_due[chat] = False
            if wake is not None:  # held back for people to call UNO!: look again then
                self._wake_ai(chat, wake)
        return bool(acted)

    def _wake_ai(self, chat: ChatKey, when: float) -> None:
        key = (chat, "ai")
        handle = self._timers.pop(key, None)
        if handle is not None:
            handle.cancel()
        if self.closed:
            return
        self._timers[key] = self.clock.call_at(when, self._ai_wakeup(chat, retry=False))

    def _ai_wakeup(self, chat: ChatKey, *, retry: bool) -> Callable[[], Awaitable[None]]:
        """A timer's work that lets the chat's AI seats look again (held back for the UNO!
        window, or after a failed move); with ``retry``, a move that fails again backs off."""
        key = (chat, "ai")

        async def fire() -> None:
            self._timers.pop(key, None)
            if not self._runs(chat):
                return
            self._ai_due[chat] = True
            if self.ai_delay == 0:
                await self.drive_ai(chat)
                return
            try:
                await self._ai_step(chat)
            except Refusal:
                if retry:
                    self._retry_ai(chat)
            except Exception as error:
                self.log_failure(error, "a scheduled AI move", chat)
                if retry:
                    self._retry_ai(chat)

        return fire

    async def drive_ai(self, chat: ChatKey) -> None:
        """With no AI delay, let AI seats play right away until a person must act."""
        if self.ai_delay > 0 or self.closed or not self._runs(chat):
            return
        for _ in range(MAX_AI_STEPS):
            if self.closed or not self._ai_due.get(chat, True):
                return
            try:
                if not await self._ai_step(chat):
                    return
            except Refusal:
                self._retry_ai(chat)  # "busy": the seat must still move
                return
            except Exception as error:
                self.log_failure(error, "an AI move", chat)
                self._retry_ai(chat)
                return

    def schedule_ai(self, record: GameRecord) -> None:
        key = (record.chat, "ai")
        handle = self._timers.pop(key, None)
        if handle is not None:
            handle.cancel()
        if self.closed or not self._ai_due.get(record.chat, True) or not self.has_ai(record) \
                or not self.owns(record.owner):
            return
        chat = record.chat

        async def fire() -> None:
            self._timers.pop(key, None)
            if not self._runs(chat):
                return
            try:
                await self._ai_step(chat)
            except Refusal:
                self._retry_ai(chat)
            except Exception as error:
                self.log_failure(error, "a scheduled AI move", chat)
                self._retry_ai(chat)

        self._timers[key] = self.clock.call_at(self.clock.now() + self.ai_delay, fire)

    def _retry_ai(self, chat: ChatKey) -> None:
        """An AI move failed (a transient error, "busy"): look again later, with backoff,
        until a move goes through or a transaction re-schedules the seat."""
        key = (chat, "ai")
        if self.closed or key in self._timers:
            return
        attempt = self._ai_failures[chat] = self._ai_failures.get(chat, 0) + 1
        self._timers[key] = self.clock.call_at(self.clock.now() + TIMER_RETRY.delay(attempt),
                                               self._ai_wakeup(chat, retry=True))

    # ---- restart, shutdown, memory ---------------------------------------------------------
    async def resume(self, record: GameRecord) -> None:
        """A stored game after a restart: arm its deadlines (a passed one fires at once)."""
        self.arm(record)
        if self.ai_delay > 0:
            self.schedule_ai(record)

    def close(self) -> None:
        self.closed = True
        for handle in self._timers.values():
            handle.cancel()
        self._timers.clear()

    def disarm(self, chat: ChatKey) -> None:
        """Cancel the chat's timers (its game moved to another chat)."""
        for key in [k for k in self._timers if k[0] == chat]:
            self._timers.pop(key).cancel()

    def busy(self) -> set[ChatKey]:
        """Chats with a timer armed."""
        return {chat for chat, _ in self._timers}

    def remembered(self) -> set[ChatKey]:
        return set(self._ai_due) | set(self._ai_failures) | set(self._owners)

    def forget(self, chats: set[ChatKey]) -> None:
        for chat in chats:
            self._ai_due.pop(chat, None)
            self._ai_failures.pop(chat, None)
            self._owners.pop(chat, None)


_SEEDED = object()


class _SeededOnUse(random.Random):
    """``random.Random(seed)``, seeded at its first draw: seeding costs more than most AI moves,
    and only the easy level draws at all. Every draw goes through ``random`` or
    ``getrandbits``, so the numbers are exactly those of ``random.Random(seed)``."""

    _unseeded: Any = _SEEDED

    def seed(self, a: Any = None, version: int = 2) -> None:
        self._unseeded = a  # Random.__init__ calls this: the real seeding waits

    def _seeded(self) -> None:
        if self._unseeded is not _SEEDED:
            a, self._unseeded = self._unseeded, _SEEDED
            super().seed(a)

    def random(self) -> float:
        self._seeded()
        return super().random()

    def getrandbits(self, k: int) -> int:
        self._seeded()
        return super().getrandbits(k)

    def getstate(self) -> Any:
        self._seeded()
        return super().getstate()
