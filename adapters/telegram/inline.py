"""Inline mode: ``@bot`` in the group shows your hand as personal results; choosing one plays it.

Decision: a choice is played from the ``chosen_inline_result`` update (needs inline feedback
switched on with @BotFather's /setinlinefeedback). Its ``result_id`` carries the move, as ids:
``<n>[.<hand>[.<press>]]:<game>:<verb>[:<card>[:<colour>]]`` (``n`` keeps ids unique when a hand
holds two equal cards; a choice made for an earlier hand is not played; ``press`` is the token
of the hand the results showed, so choosing twice, or from results older than the hand, is
refused as stale). The message the client then posts in the group is a neutral "🎴" line: it must not
name a card, because the move may still be refused (and then that card stays in the hand).
Results are cached 0 s, personal, 50 per page with ``next_offset``.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, NamedTuple

from telegram import (
    InlineQueryResultArticle,
    InlineQueryResultsButton,
    InputTextMessageContent,
    Update,
)
from telegram.constants import ParseMode
from telegram.error import TelegramError
from telegram.ext import ContextTypes

from bot.coordinator import commands as cmd
from bot.coordinator.views import N_, HandView, Reply, Text
from bot.engine.cards import Color
from bot.render.text import card_emoji, card_label, color_label, color_mark, render_reply

from .callbacks import CARD_RE, GAME_ID_RE, USER_ID_RE
from .keyboards import ordered_options
from .texts import clip_html, html, tr, user_locale

if TYPE_CHECKING:
    from .handlers import UnoHandlers

log = logging.getLogger(__name__)

PAGE = 50  # Telegram's cap on results per answer
RESULT_PREFIX = re.compile(r"^\d{1,4}(?:\.\d{1,4}(?:\.[0-9A-Za-z_-]{6})?)?$")  # <n>[.<hand>[.<press>]]


def result_entries(view: HandView) -> list[tuple[str, str, str]]:
    """(move, title, description) for every choice the hand offers, playable first.
    ``move`` is ``<verb>[:<card>[:<colour>]]``; verb ``pu`` plays and declares UNO."""
    loc = view.locale
    entries: list[tuple[str, str, str]] = []
    if view.name_color:  # the dealer names the colour of a Wild turned first: nothing else yet
        return [(f"o:{color.value}", f"{color_mark(color)} {color_label(color, loc)}",
                 tr(N_("Name the colour of the first card"), loc)) for color in Color]
    if view.can_declare_uno:
        entries.append(("y", tr(N_("UNO!"), loc), tr(N_("Declare UNO"), loc)))
    if view.can_challenge:
        entries.append(("c", tr(N_("Challenge"), loc), tr(N_("Challenge the Wild Draw Four"), loc)))
    for option in ordered_options(view):
        card = option.card
        note = tr(N_("Playable"), loc) if option.playable else tr(N_("Not playable now"), loc)
        # Two cards left: each playable card also as "play it and declare UNO" (verb pu).
        verbs = ("p", "pu") if option.playable and len(view.cards) == 2 else ("p",)
        for verb in verbs:
            suffix = " + " + tr(N_("UNO!"), loc) if verb == "pu" else ""
            if card.is_wild and option.playable:
                for color in Color:
                    entries.append((f"{verb}:{card}:{color.value}", f"{card_emoji(card)} "
                                    f"{card_label(card, loc)} → {color_label(color, loc)}{suffix}", note))
            else:
                entries.append((f"{verb}:{card}", f"{card_emoji(card)} {card_label(card, loc)}{suffix}", note))
    if view.can_draw:
        label = tr(N_("Take +{count}"), loc, count=view.pending_draw) if view.pending_draw else tr(N_("Draw"), loc)
        entries.append(("d", label, ""))
    if view.can_pass:
        entries.append(("n", tr(N_("Pass"), loc), ""))
    return entries


class InlineMove(NamedTuple):
    game_id: str
    verb: str
    card: str | None
    color: str | None
    hand: int  # the hand number the results were made for (0: unknown)
    press: str | None = None  # token of the hand the results showed (None: unchecked)


def parse_result_id(result_id: str) -> InlineMove | None:
    """The move a chosen result id names (``<n>[.<hand>]:<game>:<verb>[:<card>[:<colour>]]``),
    or None if it is not ours."""
    parts = result_id.split(":")
    if len(parts) < 3 or not RESULT_PREFIX.match(parts[0]) or not GAME_ID_RE.match(parts[1]):
        return None
    stamps = parts[0].split(".")
    hand = int(stamps[1]) if len(stamps) > 1 else 0
    press = stamps[2] if len(stamps) > 2 else None
    game_id, verb, rest = parts[1], parts[2], parts[3:]
    if verb in ("y", "c", "d", "n") and not rest:
        return InlineMove(game_id, verb, None, None, hand, press)
    if verb == "o" and len(rest) == 1 and len(rest[0]) == 1 and rest[0] in "RGBY":
        return InlineMove(game_id, verb, None, rest[0], hand)
    if verb in ("p", "pu") and 1 <= len(rest) <= 2 and CARD_RE.match(rest[0]):
        color = rest[1] if len(rest) == 2 else None
        if color is not None and color not in "RGBY":
            return None
        return InlineMove(game_id, verb, rest[0], color, hand, press)
    return None


class InlineMode:
    def __init__(self, handlers: UnoHandlers) -> None:
        self.h = handlers

    async def _hand_of(self, user_id: str, tg_user) -> HandView | None:
        known = self.h.port.known_hand(user_id)
        if known is not None and not known.view.hand_over and await self.h.game_chat(known.view.game_id):
            return known.view
        chat = await self.h.user_game(user_id)
        if chat is None:
            return None
        # After a restart the port has not seen this hand yet: ask for it (the coordinator
        # sends it through the port, which remembers it even if the private chat is blocked).
        reply = await self.h.run(cmd.ShowHand(chat, await self.h.user(tg_user)))
        if reply.hand is not None:
            return reply.hand
        known = self.h.port.known_hand(user_id)
        return known.view if known else None

    async def on_query(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.inline_query
        if query is None:
            return
        user_id = str(query.from_user.id)
        loc = user_locale(query.from_user.language_code)
        view = await self._hand_of(user_id, query.from_user)
        if view is None or not USER_ID_RE.match(user_id):
            await query.answer([], cache_time=0, is_personal=True, button=InlineQueryResultsButton(
                tr(N_("You are not in a game. Start one with /new"), loc), start_parameter="help"))
            return
        entries = result_entries(view)
        typed = query.query.strip().lower()
        if typed:  # "@bot red" or "@bot 5": only the matching choices
            entries = [e for e in entries if typed in e[1].lower() or typed in e[0].lower()]
        start = int(query.offset) if query.offset.isdigit() else 0
        page = entries[start:start + PAGE]
        neutral = InputTextMessageContent(html(tr(N_("🎴 I make my move."), view.locale)),
                                          parse_mode=ParseMode.HTML)
        hand = self.h.port.hand_number(view.game_id)
        stamp = f".{hand}.{view.press}" if view.press else (f".{hand}" if hand else "")
        results = [InlineQueryResultArticle(id=f"{start + i}{stamp}:{view.game_id}:{move}", title=title,
                                            description=description or None,
                                            input_message_content=neutral)
                   for i, (move, title, description) in enumerate(page)]
        next_offset = str(start + PAGE) if start + PAGE < len(entries) else ""
        await query.answer(results, cache_time=0, is_personal=True, next_offset=next_offset)

    async def on_chosen(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        chosen = update.chosen_inline_result
        if chosen is None:
            return
        parsed = parse_result_id(chosen.result_id)
        if parsed is None:
            return
        game_id, verb, card, color, hand, press = parsed
        record = await self.h.game_record(game_id)
        if record is None:
            return
        chat = record.chat
        user = await self.h.user(chosen.from_user)
        if hand and record.match and record.match.get("hand_number") != hand:
            await self._tell(user.id, Reply(ok=False, text=Text(N_("That hand is over: open your cards again."))))
            return
        if verb in ("p", "pu"):
            command: cmd.Command = cmd.PlayCards(chat, user, cards=(card or "",), color=color,
                                                 declare_uno=verb == "pu", press=press)
        elif verb == "o":
            command = cmd.NameColor(chat, user, color=color or "")
        else:
            command = {"y": cmd.DeclareUno, "c": cmd.Challenge, "d": cmd.Draw, "n": cmd.Pass}[verb](
                chat, user, press=press)
        reply = await self.h.run(command)
        if not reply.ok:
            await self._tell(user.id, reply)

    async def _tell(self, user_id: str, reply: Reply) -> None:
        """No popup exists for an inline choice: tell the player privately (best effort)."""
        try:
            await self.h.port.bot.send_message(int(user_id), clip_html(render_reply(reply, escape=html)),
                                               parse_mode=ParseMode.HTML)
        except TelegramError:
            log.info("could not tell a player why their inline move was refused")
