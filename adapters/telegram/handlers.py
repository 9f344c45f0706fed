"""Update handlers: parse a Telegram update, build one coordinator command, render its Reply.
Commands live here; buttons in buttons.py, inline mode in inline.py.

Thin by design: no rule is decided here. The only checks are about the user interface
(is this button from our keyboards, is it your own hand's keyboard, does the game it names
still run); everything else is the coordinator's answer, shown to the person who asked.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from telegram import Chat, Message, Update
from telegram import User as TgUser
from telegram.constants import ChatType, ParseMode
from telegram.error import TelegramError
from telegram.ext import (
    Application,
    CallbackQueryHandler,
    ChosenInlineResultHandler,
    CommandHandler,
    ContextTypes,
    InlineQueryHandler,
    TypeHandler,
    filters,
)

from bot.coordinator import N_, ChatKey, GameRecord, GameStore, Reply, User, notation
from bot.coordinator import commands as cmd
from bot.render.text import render_reply, render_reply_pages

from .bot_commands import help_text
from .buttons import Buttons
from .card_theme import PATTERN as CARD_THEME_PATTERN
from .card_theme import CardThemeMenu
from .inline import InlineMode
from .port import TelegramChatPort
from .settings_menu import PATTERN as SETTINGS_PATTERN
from .settings_menu import SettingsMenu
from .texts import MESSAGE_LIMIT, clip_html, html, mention, tr, user_locale

log = logging.getLogger(__name__)

PLATFORM = "telegram"
ADMIN_TTL = 60.0  # seconds a getChatMember answer is trusted
ADMIN_CACHE_SIZE = 10_000
AWAITING_COLOR_SIZE = 10_000
ADMIN_STATUSES = ("creator", "administrator")

# Game moves and lobby actions answered in a group: an accepted one shows in the table or
# lobby message, so only refusals get a reply (keeps the group under Telegram's flood limits
# and keeps private notes such as "you drew Y3" out of the group).
QUIET_WHEN_OK = (cmd.NewGame, cmd.Join, cmd.Leave, cmd.StartGame, cmd.AddAiSeat, cmd.PlayCards,
                 cmd.Draw, cmd.Pass, cmd.DeclareUno, cmd.CallUno, cmd.Challenge, cmd.Kick,
                 cmd.StopGame, cmd.ShowHand)


# Answers sent to the sender's private chat, never to the group: a wrong UNO! call again
# during its cool-down (it would only repeat), a bare /play (it lists the sender's cards).
PRIVATE_REFUSALS = ("uno_cooldown", "which_card")


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


class UnoHandlers:
    def __init__(self, coordinator: Any, port: TelegramChatPort, store: GameStore) -> None:
        self.coordinator = coordinator
        self.port = port
        self.store = store
        self.inline = InlineMode(self)
        self.buttons = Buttons(self)
        self.settings_menu = SettingsMenu(self)
        self.card_theme = CardThemeMenu(self)
        self._admins: dict[tuple[int, int], tuple[bool, float]] = {}
        # Per (game chat, user): a /play refused for want of a colour, completed by "/play red".
        self._awaiting_color: dict[tuple[ChatKey, str], notation.TypedPlay] = {}

    # ---- registration ------------------------------------------------------------------------

    def register(self, app: Application) -> None:
        group = filters.ChatType.GROUPS
        private = filters.ChatType.PRIVATE
        # Before any other handler (group -1): what every update tells about its chat.
        app.add_handler(TypeHandler(Update, self.on_any_update), group=-1)
        app.add_handler(CommandHandler("start", self.on_private_start, filters=private))
        simple = {
            "new": cmd.NewGame, "join": cmd.Join, "leave": cmd.Leave, "start": cmd.StartGame,
            "draw": cmd.Draw, "pass": cmd.Pass, "challenge": cmd.Challenge, "stop": cmd.StopGame,
            "hand": cmd.ShowHand, "notify": cmd.NotifyMe,
        }
        for name, command in simple.items():
            # Lobby commands only make sense in the group; moves also work from the private
            # chat (they go to the game the sender sits in).
            chats = group if name in ("new", "join", "leave", "start", "stop", "notify") else None
            app.add_handler(CommandHandler(name, self._simple(command), filters=chats))
        app.add_handler(CommandHandler("rules", self.on_rules))
        app.add_handler(CommandHandler(["new", "join", "leave", "stop", "ai", "kick", "settings", "notify"],
                                       self.on_group_only, filters=private))
        app.add_handler(CommandHandler("ai", self.on_add_ai, filters=group))
        app.add_handler(CommandHandler("play", self.on_play))
        app.add_handler(CommandHandler("uno", self.on_uno))
        app.add_handler(CommandHandler("kick", self.on_kick, filters=group))
        app.add_handler(CommandHandler("settings", self.on_settings, filters=group))
        app.add_handler(CommandHandler("stats", self.on_stats))
        app.add_handler(CommandHandler("top", self.on_top))
        app.add_handler(CommandHandler("lang", self.on_language))
        app.add_handler(CommandHandler("help", self.on_help))
        app.add_handler(CommandHandler("cards", self.card_theme.on_command))
        app.add_handler(CallbackQueryHandler(self.settings_menu.on_button, pattern=SETTINGS_PATTERN))
        app.add_handler(CallbackQueryHandler(self.card_theme.on_button, pattern=CARD_THEME_PATTERN))
        app.add_handler(CallbackQueryHandler(self.buttons.on_button))
        app.add_handler(InlineQueryHandler(self.inline.on_query))
        app.add_handler(ChosenInlineResultHandler(self.inline.on_chosen))
        app.add_error_handler(self.on_error)

    async def on_any_update(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Learn group titles (for "your turn in <group>") and who can be written to privately
        (a user writing or pressing in their private chat with the bot)."""
        chat, user = update.effective_chat, update.effective_user
        if chat is None:
            return
        if chat.type == ChatType.PRIVATE and user is not None:
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
        if cached and cached[1] > time.monotonic() and not fresh:
            return cached[0]
        try:
            member = await self.port.bot.get_chat_member(chat_id, user_id)
            value = member.status in ADMIN_STATUSES
        except TelegramError as error:
            log.warning("getChatMember failed in chat %s: %s", chat_id, error.message)
            value = False
        now = time.monotonic()
        if len(self._admins) > ADMIN_CACHE_SIZE:  # forget expired answers now and then
            self._admins = {k: v for k, v in self._admins.items() if v[1] > now}
        self._admins[(chat_id, user_id)] = (value, now + ADMIN_TTL)
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

    # ---- commands ----------------------------------------------------------------------------

    def _simple(self, command_type: type[cmd.Command]):
        need_admin = command_type in (cmd.StopGame, cmd.StartGame)

        async def handler(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
            await self._command(update, lambda chat, user: command_type(chat, user), need_admin)
        return handler

    async def _command(self, update: Update, build: Callable[[ChatKey, User], cmd.Command],
                       need_admin: bool = False) -> None:
        incoming = parts(update)
        if incoming is None:
            return
        message, tg_user, tg_chat = incoming
        chat = await self.command_chat(tg_chat, tg_user)
        if chat is None:
            loc = await self.locale_of(tg_user)
            await message.reply_text(html(tr(N_("You are not in a game."), loc)), parse_mode=ParseMode.HTML)
            return
        command, reply = await self._run_as(tg_user, tg_chat, chat, build, need_admin)
        await self.reply_in_chat(message, command, reply)

    async def _run_as(self, tg_user: TgUser, tg_chat: Chat, chat: ChatKey,
                      build: Callable[[ChatKey, User], cmd.Command],
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

    async def _information(self, update: Update, build: Callable[[ChatKey, User], cmd.Command],
                           need_admin: bool = False, *, game_first: bool = False) -> None:
        """Commands about this chat itself (stats, leaderboard, settings): no game needed.
        ``game_first``: from a private chat, address the group of the sender's game if any."""
        incoming = parts(update)
        if incoming is None:
            return
        message, tg_user, tg_chat = incoming
        chat = chat_key(tg_chat)
        if game_first and tg_chat.type == ChatType.PRIVATE:
            chat = await self.user_game(str(tg_user.id)) or chat
        command, reply = await self._run_as(tg_user, tg_chat, chat, build, need_admin)
        await self.reply_in_chat(message, command, reply)

    async def on_add_ai(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        level = (context.args or ["normal"])[0].lower()
        await self._command(update, lambda chat, user: cmd.AddAiSeat(chat, user, strategy=level))

    async def on_play(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/play R5``, ``/play W+4 red``, ``/play 黄2``, ``/play red reverse``, ``/play R5 B5``
        (several where the rules allow); after a wild refused for want of a colour,
        ``/play red`` completes it. The notation: bot/coordinator/notation.py."""
        incoming = parts(update)
        if incoming is None:
            return
        message, tg_user, tg_chat = incoming
        args = context.args or []
        typed = notation.parse_play(args) if args else notation.TypedPlay()
        chat = await self.command_chat(tg_chat, tg_user)
        if chat is None:
            loc = await self.locale_of(tg_user)
            await message.reply_text(html(tr(N_("You are not in a game."), loc)), parse_mode=ParseMode.HTML)
            return
        if isinstance(typed, notation.NotationError):
            loc = await self.locale_of(tg_user)
            user = await self.user(tg_user)
            await self.reply_in_chat(message, cmd.PlayCards(chat, user),
                                     Reply(ok=False, text=typed.text, error="bad_card", locale=loc))
            return
        key = (chat, str(tg_user.id))
        pending = self._awaiting_color.pop(key, None)
        play = (pending.with_color(typed) if pending is not None else None) or typed
        command, reply = await self._run_as(tg_user, tg_chat, chat, lambda chat, user: cmd.PlayCards(
            chat, user, cards=play.cards, color=play.color, declare_uno=play.declare_uno,
            swap_with=play.swap_with), False)
        if reply.error == "color_required":
            if len(self._awaiting_color) >= AWAITING_COLOR_SIZE:
                self._awaiting_color.pop(next(iter(self._awaiting_color)))
            self._awaiting_color[key] = play
        await self.reply_in_chat(message, command, reply)

    async def on_uno(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/uno``: declare, or call out whoever can be caught; as a reply: call out that player."""
        target = replied_user(update, humans_only=True)
        await self._command(update, lambda chat, user: cmd.CallUno(chat, user, target=target))

    async def on_kick(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        target = replied_user(update)
        if target is None:
            if update.effective_message is not None:
                loc = await self.locale_of(update.effective_user)
                await update.effective_message.reply_text(
                    html(tr(N_("Reply to a message of the player to kick."), loc)))
            return
        await self._command(update, lambda chat, user: cmd.Kick(chat, user, target=target), need_admin=True)

    async def on_settings(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/settings`` shows them with a keyboard to change them; ``/settings stacking=same
        jump_in=on`` (or ``/settings stacking same``) changes them (admins/creator)."""
        args = context.args or []
        if not args:
            incoming = parts(update)
            if incoming is None:
                return
            message, tg_user, tg_chat = incoming
            _, reply = await self._run_as(tg_user, tg_chat, chat_key(tg_chat),
                                          lambda chat, user: cmd.ShowSettings(chat, user), False)
            await self.settings_menu.send(update, reply)
            return
        changes: dict[str, str] = {}
        if len(args) == 2 and "=" not in args[0] and "=" not in args[1]:
            changes[args[0]] = args[1]
        else:
            for arg in args:
                key, _, value = arg.partition("=")
                changes[key] = value
        await self._information(update, lambda chat, user: cmd.ChangeSettings(chat, user, changes=changes),
                                need_admin=True)

    async def on_rules(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """This chat's rules (in a private chat: the defaults), in English and Chinese."""
        await self._information(update, lambda chat, user: cmd.ShowRules(chat, user))

    async def on_stats(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/stats`` (yours) or as a reply (that player's): in this chat and everywhere."""
        target = replied_user(update)
        await self._information(update, lambda chat, user: cmd.ShowStats(chat, user, target=target))

    async def on_top(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        wanted = (context.args or [""])[0].lower() in ("global", "all")
        private = update.effective_chat is not None and update.effective_chat.type == ChatType.PRIVATE
        scope = "global" if wanted or private else "chat"
        await self._information(update, lambda chat, user: cmd.ShowLeaderboard(chat, user, scope=scope))

    async def on_language(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/lang zh`` in a group sets the chat's language (admins/creator); ``/lang zh me``
        or in the private chat: only your own messages."""
        args = [a.lower() for a in context.args or []]
        if not args:
            await self.on_help(update, context)
            return
        private = update.effective_chat is not None and update.effective_chat.type == ChatType.PRIVATE
        scope = "user" if private or "me" in args[1:] else "chat"
        # From the private chat during a game, the game's chat is named so that the player's
        # seat (and so their hand) switches language at once.
        await self._information(update, lambda chat, user: cmd.SetLanguage(
            chat, user, language=args[0], scope=scope), need_admin=scope == "chat", game_first=True)

    async def on_group_only(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        if update.effective_message is None:
            return
        loc = await self.locale_of(update.effective_user)
        await update.effective_message.reply_text(html(tr(
            N_("This works in a group: add me to one and send /new there."), loc)))

    async def on_help(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        if update.effective_message is None:
            return
        loc = await self.locale_of(update.effective_user)
        await update.effective_message.reply_text(html(help_text(loc)), parse_mode=ParseMode.HTML)

    async def on_private_start(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/start`` in the private chat: the user can now get messages (resend their hands);
        ``/start join_<game>`` (the lobby's Join deep link) also joins that game."""
        incoming = parts(update)
        if incoming is None:
            return
        message, tg_user, _ = incoming
        loc = await self.locale_of(tg_user)
        payload = (context.args or [""])[0]
        user = await self.user(tg_user)
        await self.coordinator.user_reachable(PLATFORM, user.id)
        if payload.startswith("join_"):
            chat = await self.game_chat(payload[len("join_"):])
            if chat is None:
                await message.reply_text(html(tr(N_("That game is over."), loc)))
                return
            command = cmd.Join(chat, user)
            await self.reply_in_chat(message, command, await self.run(command))
            return
        await message.reply_text(html(help_text(loc)), parse_mode=ParseMode.HTML)

    # ---- errors ------------------------------------------------------------------------------

    async def on_error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        # Log the kind of update, never its content (a hand may be in it).
        kind = type(update).__name__
        if isinstance(update, Update):
            kind = next((name for name in ("message", "callback_query", "inline_query",
                                           "chosen_inline_result") if getattr(update, name)), kind)
        log.error("error while handling a %s update", kind, exc_info=context.error)
