"""Inline buttons (callback queries): lobby, table and private-hand keyboards.

Every press is answered. Interface checks only happen here (our button? your own hand? the
game and hand it was made for still running? shown in its own chat?); the move itself is
judged by the coordinator, whose reply becomes the popup.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from telegram import CallbackQuery, Update
from telegram.error import TelegramError
from telegram.ext import ContextTypes

from bot.coordinator import (
    CARD_STATES,
    N_,
    ChatKey,
    DeliveryFailed,
    GameRecord,
    HandView,
    Text,
    User,
    hand_now,
    refusal_text,
    split_table_chat,
)
from bot.coordinator import commands as cmd
from bot.i18n import translate
from bot.render.text import render_reply, shortened

from . import callbacks
from .context import BotContext
from .keyboards import hand_keyboard, sub_keyboard
from .texts import POPUP_LIMIT, tr, user_locale

log = logging.getLogger(__name__)

ANSWER_WITHIN = 3.0  # seconds before a button press is answered without waiting for its reply


class Buttons:
    def __init__(self, ctx: BotContext) -> None:
        self.ctx = ctx

    async def on_button(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        if query is None:
            return
        answered = False

        async def answer(text: str = "", alert: bool = False) -> None:
            nonlocal answered
            answered = True
            await query.answer(shortened(text, POPUP_LIMIT) if text else None, show_alert=alert)

        try:
            await self._button(query, answer)
        finally:
            if not answered:  # every callback query gets an answer, even after an error
                try:
                    await query.answer(shortened(translate(
                        refusal_text("frontend_failed"), user_locale(query.from_user.language_code)),
                        POPUP_LIMIT))
                except TelegramError:
                    pass

    async def _button(self, query: CallbackQuery, answer: Callable[..., Awaitable[None]]) -> None:
        # The adapter's own language lookup (a store read) only happens on the paths that
        # speak: a plain move is answered in the coordinator's words.
        try:
            action = callbacks.parse(query.data)
        except callbacks.BadCallback:
            loc = await self.ctx.locale_of(query.from_user)
            await answer(translate(refusal_text("bad_button"), loc), alert=True)
            return
        record = await self.ctx.game_record(action.game_id)
        refusal = self._refusal(query, action, record)
        if refusal is not None or record is None:
            loc = await self.ctx.locale_of(query.from_user)
            await answer(translate(refusal or refusal_text("game_ended"), loc), alert=True)
            return
        if action.scope == "h" and action.verb == "v":
            await answer(await self._hand_picture(query, action, record.chat))
            return
        if action.scope == "h" and action.verb == "x":  # a greyed card: plays nothing
            await answer(tr(CARD_STATES["unplayable"], await self.ctx.locale_of(query.from_user)))
            return
        if action.scope == "h" and action.verb in ("w", "s", "q", "m", "g"):
            await self._hand_menu(query, action, record, await self.ctx.locale_of(query.from_user))
            await answer()
            return
        message_chat = query.message.chat.id if query.message else None
        user = await self.ctx.user(query.from_user, message_chat,
                                 need_admin=action.scope == "l" and action.verb == "start")
        running = asyncio.ensure_future(self.ctx.run(self._button_command(action, record.chat, user)))
        try:
            # The coordinator replies after delivering the turn's messages; under flood control
            # that can take a while, and Telegram drops answers to old queries: stop the
            # spinner in time and let the move finish (the table and hand show its result).
            reply = await asyncio.wait_for(asyncio.shield(running), ANSWER_WITHIN)
        except TimeoutError:
            await answer()
            reply = await running
            if not reply.ok:
                log.info("a slow button press was refused (%s)", reply.error)
            return
        await answer(render_reply(reply), alert=not reply.ok and reply.error in ("not_allowed",))

    @staticmethod
    def _refusal(query: CallbackQuery, action: callbacks.ButtonAction,
                 record: GameRecord | None) -> Text | None:
        """Why this button must not act, or None. Interface checks only: whether
        the move itself is allowed is the coordinator's call."""
        if action.scope == "h" and action.owner != str(query.from_user.id):
            return Text(N_("These buttons belong to another player's hand."))
        if record is None:
            return refusal_text("game_ended")
        if action.scope == "h" and action.hand and record.has_match \
                and record.current().hand_number != action.hand:
            return Text(N_("This hand is over: use the buttons of your new hand."))
        if action.scope in ("l", "t") and query.message is not None \
                and str(query.message.chat.id) != split_table_chat(record.chat.chat_id)[0]:
            # Forged data naming another chat's game: buttons act where they are shown.
            return refusal_text("bad_button")
        return None

    @staticmethod
    def _button_command(action: callbacks.ButtonAction, chat: ChatKey, user: User) -> cmd.Command:
        if action.scope == "l":
            return {"leave": cmd.Leave, "start": cmd.StartGame, "ai": cmd.AddAiSeat,
                    "notify": cmd.NotifyMe}[action.verb](chat, user)
        if action.scope == "t":
            return cmd.CallUno(chat, user)
        # A move of the hand view: its reference, judged (stale, forged, illegal) by the
        # coordinator. A call-out is about another player's state: settled, not stale-checked.
        return cmd.ChooseMove(chat, user, ref=action.ref or "",
                              press=None if action.verb == "k" else action.press)

    async def _hand_picture(self, query: CallbackQuery, action: callbacks.ButtonAction,
                            chat: ChatKey) -> str:
        """ "Show my hand": a picture of the presser's own hand (the owner was checked), sent
        to their private chat whatever chat the keyboard is in. Returns the popup text."""
        owner = action.owner or ""

        def current() -> HandView | None:
            known = self.ctx.port.known_hand(owner)
            return known.view if known is not None and known.view.game_id == action.game_id else None

        view = current()
        if view is None:  # after a restart the last view is unknown: the coordinator resends it
            await self.ctx.run(cmd.ShowHand(chat, await self.ctx.user(query.from_user)))
            view = current()
        loc = await self.ctx.locale_of(query.from_user)
        if view is None or view.hand_over or not view.cards:
            return tr(N_("Your hand cannot be shown now: send /hand to get it again."), loc)
        try:
            await self.ctx.port.send_hand_picture(owner, view)
        except DeliveryFailed as failure:
            if failure.reason == "blocked":
                return tr(N_("I cannot write to you privately: open a private chat with me and press "
                             "Start."), loc)
            log.info("a hand picture was not sent (%s)", failure.reason)
            return tr(N_("The picture could not be sent. Try again in a moment."), loc)
        return ""

    async def _hand_menu(self, query: CallbackQuery, action: callbacks.ButtonAction, record: GameRecord,
                         loc: str) -> None:
        """Sub-menus and pages of a hand keyboard: drawn from the button and the last hand view."""
        if query.message is None:
            return
        chat_id, message_id = query.message.chat.id, query.message.message_id
        known = self.ctx.port.known_hand(action.owner or "")
        view = known.view if known and known.view.game_id == action.game_id else None
        if view is None:
            # After a restart the last view is unknown: the coordinator's view of the stored game.
            view = hand_now(record, action.owner or "", loc)
        if view is None:
            await self.ctx.run(cmd.ShowHand(record.chat, await self.ctx.user(query.from_user)))
            return
        if action.verb in ("w", "g"):
            # The colour picker is part of the hand's state: kept with the game (opened by a
            # wild, closed by Back), so the hand delivered again shows it, after a restart too.
            await self.ctx.run(cmd.OpenColorPicker(record.chat, await self.ctx.user(query.from_user),
                                                   card=(action.card or "") if action.verb == "w" else "",
                                                   declare_uno=action.uno, press=action.press))
        markup = sub_keyboard(view, action)
        if markup is None:  # a page, or cards the hand no longer offers: the hand keyboard
            markup = hand_keyboard(view, action.page, self.ctx.port.seat_names(view.game_id), action.hand,
                                   web_app_url=self.ctx.port.web_app_url(view.game_id),
                                   web_link=self.ctx.port.web_link(view.user_id, view.game_id))
        await self.ctx.port.show_keyboard(chat_id, message_id, markup)
