"""The bot's own membership of a group. Added: a hello, how a game goes there, and a button to
the private chat where each player's cards come (a bot cannot write first to someone who never
started it). Removed: the group's game stops, rather than play on where nobody sees it (its
turns timing out into bots' moves, its messages refused). Upgraded to a supergroup (a new chat
id): the game moves there (``upgraded_groups``)."""

from __future__ import annotations

import dataclasses
import logging

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.constants import ChatType, ParseMode
from telegram.error import TelegramError
from telegram.ext import ContextTypes

from bot.coordinator import N_
from bot.coordinator import commands as cmd

from .context import ABSENT, BotContext, bot_left, chat_key
from .texts import html, tr

log = logging.getLogger(__name__)

GREETING = N_("Hello! I host UNO games in this group: /new opens one, everyone taps Join, the "
              "creator taps Start. Each player's cards come to their private chat with me: tap "
              "the button below once to open it. /help lists every command.")
PRIVATE_CHAT_BUTTON = N_("Open a private chat with me")


class Membership:
    def __init__(self, ctx: BotContext) -> None:
        self.ctx = ctx

    async def on_my_chat_member(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        change = update.my_chat_member
        if change is None or change.chat.type == ChatType.PRIVATE:
            return
        if bot_left(update):
            await self.stop_game(update)
        elif change.old_chat_member.status in ABSENT:
            await self.greet(update, context)
        # else: a promotion or a restriction, nothing to say

    async def on_migrate(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """The service message of a group upgraded to a supergroup, in the old chat (with the
        new id) or in the new one (with the old id)."""
        message = update.effective_message
        if message is None:
            return
        if message.migrate_to_chat_id:
            await self.ctx.chat_moved(message.chat.id, message.migrate_to_chat_id)
        elif message.migrate_from_chat_id:
            await self.ctx.chat_moved(message.migrate_from_chat_id, message.chat.id)

    async def greet(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        change = update.my_chat_member
        assert change is not None
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

    async def stop_game(self, update: Update) -> None:
        """Stop the group's game as whoever removed the bot (an admin: only they may)."""
        change = update.my_chat_member
        assert change is not None
        remover = dataclasses.replace(await self.ctx.user(change.from_user), is_admin=True)
        reply = await self.ctx.run(cmd.StopGame(chat_key(change.chat), remover))
        if reply.ok:
            log.info("chat %s: the bot was removed, its game stopped", change.chat.id)
