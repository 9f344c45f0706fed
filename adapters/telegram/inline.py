"""Inline mode: ``@bot`` in the group shows your hand as personal results; choosing one plays it.

Decision: a choice is played from the ``chosen_inline_result`` update (needs inline feedback
switched on with @BotFather's /setinlinefeedback). Its ``result_id`` carries the move, as ids:
``<n>[.<hand>[.<press>]]:<game>:<verb>[:<card>[:<colour>]]`` (``n`` keeps ids unique when a hand
holds two equal cards; a choice made for an earlier hand is not played; ``press`` is the token
of the hand the results showed, so choosing twice, or from results older than the hand, is
refused as stale). Results are cached 0 s, personal, 50 per page with ``next_offset``.

Cards are stickers once the player's theme has its sticker set (stickers.py), as in the
classic UNO bot: a playable card is its sticker, and choosing it posts that sticker in the group
(a wild: four stickers, one per colour, the card framed in it); a card that cannot be played
now is its greyed sticker, whose id plays nothing (verb ``x``) and which posts a neutral line
instead of itself. A posted sticker shows the card even if the move is then refused (a
stale choice): the card stays in the hand, and the player is told why in private. Moves that
are not cards (UNO!, Challenge, Draw, Pass, a colour to name, "card + UNO!") stay text
articles, and so does everything until the set is ready or without TELEGRAM_OWNER_ID; an
article posts a neutral "🎴" line, naming no card.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, NamedTuple

from telegram import (
    InlineQueryResult,
    InlineQueryResultArticle,
    InlineQueryResultCachedSticker,
    InlineQueryResultsButton,
    InputTextMessageContent,
    Update,
)
from telegram.constants import ParseMode
from telegram.error import BadRequest, TelegramError
from telegram.ext import ContextTypes

from bot.coordinator import commands as cmd
from bot.coordinator.views import N_, HandView, Reply, Text
from bot.engine.cards import Card, Color
from bot.render.images import Theme
from bot.render.text import card_emoji, card_label, color_label, color_mark, render_reply

from .callbacks import CARD_RE, GAME_ID_RE, USER_ID_RE
from .keyboards import ordered_options
from .texts import clip_html, html, tr, user_locale

if TYPE_CHECKING:
    from .handlers import UnoHandlers
    from .stickers import StickerSets

log = logging.getLogger(__name__)

PAGE = 50  # Telegram's cap on results per answer
RESULT_PREFIX = re.compile(r"^\d{1,4}(?:\.\d{1,4}(?:\.[0-9A-Za-z_-]{6})?)?$")  # <n>[.<hand>[.<press>]]


class Entry(NamedTuple):
    """One choice: ``move`` is ``<verb>[:<card>[:<colour>]]`` (verb ``pu`` plays and declares
    UNO); ``card`` (and ``color`` for a wild) is set for a card's own choice, which a sticker
    can show."""
    move: str
    title: str
    description: str
    card: Card | None = None
    color: Color | None = None
    playable: bool = False


def result_entries(view: HandView) -> list[Entry]:
    """Every choice the hand offers, playable cards first."""
    loc = view.locale
    entries: list[Entry] = []
    if view.name_color:  # the dealer names the colour of a Wild turned first: nothing else yet
        return [Entry(f"o:{color.value}", f"{color_mark(color)} {color_label(color, loc)}",
                      tr(N_("Name the colour of the first card"), loc)) for color in Color]
    if view.can_declare_uno:
        entries.append(Entry("y", tr(N_("UNO!"), loc), tr(N_("Declare UNO"), loc)))
    if view.can_challenge:
        entries.append(Entry("c", tr(N_("Challenge"), loc), tr(N_("Challenge the Wild Draw Four"), loc)))
    for option in ordered_options(view):
        card = option.card
        note = tr(N_("Playable"), loc) if option.playable else tr(N_("Not playable now"), loc)
        # Two cards left: each playable card also as "play it and declare UNO" (verb pu).
        verbs = ("p", "pu") if option.playable and len(view.cards) == 2 else ("p",)
        for verb in verbs:
            suffix = " + " + tr(N_("UNO!"), loc) if verb == "pu" else ""
            own = verb == "p"  # the card's own choice (a sticker can show it), not "+ UNO!"
            if card.is_wild and option.playable:
                for color in Color:
                    entries.append(Entry(f"{verb}:{card}:{color.value}", f"{card_emoji(card)} "
                                         f"{card_label(card, loc)} → {color_label(color, loc)}{suffix}",
                                         note, card if own else None, color, True))
            else:
                entries.append(Entry(f"{verb}:{card}", f"{card_emoji(card)} {card_label(card, loc)}{suffix}",
                                     note, card if own else None, None, option.playable))
    if view.can_draw:
        label = tr(N_("Take +{count}"), loc, count=view.pending_draw) if view.pending_draw else tr(N_("Draw"), loc)
        entries.append(Entry("d", label, ""))
    if view.can_pass:
        entries.append(Entry("n", tr(N_("Pass"), loc), ""))
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
        self.stickers: StickerSets | None = None  # set by the app when TELEGRAM_OWNER_ID is

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
            entries = [e for e in entries if typed in e.title.lower() or typed in e.move.lower()]
        start = int(query.offset) if query.offset.isdigit() else 0
        page = entries[start:start + PAGE]
        hand = self.h.port.hand_number(view.game_id)
        stamp = f".{hand}.{view.press}" if view.press else (f".{hand}" if hand else "")
        prefixes = [f"{start + i}{stamp}:{view.game_id}" for i in range(len(page))]
        next_offset = str(start + PAGE) if start + PAGE < len(entries) else ""
        theme = Theme(view.theme)
        if self.stickers is not None and self.stickers.ready(theme):
            try:
                await query.answer(self._results(view, prefixes, page, theme), cache_time=0,
                                   is_personal=True, next_offset=next_offset)
                return
            except BadRequest as error:  # a sticker Telegram no longer knows: text, this time
                log.warning("inline answer with stickers refused (%s): answering with text", error.message)
                self.stickers.distrust(theme)
        await query.answer(self._results(view, prefixes, page, None), cache_time=0, is_personal=True,
                           next_offset=next_offset)

    def _results(self, view: HandView, prefixes: list[str], page: list[Entry],
                 theme: Theme | None) -> list[InlineQueryResult]:
        """The page as results: cards as stickers of ``theme`` (None: everything as text)."""
        neutral = InputTextMessageContent(html(tr(N_("🎴 I make my move."), view.locale)),
                                          parse_mode=ParseMode.HTML)
        results: list[InlineQueryResult] = []
        for prefix, entry in zip(prefixes, page, strict=True):
            sticker = None
            if theme is not None and self.stickers is not None and entry.card is not None:
                sticker = self.stickers.file_id(theme, entry.card, color=entry.color,
                                                dimmed=not entry.playable)
            if sticker is not None and entry.playable:  # choosing it plays it and posts it
                results.append(InlineQueryResultCachedSticker(f"{prefix}:{entry.move}", sticker))
            elif sticker is not None:  # greyed: plays nothing, posts a line, not the card
                results.append(InlineQueryResultCachedSticker(
                    f"{prefix}:x:{entry.card}", sticker, input_message_content=InputTextMessageContent(
                        html(tr(N_("🎴 I cannot play that card now."), view.locale)),
                        parse_mode=ParseMode.HTML)))
            else:
                results.append(InlineQueryResultArticle(
                    id=f"{prefix}:{entry.move}", title=entry.title,
                    description=entry.description or None, input_message_content=neutral))
        return results

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
