"""What every feature (commands, buttons, inline mode, the settings and card menus) needs of the
running bot: the coordinator, the port and the store, and the helpers that turn a Telegram
user and chat into the coordinator's ``User`` and ``ChatKey`` and show its reply.

Features take a ``BotContext``; none of them imports another feature, and routes.py alone
knows them all.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from cachetools import TTLCache
from telegram import Chat, ChatMember, Message, Update
from telegram import User as TgUser
from telegram.constants import ChatType, ParseMode
from telegram.error import TelegramError
from telegram.ext import ContextTypes

from bot.coordinator import (
    N_,
    ChatKey,
    Commands,
    GameRecord,
    GameStore,
    Reply,
    Text,
    User,
    seat_locale,
)
from bot.coordinator import commands as cmd
from bot.render.text import render_reply, render_reply_pages

from .muted_groups import CANNOT_ANSWER, CANNOT_WRITE, PLAYS_ON
from .port import TelegramChatPort
from .texts import MESSAGE_LIMIT, clip_html, html, mention, tr, user_locale

log = logging.getLogger(__name__)

PLATFORM = "telegram"
ADMIN_TTL = 60.0  # seconds a getChatMember answer is trusted
ADMIN_CACHE_SIZE = 10_000
ADMIN_STATUSES = ("creator", "administrator")

# Game moves and lobby actions answered in a group: an accepted one shows in the table or
# lobby message, so only refusals get a reply (keeps the group under Telegram's flood limits
# and keeps private notes such as "you drew Y3" out of the group).
QUIET_WHEN_OK = (cmd.NewGame, cmd.Join, cmd.Leave, cmd.StartGame, cmd.AddAiSeat, cmd.PlayCards,
                 cmd.Draw, cmd.Pass, cmd.DeclareUno, cmd.CallUno, cmd.Challenge, cmd.Kick,
                 cmd.StopGame, cmd.ShowHand, cmd.VoteEnd, cmd.ShowRecap)

# Answers sent to the sender's private chat, never to the group: a wrong UNO! call again
# during its cool-down (it would only repeat), a bare /play (it lists the sender's cards).
PRIVATE_REFUSALS = ("uno_cooldown", "which_card")

BuildCommand = Callable[[ChatKey, User], cmd.Command]
# The command the words typed after one ask for, or how to write them (the usage) when they
# are not one: the coordinator's readers of typed arguments (preset_command, settings_command).
ReadTyped = Callable[[ChatKey, User], cmd.Command | Text]


def chat_key(chat: Chat | int) -> ChatKey:
    return ChatKey(PLATFORM, str(chat if isinstance(chat, int) else chat.id))


def parts(update: Update) -> tuple[Message, TgUser, Chat] | None:
    """The message, its sender and its chat; None for updates without all three."""
    message, user, chat = update.effective_message, update.effective_user, update.effective_chat
    if message is None or user is None or chat is None:
        return None
    return message, user, chat


def replied_user(update: Update, *, humans_only: bool = False) -> str | None:
    """The id of the author of the message this command replies to."""
    message = update.effective_message
    replied = message.reply_to_message if message is not None else None
    author = replied.from_user if replied is not None else None
    if author is None or (humans_only and author.is_bot):
        return None
    return str(author.id)


# A member's statuses out of the chat ("left", "kicked": for the bot in a private chat, blocked).
ABSENT = (ChatMember.LEFT, ChatMember.BANNED)


def bot_left(update: Update) -> bool:
    """Whether the update says the bot was blocked (a private chat) or removed (a group)."""
    change = update.my_chat_member
    return change is not None and change.new_chat_member.status in ABSENT


class BotContext:
    def __init__(self, coordinator: Commands, port: TelegramChatPort, store: GameStore) -> None:
        self.coordinator = coordinator
        self.port = port
        self.store = store
        # (chat id, user id) -> an admin there; past the size, the least recently used goes
        self._admins: TTLCache[tuple[int, int], bool] = TTLCache(
            maxsize=ADMIN_CACHE_SIZE, ttl=ADMIN_TTL, timer=time.monotonic)
        port.moves.on_moved = self.chat_moved
        port.muted.on_muted = self.group_muted

    async def chat_moved(self, old: int, new: int) -> None:
        """Telegram upgraded group ``old`` to the supergroup ``new``: its game and what is stored
        of it move there (told twice, by both service messages and a refused send: once)."""
        self.port.moves.learn(old, new)
        await self.coordinator.chat_moved(chat_key(old), chat_key(new))

    async def group_muted(self, chat_id: int) -> None:
        """The group refuses the bot's messages: a lobby there closes and its creator is told
        why; the players of a game being played are told that it goes on in their private
        chats. Each in their own language."""
        chat = chat_key(chat_id)
        record = await self.store.load(chat)
        if record is None:
            return
        if record.status == "lobby":
            closer = User(str(self.port.bot.id), self.port.bot_username, is_admin=True)
            if not (await self.run(cmd.StopGame(chat, closer))).ok:
                return  # closed meanwhile (told once)
            people, words = [record.creator], CANNOT_WRITE
        else:
            people, words = [s.user_id for s in record.seats if s.ai is None], PLAYS_ON
        title = await self.port.chat_title(chat_id) or str(chat_id)
        for user_id in people:  # in the language their hands come in
            seat = record.seat_of(user_id)
            locale = seat_locale(record, seat) if seat is not None else record.language
            await self._tell_privately(user_id, html(tr(words, locale, group=title)))

    async def group_refused(self, chat: Chat, tg_user: TgUser | None, reason: str) -> None:
        """The group refused a command's answer (the bot may not write there): its sender is
        told why, privately (once a minute at most)."""
        self.port.muted.refused(chat.id, reason)
        if tg_user is None or not self.port.muted.first_telling(chat.id, tg_user.id):
            return
        text = tr(CANNOT_ANSWER, await self.locale_of(tg_user), group=chat.title or str(chat.id))
        await self._tell_privately(str(tg_user.id), html(text))

    async def on_any_update(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Learn group titles (for "your turn in <group>") and who can be written to privately
        (a user writing or pressing in their private chat with the bot)."""
        chat, user = update.effective_chat, update.effective_user
        if chat is None:
            return
        if chat.type == ChatType.PRIVATE and user is not None:
            if bot_left(update):
                return  # they blocked the bot: that is no message from them
            self.port.user_wrote(str(user.id))
        else:
            self.port.remember_chat(chat.id, chat.title)

    # ---- building commands -------------------------------------------------------------------

    async def user(self, tg_user: TgUser, chat_id: int | None = None, *, need_admin: bool = False,
                   fresh: bool = False) -> User:
        is_admin = await self._is_admin(chat_id, tg_user.id, fresh) if need_admin and chat_id else False
        return User(id=str(tg_user.id), name=tg_user.full_name or str(tg_user.id),
                    locale=tg_user.language_code, is_admin=is_admin)

    async def _is_admin(self, chat_id: int, user_id: int, fresh: bool = False) -> bool:
        if chat_id > 0:  # a private chat has no admins
            return False
        cached = self._admins.get((chat_id, user_id))
        if cached is not None and not fresh:
            return cached
        try:
            member = await self.port.bot.get_chat_member(chat_id, user_id)
            value = member.status in ADMIN_STATUSES
        except TelegramError as error:
            log.warning("getChatMember failed in chat %s: %s", chat_id, error.message)
            value = False
        self._admins[(chat_id, user_id)] = value
        return value

    async def locale_of(self, tg_user: TgUser | None) -> str:
        """Language for the adapter's own lines: the user's /lang override, else the client's."""
        if tg_user is None:
            return user_locale(None)
        profile = await self.store.user_profile(PLATFORM, str(tg_user.id))
        return user_locale(profile.language or tg_user.language_code)

    async def game_record(self, game_id: str) -> GameRecord | None:
        """The game ``game_id`` while it runs (lobby or playing), or None when it is over (a
        stale button). Read from the store, not a cache: another process may have ended it."""
        record = await self.store.get(game_id)
        if record is None or not record.active or record.chat.platform != PLATFORM:
            return None
        return record

    async def game_chat(self, game_id: str) -> ChatKey | None:
        record = await self.game_record(game_id)
        return record.chat if record is not None else None

    async def user_game(self, user_id: str) -> ChatKey | None:
        """The chat of the game this user sits in (for private commands and inline queries),
        from the port's index of seats; the store confirms the game still runs."""
        game_id = self.port.game_of(user_id)
        return await self.game_chat(game_id) if game_id is not None else None

    async def command_chat(self, chat: Chat, tg_user: TgUser) -> ChatKey | None:
        """The group a command is about: the chat itself, or from a private chat the game the
        sender sits in."""
        if chat.type == ChatType.PRIVATE:
            return await self.user_game(str(tg_user.id))
        return chat_key(chat)

    async def run(self, command: cmd.Command) -> Reply:
        return await self.coordinator.handle(command)

    async def run_as(self, tg_user: TgUser, tg_chat: Chat, chat: ChatKey, build: BuildCommand,
                     need_admin: bool) -> tuple[cmd.Command, Reply]:
        user = await self.user(tg_user, tg_chat.id, need_admin=need_admin)
        command = build(chat, user)
        reply = await self.run(command)
        if need_admin and reply.error == "not_allowed" and not user.is_admin:
            # The cached "not an admin" may be out of date (just promoted): ask Telegram once.
            user = await self.user(tg_user, tg_chat.id, need_admin=True, fresh=True)
            if user.is_admin:
                command = build(chat, user)
                reply = await self.run(command)
        return command, reply

    async def information(self, update: Update, build: BuildCommand, need_admin: bool = False, *,
                          game_first: bool = False) -> None:
        """Commands about this chat itself (stats, leaderboard, settings): no game needed.
        ``game_first``: from a private chat, address the group of the sender's game if any."""
        incoming = parts(update)
        if incoming is None:
            return
        message, tg_user, tg_chat = incoming
        chat = chat_key(tg_chat)
        if game_first and tg_chat.type == ChatType.PRIVATE:
            chat = await self.user_game(str(tg_user.id)) or chat
        command, reply = await self.run_as(tg_user, tg_chat, chat, build, need_admin)
        await self.reply_in_chat(message, command, reply)

    async def typed(self, update: Update, read: ReadTyped, error: str,
                    need_admin: Callable[[cmd.Command], bool] = lambda command: False) -> None:
        """A command about this chat read from the words typed after it (``information``), or
        ``read``'s usage answered to the sender as the refusal ``error``. ``need_admin``: by
        the command the words ask for (saving a preset does, listing them does not)."""
        incoming = parts(update)
        if incoming is None:
            return
        message, tg_user, tg_chat = incoming
        probe = read(chat_key(tg_chat), User(str(tg_user.id), ""))
        if not isinstance(probe, cmd.Command):
            user = await self.user(tg_user)
            await self.reply_in_chat(message, cmd.Command(chat_key(tg_chat), user), Reply(
                ok=False, text=probe, error=error, locale=await self.locale_of(tg_user)))
            return

        def build(chat: ChatKey, user: User) -> cmd.Command:
            built = read(chat, user)
            assert isinstance(built, cmd.Command)  # the same words as the probe
            return built

        await self.information(update, build, need_admin=need_admin(probe))

    # ---- replies -----------------------------------------------------------------------------

    async def reply_in_chat(self, message: Message, command: cmd.Command, reply: Reply) -> None:
        in_group = message.chat.type != ChatType.PRIVATE
        if in_group and reply.ok and isinstance(command, QUIET_WHEN_OK):
            return
        if reply.bilingual:  # the rules: every page, each within Telegram's message limit
            for page in render_reply_pages(reply, MESSAGE_LIMIT, escape=html, mention=mention):
                await message.reply_text(page, parse_mode=ParseMode.HTML)
            return
        text = render_reply(reply, escape=html, mention=mention)
        if in_group and not reply.ok:
            # A refusal is for its sender only: privately, so a group sending commands faster
            # than Telegram lets the bot answer there (20 a minute) does not pile up replies.
            if await self._tell_privately(command.user.id, text):
                return
            if reply.error == "which_card":
                # The answer names the player's cards: the group only learns how to play.
                await message.reply_text(html(tr(N_(
                    "Name the card after /play, e.g. /play R5. To see your cards, open a private "
                    "chat with me and press Start."), reply.locale)), parse_mode=ParseMode.HTML)
                return
            if reply.error in PRIVATE_REFUSALS:
                return
            # The sender never started the bot: the group it is (the chat's backlog is capped).
        if text.strip():
            await message.reply_text(clip_html(text), parse_mode=ParseMode.HTML)

    async def _tell_privately(self, user_id: str, text: str) -> bool:
        """An answer that must not go to the group: to the private chat. False when it could
        not be delivered (the user never started the bot)."""
        if not text.strip():
            return True
        try:
            await self.port.bot.send_message(int(user_id), clip_html(text), parse_mode=ParseMode.HTML)
        except TelegramError as error:
            log.info("a private answer was not delivered: %s", type(error).__name__)
            return False
        return True
