"""The unit of work: one command's load → work → save on one game, under the chat's lock.

Another process may share the database. The store may hand out the game as this process
last saved or read it without reading it (``load_held``): its save checks it is still
current, and an outcome decided without a save (an answer, a refusal) is checked before it
counts; a stale copy is replaced by the stored game and the work done again. A version
conflict on a game read is retried once, then the sender is told to try again. Messages go out after the save, outside the lock, so nothing is announced that was
not stored."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from . import recap, tables
from .delivery import Deliverer
from .failures import FailureLog
from .locks import ChatLocks
from .ports import ChatKey, Clock, GameRecord, GameStore, VersionConflict
from .refusals import Refusal
from .transaction import Outgoing, Tx

Saved = Callable[[GameRecord, Tx], None]
FollowUp = Callable[[GameRecord], Awaitable[None]]


class UnitOfWork:
    def __init__(self, store: GameStore, clock: Clock, locks: ChatLocks, delivery: Deliverer,
                 log_failure: FailureLog, *, hand_pause: float = 0.0) -> None:
        self.store = store
        self.clock = clock
        self.locks = locks
        self.delivery = delivery
        self.log_failure = log_failure
        self.hand_pause = hand_pause
        self.on_saved: list[Saved] = []  # each saved record goes to these (the timers)
        # A table of a two-table match that finished a round lets the others look again.
        self.series_follow_up: FollowUp | None = None
        # Whether the chat saves again at once after a save (AI seats moving inline): that
        # save, rather than a write of its own, then stores that this one's messages went out.
        self.saves_again: Callable[[ChatKey], bool] = lambda chat: False

    async def transact(self, chat: ChatKey, work: Callable[[Tx], Any],
                       prepare: Callable[[], Awaitable[None]] | None = None) -> tuple[Any, Tx]:
        """Load, ``work(tx)``, save under the chat's lock; then deliver outside it, in commit
        order (waiting a moment for our own messages). Refusals propagate with nothing saved.
        ``prepare`` reads what the command needs once the lock is held: commands are decided
        in the order they arrived, not in the order their reads came back."""
        outcome, tx = await self.transact_locked(chat, work, prepare)
        if tx.series_due and tx.record is not None and self.series_follow_up is not None:
            await self.series_follow_up(tx.record)
        return outcome, tx

    async def transact_locked(self, chat: ChatKey, work: Callable[[Tx], Any],
                              prepare: Callable[[], Awaitable[None]] | None = None) -> tuple[Any, Tx]:
        """``transact`` without the two-table follow-up (the follow-up's own steps)."""
        job = None
        committed = False
        try:
            async with self.locks.hold(chat):
                if prepare is not None:
                    await prepare()
                conflicts = 0
                unread = True  # first the game as this process holds it, if the store does
                while True:
                    if unread:
                        record, unread = await self.store.load_held(chat)
                    else:
                        record = await self.store.load(chat)
                    tx = Tx(chat, record, self.clock.now(), hand_pause=self.hand_pause)
                    if record is not None:
                        self.log_failure.seen(chat, record.game_id)
                        self.delivery.loaded(record)
                        tx.linked = await self.linked(record)
                    loaded_table = record.table_message_id if record is not None else None
                    try:
                        outcome = work(tx)
                    except Refusal:
                        if unread and await self._stale(record):
                            unread = False
                            continue  # refused on a stale copy: decide on the stored game
                        raise
                    if not tx.dirty:
                        if unread and await self._stale(record):
                            unread = False
                            continue
                        return outcome, tx
                    if tx.recap_due:
                        await self._add_recap(tx)
                    tx.close_outgoing()
                    self.delivery.prepare(tx, loaded_table)
                    try:
                        saved = await self.store.save(tx.commit(), tx.results)
                    except VersionConflict:
                        if unread:  # the copy held here was stale: read the game, no retry spent
                            unread = False
                            continue
                        conflicts += 1
                        if conflicts == 1:
                            continue
                        raise Refusal("busy") from None
                    except Exception:  # perhaps stored all the same: the next read tells
                        saving = tx.game()
                        self.delivery.save_failed(chat, saving.game_id, saving.version + 1)
                        raise
                    tx.record = saved
                    committed = True
                    job = self.delivery.submit(tx)
                    for listener in self.on_saved:
                        listener(saved, tx)
                    break
            await self.delivery.wait(job)
            return outcome, tx
        finally:
            if not (committed and self.saves_again(chat)):
                await self.delivery.settle_owed(chat)

    async def _stale(self, record: GameRecord | None) -> bool:
        return record is not None and not await self.store.still_current(record)

    async def _add_recap(self, tx: Tx) -> None:
        """The finished match's recap, after its notices: read under the lock, so the hands
        stored so far and this transaction's own rows and moves add up to the whole match."""
        record = tx.game()
        try:
            view = await recap.of_game(
                self.store, record.game_id, tx.locale, pending=tx.results,
                steps=tx.steps if tx.match is tx.stepped else (), book=record.book,
                scoring=record.rules.get("scoring", "winner_takes"))
        except Exception as error:  # noqa: BLE001 -- the match's end is told without it
            self.log_failure(error, "building a match recap", tx.chat)
            return
        if view is not None:
            tx.outgoing.append(Outgoing(view, "notice"))

    async def linked(self, record: GameRecord) -> list[GameRecord]:
        """The other records of a two-table match, as last saved."""
        found = [await self.store.get(game_id) for game_id in tables.linked_game_ids(record)]
        return [r for r in found if r is not None]
