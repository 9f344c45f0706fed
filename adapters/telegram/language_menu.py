"""``/lang``: the language the bot speaks.

``/lang zh`` in a group sets the chat's language (the creator or an admin), ``/lang zh me`` or
``/lang zh`` in the private chat only the sender's own. ``/lang`` alone shows the languages as
buttons (``lg:<code>``, the current one ticked); a press sends the same ``SetLanguage``, whose
answer is the press's popup.
"""

from __future__ import annotations

import logging

from telegram import Chat, InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram import User as TgUser
from telegram.constants import ChatType, ParseMode
from telegram.error import BadRequest
from telegram.ext import ContextTypes

from bot.coordinator import N_
from bot.coordinator import commands as cmd
from bot.i18n import LOCALES, language_name
from bot.render.text import render_reply, shortened

from .context import BotContext, chat_key
from .texts import POPUP_LIMIT, html, tr

log = logging.getLogger(__name__)

PATTERN = r"^lg:"


def language_keyboard(current: str) -> InlineKeyboardMarkup:
    """Each language under its own name ("English", "中文"), whatever the reader's language."""
    return InlineKeyboardMarkup([
        [InlineKeyboardButton(("✅ " if code == current else "") + language_name(code),
                              callback_data=f"lg:{code}")]
        for code in LOCALES])


def in_group(chat: Chat | None) -> bool:
    return chat is not None and chat.type != ChatType.PRIVATE


class LanguageMenu:
    def __init__(self, ctx: BotContext) -> None:
        self.ctx = ctx

    async def current(self, chat: Chat, tg_user: TgUser) -> str:
        """The language the menu changes: the group's, or in the private chat the sender's."""
        if in_group(chat):
            return (await self.ctx.store.chat_settings(chat_key(chat))).language
        return await self.ctx.locale_of(tg_user)

    async def on_command(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        args = [a.lower() for a in context.args or []]
        if args:
            await self.set_typed(update, args)
            return
        message, tg_user, chat = update.effective_message, update.effective_user, update.effective_chat
        if message is None or tg_user is None or chat is None:
            return
        loc = await self.ctx.locale_of(tg_user)
        if in_group(chat):
            text = tr(N_("Which language should this chat speak? The game's creator or an admin "
                         "may change it; /lang zh me changes only the messages to you."), loc)
        else:
            text = tr(N_("Which language should I write to you in?"), loc)
        await message.reply_text(html(text), parse_mode=ParseMode.HTML,
                                 reply_markup=language_keyboard(await self.current(chat, tg_user)))

    async def set_typed(self, update: Update, args: list[str]) -> None:
        private = not in_group(update.effective_chat)
        scope = "user" if private or "me" in args[1:] else "chat"
        # From the private chat during a game, the game's chat is named so that the player's
        # seat (and so their hand) switches language at once.
        await self.ctx.information(update, lambda chat, user: cmd.SetLanguage(
            chat, user, language=args[0], scope=scope), need_admin=scope == "chat", game_first=True)

    async def on_button(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        if query is None or query.message is None:
            return
        language = (query.data or "").removeprefix("lg:")
        chat = query.message.chat
        scope = "chat" if in_group(chat) else "user"
        target = chat_key(chat)
        if scope == "user":  # in a game: the player's seat there speaks it at once
            target = await self.ctx.user_game(str(query.from_user.id)) or target
        _, reply = await self.ctx.run_as(
            query.from_user, chat, target,
            lambda key, user: cmd.SetLanguage(key, user, language=language, scope=scope),
            need_admin=scope == "chat")
        await query.answer(shortened(render_reply(reply), POPUP_LIMIT), show_alert=not reply.ok)
        if not reply.ok:
            return
        try:  # tick the new choice
            await query.edit_message_reply_markup(
                reply_markup=language_keyboard(await self.current(chat, query.from_user)))
        except BadRequest as error:  # "message is not modified": the same choice again
            log.info("language menu not edited: %s", error.message)
