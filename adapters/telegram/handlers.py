"""Commands (``/play``, ``/uno``, ``/stats``...): parse a Telegram message, build one
coordinator command, show its Reply. Buttons are in buttons.py, inline mode in inline.py, the
settings and card menus in settings_menu.py and card_theme.py; routes.py registers them all.

Thin by design: no rule is decided here. The only checks are about the user interface;
everything else is the coordinator's answer, shown to the person who asked.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Coroutine
from typing import Any

from cachetools import FIFOCache
from telegram import Chat, InlineKeyboardButton, InlineKeyboardMarkup, Message, Update
from telegram import User as TgUser
from telegram.constants import ChatType, ParseMode
from telegram.ext import ContextTypes

from bot.coordinator import (
    N_,
    ChatKey,
    Reply,
    User,
    names_a_move,
    not_understood,
    notation,
    preset_command,
    top_request,
    typed_command,
)
from bot.coordinator import commands as cmd
from bot.engine.cards import Card
from bot.i18n import translate
from bot.render.text import render_reply

from .bot_commands import help_text
from .context import PLATFORM, BotContext, BuildCommand, parts, replied_user
from .texts import clip_html, html, mention, tr

QUESTIONS_KEPT = 10_000
# "/play" (or "/play@bot") with no space before a non-ASCII word: "/play红5".
GLUED_PLAY = re.compile(r"^/play(?:@\w+)?([^\x00-\x7f].*)$", re.S)
NAME_TYPED = 64  # a seat named in a command: longer text names no seat

Handler = Callable[[Update, ContextTypes.DEFAULT_TYPE], Coroutine[Any, Any, None]]
Found = tuple[Message, TgUser, Chat, ChatKey]  # a message, its sender and chat, the game's chat


class CommandHandlers:
    def __init__(self, ctx: BotContext) -> None:
        self.ctx = ctx
        # Per (game chat, user): a /play refused for want of a colour or a swap target,
        # completed by "/play red" or "/play Ana"; past the size, the oldest is forgotten.
        self._questions: FIFOCache[tuple[ChatKey, str], notation.Question] = FIFOCache(
            QUESTIONS_KEPT)

    def simple(self, command_type: type[cmd.Command]) -> Handler:
        """The handler of a command that takes no argument."""
        need_admin = command_type in (cmd.StopGame, cmd.StartGame)

        async def handler(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
            await self._command(update, lambda chat, user: command_type(chat, user), need_admin)
        return handler

    async def _game_of(self, update: Update) -> Found | None:
        """The message, its sender and chat, and the group whose game it is about; None, after
        telling the sender, when a private chat's sender sits in no game."""
        incoming = parts(update)
        if incoming is None:
            return None
        message, tg_user, tg_chat = incoming
        chat = await self.ctx.command_chat(tg_chat, tg_user)
        if chat is None:
            loc = await self.ctx.locale_of(tg_user)
            await message.reply_text(html(tr(N_("You are not in a game: add me to a group and open "
                                                "one there with /new."), loc)), parse_mode=ParseMode.HTML)
            return None
        return message, tg_user, tg_chat, chat

    async def _command(self, update: Update, build: BuildCommand, need_admin: bool = False) -> None:
        found = await self._game_of(update)
        if found is not None:
            await self._run(found, build, need_admin)

    async def _run(self, found: Found, build: BuildCommand, need_admin: bool = False) -> None:
        """Run the command about the game ``found`` (``_game_of``) and answer it."""
        message, tg_user, tg_chat, chat = found
        command, reply = await self.ctx.run_as(tg_user, tg_chat, chat, build, need_admin)
        await self.ctx.reply_in_chat(message, command, reply)

    async def on_watch(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/watch``: a read-only link to the live table for anyone here (a URL button: the
        Mini App's own button would tell the page who pressed, which a spectator needs not)."""
        found = await self._game_of(update)
        if found is None:
            return
        message, tg_user, tg_chat, chat = found
        links = self.ctx.port.web_links
        command, reply = await self.ctx.run_as(
            tg_user, tg_chat, chat, lambda key, user: cmd.Watch(key, user, web=links is not None),
            need_admin=False)
        if links is None or not reply.ok or not reply.watch:
            await self.ctx.reply_in_chat(message, command, reply)
            return
        keyboard = InlineKeyboardMarkup([
            [InlineKeyboardButton(translate(link.label, reply.locale),
                                  url=links.watch(PLATFORM, link.game_id))]
            for link in reply.watch])
        await message.reply_text(clip_html(render_reply(reply, escape=html, mention=mention)),
                                 parse_mode=ParseMode.HTML, reply_markup=keyboard)

    async def on_add_ai(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        level = " ".join(context.args or ()) or None  # none: the chat's level (its settings)
        await self._command(update, lambda chat, user: cmd.AddAiSeat(chat, user, strategy=level))

    async def on_play(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/play R5``, ``/play W+4 red``, ``/play 黄2``, ``/play red reverse``, ``/play R5 B5``
        (several where the rules allow), ``/play R7 2`` or ``/play R7 Ana`` (a 7 and whom to
        swap with, found by the coordinator); after a wild refused for want of a colour,
        ``/play red`` completes it, and after a 7 without a target, ``/play Ana``. The
        notation: bot/coordinator/notation.py."""
        await self._play_words(update, list(context.args or []))

    async def on_glued_play(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/play红5``: Chinese is written without spaces, and Telegram then sees no command
        (the command's name runs on into the card's): the words after ``/play``."""
        text = update.effective_message.text if update.effective_message is not None else None
        found = GLUED_PLAY.match(text or "")
        if found is not None:
            await self._play_words(update, found.group(1).split())

    async def _play_words(self, update: Update, args: list[str]) -> None:
        found = await self._game_of(update)
        if found is None:
            return
        said = " ".join(args)
        if args and names_a_move(said):  # "/play draw", "/play Call out Bo": the move it names
            await self._typed(found, said)
        else:
            await self._play(found, args)

    async def on_private_text(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Words typed in the private chat, where the hand is: a move as the hand or its buttons
        name it ("过牌", "draw", "Take +4"), "uno" (as /uno: declare, or call out), a call-out
        ("catch Bo", "抓 Bo") or a one-word command ("hand", "手牌", "rules"), else a card as
        ``/play`` takes it ("红5", "W red", "1", or the colour a wild was refused for). Text
        that is none of them is answered with how to play, never left unanswered."""
        found = await self._game_of(update)
        if found is None:
            return
        message, tg_user, tg_chat, chat = found
        text = message.text or ""
        if notation.normalize(text).strip("!！") == "uno":  # as /uno: declare, or call out
            await self._run(found, lambda chat, user: cmd.CallUno(chat, user))
        elif typed_command(text, chat, await self.ctx.user(tg_user)) is not None:
            await self._typed(found, text)
        else:
            await self._play(found, text.split(), typed=True)

    async def _typed(self, found: Found, text: str) -> None:
        """The move or one-word command ``text`` names (``typed_command``)."""
        def typed(chat: ChatKey, user: User) -> cmd.Command:
            command = typed_command(text, chat, user)
            assert command is not None
            return command

        await self._run(found, typed)

    def _shown_hand(self, chat: ChatKey, tg_user: TgUser) -> tuple[Card, ...] | None:
        """The cards of the hand last shown to this player (in the private chat), in its
        order: "1" or "/play 2 5" are the cards numbered so (None: no hand of this game)."""
        known = self.ctx.port.known_hand(str(tg_user.id))
        return tuple(option.card for option in known.view.cards) if known and known.chat == chat else None

    async def _play(self, found: Found, args: list[str], *,
                    typed: bool = False) -> None:
        """A play from the words after ``/play`` (or ``typed`` in the private chat, where a
        line that names no card is answered with how to play)."""
        message, tg_user, tg_chat, chat = found
        key = (chat, str(tg_user.id))
        question = self._questions.pop(key, None)
        play = question.answered_by(args) if question is not None else None
        if play is None:
            typed_play = notation.parse_play(args, self._shown_hand(chat, tg_user)) \
                if args else notation.TypedPlay()
            if isinstance(typed_play, notation.NotationError) or (typed and not typed_play.cards):
                loc = await self.ctx.locale_of(tg_user)
                user = await self.ctx.user(tg_user)
                if typed:  # words in the private chat: what was not understood, then how to play
                    text = not_understood(typed_play.text if isinstance(typed_play, notation.NotationError)
                                          else None)
                else:
                    assert isinstance(typed_play, notation.NotationError)
                    text = typed_play.text
                await self.ctx.reply_in_chat(message, cmd.PlayCards(chat, user), Reply(
                    ok=False, text=text, error="bad_card", locale=loc))
                return
            play = typed_play
        command, reply = await self.ctx.run_as(tg_user, tg_chat, chat, lambda chat, user: cmd.PlayCards(
            chat, user, cards=play.cards, color=play.color, declare_uno=play.declare_uno,
            swap_with=play.swap_with), False)
        asked = notation.Question.asked_by(reply.asks, play)
        if asked is not None:
            self._questions[key] = asked
        await self.ctx.reply_in_chat(message, command, reply)

    async def on_uno(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/uno``: declare, or call out whoever can be caught; as a reply: call out that player."""
        target = replied_user(update, humans_only=True)
        await self._command(update, lambda chat, user: cmd.CallUno(chat, user, target=target))

    async def on_kick(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/kick`` as a reply to the player's message, or ``/kick 2`` / ``/kick Bot Ana``: the
        seat by number or name as the table lists it (an AI seat has no message to reply to),
        found by the coordinator."""
        target = replied_user(update) or " ".join(context.args or []).strip()[:NAME_TYPED] or None
        if target is None:
            if update.effective_message is not None:
                loc = await self.ctx.locale_of(update.effective_user)
                await update.effective_message.reply_text(html(tr(N_(
                    "Reply to a message of the player to kick, or name the seat: /kick 2 or "
                    "/kick Bot Ana."), loc)))
            return
        await self._command(update, lambda chat, user: cmd.Kick(chat, user, target=target), need_admin=True)

    async def on_rules(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """This chat's rules (in a private chat: the defaults), in English and Chinese."""
        await self.ctx.information(update, lambda chat, user: cmd.ShowRules(chat, user))

    async def on_stats(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/stats`` (yours) or as a reply (that player's): in this chat and everywhere."""
        target = replied_user(update)
        await self.ctx.information(update, lambda chat, user: cmd.ShowStats(chat, user, target=target))

    async def on_top(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/top`` this season's rating table; ``/top previous`` the last season's;
        ``/top global`` (and in the private chat) across all chats."""
        scope, season = top_request(list(context.args or []))
        private = update.effective_chat is not None and update.effective_chat.type == ChatType.PRIVATE
        scope = "global" if private else scope
        await self.ctx.information(update, lambda chat, user: cmd.ShowLeaderboard(
            chat, user, scope=scope, season=season))

    async def on_preset(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/preset save|list|use|delete|share [name or code]``: the chat's saved house rules.
        Saving, using and deleting are settings changes (admins/creator)."""
        args = list(context.args or [])
        await self.ctx.typed(update, lambda chat, user: preset_command(chat, user, args), "bad_preset",
                             need_admin=lambda command: isinstance(
                                 command, cmd.SavePreset | cmd.UsePreset | cmd.DeletePreset))

    async def on_group_only(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        if update.effective_message is None:
            return
        loc = await self.ctx.locale_of(update.effective_user)
        await update.effective_message.reply_text(html(tr(
            N_("This works in a group: add me to one and send /new there."), loc)))

    async def on_help(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        if update.effective_message is None:
            return
        loc = await self.ctx.locale_of(update.effective_user)
        private = update.effective_chat is not None and update.effective_chat.type == ChatType.PRIVATE
        await update.effective_message.reply_text(html(help_text(loc, private=private)),
                                                  parse_mode=ParseMode.HTML)

    async def on_private_start(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/start`` in the private chat: the user can now get messages (resend their hands);
        ``/start join_<game>`` (the lobby's Join deep link) also joins that game."""
        incoming = parts(update)
        if incoming is None:
            return
        message, tg_user, _ = incoming
        loc = await self.ctx.locale_of(tg_user)
        payload = (context.args or [""])[0]
        user = await self.ctx.user(tg_user)
        await self.ctx.coordinator.user_reachable(PLATFORM, user.id)
        if payload.startswith("join_"):
            chat = await self.ctx.game_chat(payload[len("join_"):])
            if chat is None:
                await message.reply_text(html(tr(N_("That game is over."), loc)))
                return
            command = cmd.Join(chat, user)
            await self.ctx.reply_in_chat(message, command, await self.ctx.run(command))
            return
        await message.reply_text(html(help_text(loc, private=True)), parse_mode=ParseMode.HTML)
