"""What a saved transaction sends, and how it gets there.

A transaction renders its messages before the save and stores what it owes with the move
(the outbox, see ``owed``); the courier delivers them after the save, in commit order per
chat, outside the chat's lock; what deliveries learn (message ids, players the bot cannot
reach) is stored afterwards in a second, small save. After a crash, ``resume`` rebuilds what
a stored outbox still owes."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from .. import presenter, presses
from ..failures import FailureLog
from ..locales import chat_locale, seat_locale
from ..locks import ChatLocks
from ..ports import (
    ChatKey,
    ChatPort,
    DeliveryFailed,
    GameRecord,
    GameStore,
    VersionConflict,
    Watchers,
)
from ..record import Outbox
from ..transaction import Outgoing, Tx
from ..views import HandView, Notice, Public, TableView
from . import owed
from .courier import Courier, Job, Retry
from .hands import PrivateHands

log = logging.getLogger(__name__)


@dataclass
class Delivery:
    """One saved transaction's messages, rendered at commit time (the courier's payload)."""

    record: GameRecord
    outgoing: list[Outgoing]
    hands: dict[str, HandView]
    resumed: bool = False  # rebuilt from a stored outbox by resume()
    # Hands closed for people sent no more hands (their message id, the closing view). Not
    # part of the stored outbox: after a crash such a hand keeps its buttons, whose presses
    # are refused.
    closed_hands: dict[str, tuple[str | None, HandView]] = field(default_factory=dict)
    table_before: str | None = None
    unreachable_before: list[str] = field(default_factory=list)
    hands_before: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.table_before = self.record.table_message_id
        self.hands_before = dict(self.record.hand_message_ids)
        self.unreachable_before = list(self.record.delivery.unreachable)


@dataclass
class Known:
    """Message ids this process's deliveries learnt for the chat's current game: a delivery
    queued behind another uses them before the store has them."""

    game_id: str
    table_set: bool = False
    table_message_id: str | None = None
    hand_message_ids: dict[str, str] = field(default_factory=dict)
    unreachable: list[str] | None = None


class Deliverer:
    def __init__(self, chat: ChatPort, store: GameStore, locks: ChatLocks, log_failure: FailureLog,
                 *, delivery_wait: float = 1.0, retry_delay: float = 1.0,
                 watchers: Watchers | None = None) -> None:
        self.chat = chat
        self.watchers = watchers
        self.store = store
        self.locks = locks
        self.log_failure = log_failure
        # A command waits up to ``delivery_wait`` seconds for its own messages (so its answer
        # follows its table), never longer: a platform in trouble must not hold the answer.
        self.delivery_wait = delivery_wait
        self.courier = Courier(self._deliver, first_retry=retry_delay)
        self.hands = PrivateHands(chat, log_failure)
        self._known: dict[ChatKey, Known] = {}
        self._delivered: dict[ChatKey, tuple[str, int]] = {}  # last (game, version) delivered
        # Delivered, but the stored game still says it owes it: cleared by the next save of
        # the game (which drops a delivered outbox), else by ``settle_owed`` once the command
        # that waits for it ends. An inline run of AI moves so writes one mark, not one a move.
        self._unmarked: dict[ChatKey, GameRecord] = {}
        # A save that raised: the store may still have kept it (the connection dropped after
        # the commit), and then nothing of that move went out. (game, the version it would
        # have): the next read of the stored game tells (``loaded``).
        self._in_doubt: dict[ChatKey, tuple[str, int]] = {}

    # ---- around the transaction -------------------------------------------------------------
    def save_failed(self, chat: ChatKey, game_id: str, version: int) -> None:
        """A save of ``game_id`` at ``version`` raised: perhaps stored, never delivered."""
        self._in_doubt[chat] = (game_id, version)

    def loaded(self, record: GameRecord) -> None:
        """Message ids learnt by deliveries of this process that the store may not hold yet;
        and what a save in doubt owes, once the game as stored shows it was kept."""
        if self._in_doubt:
            self._deliver_kept(record)
        known = self._known.get(record.chat)
        if known is None or known.game_id != record.game_id:
            return
        if known.table_set:
            record.table_message_id = known.table_message_id
        record.hand_message_ids.update(known.hand_message_ids)
        if known.unreachable is not None:
            record.delivery.unreachable = list(known.unreachable)

    def _deliver_kept(self, record: GameRecord) -> None:
        """A save in doubt that the store did keep owes its messages still (its outbox):
        they go out now, as after a restart, ahead of the transaction that found them."""
        doubt = self._in_doubt.get(record.chat)
        if doubt is None:
            return
        game_id, version = doubt
        if record.game_id == game_id and record.version < version:
            return  # a copy from before that save: the game as stored is read next
        del self._in_doubt[record.chat]
        outbox = record.delivery.outbox
        if record.game_id == game_id and record.version == version and outbox is not None \
                and outbox.version == version:
            self.courier.submit(self._resumed_job(record.detached()))

    def prepare(self, tx: Tx, loaded_table: str | None) -> None:
        """Before the save: render the hands to send, and store what is owed with the move."""
        record = tx.record
        assert record is not None
        for item in tx.outgoing:
            if item.slot == "new" and loaded_table is None:
                # No table id known when loaded: one may still be on its way (an earlier
                # delivery posting it). "table" edits whatever is shown by then, else posts.
                item.slot = "table"
        pickers = record.delivery.color_pickers
        if pickers and tx.match is not None:  # a picker ends when its hand changes, for good
            for user_id in [u for u, p in pickers.items() if p.press != presses.token(tx.match, u)]:
                del pickers[user_id]
        if tx.match is not None:
            for user_id, note in tx.hand_updates.items():
                seat = tx.seat(user_id)
                if seat is not None and seat.ai is None:
                    tx.views[user_id] = presenter.hand_view(
                        record, tx.match, user_id, seat_locale(record, seat), note=note,
                        turn_started=user_id == tx.turn_started, turn_ended=user_id == tx.turn_ended)
        earlier = record.delivery.outbox
        done = self._delivered.get(tx.chat)
        if earlier and done is not None and done[0] == record.game_id and earlier.version <= done[1]:
            earlier = None  # delivered already: dropped with this save
            unmarked = self._unmarked.get(tx.chat)
            if unmarked is not None and unmarked.game_id == record.game_id:
                del self._unmarked[tx.chat]  # this save says so: no mark of its own needed
        record.delivery.outbox = owed.merged(
            earlier, [owed.encode_notice(i.view) for i in tx.outgoing if i.slot == "notice"
                      and isinstance(i.view, Notice)],
            any(i.slot != "notice" for i in tx.outgoing), list(tx.views), record.version + 1)

    def submit(self, tx: Tx) -> Job | None:
        """After the save: queue the transaction's messages (None: nothing to send)."""
        record = tx.record
        assert record is not None
        doubt = self._in_doubt.get(tx.chat)
        if doubt is not None and doubt[0] == record.game_id and record.version >= doubt[1]:
            # Saved at that version by this process: the save in doubt was not kept (a kept
            # one would have been read, and delivered, before this save could succeed).
            del self._in_doubt[tx.chat]
        if not tx.outgoing and not tx.views and not tx.closed_hands:
            if record.delivery.outbox is None:
                self._delivered[tx.chat] = (record.game_id, record.version)
            return None
        delivery = Delivery(record, list(tx.outgoing), dict(tx.views), closed_hands=dict(tx.closed_hands))
        job = Job(tx.chat, record.game_id, record.version, delivery,
                  has_table=any(i.slot == "table" for i in tx.outgoing))
        self.courier.submit(job)
        return job

    async def wait(self, job: Job | None) -> None:
        if job is not None:
            await self.courier.wait(job, self.delivery_wait)

    async def settle_owed(self, chat: ChatKey) -> None:
        """Store that the chat's last delivery is owed no more (one small write), unless a
        save of the game did meanwhile. A command calls it before it is answered, except
        when the game saves again at once (AI seats moving inline)."""
        record = self._unmarked.pop(chat, None)
        if record is not None:
            await self._mark_delivered(record)

    # ---- the courier's work ---------------------------------------------------------------
    async def _deliver(self, job: Job) -> None:
        """Public items from ``job.cursor`` in order, the hands beside the last of them; then
        store what was learnt (message ids) and that nothing is owed any more."""
        delivery: Delivery = job.payload
        record = delivery.record
        chat = record.chat
        known = self._known.get(chat)
        if known is None or known.game_id != record.game_id:
            known = self._known[chat] = Known(record.game_id)
        failed: str | None = None
        publishing: asyncio.Task[str | None] | None = None
        try:
            while job.cursor < len(delivery.outgoing):
                item = delivery.outgoing[job.cursor]
                if item.slot == "table" and job.skip_table:
                    job.cursor += 1  # a newer table of this game is queued behind
                    continue
                if job.cursor == len(delivery.outgoing) - 1 and not job.hands_done \
                        and (delivery.hands or delivery.closed_hands):
                    # The hands go to chats of their own: they need not wait for the last
                    # public message's round trip. That message begins first (a port sees the
                    # table before the hands, as when they followed it), then the hands.
                    job.hands_done = True
                    publishing = asyncio.get_running_loop().create_task(
                        self._publish_item(record, item, known))
                    await asyncio.sleep(0)  # the publish's first step
                    await self._send_hands(record, delivery, known)
                    failed = await publishing
                else:
                    failed = await self._publish_item(record, item, known)
                if failed is not None:
                    break
                job.cursor += 1
            if not job.hands_done:
                job.hands_done = True
                await self._send_hands(record, delivery, known)
        finally:
            if publishing is not None and not publishing.done():  # the courier stopped: so does it
                publishing.cancel()
        if failed is not None:
            raise Retry(table_only=failed == "table")
        self._delivered[chat] = (record.game_id, record.version)
        learnt = (known.table_set and known.table_message_id != record.table_message_id) \
            or record.hand_message_ids != delivery.hands_before \
            or delivery.unreachable_before != record.delivery.unreachable
        # What is delivered is owed no more: a stored outbox left behind would be delivered
        # again by the next start after a kill, and its hands would undo what the players
        # did meanwhile (a colour picker opened). A later job of the game settles it as well.
        owing = record.delivery.outbox is not None and not self.courier.later_queued(job)
        if learnt or delivery.resumed or not record.active:
            await self._settle(chat, delivery)
        elif owing and any(not waiter.done() for waiter in job.waiters):
            self._unmarked[chat] = record  # the command waiting settles it (settle_owed)
        elif owing:  # only the owed flag to clear: one small write, no read
            await self._mark_delivered(record)

    async def _publish_item(self, record: GameRecord, item: Outgoing, known: Known) -> str | None:
        """One public item of a delivery, noting the table's message id; the item's slot if the
        platform refused it (to be tried again), else None."""
        chat = record.chat
        if item.slot == "final":
            edit = item.message_id  # a finished hand's table, turned into how it ended
        elif item.slot in ("notice", "new"):
            edit = None
        else:
            edit = known.table_message_id if known.table_set else record.table_message_id
        try:
            message_id = await self.chat.publish(chat, self._watched(item.view, chat), edit=edit)
        except DeliveryFailed as failure:
            log.warning("game %s: a public message could not be delivered (%s); retrying",
                        record.game_id, failure.reason)
            return "table" if item.slot == "table" else "other"
        except Exception as error:
            self.log_failure(error, f"publishing a {item.slot}", chat)
            message_id = None
        if item.slot in ("new", "table") and (message_id is not None or item.slot == "new"):
            known.table_set = True
            known.table_message_id = message_id if message_id is not None else edit
        return None

    def _watched(self, view: Public, chat: ChatKey) -> Public:
        """A table with how many watch it now: counted as it is sent, not when its move was
        made (a count is never worth holding a move for, nor storing)."""
        if self.watchers is None or not isinstance(view, TableView):
            return view
        try:
            count = self.watchers.watching(view.game_id)
        except Exception as error:  # a count is decoration: the table goes out without it
            self.log_failure(error, "counting watchers", chat)
            return view
        return replace(view, watchers=count) if count != view.watchers else view

    async def _settle(self, chat: ChatKey, delivery: Delivery) -> None:
        """Store message ids learnt and drop the delivered outbox (a second, small save). Only
        what no later transaction changed is written."""
        record = delivery.record
        known = self._known.get(chat)
        try:
            async with self.locks.hold(chat):
                fresh = await self.store.get(record.game_id)
                if fresh is None:
                    return
                changed = False
                outbox = fresh.delivery.outbox
                if outbox and outbox.version <= record.version:
                    fresh.delivery.outbox = None
                    changed = True
                if known is not None and known.game_id == fresh.game_id:
                    if known.table_set and fresh.table_message_id == delivery.table_before \
                            and fresh.table_message_id != known.table_message_id:
                        fresh.table_message_id = known.table_message_id
                        changed = True
                    for user_id, message_id in known.hand_message_ids.items():
                        if fresh.hand_message_ids.get(user_id) != message_id and \
                                any(s.user_id == user_id for s in fresh.seats):
                            fresh.hand_message_ids[user_id] = message_id
                            changed = True
                    if known.unreachable is not None and \
                            fresh.delivery.unreachable != known.unreachable:
                        fresh.delivery.unreachable = list(known.unreachable)
                        changed = True
                if changed:
                    await self.store.save(fresh)
        except VersionConflict:
            log.warning("game %s: message ids not stored (busy)", record.game_id)
        except Exception as error:  # the move itself is stored and announced: only ids are lost
            self.log_failure(error, "storing message ids", chat)

    async def _mark_delivered(self, record: GameRecord) -> None:
        try:
            await self.store.mark_delivered(record.game_id, record.version)
        except Exception as error:  # the move is stored and announced: at worst it is again
            self.log_failure(error, "marking a delivery done", record.chat)

    # ---- private hands -------------------------------------------------------------------
    async def _send_hands(self, record: GameRecord, delivery: Delivery, known: Known) -> None:
        """A delivery's hands, with the message ids and unreachable players known so far; and
        the hands closed for people sent no more (a player who left, one a bot plays for)."""
        for user_id, (message_id, view) in delivery.closed_hands.items():
            known.hand_message_ids.pop(user_id, None)
            await self.hands.close(record, user_id, message_id, view)
        record.hand_message_ids.update(known.hand_message_ids)
        if known.unreachable is not None:
            record.delivery.unreachable = list(known.unreachable)
        await self.hands.push_all(record, delivery.hands)
        known.hand_message_ids.update(record.hand_message_ids)
        known.unreachable = list(record.delivery.unreachable)

    async def refresh_hand(self, chat: ChatKey, user_id: str) -> None:
        """Send one player's hand again, posted anew (clearing the unreachable mark when it
        arrives). Sent outside the chat's lock; what was learnt is stored under it."""
        record = await self.store.load(chat)
        if record is None or not record.has_match or record.status != "running":
            return
        seat = record.seat_of(user_id)
        if seat is None or seat.ai is not None:
            return
        self.loaded(record)
        before = (record.hand_message_ids.get(user_id), user_id in record.delivery.unreachable)
        view = presenter.hand_view(record, record.current(), user_id,
                                   seat_locale(record, seat), repost=True)
        await self.hands.push(record, user_id, view)
        after = (record.hand_message_ids.get(user_id), user_id in record.delivery.unreachable)
        known = self._known.get(chat)
        if known is not None and known.game_id == record.game_id:
            if after[0] is not None:
                known.hand_message_ids[user_id] = after[0]
            known.unreachable = list(record.delivery.unreachable)
        if after == before:
            return
        try:
            async with self.locks.hold(chat):
                fresh = await self.store.get(record.game_id)
                if fresh is None:
                    return
                if after[0] is not None:
                    fresh.hand_message_ids[user_id] = after[0]
                away = fresh.delivery.unreachable
                if after[1] and user_id not in away:
                    away.append(user_id)
                elif not after[1] and user_id in away:
                    away.remove(user_id)
                await self.store.save(fresh)
        except VersionConflict:
            log.warning("game %s: a hand message id was not stored (busy)", record.game_id)
        except Exception as error:
            self.log_failure(error, "storing a hand message id", chat)

    # ---- restart and shutdown ------------------------------------------------------------
    async def resume(self, owned: Callable[[GameRecord], bool] = lambda record: True) -> None:
        """Deliver what each game (of ``owned``'s) still owed when the last process stopped
        (a stored outbox, after a crash between save and delivery)."""
        jobs = []
        for record in await self.store.owing_delivery():
            if not owned(record):
                continue
            job = self._resumed_job(record)
            self.courier.submit(job)
            jobs.append(job)
        for job in jobs:
            await self.courier.wait(job, self.delivery_wait)

    def _resumed_job(self, record: GameRecord) -> Job:
        outbox = record.delivery.outbox or Outbox(record.version)
        locale = chat_locale(record)
        outgoing = [Outgoing(owed.decode_notice(n, record.game_id), "notice")
                    for n in outbox.notices]
        match = record.current()
        if outbox.table:
            if record.status == "lobby":
                outgoing.append(Outgoing(presenter.lobby_view(record, locale), "table"))
            elif record.status == "running" and match is not None:
                outgoing.append(Outgoing(presenter.table_view(record, match, locale), "table"))
        hands: dict[str, HandView] = {}
        if match is not None:
            for user_id in outbox.hands:
                seat = record.seat_of(user_id)
                if seat is not None and seat.ai is None:
                    hands[user_id] = presenter.hand_view(record, match, user_id,
                                                         seat_locale(record, seat))
        delivery = Delivery(record, outgoing, hands, resumed=True)
        return Job(record.chat, record.game_id, record.version, delivery,
                   has_table=any(i.slot == "table" for i in outgoing))

    async def close(self, timeout: float) -> None:
        """Let queued deliveries finish (``timeout`` seconds at most) and store that they were
        delivered, so the next start does not announce them again."""
        await self.courier.close(timeout)
        for chat in list(self._unmarked):
            await self.settle_owed(chat)
        for chat, (game_id, version) in list(self._delivered.items()):
            record = await self._safe_get(game_id)
            if record is None:
                continue
            outbox = record.delivery.outbox
            if outbox and outbox.version <= version:
                await self._settle(chat, Delivery(record, [], {}))

    async def _safe_get(self, game_id: str) -> GameRecord | None:
        try:
            return await self.store.get(game_id)
        except Exception as error:
            log.warning("game %s could not be read at shutdown (%s)", game_id, type(error).__name__)
            return None

    # ---- memory --------------------------------------------------------------------------
    def remembered(self) -> set[ChatKey]:
        return set(self._known) | set(self._delivered) | set(self._unmarked) | set(self._in_doubt)

    def busy(self, chat: ChatKey) -> bool:
        return self.courier.busy(chat)

    def forget(self, chats: set[ChatKey]) -> None:
        for chat in chats:
            self._known.pop(chat, None)
            self._delivered.pop(chat, None)
            self._unmarked.pop(chat, None)
            self._in_doubt.pop(chat, None)
