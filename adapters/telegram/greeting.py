"""A hello when the bot is added to a group: how a game goes there, and a button to the private
chat where each player's cards come (a bot cannot write first to someone who never started it)."""

from __future__ import annotations

import logging

from telegram import ChatMember, InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.constants import ChatType, ParseMode
from telegram.error import TelegramError
from telegram.ext import ContextTypes

from bot.coordinator import N_

from .context import BotContext, bot_left
from .texts import html, tr

log = logging.getLogger(__name__)

GREETING = N_("Hello! I host UNO games in this group: /new opens one, everyone taps Join, the "
              "creator taps Start. Each player's cards come to their private chat with me: tap "
              "the button below once to open it. /help lists every command.")
PRIVATE_CHAT_BUTTON = N_("Open a private chat with me")


class Greeting:
    def __init__(self, ctx: BotContext) -> None:
        self.ctx = ctx

    async def on_my_chat_member(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        change = update.my_chat_member
        if change is None or change.chat.type == ChatType.PRIVATE:
            return
        if change.old_chat_member.status not in (ChatMember.LEFT, ChatMember.BANNED) or bot_left(update):
            return  # not an arrival: a promotion, a restriction, or the bot removed
        loc = await self.ctx.locale_of(change.from_user)  # whoever added the bot
        username = context.bot.username
        keyboard = InlineKeyboardMarkup([[InlineKeyboardButton(
            tr(PRIVATE_CHAT_BUTTON, loc), url=f"https://t.me/{username}?start=hello")]]) \
            if username else None
        try:
            await context.bot.send_message(change.chat.id, html(tr(GREETING, loc)),
                                           parse_mode=ParseMode.HTML, reply_markup=keyboard)
        except TelegramError as error:  # added where it may not write: nothing to greet with
            log.info("no greeting in chat %s (%s)", change.chat.id, error.message)
