"""Which handler answers which update: every feature registered with the Application, in the
order python-telegram-bot tries them (within a group, the first matching handler wins)."""

from __future__ import annotations

import logging
from typing import Any

from telegram import Update
from telegram.constants import ChatType
from telegram.error import BadRequest
from telegram.ext import (
    Application,
    CallbackQueryHandler,
    ChatMemberHandler,
    ChosenInlineResultHandler,
    CommandHandler,
    ContextTypes,
    InlineQueryHandler,
    MessageHandler,
    TypeHandler,
    filters,
)

from bot.coordinator import commands as cmd

from . import card_theme, handlers, language_menu, settings_menu
from .buttons import Buttons
from .card_theme import CardThemeMenu
from .context import BotContext
from .handlers import CommandHandlers
from .inline import InlineMode
from .language_menu import LanguageMenu
from .membership import Membership
from .muted_groups import lacks_rights
from .settings_menu import SettingsMenu
from .stickers import StickerSets

log = logging.getLogger(__name__)

# Commands without arguments, by name.
SIMPLE_COMMANDS: dict[str, type[cmd.Command]] = {
    "new": cmd.NewGame, "join": cmd.Join, "leave": cmd.Leave, "start": cmd.StartGame,
    "draw": cmd.Draw, "pass": cmd.Pass, "challenge": cmd.Challenge, "stop": cmd.StopGame,
    "hand": cmd.ShowHand, "notify": cmd.NotifyMe, "voteend": cmd.VoteEnd, "log": cmd.ShowLog,
    "recap": cmd.ShowRecap,
}
# Lobby commands only make sense in the group; moves also work from the private chat (they go
# to the game the sender sits in).
GROUP_ONLY = ("new", "join", "leave", "start", "stop", "notify")


def register(app: Application, ctx: BotContext, stickers: StickerSets | None = None) -> None:
    commands = CommandHandlers(ctx)
    settings = SettingsMenu(ctx)
    cards = CardThemeMenu(ctx)
    languages = LanguageMenu(ctx)
    inline = InlineMode(ctx, stickers)
    group = filters.ChatType.GROUPS
    private = filters.ChatType.PRIVATE
    # New messages only: an edited message is not a second move (python-telegram-bot's
    # handlers take edited messages too by default).
    new = filters.UpdateType.MESSAGE

    def command(names: str | list[str], callback: Any, chats: filters.BaseFilter | None = None) -> None:
        app.add_handler(CommandHandler(names, callback, filters=new if chats is None else new & chats))

    # Before any other handler (group -1): what every update tells about its chat.
    app.add_handler(TypeHandler(Update, ctx.on_any_update), group=-1)
    command("start", commands.on_private_start, private)
    for name, simple in SIMPLE_COMMANDS.items():
        command(name, commands.simple(simple), group if name in GROUP_ONLY else None)
    command("rules", commands.on_rules)
    command(["new", "join", "leave", "stop", "ai", "kick", "settings", "notify", "preset"],
            commands.on_group_only, private)
    command("ai", commands.on_add_ai, group)
    command("play", commands.on_play)
    command("uno", commands.on_uno)
    command("kick", commands.on_kick, group)
    command("settings", settings.on_command, group)
    command("preset", commands.on_preset, group)
    command("watch", commands.on_watch)
    command("stats", commands.on_stats)
    command("top", commands.on_top)
    command("lang", languages.on_command)
    command("help", commands.on_help)
    command("cards", cards.on_command)
    # Words typed without a command: "/play红5", and words typed where the hand is (not a
    # command, not an inline result sent through the bot).
    typed = new & filters.TEXT
    app.add_handler(MessageHandler(typed & filters.Regex(handlers.GLUED_PLAY), commands.on_glued_play))
    app.add_handler(MessageHandler(typed & private & ~filters.COMMAND & ~filters.VIA_BOT,
                                   commands.on_private_text))
    app.add_handler(CallbackQueryHandler(settings.on_button, pattern=settings_menu.PATTERN))
    app.add_handler(CallbackQueryHandler(cards.on_button, pattern=card_theme.PATTERN))
    app.add_handler(CallbackQueryHandler(languages.on_button, pattern=language_menu.PATTERN))
    app.add_handler(CallbackQueryHandler(Buttons(ctx).on_button))
    membership = Membership(ctx)
    app.add_handler(ChatMemberHandler(membership.on_my_chat_member, ChatMemberHandler.MY_CHAT_MEMBER))
    app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, membership.on_migrate))
    app.add_handler(InlineQueryHandler(inline.on_query))
    app.add_handler(ChosenInlineResultHandler(inline.on_chosen))

    async def on_refused_or_error(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        error, chat = context.error, getattr(update, "effective_chat", None)
        if isinstance(error, BadRequest) and lacks_rights(error) and chat is not None \
                and chat.type != ChatType.PRIVATE:
            await ctx.group_refused(chat, getattr(update, "effective_user", None), error.message)
            return
        await on_error(update, context)

    app.add_error_handler(on_refused_or_error)


async def on_error(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
    # Log the kind of update, never its content (a hand may be in it).
    kind = type(update).__name__
    if isinstance(update, Update):
        kind = next((name for name in ("message", "callback_query", "inline_query",
                                       "chosen_inline_result") if getattr(update, name)), kind)
    log.error("error while handling a %s update", kind, exc_info=context.error)
