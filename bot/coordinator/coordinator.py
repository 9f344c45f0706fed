"""The coordinator: commands in, engine in the middle, views out through the ports.

Every game command runs under the chat's lock as one transaction: load the record from the
store (never an in-process cache: another process may share the database), validate and
apply, save, and only then deliver messages. A version conflict is retried once, then the
sender is told to try again. Timers (turn, lobby, next hand) are absolute deadlines kept in
the record, so a restarted coordinator re-arms them with ``resume()``.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import traceback
from collections.abc import Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from typing import Any

from bot.engine.cards import Card
from bot.engine.errors import UnoError
from bot.i18n import CommandRef

from . import commands as cmds
from . import fairness, info, lobby, owed, play, presenter, presses, tables
from .backoff import Backoff
from .choose import command_for
from .courier import Courier, Job, Retry
from .names import display_name
from .ports import (
    ChatKey,
    ChatPort,
    Clock,
    DeliveryFailed,
    GameRecord,
    GameStore,
    TimerHandle,
    User,
    VersionConflict,
)
from .refusals import MESSAGES, Refusal
from .settings import locale_hint
from .transaction import Outgoing, Tx
from .views import N_, HandView, Notice, Reply, Text

log = logging.getLogger(__name__)

MAX_AI_STEPS = 200_000  # a safety stop for one inline run of AI moves (ai_delay == 0)
# Commands a two-table match's hub passes on to the sender's table.
ROUTED = (cmds.PlayCards, cmds.Draw, cmds.Pass, cmds.DeclareUno, cmds.CallUno, cmds.Challenge,
          cmds.ShowHand, cmds.Leave, cmds.Kick, cmds.NameColor, cmds.ChooseMove)
# Timer work or an AI move that failed is tried again after 0.5 s, doubling up to 30 s.
TIMER_RETRY = Backoff(first=0.5, most=30.0)
SWEEP_FROM = 256  # chats remembered in memory before idle ones are forgotten (then 2x live)
RETENTION = 30 * 86400.0  # finished games keep their final cards this long (seconds)
COMPACT_EVERY = 86400.0  # how often a running bot compacts finished games


@dataclass
class Delivery:
    """One saved transaction's messages, rendered at commit time (the courier's payload)."""

    record: GameRecord
    outgoing: list[Outgoing]
    hands: dict[str, HandView]
    resumed: bool = False  # rebuilt from a stored outbox by resume()
    table_before: str | None = None
    unreachable_before: list[str] = field(default_factory=list)
    hands_before: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.table_before = self.record.table_message_id
        self.hands_before = dict(self.record.hand_message_ids)
        self.unreachable_before = list(self.record.meta.get("unreachable", []))


@dataclass
class Known:
    """Message ids this process's deliveries learnt for the chat's current game: a delivery
    queued behind another uses them before the store has them."""

    game_id: str
    table_set: bool = False
    table_message_id: str | None = None
    hand_message_ids: dict[str, str] = field(default_factory=dict)
    unreachable: list[str] | None = None


class Coordinator:
    def __init__(self, chat: ChatPort, store: GameStore, clock: Clock, *, ai_delay: float = 1.0,
                 hand_pause: float = 0.0, lobby_timeout: float = 600.0, seed: int | None = None,
                 delivery_wait: float = 1.0, retry_delay: float = 1.0,
                 retention: float = RETENTION) -> None:
        self.chat = chat
        self.store = store
        self.clock = clock
        self.ai_delay = ai_delay
        self.hand_pause = hand_pause
        self.lobby_timeout = lobby_timeout
        self._rng = random.Random(seed) if seed is not None else random.SystemRandom()
        self._locks: dict[ChatKey, asyncio.Lock] = {}
        self._timers: dict[tuple[ChatKey, str], TimerHandle] = {}
        self._strategies: dict[str, Any] = {}
        self._game_ids: dict[ChatKey, str] = {}  # last game seen per chat, for log lines only
        self._ai_due: dict[ChatKey, bool] = {}  # hint from the last transaction (absent: look)
        self._hubs: set[ChatKey] = set()  # chats whose match is played at two tables
        self._ai_failures: dict[ChatKey, int] = {}  # AI moves failed in a row (retry backoff)
        self._lock_users: dict[ChatKey, int] = {}  # holders and waiters of each chat's lock
        self._sweep_at = SWEEP_FROM
        self.retention = retention
        self._compacted_at = clock.now()  # resume() compacts at start, then once a day
        self._housekeeping: asyncio.Task[int] | None = None
        self._false_calls: dict[tuple[ChatKey, str], float] = {}  # (chat, user) -> cool-down end
        self._closed = False
        # Deliveries: in commit order per chat, outside the chat's lock. A command waits up to
        # ``delivery_wait`` seconds for its own messages (so its answer follows its table),
        # never longer: a platform in trouble must not hold the player's answer.
        self.delivery_wait = delivery_wait
        self._courier = Courier(self._deliver, first_retry=retry_delay)
        self._known: dict[ChatKey, Known] = {}
        self._delivered: dict[ChatKey, tuple[str, int]] = {}  # last (game, version) delivered
        self._handlers: dict[type, Callable[[Any], Awaitable[Reply]]] = {
            cmds.NewGame: self._new_game, cmds.Join: self._join, cmds.Leave: self._leave,
            cmds.StartGame: self._start, cmds.AddAiSeat: self._add_ai,
            cmds.PlayCards: self._play, cmds.Draw: self._draw, cmds.Pass: self._pass,
            cmds.DeclareUno: self._declare, cmds.CallUno: self._call_uno,
            cmds.Challenge: self._challenge, cmds.NameColor: self._name_color, cmds.Kick: self._kick, cmds.StopGame: self._stop,
            cmds.ChangeSettings: self._change_settings, cmds.ShowHand: self._show_hand,
            cmds.OpenColorPicker: self._open_color_picker,
            cmds.ShowRules: self._show_rules, cmds.ShowSettings: self._show_settings,
            cmds.ShowStats: self._show_stats, cmds.ShowLeaderboard: self._show_leaderboard,
            cmds.SetLanguage: self._set_language, cmds.NotifyMe: self._notify_me,
            cmds.SetCardTheme: self._set_card_theme, cmds.ChooseMove: self._choose_move,
        }

    # ---- the one entry point -------------------------------------------------------------
    async def handle(self, cmd: cmds.Command) -> Reply:
        """Run one command. Never raises: refusals and failures become a Reply."""
        handler = self._handlers.get(type(cmd))
        try:
            if handler is None:
                raise Refusal("bad_action")
            if cmd.chat in self._hubs and isinstance(cmd, ROUTED):
                cmd = await self._route(cmd)
            reply = await handler(cmd)
        except Refusal as refusal:
            reply = Reply(ok=False, text=refusal.text, error=refusal.code,
                          locale=await self._safe_locale(cmd))
        except Exception as error:
            self._log_failure(error, f"command {type(cmd).__name__}", cmd.chat)
            return Reply(ok=False, text=Text(MESSAGES["internal"]), error="internal",
                         locale=await self._safe_locale(cmd))
        await self._drive_ai(cmd.chat)
        return _named(reply, cmd.names)

    async def resume(self) -> None:
        """After a restart: deliver what a game still owed when the last process stopped (a
        stored outbox), re-arm every stored deadline (a passed one fires at once) and let AI
        seats that must act do so."""
        jobs = []
        for record in await self.store.owing_delivery():
            job = self._resumed_job(record)
            if job is not None:
                self._courier.submit(job)
                jobs.append(job)
        for job in jobs:
            await self._courier.wait(job, self.delivery_wait)
        await self.compact_finished()
        for record in await self.store.active_games():
            self._arm(record)
            if tables.is_hub(record):
                self._hubs.add(record.chat)
            if self.ai_delay > 0:
                self._schedule_ai(record)
        for record in await self.store.active_games():
            if tables.is_hub(record):  # a round end may have been saved but not followed up
                await self._advance_series(record)
        if self.ai_delay == 0:
            for record in await self.store.active_games():
                await self._drive_ai(record.chat)

    async def close(self, delivery_timeout: float = 5.0) -> None:
        """Stop the timers, let queued deliveries finish (a few seconds at most) and store
        that they were delivered, so the next start does not announce them again."""
        self._closed = True
        for handle in self._timers.values():
            handle.cancel()
        self._timers.clear()
        await self._courier.close(delivery_timeout)
        if self._housekeeping is not None:
            await asyncio.gather(self._housekeeping, return_exceptions=True)
        for chat, (game_id, version) in list(self._delivered.items()):
            record = await self._safe_get(game_id)
            if record is None:
                continue
            outbox = record.meta.get(owed.KEY)
            if outbox and outbox.get("v", 0) <= version:
                await self._settle(chat, Delivery(record, [], {}))

    async def _safe_get(self, game_id: str) -> GameRecord | None:
        try:
            return await self.store.get(game_id)
        except Exception as error:
            log.warning("game %s could not be read at shutdown (%s)", game_id, type(error).__name__)
            return None

    async def user_reachable(self, platform: str, user_id: str) -> int:
        """A user who could not be reached started the bot: resend their hands. Returns how
        many games were refreshed."""
        count = 0
        try:
            for record in await self.store.active_games_of(platform, user_id):
                if record.status != "running":
                    continue
                await self._refresh_hand(record.chat, user_id)
                count += 1
        except Exception as error:  # like handle(): the adapter gets an answer, the log the rest
            self._log_failure(error, "resending hands", ChatKey(platform, "?"))
        return count

    # ---- transactions --------------------------------------------------------------------
    def _lock(self, chat: ChatKey) -> asyncio.Lock:
        lock = self._locks.get(chat)
        if lock is None:
            lock = self._locks[chat] = asyncio.Lock()
        return lock

    @asynccontextmanager
    async def _chat_lock(self, chat: ChatKey):
        """The chat's lock, counting who holds or waits for it (an idle chat's lock may be
        forgotten; one somebody waits for must not be)."""
        self._lock_users[chat] = self._lock_users.get(chat, 0) + 1
        try:
            async with self._lock(chat):
                yield
        finally:
            left = self._lock_users[chat] - 1
            if left:
                self._lock_users[chat] = left
            else:
                del self._lock_users[chat]
        if len(self._locks) > self._sweep_at:
            self.forget_idle_chats()
        if self.clock.now() - self._compacted_at > COMPACT_EVERY and not self._closed \
                and (self._housekeeping is None or self._housekeeping.done()):
            self._compacted_at = self.clock.now()
            self._housekeeping = asyncio.get_running_loop().create_task(self.compact_finished())

    def forget_idle_chats(self) -> int:
        """Drop what memory holds for chats with nothing going on: no lock held or awaited,
        no timer armed, no delivery queued. All of it is in the store or rebuilt on demand, so
        per-chat memory follows the chats in play, not every chat ever seen. Returns how many
        chats were forgotten."""
        busy = set(self._lock_users) | {chat for chat, _ in self._timers}
        tables: tuple[dict, ...] = (self._locks, self._game_ids, self._ai_due, self._known,
                                    self._delivered, self._ai_failures)
        idle = {chat for table in tables for chat in table
                if chat not in busy and not self._courier.busy(chat)}
        for table in tables:
            for chat in idle:
                table.pop(chat, None)
        self._false_calls = {k: t for k, t in self._false_calls.items()
                             if k[0] not in idle or t > self.clock.now()}
        self._sweep_at = max(SWEEP_FROM, 2 * len(self._locks))
        return len(idle)

    async def compact_finished(self) -> int:
        """Finished games older than ``retention`` drop their final cards (results and stats
        stay: they live in their own tables). Returns how many games were compacted."""
        try:
            return await self.store.compact_finished(self.clock.now() - self.retention)
        except Exception as error:
            log.warning("compacting finished games failed (%s)", type(error).__name__)
            return 0

    async def _transact(self, chat: ChatKey, work: Callable[[Tx], Any],
                        prepare: Callable[[], Awaitable[None]] | None = None) -> tuple[Any, Tx]:
        """Load, ``work(tx)``, save under the chat's lock; then deliver outside it, in commit
        order (waiting a moment for our own messages). Refusals propagate with nothing saved.
        ``prepare`` reads what the command needs once the lock is held: commands are decided
        in the order they arrived, not in the order their reads came back. A table of a
        two-table match that finished a round or its last hand lets the others look again."""
        outcome, tx = await self._transact_locked(chat, work, prepare)
        if tx.series_due and tx.record is not None:
            await self._advance_series(tx.record)
        return outcome, tx

    async def _transact_locked(self, chat: ChatKey, work: Callable[[Tx], Any],
                               prepare: Callable[[], Awaitable[None]] | None = None) -> tuple[Any, Tx]:
        job = None
        async with self._chat_lock(chat):
            if prepare is not None:
                await prepare()
            for attempt in range(2):
                started = self.clock.now()
                tx = Tx(chat, await self.store.load(chat), started, hand_pause=self.hand_pause)
                if tx.record is not None:
                    self._game_ids[chat] = tx.record.game_id
                    self._overlay_known(tx.record)
                    tx.linked = await self._linked(tx.record)
                loaded_table = tx.record.table_message_id if tx.record is not None else None
                outcome = work(tx)
                if not tx.dirty:
                    return outcome, tx
                tx.close_outgoing()
                self._prepare_delivery(tx, loaded_table)
                try:
                    saved = await self.store.save(tx.commit(), tx.results)
                except VersionConflict:
                    if attempt == 0:
                        continue
                    raise Refusal("busy") from None
                tx.record = saved
                job = self._job(tx)
                if job is not None:
                    self._courier.submit(job)
                self._arm(saved)
                self._ai_due[chat] = tx.ai_may_act()
                if self.ai_delay > 0:
                    self._schedule_ai(saved)
                break
        if job is not None:
            await self._courier.wait(job, self.delivery_wait)
        return outcome, tx

    def _prepare_delivery(self, tx: Tx, loaded_table: str | None) -> None:
        """Before the save: render the hands to send, and store what is owed with the move."""
        record = tx.record
        assert record is not None
        for item in tx.outgoing:
            if item.slot == "new" and loaded_table is None:
                # No table id known when loaded: one may still be on its way (an earlier
                # delivery posting it). "table" edits whatever is shown by then, else posts.
                item.slot = "table"
        pickers = record.meta.get(presenter.COLOR_PICKERS)
        if pickers and tx.match is not None:  # a picker ends when its hand changes, for good
            for user_id in [u for u, p in pickers.items() if p.get("press") != presses.token(tx.match, u)]:
                del pickers[user_id]
        if tx.match is not None:
            for user_id, note in tx.hand_updates.items():
                seat = tx.seat(user_id)
                if seat is not None and seat.ai is None:
                    tx.views[user_id] = presenter.hand_view(
                        record, tx.match, user_id, self._seat_locale(record, seat), note=note,
                        turn_started=user_id == tx.turn_started)
        earlier = record.meta.get(owed.KEY)
        done = self._delivered.get(tx.chat)
        if earlier and done is not None and done[0] == record.game_id and earlier.get("v", 0) <= done[1]:
            earlier = None  # delivered already: dropped with this save
        outbox = owed.merged(earlier,
                             [owed.encode_notice(i.view) for i in tx.outgoing if i.slot == "notice"
                              and isinstance(i.view, Notice)],
                             any(i.slot != "notice" for i in tx.outgoing), list(tx.views),
                             record.version + 1)
        if outbox is None:
            record.meta.pop(owed.KEY, None)
        else:
            record.meta[owed.KEY] = outbox

    def _job(self, tx: Tx) -> Job | None:
        record = tx.record
        assert record is not None
        if not tx.outgoing and not tx.views:
            if owed.KEY not in record.meta:
                self._delivered[tx.chat] = (record.game_id, record.version)
            return None
        delivery = Delivery(record, list(tx.outgoing), dict(tx.views))
        return Job(tx.chat, record.game_id, record.version, delivery,
                   has_table=any(i.slot == "table" for i in tx.outgoing))

    def _overlay_known(self, record: GameRecord) -> None:
        """Message ids learnt by deliveries of this process that the store may not hold yet."""
        known = self._known.get(record.chat)
        if known is None or known.game_id != record.game_id:
            return
        if known.table_set:
            record.table_message_id = known.table_message_id
        record.hand_message_ids.update(known.hand_message_ids)
        if known.unreachable is not None:
            record.meta["unreachable"] = list(known.unreachable)

    async def _deliver(self, job: Job) -> None:
        """The courier's deliverer: public items from ``job.cursor`` in order, then the hands;
        then store what was learnt (message ids) and that nothing is owed any more."""
        delivery: Delivery = job.payload
        record = delivery.record
        chat = record.chat
        known = self._known.get(chat)
        if known is None or known.game_id != record.game_id:
            known = self._known[chat] = Known(record.game_id)
        failed_table = failed_other = False
        while job.cursor < len(delivery.outgoing):
            item = delivery.outgoing[job.cursor]
            if item.slot == "table" and job.skip_table:
                job.cursor += 1  # a newer table of this game is queued behind
                continue
            if item.slot == "final":
                edit = item.message_id  # a finished hand's table, turned into how it ended
            elif item.slot in ("notice", "new"):
                edit = None
            else:
                edit = known.table_message_id if known.table_set else record.table_message_id
            try:
                message_id = await self.chat.publish(chat, item.view, edit=edit)
            except DeliveryFailed as failure:
                log.warning("game %s: a public message could not be delivered (%s); retrying",
                            record.game_id, failure.reason)
                if item.slot == "table":
                    failed_table = True
                else:
                    failed_other = True
                break
            except Exception as error:
                self._log_failure(error, f"publishing a {item.slot}", chat)
                message_id = None
            if item.slot in ("new", "table") and (message_id is not None or item.slot == "new"):
                known.table_set = True
                known.table_message_id = message_id if message_id is not None else edit
            job.cursor += 1
        if not job.hands_done:
            job.hands_done = True
            record.hand_message_ids.update(known.hand_message_ids)
            if known.unreachable is not None:
                record.meta["unreachable"] = list(known.unreachable)
            for user_id, view in delivery.hands.items():
                await self._push_hand(record, user_id, view)
            known.hand_message_ids.update(record.hand_message_ids)
            known.unreachable = list(record.meta.get("unreachable", []))
        if failed_table or failed_other:
            raise Retry(table_only=not failed_other)
        self._delivered[chat] = (record.game_id, record.version)
        learnt = (known.table_set and known.table_message_id != record.table_message_id) \
            or record.hand_message_ids != delivery.hands_before \
            or delivery.unreachable_before != list(record.meta.get("unreachable", []))
        # What is delivered is owed no more: a stored outbox left behind would be delivered
        # again by the next start after a kill, and its hands would undo what the players
        # did meanwhile (a colour picker opened). A later job of the game settles it as well.
        owing = owed.KEY in record.meta and not self._courier.later_queued(job)
        if learnt or delivery.resumed or not record.active or owing:
            await self._settle(chat, delivery)

    async def _settle(self, chat: ChatKey, delivery: Delivery) -> None:
        """Store message ids learnt and drop the delivered outbox (a second, small save). Only
        what no later transaction changed is written."""
        record = delivery.record
        known = self._known.get(chat)
        try:
            async with self._chat_lock(chat):
                fresh = await self.store.get(record.game_id)
                if fresh is None:
                    return
                changed = False
                outbox = fresh.meta.get(owed.KEY)
                if outbox and outbox.get("v", 0) <= record.version:
                    fresh.meta.pop(owed.KEY)
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
                            fresh.meta.get("unreachable", []) != known.unreachable:
                        fresh.meta["unreachable"] = list(known.unreachable)
                        changed = True
                if changed:
                    await self.store.save(fresh)
        except VersionConflict:
            log.warning("game %s: message ids not stored (busy)", record.game_id)
        except Exception as error:  # the move itself is stored and announced: only ids are lost
            self._log_failure(error, "storing message ids", chat)

    async def _push_hand(self, record: GameRecord, user_id: str, view: HandView) -> bool:
        """Send one rendered hand, editing the player's hand message when there is one."""
        seat = next((s for s in record.seats if s.user_id == user_id), None)
        if seat is None or seat.ai is not None:
            return False
        away = record.meta.setdefault("unreachable", [])
        try:
            message_id = await self.chat.send_hand(record.chat, user_id, view,
                                                   edit=record.hand_message_ids.get(user_id))
        except DeliveryFailed as failure:
            if failure.reason == "blocked" and user_id not in away:
                away.append(user_id)
                await self._announce_unreachable(record, seat)
            elif failure.reason == "blocked" and view.turn_started:
                await self._ping_in_chat(record, seat)  # told how to fix it already: just ping
            elif failure.reason != "blocked":
                log.warning("game %s: a private hand could not be delivered (%s)",
                            record.game_id, failure.reason)
            return False
        except Exception as error:
            self._log_failure(error, "sending a private hand", record.chat)
            return False
        if user_id in away:
            away.remove(user_id)
        if message_id is not None:
            record.hand_message_ids[user_id] = message_id
        return True

    async def _send_hand(self, record: GameRecord, match, user_id: str, note: Text | None, *,
                         repost: bool = False) -> bool:
        seat = next((s for s in record.seats if s.user_id == user_id), None)
        if seat is None or seat.ai is not None:
            return False
        view = presenter.hand_view(record, match, user_id, self._seat_locale(record, seat), note=note,
                                   repost=repost)
        return await self._push_hand(record, user_id, view)

    async def _announce_unreachable(self, record: GameRecord, seat) -> None:
        text = Text(N_("{player}, I cannot send you your cards. Open a private chat with me and "
                       "press Start, then your hand will arrive. Your seat is kept."),
                    {"player": display_name(seat.name)})
        try:
            await self.chat.publish(record.chat, Notice(record.meta.get("language", "en"), text,
                                                        (seat.user_id,), record.game_id))
        except Exception as error:
            self._log_failure(error, "announcing an unreachable player", record.chat)

    async def _ping_in_chat(self, record: GameRecord, seat) -> None:
        """The turn passed to a player the bot cannot message privately: mention them in the
        chat instead (a transient notice: a newer ping replaces one still waiting to go out)."""
        text = Text(N_("🔔 {player}, it is your turn!"), {"player": display_name(seat.name)})
        try:
            await self.chat.publish(record.chat, Notice(record.meta.get("language", "en"), text,
                                                        (seat.user_id,), record.game_id, transient=True))
        except Exception as error:
            self._log_failure(error, "pinging a player in the chat", record.chat)

    def _resumed_job(self, record: GameRecord) -> Job | None:
        """Rebuild what a stored outbox owes (after a crash between save and delivery)."""
        outbox = record.meta.get(owed.KEY) or {}
        locale = record.meta.get("language", "en")
        outgoing = [Outgoing(owed.decode_notice(n, record.game_id), "notice")
                    for n in outbox.get("notices", ())]
        match = None
        if record.match is not None:
            from bot.engine import Match

            match = Match.from_json(record.match)
        if outbox.get("table"):
            if record.status == "lobby":
                outgoing.append(Outgoing(presenter.lobby_view(record, locale), "table"))
            elif record.status == "running" and match is not None:
                outgoing.append(Outgoing(presenter.table_view(record, match, locale), "table"))
        hands: dict[str, HandView] = {}
        if match is not None:
            for user_id in outbox.get("hands", ()):
                seat = next((s for s in record.seats if s.user_id == user_id), None)
                if seat is not None and seat.ai is None:
                    hands[user_id] = presenter.hand_view(record, match, user_id,
                                                         self._seat_locale(record, seat))
        delivery = Delivery(record, outgoing, hands, resumed=True)
        return Job(record.chat, record.game_id, record.version, delivery,
                   has_table=any(i.slot == "table" for i in outgoing))

    # ---- timers --------------------------------------------------------------------------
    def _arm(self, record: GameRecord) -> None:
        for key in ("turn", "lobby", "next_hand"):
            handle = self._timers.pop((record.chat, key), None)
            if handle is not None:
                handle.cancel()
            when = record.deadlines.get(key) if record.active else None
            if when is not None and not self._closed:
                self._timers[(record.chat, key)] = self.clock.call_at(
                    when, self._deadline_callback(record.chat, record.game_id, key, when))

    def _deadline_callback(self, chat: ChatKey, game_id: str, key: str, when: float,
                           attempt: int = 0):
        async def fire() -> None:
            self._timers.pop((chat, key), None)
            done = False
            try:
                done, _ = await self._transact(
                    chat, lambda tx: self._on_deadline(tx, game_id, key, when))
            except Refusal as refusal:
                log.warning("the %s timer in chat %s was refused (%s); trying again",
                            key, chat, refusal.code)
            except Exception as error:
                self._log_failure(error, f"the {key} timer", chat)
            if not done:
                # Early (the wall clock stepped back), or the work failed (a transient error,
                # "busy"): the deadline still stands, so it fires again; a newer transaction
                # re-arms it from the record anyway, and a game that moved on makes it stale.
                self._rearm_deadline(chat, game_id, key, when, attempt)
            await self._drive_ai(chat)

        return fire

    def _rearm_deadline(self, chat: ChatKey, game_id: str, key: str, when: float,
                        attempt: int) -> None:
        if self._closed or (chat, key) in self._timers:
            return  # shut down, or a transaction armed this key again meanwhile
        now = self.clock.now()
        at = when if now < when else now + TIMER_RETRY.delay(attempt + 1)
        self._timers[(chat, key)] = self.clock.call_at(
            at, self._deadline_callback(chat, game_id, key, when, attempt + 1))

    def _on_deadline(self, tx: Tx, game_id: str, key: str, when: float) -> bool:
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
    def _strategy(self, name: str):
        strategy = self._strategies.get(name)
        if strategy is None:
            from bot.ai import get_strategy

            strategy = self._strategies[name] = get_strategy(name)
        return strategy

    def _ai_rng(self, record: GameRecord) -> random.Random:
        # Derived from the game's seed and version: the same position gets the same choice.
        return random.Random(f"{record.meta.get('seed', 0)}:{record.version}")

    def _has_ai(self, record: GameRecord | None) -> bool:
        return bool(record and record.status == "running" and record.match is not None
                    and any(s.ai for s in record.seats))

    async def _ai_step(self, chat: ChatKey) -> bool:
        def work(tx: Tx) -> tuple[bool, float | None]:
            if tx.record is None or not self._has_ai(tx.record):
                return False, None
            acted = play.ai_step(tx, self._strategy, self._ai_rng(tx.record))
            return acted, None if acted else play.ai_wake_at(tx)

        (acted, wake), _ = await self._transact(chat, work)
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
        if self._closed:
            return
        self._timers[key] = self.clock.call_at(when, self._ai_wakeup(chat, retry=False))

    def _ai_wakeup(self, chat: ChatKey, *, retry: bool) -> Callable[[], Awaitable[None]]:
        """A timer's work that lets the chat's AI seats look again (held back for the UNO!
        window, or after a failed move); with ``retry``, a move that fails again backs off."""
        key = (chat, "ai")

        async def fire() -> None:
            self._timers.pop(key, None)
            self._ai_due[chat] = True
            if self.ai_delay == 0:
                await self._drive_ai(chat)
                return
            try:
                await self._ai_step(chat)
            except Refusal:
                if retry:
                    self._retry_ai(chat)
            except Exception as error:
                self._log_failure(error, "a scheduled AI move", chat)
                if retry:
                    self._retry_ai(chat)

        return fire

    async def _drive_ai(self, chat: ChatKey) -> None:
        """With no AI delay, let AI seats play right away until a human must act."""
        if self.ai_delay > 0 or self._closed:
            return
        for _ in range(MAX_AI_STEPS):
            if self._closed or not self._ai_due.get(chat, True):
                return
            try:
                if not await self._ai_step(chat):
                    return
            except Refusal:
                self._retry_ai(chat)  # "busy": the seat must still move
                return
            except Exception as error:
                self._log_failure(error, "an AI move", chat)
                self._retry_ai(chat)
                return

    def _schedule_ai(self, record: GameRecord) -> None:
        key = (record.chat, "ai")
        handle = self._timers.pop(key, None)
        if handle is not None:
            handle.cancel()
        if self._closed or not self._ai_due.get(record.chat, True) or not self._has_ai(record):
            return
        chat = record.chat

        async def fire() -> None:
            self._timers.pop(key, None)
            try:
                await self._ai_step(chat)
            except Refusal:
                self._retry_ai(chat)
            except Exception as error:
                self._log_failure(error, "a scheduled AI move", chat)
                self._retry_ai(chat)

        self._timers[key] = self.clock.call_at(self.clock.now() + self.ai_delay, fire)

    def _retry_ai(self, chat: ChatKey) -> None:
        """An AI move failed (a transient error, "busy"): look again later, with backoff,
        until a move goes through or a transaction re-schedules the seat."""
        key = (chat, "ai")
        if self._closed or key in self._timers:
            return
        attempt = self._ai_failures[chat] = self._ai_failures.get(chat, 0) + 1
        delay = TIMER_RETRY.delay(attempt)
        self._timers[key] = self.clock.call_at(self.clock.now() + delay,
                                               self._ai_wakeup(chat, retry=True))

    # ---- locales -------------------------------------------------------------------------
    @staticmethod
    def _seat_locale(record: GameRecord, seat) -> str:
        return seat.language or record.meta.get("language", "en")

    async def _personal_locale(self, chat: ChatKey, user: User) -> str:
        return (await self._personal(chat, user))[0]

    async def _personal(self, chat: ChatKey, user: User) -> tuple[str, str | None]:
        """(language, card theme) of a person, from one read of their profile. The language
        is the one rule for what only they see: the language they chose, else their client's
        (the platform's hint), else the chat's; the chat's language is for what everyone
        sees. The theme: the profile's (None: the default)."""
        profile = await self.store.user_profile(chat.platform, user.id)
        language = profile.language
        if not language:
            language = (locale_hint(user.locale) if user.locale
                        else (await self.store.chat_settings(chat)).language)
        return language, profile.card_theme

    async def _safe_locale(self, cmd: cmds.Command) -> str:
        try:
            return await self._personal_locale(cmd.chat, cmd.user)
        except Exception:
            return locale_hint(cmd.user.locale)

    def _log_failure(self, error: BaseException, what: str, chat: ChatKey) -> None:
        """Log the unexpected with the game id and the stack, but not the exception's text:
        it may quote a hand (engine subjects, stored JSON), and hands are secret."""
        stack = "".join(traceback.format_tb(error.__traceback__))
        log.error("%s in chat %s (game %s) failed with %s\n%s", what, chat,
                  self._game_ids.get(chat), type(error).__name__, stack)

    # ---- replies -------------------------------------------------------------------------
    def _reply(self, tx: Tx, user: User, text: Text | None, *, ok: bool = True,
               error: str | None = None, locale: str | None = None) -> Reply:
        record = tx.record
        seat = tx.seat(user.id)
        if locale is None:
            if seat is not None and record is not None:
                locale = self._seat_locale(record, seat)
            else:
                locale = locale_hint(user.locale) if user.locale else tx_locale(tx)
        hand = None
        if seat is not None and seat.ai is None and record is not None and tx.match is not None \
                and record.status == "running":
            hand = tx.views.get(user.id)
            if hand is None or hand.locale != locale:
                hand = presenter.hand_view(record, tx.match, user.id, locale)
        return Reply(ok=ok, text=text, error=error, hand=hand, locale=locale)

    async def _game_command(self, cmd: cmds.Command, work: Callable[[Tx], Text],
                            prepare: Callable[[], Awaitable[None]] | None = None) -> Reply:
        text, tx = await self._transact(cmd.chat, work, prepare)
        return self._reply(tx, cmd.user, text)

    # ---- lobby commands ------------------------------------------------------------------
    async def _new_game(self, cmd: cmds.NewGame) -> Reply:
        settings = await self.store.chat_settings(cmd.chat)
        language, theme = await self._personal(cmd.chat, cmd.user)
        first = settings.new
        if first:  # a new chat speaks the language of whoever opens its first game
            settings = replace(settings, language=language, new=False)
        game_id = self._new_game_id()
        seed = self._rng.randrange(2**31)
        reply = await self._game_command(cmd, lambda tx: lobby.open_lobby(
            tx, cmd, game_id=game_id, seed=seed, settings=settings, language=language,
            lobby_timeout=self.lobby_timeout, theme=theme))
        if first and reply.ok:
            await self.store.save_chat_settings(cmd.chat, settings)
        if reply.ok:
            await self._tell_waiting(cmd.chat, cmd.user, settings.language, game_id)
        return reply

    async def _notify_me(self, cmd: cmds.NotifyMe) -> Reply:
        locale = await self._personal_locale(cmd.chat, cmd.user)
        if await self.store.remove_notify_request(cmd.chat, cmd.user.id):
            text = Text(N_("All right: I will not tell you when the next game opens here."))
        else:
            await self.store.add_notify_request(cmd.chat, cmd.user.id, cmd.user.name, locale)
            text = Text(N_("I will tell you privately when the next game opens here."))
        return Reply(ok=True, text=text, locale=locale)

    async def _tell_waiting(self, chat: ChatKey, opener: User, language: str, game_id: str) -> None:
        """A game opened: tell privately everyone who asked ("notify me"); who cannot be
        reached privately is mentioned in the chat instead. Never fails the new game."""
        from bot.i18n import Mention

        from .views import Notice

        try:
            waiting = [(uid, name, locale) for uid, name, locale in await self.store.take_notify_requests(chat)
                       if uid != opener.id]
            notify = getattr(self.chat, "notify_user", None)
            missed: list[tuple[str, str]] = []
            for user_id, name, locale in waiting:
                notice = Notice(locale, Text(N_("{player} opened a new game of UNO where you asked to "
                                                "be told. Join in!"), {"player": display_name(opener.name)}),
                                (), game_id)
                try:
                    if notify is None:
                        raise DeliveryFailed("blocked", "no private messages here")
                    await notify(chat, user_id, notice)
                except DeliveryFailed:
                    missed.append((user_id, name))
            if missed:
                await self.chat.publish(chat, Notice(language, Text(
                    N_("{players}: a new game is open, as you asked."),
                    {"players": tuple(Mention(uid, name) for uid, name in missed)}),
                    tuple(uid for uid, _ in missed),
                    game_id))
        except Exception as error:
            self._log_failure(error, "telling who asked about a new game", chat)

    def _new_game_id(self) -> str:
        # Always random, even for a seeded coordinator: ids must stay unique in a database that
        # outlives one run (the seed decides the deal and the AI's choices, not the id).
        return secrets.token_hex(5)

    async def _join(self, cmd: cmds.Join) -> Reply:
        language, theme = "en", None

        async def prepare() -> None:  # under the lock: a Join racing a Start is decided in order
            nonlocal language, theme
            language, theme = await self._personal(cmd.chat, cmd.user)

        return await self._game_command(
            cmd, lambda tx: lobby.join(tx, cmd, language=language, theme=theme), prepare)

    async def _leave(self, cmd: cmds.Leave) -> Reply:
        return await self._game_command(cmd, lambda tx: lobby.leave(tx, cmd))

    async def _start(self, cmd: cmds.StartGame) -> Reply:
        def work(tx: Tx) -> Text | None:  # decided under the lock, in the order commands came
            return None if tables.wants_tables(tx.record) else lobby.start(tx, cmd)

        text, tx = await self._transact(cmd.chat, work)
        if text is None:
            return await self._start_tables(cmd)
        return self._reply(tx, cmd.user, text)

    async def _add_ai(self, cmd: cmds.AddAiSeat) -> Reply:
        return await self._game_command(cmd, lambda tx: lobby.add_ai(tx, cmd, cmd.strategy))

    async def _kick(self, cmd: cmds.Kick) -> Reply:
        return await self._game_command(cmd, lambda tx: lobby.kick(tx, cmd, cmd.target))

    async def _stop(self, cmd: cmds.StopGame) -> Reply:
        text, tx = await self._transact(cmd.chat, lambda tx: lobby.stop(tx, cmd))
        if tx.record is not None:  # a two-table match stops at every table
            for other in await self._linked(tx.record):
                if other.active:
                    await self._transact(other.chat, lambda t: tables.stop_all(t, cmd.user.name))
        return self._reply(tx, cmd.user, text)

    # ---- two tables at once (tables.py) --------------------------------------------------
    async def _linked(self, record: GameRecord) -> list[GameRecord]:
        found = [await self.store.get(game_id) for game_id in tables.linked_game_ids(record)]
        return [r for r in found if r is not None]

    async def _route(self, cmd: cmds.Command) -> cmds.Command:
        """A command sent to a two-table match's own chat goes to the sender's table."""
        hub = await self.store.load(cmd.chat)
        if not tables.is_hub(hub) or hub is None or hub.status != "running":
            self._hubs.discard(cmd.chat)
            return cmd
        chat = tables.seat_chat(await self._linked(hub), cmd.user.id)
        if chat is None:
            raise Refusal("not_in_game")
        return replace(cmd, chat=chat)

    async def _table_chat(self, chat: ChatKey, number: int, locale: str) -> ChatKey:
        """Where table ``number`` plays: a chat the platform opens (a thread, a forum topic),
        else a virtual chat whose messages go to ``chat`` itself."""
        opener = getattr(self.chat, "open_table", None)
        if opener is not None:
            try:
                opened = await opener(chat, number, locale)
                if opened is not None:
                    return opened
            except Exception as error:
                self._log_failure(error, "opening a table's chat", chat)
        return tables.virtual_table_chat(chat, number)

    async def _start_tables(self, cmd: cmds.StartGame) -> Reply:
        hub, _ = await self._transact(cmd.chat, lambda tx: tables.check_start(tx, lobby.may_manage(tx, cmd)))
        locale = hub.meta.get("language", "en")
        chats = [await self._table_chat(cmd.chat, n, locale) for n in range(1, tables.TABLES + 1)]
        games = [self._new_game_id() for _ in chats]
        opened: list[ChatKey] = []
        try:
            for number, (chat, game_id) in enumerate(zip(chats, games, strict=True), 1):
                await self._transact(chat, self._table_opener(hub, number, game_id, games))
                opened.append(chat)
            seats_at = [[s.user_id for s in r.seats] for r in await self._linked_tables(games)]
            await self._transact(cmd.chat, lambda tx: tables.hub_started(tx, chats, games, seats_at))
        except Refusal:
            for chat in opened:  # no half-started match
                await self._transact(chat, lambda t: tables.stop_all(t, cmd.user.name))
            raise
        self._hubs.add(cmd.chat)
        for chat in chats:
            await self._drive_ai(chat)
        _, tx = await self._transact(cmd.chat, lambda tx: None)
        return self._reply(tx, cmd.user, Text(N_("The game starts!")))

    @staticmethod
    def _table_opener(hub: GameRecord, number: int, game_id: str, games: list[str]) -> Callable[[Tx], None]:
        return lambda tx: tables.open_table(tx, hub, number, game_id, games)

    async def _linked_tables(self, games: list[str]) -> list[GameRecord]:
        found = [await self.store.get(game_id) for game_id in games]
        return [r for r in found if r is not None]

    async def _advance_series(self, record: GameRecord) -> None:
        """Each table looks whether it may deal its next round; then the hub whether the match
        is over. Each in its own transaction, under its own lock."""
        hub_game = record.meta["series"]["hub_game"] if tables.is_table(record) else record.game_id
        hub = record if hub_game == record.game_id else await self.store.get(hub_game)
        if hub is None or not tables.is_hub(hub):
            return
        for table in await self._linked_tables(list(hub.meta["two_tables"]["games"])):
            if table.status != "running":
                continue
            try:
                advanced, _ = await self._transact_locked(table.chat, tables.advance)
            except Refusal:
                continue
            if advanced:
                await self._drive_ai(table.chat)
        try:
            await self._transact_locked(hub.chat, tables.conclude)
        except Refusal:
            pass

    # ---- moves ---------------------------------------------------------------------------
    async def _play(self, cmd: cmds.PlayCards) -> Reply:
        if not cmd.cards:
            return await self._which_card(cmd)
        return await self._game_command(cmd, lambda tx: play.play_cards(tx, cmd))

    async def _choose_move(self, cmd: cmds.ChooseMove) -> Reply:
        move = command_for(cmd.ref, chat=cmd.chat, user=cmd.user, press=cmd.press, names=cmd.names)
        return await self._handlers[type(move)](move)

    async def _which_card(self, cmd: cmds.PlayCards) -> Reply:
        """A bare "play" (Telegram's command menu sends /play alone): how to play, and the
        sender's playable cards. Private: adapters must not show it to the group."""
        def look(tx: Tx) -> None:
            tx.running()
            tx.seated(cmd.user.id)

        _, tx = await self._transact(cmd.chat, look)
        reply = self._reply(tx, cmd.user, None)
        playable = tuple(o.card for o in reply.hand.cards if o.playable) if reply.hand else ()
        play_command = CommandRef("play")  # each platform writes it its own way (/play, /uno play)
        if playable:
            text = Text(N_("Name the card after {command}, e.g. {command} R5 (a wild with its colour: "
                           "{command} W red). You can play: {cards}."),
                        {"command": play_command, "cards": playable})
        else:
            text = Text(N_("Name the card after {command}, e.g. {command} R5. You have no card to play "
                           "right now."), {"command": play_command})
        return Reply(ok=False, text=text, error="which_card", hand=reply.hand, locale=reply.locale)

    async def _draw(self, cmd: cmds.Draw) -> Reply:
        return await self._game_command(cmd, lambda tx: play.draw(tx, cmd))

    async def _pass(self, cmd: cmds.Pass) -> Reply:
        return await self._game_command(cmd, lambda tx: play.pass_turn(tx, cmd))

    async def _declare(self, cmd: cmds.DeclareUno) -> Reply:
        return await self._game_command(cmd, lambda tx: play.declare(tx, cmd))

    async def _challenge(self, cmd: cmds.Challenge) -> Reply:
        return await self._game_command(cmd, lambda tx: play.challenge(tx, cmd))

    async def _name_color(self, cmd: cmds.NameColor) -> Reply:
        return await self._game_command(cmd, lambda tx: play.name_color(tx, cmd))

    async def _call_uno(self, cmd: cmds.CallUno) -> Reply:
        key = (cmd.chat, cmd.user.id)
        cooling = self._false_calls.get(key, 0.0) - self.clock.now()
        try:
            (text, ok), tx = await self._transact(
                cmd.chat, lambda tx: play.call_uno(tx, cmd, cooling=cooling))
        except Refusal as refusal:
            if refusal.code == "nothing_to_catch":  # a free wrong call: no spamming the group
                self._start_cooldown(key)
            raise
        reply = self._reply(tx, cmd.user, text)
        if not ok:  # a wrong call that cost the caller cards: refused, yet the state changed
            return Reply(ok=False, text=text, error="nothing_to_catch", hand=reply.hand,
                         locale=reply.locale)
        return reply

    def _start_cooldown(self, key: tuple[ChatKey, str]) -> None:
        # Kept in memory: a rate limit, not game state (a restart may forget it harmlessly).
        now = self.clock.now()
        if len(self._false_calls) > 10_000:
            self._false_calls = {k: t for k, t in self._false_calls.items() if t > now}
        self._false_calls[key] = now + fairness.FALSE_CALL_COOLDOWN

    async def _open_color_picker(self, cmd: cmds.OpenColorPicker) -> Reply:
        def work(tx: Tx) -> None:
            record, match = tx.running()
            tx.seated(cmd.user.id)
            presses.check(match, cmd.user.id, cmd.press)
            pickers = record.meta.setdefault(presenter.COLOR_PICKERS, {})
            if not cmd.card:
                if pickers.pop(cmd.user.id, None) is not None:
                    tx.dirty = True
                return
            try:
                card = Card.parse(cmd.card)
            except UnoError:
                raise Refusal("bad_card", {"card": cmd.card[:12]}) from None
            if not card.is_wild or card not in match.game.hand(cmd.user.id):
                raise Refusal("bad_move")
            pickers[cmd.user.id] = {"card": str(card), "uno": cmd.declare_uno,
                                    "press": presses.token(match, cmd.user.id)}
            tx.dirty = True

        _, tx = await self._transact(cmd.chat, work)
        return self._reply(tx, cmd.user, None)

    async def _show_hand(self, cmd: cmds.ShowHand) -> Reply:
        record = await self.store.load(cmd.chat)
        if record is None:
            raise Refusal("no_game")
        if not any(s.user_id == cmd.user.id for s in record.seats):
            raise Refusal("not_in_game")
        if record.status != "running":
            raise Refusal("not_started")
        await self._refresh_hand(cmd.chat, cmd.user.id)  # posted anew: "not modified" shows nothing
        _, tx = await self._transact(cmd.chat, lambda tx: None)
        return self._reply(tx, cmd.user, None)

    async def _refresh_hand(self, chat: ChatKey, user_id: str) -> None:
        """Send one player's hand again (clearing the unreachable mark when it arrives). Sent
        outside the chat's lock; what was learnt is stored under it."""
        record = await self.store.load(chat)
        if record is None or record.match is None or record.status != "running":
            return
        from bot.engine import Match

        self._overlay_known(record)
        before = (record.hand_message_ids.get(user_id), user_id in record.meta.get("unreachable", []))
        await self._send_hand(record, Match.from_json(record.match), user_id, None, repost=True)
        after = (record.hand_message_ids.get(user_id), user_id in record.meta.get("unreachable", []))
        known = self._known.get(chat)
        if known is not None and known.game_id == record.game_id:
            if after[0] is not None:
                known.hand_message_ids[user_id] = after[0]
            known.unreachable = list(record.meta.get("unreachable", []))
        if after == before:
            return
        try:
            async with self._chat_lock(chat):
                fresh = await self.store.get(record.game_id)
                if fresh is None:
                    return
                if after[0] is not None:
                    fresh.hand_message_ids[user_id] = after[0]
                away = fresh.meta.setdefault("unreachable", [])
                if after[1] and user_id not in away:
                    away.append(user_id)
                elif not after[1] and user_id in away:
                    away.remove(user_id)
                await self.store.save(fresh)
        except VersionConflict:
            log.warning("game %s: a hand message id was not stored (busy)", record.game_id)
        except Exception as error:
            self._log_failure(error, "storing a hand message id", chat)

    # ---- settings and information --------------------------------------------------------
    async def _change_settings(self, cmd: cmds.ChangeSettings) -> Reply:
        return await info.change_settings(self, cmd)

    async def _set_language(self, cmd: cmds.SetLanguage) -> Reply:
        return await info.set_language(self, cmd)

    async def _set_card_theme(self, cmd: cmds.SetCardTheme) -> Reply:
        return await info.set_card_theme(self, cmd)

    async def _show_rules(self, cmd: cmds.ShowRules) -> Reply:
        return await info.show_rules(self, cmd)

    async def _show_settings(self, cmd: cmds.ShowSettings) -> Reply:
        return await info.show_settings(self, cmd)

    async def _show_stats(self, cmd: cmds.ShowStats) -> Reply:
        return await info.show_stats(self, cmd)

    async def _show_leaderboard(self, cmd: cmds.ShowLeaderboard) -> Reply:
        return await info.show_leaderboard(self, cmd)


def _named(reply: Reply, names: tuple[tuple[str, str], ...]) -> Reply:
    """A person is named, never shown by user id: a param holding the id of someone the
    command named (a kick or stats target without a seat) becomes their display name."""
    known = dict(names)
    if not known or reply.text is None or not any(
            isinstance(v, str) and v in known for v in reply.text.params.values()):
        return reply
    params = {k: known.get(v, v) if isinstance(v, str) else v for k, v in reply.text.params.items()}
    return replace(reply, text=Text(reply.text.msgid, params))


def tx_locale(tx: Tx) -> str:
    return tx.record.meta.get("language", "en") if tx.record is not None else "en"
