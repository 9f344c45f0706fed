"""Inline mode: ``@bot`` in the group shows your hand as personal results; choosing one plays it.

Decision: a choice is played from the ``chosen_inline_result`` update (needs inline feedback
switched on with @BotFather's /setinlinefeedback). Its ``result_id`` carries the move, as ids:
``<n>[.<hand>[.<press>]]:<game>:<verb>[:<cards>[:<colour>[:<target>]]]``, one of the hand
view's moves spelled as a button spells it (callbacks.py), so the results offer exactly
``HandView.moves``, call-outs included (a call-out's target in the target's place; ``n`` keeps
ids unique when a hand holds two equal cards; a choice made for an earlier hand is not played; ``press`` is the token
of the hand the results showed, so choosing twice, or from results older than the hand, is
refused as stale). Results are cached 0 s, personal, 50 per page with ``next_offset``.

Cards are stickers once the player's theme has its sticker set (stickers.py), as in the
classic UNO bot: a playable card is its sticker, and choosing it posts that sticker in the group
(a wild: four stickers, one per colour, the card framed in it); a card that cannot be played
now is its greyed sticker, whose id plays nothing (verb ``x``) and which posts a neutral line
instead of itself. A posted sticker shows the card even if the move is then refused (a
stale choice): the card stays in the hand, and the player is told why in private. Moves that
are not cards (UNO!, Challenge, a call-out, Draw, Pass, a colour to name, "card + UNO!") stay text
articles, and so does everything until the set is ready or without TELEGRAM_OWNER_ID. A
card's article posts a neutral "🎴" line, naming no card; a move that is no card posts its own
words ("UNO!", "Call out Bo", "Draw"), which tell nothing of the hand.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
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

from bot.coordinator import (
    CARD_STATES,
    MOVE_LABELS,
    N_,
    HandView,
    Move,
    PlayOption,
    Reply,
    Text,
    hand_now,
    move_hint,
    move_label,
    play_ref,
)
from bot.coordinator import commands as cmd
from bot.engine.cards import Card, Color
from bot.i18n import translate
from bot.render.images import Theme
from bot.render.text import card_emoji, card_label, color_label, color_mark, render_reply

from .callbacks import CARDS_RE, GAME_ID_RE, USER_ID_RE, ButtonAction, move_fields
from .context import BotContext
from .keyboards import ordered_options, single_play
from .texts import clip_html, html, tr, user_locale

if TYPE_CHECKING:
    from .stickers import StickerSets

log = logging.getLogger(__name__)

PAGE = 50  # Telegram's cap on results per answer
RESULT_ID_LIMIT = 64  # bytes
RESULT_PREFIX = re.compile(r"^\d{1,4}(?:\.\d{1,4}(?:\.[0-9A-Za-z_-]{6})?)?$")  # <n>[.<hand>[.<press>]]


class Entry(NamedTuple):
    """One choice: ``move`` is ``<verb>[:<card>[:<colour>[:<target>]]]`` (verb ``pu`` plays and
    declares UNO; ``x`` is a card that cannot be played now and plays nothing); ``card`` (and
    ``color`` for a wild) is set for a card's own choice, which a sticker can show."""
    move: str
    title: str
    description: str
    card: Card | None = None
    color: Color | None = None
    playable: bool = False

    @property
    def verb(self) -> str:
        return self.move.split(":", 1)[0]


def entry_move(ref: str) -> str:
    """A move reference (``HandView.moves``) as the move part of a result id."""
    verb, card, color, target, uno = move_fields(ref)
    if verb == "k":  # a call-out: whom, in the target's place
        return f"k:::{target}"
    if verb != "p":
        return ":".join([verb, *(f for f in (color,) if f)])
    fields = [card or "", color or "", target or ""]
    while fields and not fields[-1]:
        fields.pop()
    return ":".join(["pu" if uno else "p", *fields])


def _play_entries(view: HandView, option: PlayOption, title: str, note: str, own: bool) -> list[Entry]:
    """Every complete choice of one play option (a colour, a swap target, UNO! or not)."""
    loc = view.locale
    names = dict(view.swap_targets)
    out = []
    for uno in (False, True):
        for color in option.colors or (None,):
            for target in option.targets or (None,):
                ref = play_ref(option.cards, color, target, uno)
                if ref not in option.refs:
                    continue
                label = title
                if color is not None:
                    label += f" → {color_label(color, loc)}"
                if target is not None:
                    label += f" ⇄ {names.get(target, target)}"
                if uno:
                    label += " + " + tr(MOVE_LABELS["uno"], loc)
                # the card's own choice (a sticker can show it), not "+ UNO!" nor a swap
                mine = own and not uno and target is None
                out.append(Entry(entry_move(ref), label, note, option.card if mine else None,
                                 color, True))
    return out


def result_entries(view: HandView, names: Mapping[str, str] | None = None) -> list[Entry]:
    """Every move the hand view offers, playable cards first; cards that cannot be played now
    are listed too (greyed), playing nothing. ``names`` (user id -> name) name the players a
    call-out catches."""
    loc = view.locale
    entries = [Entry(entry_move(m.ref), f"{color_mark(m.color)} {color_label(m.color, loc)}",
                     tr(MOVE_LABELS["name_color"], loc), playable=True)
               for m in view.color_names() if m.color is not None]
    if entries and all(m.kind == "name_color" for m in view.moves):
        return entries  # the dealer names the colour of a Wild turned first: nothing else yet
    entries += [_move_entry(move, loc, names) for move in view.moves
                if move.kind in ("uno", "challenge", "catch")]
    for shown in ordered_options(view):
        card = shown.card
        play = single_play(view, card) if shown.playable else None
        if play is None:
            if not any(o.cards[0] == card for o in view.multi_plays):
                entries.append(Entry(f"x:{card}", f"{card_emoji(card)} {card_label(card, loc)}",
                                     tr(CARD_STATES["unplayable"], loc), card))
            continue
        mark = "⚡ " if shown.jump_in else ""
        entries += _play_entries(view, play, f"{mark}{card_emoji(card)} {card_label(card, loc)}",
                                 tr(CARD_STATES["playable"], loc), own=True)
    for option in view.multi_plays:
        title = tr(N_("{cards} · {top} on top"), loc, cards="+".join(card_emoji(c) for c in option.cards),
                   top=card_emoji(option.card))
        entries += _play_entries(view, option, title, tr(CARD_STATES["playable"], loc), own=False)
    entries += [_move_entry(move, loc) for move in view.moves if move.kind in ("draw", "take", "pass")]
    return entries


def _codes(entry: Entry) -> str:
    """What a typed filter matches besides the title: the cards' codes ("r5"), never a
    call-out's user id (typing "2" is not looking for a player whose id holds a 2)."""
    return (entry.verb if entry.verb == "k" else entry.move).lower()


def _move_entry(move: Move, loc: str, names: Mapping[str, str] | None = None) -> Entry:
    """A move that plays no card, named as its button is on every frontend."""
    hint = move_hint(move)
    return Entry(entry_move(move.ref), translate(move_label(move, names), loc),
                 "" if hint is None else translate(hint, loc), playable=True)


class InlineMove(NamedTuple):
    game_id: str
    verb: str
    card: str | None
    color: str | None
    hand: int  # the hand number the results were made for (0: unknown)
    press: str | None = None  # token of the hand the results showed (None: unchecked)
    target: str | None = None  # whom a 7 swaps with

    @property
    def ref(self) -> str | None:
        """The move reference the chosen result stands for (``HandView.moves``)."""
        verb = "p" if self.verb == "pu" else self.verb
        return ButtonAction("h", self.game_id, verb, None, self.card, self.color, self.target,
                            self.verb == "pu").ref


def parse_result_id(result_id: str) -> InlineMove | None:
    """The move a chosen result id names
    (``<n>[.<hand>[.<press>]]:<game>:<verb>[:<cards>[:<colour>[:<target>]]]``), or None if it
    is not ours."""
    parts = result_id.split(":")
    if len(parts) < 3 or not RESULT_PREFIX.match(parts[0]) or not GAME_ID_RE.match(parts[1]):
        return None
    stamps = parts[0].split(".")
    hand = int(stamps[1]) if len(stamps) > 1 else 0
    press = stamps[2] if len(stamps) > 2 else None
    game_id, verb, rest = parts[1], parts[2], parts[3:]
    if verb in ("y", "c", "d", "n") and not rest:
        return InlineMove(game_id, verb, None, None, hand, press)
    if verb == "k" and len(rest) == 3 and not rest[0] and not rest[1] and USER_ID_RE.match(rest[2]):
        return InlineMove(game_id, verb, None, None, hand, press, rest[2])
    if verb == "o" and len(rest) == 1 and len(rest[0]) == 1 and rest[0] in "RGBY":
        return InlineMove(game_id, verb, None, rest[0], hand)
    if verb in ("p", "pu") and 1 <= len(rest) <= 3 and CARDS_RE.match(rest[0]):
        color = rest[1] or None if len(rest) >= 2 else None
        target = rest[2] if len(rest) == 3 else None
        if color is not None and (len(color) != 1 or color not in "RGBY"):
            return None
        if target is not None and not USER_ID_RE.match(target):
            return None
        return InlineMove(game_id, verb, rest[0], color, hand, press, target)
    return None


class InlineMode:
    def __init__(self, ctx: BotContext, stickers: StickerSets | None = None) -> None:
        self.ctx = ctx
        self.stickers = stickers  # None without TELEGRAM_OWNER_ID: cards shown as text

    async def _hand_of(self, user_id: str, tg_user) -> HandView | None:
        """The player's hand as the stored game has it now. The hand last sent may be older
        without being wrong: a player who forgot UNO! may be called out by anyone, and no
        hand message is edited for that, so the results are made from the game itself."""
        known = self.ctx.port.known_hand(user_id)
        if known is not None and not known.view.hand_over:
            now = hand_now(await self.ctx.game_record(known.view.game_id), user_id, known.view.locale)
            if now is not None:
                return now
        chat = await self.ctx.user_game(user_id)
        if chat is None:
            return None
        # After a restart the port has not seen this hand yet: ask for it (the coordinator
        # sends it through the port, which remembers it even if the private chat is blocked).
        reply = await self.ctx.run(cmd.ShowHand(chat, await self.ctx.user(tg_user)))
        if reply.hand is not None:
            return reply.hand
        known = self.ctx.port.known_hand(user_id)
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
        entries = result_entries(view, self.ctx.port.seat_names(view.game_id))
        typed = query.query.strip().lower()
        if typed:  # "@bot red" or "@bot 5": only the matching choices
            entries = [e for e in entries if typed in e.title.lower() or typed in _codes(e)]
        start = int(query.offset) if query.offset.isdigit() else 0
        page = entries[start:start + PAGE]
        hand = self.ctx.port.hand_number(view.game_id)
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
        unplayable = InputTextMessageContent(html(tr(N_("🎴 I cannot play that card now."), view.locale)),
                                             parse_mode=ParseMode.HTML)
        results: list[InlineQueryResult] = []
        for prefix, entry in zip(prefixes, page, strict=True):
            if len(f"{prefix}:{entry.move}".encode()) > RESULT_ID_LIMIT:
                continue  # eight +2s at once do not fit in a result id: played in two goes
            sticker = None
            if theme is not None and self.stickers is not None and entry.card is not None:
                sticker = self.stickers.file_id(theme, entry.card, color=entry.color,
                                                dimmed=not entry.playable)
            if sticker is not None and entry.playable:  # choosing it plays it and posts it
                results.append(InlineQueryResultCachedSticker(f"{prefix}:{entry.move}", sticker))
            elif sticker is not None:  # greyed: plays nothing, posts a line, not the card
                results.append(InlineQueryResultCachedSticker(
                    f"{prefix}:x:{entry.card}", sticker, input_message_content=unplayable))
            else:
                results.append(InlineQueryResultArticle(
                    id=f"{prefix}:{entry.move}", title=entry.title,
                    description=entry.description or None,
                    input_message_content=self._posted(entry, neutral, unplayable)))
        return results

    @staticmethod
    def _posted(entry: Entry, neutral: InputTextMessageContent,
                unplayable: InputTextMessageContent) -> InputTextMessageContent:
        """What choosing an article posts in the group as the player's message: a move that is
        no card says itself ("UNO!", "Call out Bo", "Draw"), which tells nothing of the hand;
        a card posts a neutral line, as it may yet be refused and stay in the hand."""
        if not entry.playable:
            return unplayable
        if entry.verb in ("p", "pu"):  # a play: its title names its cards
            return neutral
        return InputTextMessageContent(html(entry.title), parse_mode=ParseMode.HTML)

    async def on_chosen(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        chosen = update.chosen_inline_result
        if chosen is None:
            return
        parsed = parse_result_id(chosen.result_id)
        if parsed is None:
            return
        game_id, hand, press = parsed.game_id, parsed.hand, parsed.press
        record = await self.ctx.game_record(game_id)
        if record is None:
            return
        chat = record.chat
        user = await self.ctx.user(chosen.from_user)
        if hand and record.has_match and record.current().hand_number != hand:
            await self._tell(user.id, Reply(ok=False, text=Text(N_("That hand is over: open your cards again."))))
            return
        # The hand view's move by its reference: the coordinator judges it (stale, illegal).
        reply = await self.ctx.run(cmd.ChooseMove(chat, user, ref=parsed.ref or "", press=press))
        if not reply.ok:
            await self._tell(user.id, reply)

    async def _tell(self, user_id: str, reply: Reply) -> None:
        """No popup exists for an inline choice: tell the player privately (best effort)."""
        try:
            await self.ctx.port.bot.send_message(int(user_id), clip_html(render_reply(reply, escape=html)),
                                                 parse_mode=ParseMode.HTML)
        except TelegramError:
            log.info("could not tell a player why their inline move was refused")
