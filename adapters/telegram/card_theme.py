"""``/cards``: each player's card pictures, in the classic colours or high contrast.

``/cards`` shows the two choices as buttons (``ct:<theme>``, the current one ticked);
``/cards classic`` or ``/cards contrast`` sets it directly (the coordinator reads the usual
spellings and refuses anything else). The coordinator validates and
saves the choice (``SetCardTheme``) and re-sends the player's hand in running games. Only
what the player alone sees follows it (their hand pictures and stickers): the group's table
stays classic, since everyone looks at it.
"""

from __future__ import annotations

import logging

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.constants import ParseMode
from telegram.error import BadRequest
from telegram.ext import ContextTypes

from bot.coordinator import N_
from bot.coordinator import commands as cmd
from bot.render.text import render_reply, shortened

from .context import PLATFORM, BotContext, chat_key
from .texts import POPUP_LIMIT, html, tr

log = logging.getLogger(__name__)

PATTERN = r"^ct:"
# (value stored, label msgid), in the order shown
THEMES = (("classic", N_("Classic colours")),
          ("high_contrast", N_("High contrast (colour-blind friendly)")))


def theme_keyboard(current: str, locale: str) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup([
        [InlineKeyboardButton(("✅ " if value == current else "") + tr(label, locale),
                              callback_data=f"ct:{value}")]
        for value, label in THEMES])


class CardThemeMenu:
    def __init__(self, ctx: BotContext) -> None:
        self.ctx = ctx

    async def current(self, user_id: str) -> str:
        profile = await self.ctx.store.user_profile(PLATFORM, user_id)
        return profile.card_theme or THEMES[0][0]

    async def on_command(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        if context.args:
            theme = " ".join(context.args)  # "contrast", "high contrast"...: the coordinator reads it
            # From the private chat during a game, the game's chat is named (as for /lang), so
            # the player's seat there changes at once.
            await self.ctx.information(update, lambda chat, user: cmd.SetCardTheme(chat, user, theme=theme),
                                       game_first=True)
            return
        message, tg_user = update.effective_message, update.effective_user
        if message is None or tg_user is None:
            return
        loc = await self.ctx.locale_of(tg_user)
        text = tr(N_("Which colours should your cards have? This changes only the pictures you alone "
                     "see (your hand); the group's table keeps the classic colours. Also: /cards "
                     "classic or /cards contrast."), loc)
        await message.reply_text(html(text), parse_mode=ParseMode.HTML,
                                 reply_markup=theme_keyboard(await self.current(str(tg_user.id)), loc))

    async def on_button(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        if query is None:
            return
        theme = (query.data or "").removeprefix("ct:")
        chat_id = query.message.chat.id if query.message is not None else query.from_user.id
        chat = await self.ctx.user_game(str(query.from_user.id)) or chat_key(chat_id)
        reply = await self.ctx.run(cmd.SetCardTheme(chat, await self.ctx.user(query.from_user), theme=theme))
        await query.answer(shortened(render_reply(reply), POPUP_LIMIT), show_alert=not reply.ok)
        if not reply.ok or query.message is None:
            return
        loc = await self.ctx.locale_of(query.from_user)
        try:  # tick the new choice
            await query.edit_message_reply_markup(
                reply_markup=theme_keyboard(await self.current(str(query.from_user.id)), loc))
        except BadRequest as error:  # "message is not modified": the same choice again
            log.info("card theme menu not edited: %s", error.message)
