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
from dataclasses import replace
from typing import Any

from bot.i18n import CommandRef

from . import commands as cmds
from . import fairness, info, lobby, play, presenter, tables
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
from .transaction import Tx
from .views import N_, Reply, Text

log = logging.getLogger(__name__)

MAX_AI_STEPS = 200_000  # a safety stop for one inline run of AI moves (ai_delay == 0)
# Commands a two-table match's hub passes on to the sender's table.
ROUTED = (cmds.PlayCards, cmds.Draw, cmds.Pass, cmds.DeclareUno, cmds.CallUno, cmds.Challenge,
          cmds.ShowHand, cmds.Leave, cmds.Kick, cmds.NameColor)


class Coordinator:
    def __init__(self, chat: ChatPort, store: GameStore, clock: Clock, *, ai_delay: float = 1.0,
                 hand_pause: float = 0.0, lobby_timeout: float = 600.0, seed: int | None = None) -> None:
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
        self._false_calls: dict[tuple[ChatKey, str], float] = {}  # (chat, user) -> cool-down end
        self._closed = False
        self._handlers: dict[type, Callable[[Any], Awaitable[Reply]]] = {
            cmds.NewGame: self._new_game, cmds.Join: self._join, cmds.Leave: self._leave,
            cmds.StartGame: self._start, cmds.AddAiSeat: self._add_ai,
            cmds.PlayCards: self._play, cmds.Draw: self._draw, cmds.Pass: self._pass,
            cmds.DeclareUno: self._declare, cmds.CallUno: self._call_uno,
            cmds.Challenge: self._challenge, cmds.NameColor: self._name_color, cmds.Kick: self._kick, cmds.StopGame: self._stop,
            cmds.ChangeSettings: self._change_settings, cmds.ShowHand: self._show_hand,
            cmds.ShowRules: self._show_rules, cmds.ShowSettings: self._show_settings,
            cmds.ShowStats: self._show_stats, cmds.ShowLeaderboard: self._show_leaderboard,
            cmds.SetLanguage: self._set_language,
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
        """After a restart: re-arm every stored deadline (a passed one fires at once) and let
        AI seats that must act do so. Message ids stay as stored."""
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

    async def close(self) -> None:
        self._closed = True
        for handle in self._timers.values():
            handle.cancel()
        self._timers.clear()

    async def user_reachable(self, platform: str, user_id: str) -> int:
        """A user who could not be reached started the bot: resend their hands. Returns how
        many games were refreshed."""
        count = 0
        try:
            for record in await self.store.active_games():
                if record.chat.platform != platform or record.status != "running":
                    continue
                if not any(s.user_id == user_id for s in record.seats):
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

    async def _transact(self, chat: ChatKey, work: Callable[[Tx], Any],
                        prepare: Callable[[], Awaitable[None]] | None = None) -> tuple[Any, Tx]:
        """Load, ``work(tx)``, save, deliver. Refusals propagate with nothing saved.
        ``prepare`` reads what the command needs once the lock is held: commands are decided
        in the order they arrived, not in the order their reads came back. A table of a
        two-table match that finished a round or its last hand lets the others look again."""
        outcome, tx = await self._transact_locked(chat, work, prepare)
        if tx.series_due and tx.record is not None:
            await self._advance_series(tx.record)
        return outcome, tx

    async def _transact_locked(self, chat: ChatKey, work: Callable[[Tx], Any],
                               prepare: Callable[[], Awaitable[None]] | None = None) -> tuple[Any, Tx]:
        async with self._lock(chat):
            if prepare is not None:
                await prepare()
            for attempt in range(2):
                started = self.clock.now()
                tx = Tx(chat, await self.store.load(chat), started, hand_pause=self.hand_pause)
                if tx.record is not None:
                    self._game_ids[chat] = tx.record.game_id
                    tx.linked = await self._linked(tx.record)
                outcome = work(tx)
                if not tx.dirty:
                    return outcome, tx
                tx.close_outgoing()
                try:
                    saved = await self.store.save(tx.commit(), tx.results)
                except VersionConflict:
                    if attempt == 0:
                        continue
                    raise Refusal("busy") from None
                tx.record = saved
                await self._deliver(tx)
                self._arm(saved)
                self._ai_due[chat] = tx.ai_may_act()
                if self.ai_delay > 0:
                    self._schedule_ai(saved)
                return outcome, tx
        raise Refusal("busy")  # pragma: no cover - the loop returns or raises

    async def _deliver(self, tx: Tx) -> None:
        """Send what the transaction queued, then store message ids and reachability."""
        record = tx.record
        assert record is not None
        before = (record.table_message_id, dict(record.hand_message_ids),
                  list(record.meta.get("unreachable", [])))
        for item in tx.outgoing:
            if item.slot == "final":
                edit = item.message_id
            else:
                edit = None if item.slot in ("new", "notice") else record.table_message_id
            try:
                message_id = await self.chat.publish(record.chat, item.view, edit=edit)
            except Exception as error:
                self._log_failure(error, f"publishing a {item.slot}", record.chat)
                continue
            if item.slot in ("new", "table") and message_id is not None:
                record.table_message_id = message_id
        if tx.match is not None:
            for user_id, note in tx.hand_updates.items():
                await self._send_hand(record, tx.match, user_id, note, sent=tx.views,
                                      turn_started=user_id == tx.turn_started)
        after = (record.table_message_id, record.hand_message_ids,
                 list(record.meta.get("unreachable", [])))
        if after != before:
            await self._save_followup(record)

    async def _send_hand(self, record: GameRecord, match, user_id: str, note: Text | None,
                         sent: dict | None = None, *, turn_started: bool = False,
                         repost: bool = False) -> bool:
        seat = next((s for s in record.seats if s.user_id == user_id), None)
        if seat is None or seat.ai is not None:
            return False
        view = presenter.hand_view(record, match, user_id, self._seat_locale(record, seat), note=note,
                                   turn_started=turn_started, repost=repost)
        if sent is not None:
            sent[user_id] = view  # the sender's reply reuses it
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

    async def _announce_unreachable(self, record: GameRecord, seat) -> None:
        from .views import Notice

        text = Text(N_("{player}, I cannot send you your cards. Open a private chat with me and "
                       "press Start, then your hand will arrive. Your seat is kept."),
                    {"player": seat.name})
        try:
            await self.chat.publish(record.chat, Notice(record.meta.get("language", "en"), text,
                                                        (seat.user_id,), record.game_id))
        except Exception as error:
            self._log_failure(error, "announcing an unreachable player", record.chat)

    async def _ping_in_chat(self, record: GameRecord, seat) -> None:
        """The turn passed to a player the bot cannot message privately: mention them in the
        chat instead (a transient notice: a newer ping replaces one still waiting to go out)."""
        from .views import Notice

        text = Text(N_("🔔 {player}, it is your turn!"), {"player": seat.name})
        try:
            await self.chat.publish(record.chat, Notice(record.meta.get("language", "en"), text,
                                                        (seat.user_id,), record.game_id, transient=True))
        except Exception as error:
            self._log_failure(error, "pinging a player in the chat", record.chat)

    async def _save_followup(self, record: GameRecord) -> None:
        """Store message ids/reachability learnt while delivering (a second, small save)."""
        try:
            saved = await self.store.save(record)
            record.version = saved.version
        except VersionConflict:
            await self._merge_followup(record)
        except Exception as error:  # the move itself is stored and announced: only ids are lost
            self._log_failure(error, "storing message ids", record.chat)

    async def _merge_followup(self, record: GameRecord) -> None:
        """Someone else saved meanwhile: copy the ids onto the fresh record, once."""
        try:
            fresh = await self.store.get(record.game_id)
            if fresh is None:
                return
            fresh.table_message_id = record.table_message_id
            fresh.hand_message_ids.update(record.hand_message_ids)
            fresh.meta["unreachable"] = record.meta.get("unreachable", [])
            await self.store.save(fresh)
        except VersionConflict:
            log.warning("game %s: message ids not stored (busy)", record.game_id)
        except Exception as error:
            self._log_failure(error, "storing message ids", record.chat)

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

    def _deadline_callback(self, chat: ChatKey, game_id: str, key: str, when: float):
        async def fire() -> None:
            self._timers.pop((chat, key), None)
            try:
                await self._transact(chat, lambda tx: self._on_deadline(tx, game_id, key, when))
            except Refusal:
                pass
            except Exception as error:
                self._log_failure(error, f"the {key} timer", chat)
            await self._drive_ai(chat)

        return fire

    def _on_deadline(self, tx: Tx, game_id: str, key: str, when: float) -> None:
        record = tx.record
        if record is None or record.game_id != game_id or record.deadlines.get(key) is None:
            return
        if abs(record.deadlines[key] - when) > 1e-3:
            return  # re-armed since: a newer timer owns this deadline
        if key == "turn":
            play.turn_timeout(tx, when)
        elif key == "lobby" and record.status == "lobby":
            lobby.expire_lobby(tx)
        elif key == "next_hand" and record.status == "running":
            tx.next_hand()

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

        async def fire() -> None:
            self._timers.pop(key, None)
            self._ai_due[chat] = True
            if self.ai_delay == 0:
                await self._drive_ai(chat)
                return
            try:
                await self._ai_step(chat)
            except Refusal:
                pass
            except Exception as error:
                self._log_failure(error, "a scheduled AI move", chat)

        self._timers[key] = self.clock.call_at(when, fire)

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
                return
            except Exception as error:
                self._log_failure(error, "an AI move", chat)
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
                pass
            except Exception as error:
                self._log_failure(error, "a scheduled AI move", chat)

        self._timers[key] = self.clock.call_at(self.clock.now() + self.ai_delay, fire)

    # ---- locales -------------------------------------------------------------------------
    @staticmethod
    def _seat_locale(record: GameRecord, seat) -> str:
        return seat.language or record.meta.get("language", "en")

    async def _personal_locale(self, chat: ChatKey, user: User) -> str:
        """Profile override, else the chat's language when it was changed from English, else
        the platform's hint for the user, else English."""
        profile = await self.store.user_profile(chat.platform, user.id)
        if profile.language:
            return profile.language
        settings = await self.store.chat_settings(chat)
        if settings.language != "en":
            return settings.language
        return locale_hint(user.locale) if user.locale else settings.language

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
        language = await self._personal_locale(cmd.chat, cmd.user)
        first = settings.new
        if first:  # a new chat speaks the language of whoever opens its first game
            settings = replace(settings, language=language, new=False)
        game_id = self._new_game_id()
        seed = self._rng.randrange(2**31)
        reply = await self._game_command(cmd, lambda tx: lobby.open_lobby(
            tx, cmd, game_id=game_id, seed=seed, settings=settings, language=language,
            lobby_timeout=self.lobby_timeout))
        if first and reply.ok:
            await self.store.save_chat_settings(cmd.chat, settings)
        return reply

    def _new_game_id(self) -> str:
        # Always random, even for a seeded coordinator: ids must stay unique in a database that
        # outlives one run (the seed decides the deal and the AI's choices, not the id).
        return secrets.token_hex(5)

    async def _join(self, cmd: cmds.Join) -> Reply:
        language = "en"

        async def prepare() -> None:  # under the lock: a Join racing a Start is decided in order
            nonlocal language
            language = await self._personal_locale(cmd.chat, cmd.user)

        return await self._game_command(cmd, lambda tx: lobby.join(tx, cmd, language=language), prepare)

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
        """Send one player's hand again (clearing the unreachable mark when it arrives)."""
        async with self._lock(chat):
            record = await self.store.load(chat)
            if record is None or record.match is None or record.status != "running":
                return
            from bot.engine import Match

            before = (dict(record.hand_message_ids), list(record.meta.get("unreachable", [])))
            await self._send_hand(record, Match.from_json(record.match), user_id, None, repost=True)
            if (record.hand_message_ids, record.meta.get("unreachable", [])) != before:
                await self._save_followup(record)

    # ---- settings and information --------------------------------------------------------
    async def _change_settings(self, cmd: cmds.ChangeSettings) -> Reply:
        return await info.change_settings(self, cmd)

    async def _set_language(self, cmd: cmds.SetLanguage) -> Reply:
        return await info.set_language(self, cmd)

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
