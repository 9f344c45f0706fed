"""The Telegram ChatPort: coordinator views out as HTML messages with inline keyboards.

Public views (lobby, table, notices) go to the group through its outbox (outbox.py): in
order, edits in place when the coordinator passes ``edit``, and table edits that pile up
under Telegram's group limit merged into the newest. A hand goes to the player's private chat
(chat id = user id), awaited. Telegram's 403 on a private send becomes
``DeliveryFailed("blocked")``. 429s are retried by the Application's ``AIORateLimiter`` inside
each call, so no game message is lost or reordered. The table is a photo of the top card
with the table as its caption (photos.py): one call per turn still, each picture uploaded once.

Edits notify nobody, so when the turn passes to a player (``HandView.turn_started``) their hand
goes out as a new message headed "your turn in <group>" and the old one is deleted (or, where
Telegram refuses, loses its keyboard), beside the rest of the move: one live hand keyboard per
player. The mover's hand is deleted rather than edited when the turn left them nothing to press
(``HandView.turn_ended``: no jump-in, no call-out): a plain turn costs 3 calls (the table edit,
that deletion, the next player's new message); meanwhile My cards (inline mode) and ``/hand``
(``HandView.repost``, posted anew) show the cards. A player who blocked the bot is not tried
again until they write to it (their 403s would use up the private budget); the coordinator pings
them in the group instead.

The port also remembers, per user, the last hand it was asked to deliver (even when the
delivery failed): inline mode shows it in the group without a round trip, and the hand
keyboard's page buttons re-render it.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TypeVar

from cachetools import FIFOCache
from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, InputFile, InputMediaPhoto
from telegram.constants import ParseMode
from telegram.error import BadRequest, ChatMigrated, Forbidden, RetryAfter, TelegramError

from adapters.links import HandLinks
from bot.aside import Aside
from bot.coordinator import (
    N_,
    TABLE_LABELS,
    ChatKey,
    DeliveryFailed,
    HandView,
    LobbyView,
    Notice,
    Public,
    Recap,
    TableView,
    Text,
    play_ref,
    split_table_chat,
    virtual_table_chat,
)
from bot.engine.cards import Card
from bot.i18n import translate
from bot.render.hand_text import render_hand
from bot.render.text import render_lobby, render_notice, render_table

from .keyboards import (
    HandIds,
    choice_keyboard,
    deep_link,
    hand_keyboard,
    lobby_keyboard,
    table_keyboard,
)
from .muted_groups import MutedGroups, lacks_rights
from .outbox import Body, GroupOutbox
from .photos import (
    CAPTION_LIMIT,
    FILENAME,
    MediaFiles,
    RecapPhoto,
    TablePhoto,
    TopCard,
    hand_picture,
    is_file_id_error,
)
from .texts import clip_html, html, mention, moment, tr, without_moments
from .upgraded_groups import ChatMoves

log = logging.getLogger(__name__)

T = TypeVar("T")
# Entries kept per index (hands, names, chats, seats). Each index forgets its least recently
# written entries past this (FIFOCache: rewriting a key makes it the newest), so the port's
# memory stays bounded however many games come and go (the store is the truth).
MEMORY = 100_000


@dataclass(frozen=True)
class KnownHand:
    chat: ChatKey
    view: HandView


OUTBOXES_KEPT = 256  # past this many groups, the idle outboxes are dropped


class TelegramChatPort:
    def __init__(self, bot: Bot, bot_username: str) -> None:
        self.bot = bot
        self.bot_username = bot_username
        self._hands: FIFOCache[str, KnownHand] = FIFOCache(MEMORY)  # user id -> last hand sent to them
        self._names: FIFOCache[str, dict[str, str]] = FIFOCache(MEMORY)  # game id -> user id -> seat name
        self._chats: FIFOCache[str, ChatKey] = FIFOCache(MEMORY)  # game id -> chat
        # user id -> the game they were last seen seated in (lobby/table views list the seats):
        # private commands and inline queries find the player's game without scanning the store.
        self._seated: FIFOCache[str, str] = FIFOCache(MEMORY)
        # game id -> the hand being played (from its table): stamped on hand keyboards, so a
        # keyboard of an earlier hand is recognised as stale.
        self._hand_numbers: FIFOCache[str, int] = FIFOCache(MEMORY)
        # (group chat id, forum topic or None) -> its queue of messages
        self._outboxes: dict[tuple[int, int | None], GroupOutbox] = {}
        self._retiring = Aside(log)  # old hand messages on their way out
        self._titles: FIFOCache[int, str | None] = FIFOCache(MEMORY)  # group chat id -> its title
        self._blocked: FIFOCache[str, bool] = FIFOCache(MEMORY)  # users whose private chat said 403
        self._date_time = True  # the Bot API knows the date-time entity (<tg-time>)
        self.moves = ChatMoves()  # groups upgraded to supergroups
        self.muted = MutedGroups()  # groups that refuse the bot's messages
        self.web_links: HandLinks | None = None  # the web hand, when WEBAPP_URL is set
        self.media = MediaFiles()  # file ids of uploaded pictures (app.py gives it the store)
        # (chat id, message id) -> the picture a photo table shows, as this process left it:
        # a turn that keeps the top card only edits the caption.
        self._pictures: FIFOCache[tuple[int, int], str] = FIFOCache(MEMORY)

    # ---- what handlers ask -------------------------------------------------------------------

    def web_app_url(self, game_id: str) -> str | None:
        return self.web_links.telegram(game_id) if self.web_links is not None else None

    def web_link(self, user_id: str, game_id: str) -> str | None:
        """The player's own signed link to the web hand (outside Telegram too)."""
        return (self.web_links.signed("telegram", user_id, game_id)
                if self.web_links is not None else None)

    def known_hand(self, user_id: str) -> KnownHand | None:
        return self._hands.get(user_id)

    def seat_names(self, game_id: str) -> dict[str, str]:
        return self._names.get(game_id, {})

    def chat_of(self, game_id: str) -> ChatKey | None:
        return self._chats.get(game_id)

    def hand_number(self, game_id: str) -> int:
        """The hand the game is at, as its last table showed (0 when not seen yet)."""
        return self._hand_numbers.get(game_id, 0)

    def game_of(self, user_id: str) -> str | None:
        """The id of the game this user was last seen seated in (it may have ended since)."""
        return self._seated.get(user_id)

    def remember_chat(self, chat_id: int, title: str | None) -> None:
        """A group's title, as updates show it (named in "your turn in <group>")."""
        if chat_id < 0 and title:
            self._titles[chat_id] = title

    def user_wrote(self, user_id: str) -> None:
        """The user wrote to the bot privately: their private chat works (again)."""
        self._blocked.pop(user_id, None)

    async def chat_title(self, chat_id: int) -> str | None:
        if chat_id not in self._titles:  # after a restart, before anyone spoke there: ask once
            try:
                self._titles[chat_id] = (await self.bot.get_chat(chat_id)).title
            except TelegramError:
                self._titles[chat_id] = None
        return self._titles[chat_id]

    def remember_seats(self, game_id: str, chat: ChatKey, user_ids: Iterable[str]) -> None:
        self._chats[game_id] = chat
        for user_id in user_ids:
            self._seated[user_id] = game_id

    # ---- ChatPort ----------------------------------------------------------------------------

    async def publish(self, chat: ChatKey, message: Public, *, edit: str | None = None) -> str | None:
        if isinstance(message, Recap):  # a photo of the score chart, the facts as its caption
            group, _, topic = split_table_chat(chat.chat_id)
            photo = RecapPhoto.of(message, await self.chat_title(int(group)) or "")
            return await self.outbox(int(group), int(topic) if topic else None).send(photo, None)
        body, markup = self._render_public(message)
        game_id = getattr(message, "game_id", None)
        if game_id:
            self._chats[game_id] = chat
        if isinstance(message, LobbyView | TableView):
            self._names[message.game_id] = {s.user_id: s.name for s in message.seats}
            self.remember_seats(message.game_id, chat, (s.user_id for s in message.seats))
        if isinstance(message, TableView):
            self._hand_numbers[message.game_id] = message.hand_number
        # A table of a two-table match posts into its forum topic, or into the group itself.
        group, _, topic = split_table_chat(chat.chat_id)
        if self.moves.moved(int(group)):
            return None  # the group takes no more messages: its game is posted where it went
        outbox = self.outbox(int(group), int(topic) if topic else None)
        if isinstance(message, Notice) and message.transient and isinstance(body, str):
            outbox.remind(body)  # paced with the group's other messages; the game goes on
            return None
        if edit is not None:
            return outbox.edit(edit, body, markup)  # queued: the game does not wait for it
        shown = await outbox.send(body, markup)
        if shown is None and isinstance(message, LobbyView) and self.muted.muted(int(group)):
            self.muted.lobby_refused(int(group))
        return shown

    def outbox(self, chat_id: int, topic: int | None = None) -> GroupOutbox:
        key = (chat_id, topic)
        if key not in self._outboxes:
            if len(self._outboxes) >= OUTBOXES_KEPT:  # groups gone quiet give theirs back
                for idle in [k for k, box in self._outboxes.items() if box.idle]:
                    del self._outboxes[idle]
            if topic is None:
                self._outboxes[key] = GroupOutbox(chat_id, self._send_or_edit)
            else:
                async def deliver(chat: int, text: Body, markup: InlineKeyboardMarkup | None,
                                  edit: str | None) -> str:
                    return await self._send_or_edit(chat, text, markup, edit, thread=topic)

                self._outboxes[key] = GroupOutbox(chat_id, deliver)
        return self._outboxes[key]

    async def open_table(self, chat: ChatKey, number: int, locale: str) -> ChatKey:
        """Table ``number`` of a two-table match: a forum topic of its own where the group has
        topics (and lets the bot open one), else the group itself."""
        title = translate(Text(N_("UNO table {table}"), {"table": number}), locale)
        try:
            topic = await self.bot.create_forum_topic(int(chat.chat_id), title)
        except TelegramError as error:  # not a forum, or no right to manage topics
            log.info("no forum topic for table %s in chat %s (%s): both tables in the group",
                     number, chat.chat_id, error.message)
            return virtual_table_chat(chat, number)
        return virtual_table_chat(chat, number, str(topic.message_thread_id))

    async def drain(self) -> None:
        """Wait until every queued public message went out and the old hand messages being
        taken down are gone (before shutting down)."""
        for outbox in list(self._outboxes.values()):
            await outbox.drain()
        await self._retiring.wait()

    def abandon(self) -> None:
        """Give up the queued public messages and the old hands still to take down (a
        shutdown that cannot wait any longer: a hand left standing shows stale buttons,
        which answer that they are not valid any more)."""
        for outbox in self._outboxes.values():
            outbox.abandon()
        self._retiring.cancel()

    async def notify_user(self, chat: ChatKey, user_id: str, message: Notice) -> None:
        """ "Notify me": a private message with the group's name and a Join button."""
        if not user_id.isdigit():
            raise DeliveryFailed("other", "not a Telegram user")
        text = render_notice(message, escape=html, mention=mention)
        title = await self.chat_title(int(chat.chat_id))
        if title:
            text = html(tr(N_("🔔 New game in {group}"), message.locale, group=title)) + "\n" + text
        markup = None
        if message.game_id and self.bot_username:
            markup = InlineKeyboardMarkup([[InlineKeyboardButton(
                tr(TABLE_LABELS["join"], message.locale), url=deep_link(self.bot_username, message.game_id))]])
        with self._to_player(user_id):
            await self.bot.send_message(int(user_id), clip_html(text), parse_mode=ParseMode.HTML,
                                        reply_markup=markup)

    async def send_hand(self, chat: ChatKey, user_id: str, view: HandView, *,
                        edit: str | None = None) -> str | None:
        self._hands[user_id] = KnownHand(chat, view)
        self.remember_seats(view.game_id, chat, (user_id,))
        if not user_id.isdigit():
            raise DeliveryFailed("other", "not a Telegram user")
        if self._blocked.get(user_id):
            raise DeliveryFailed("blocked")
        if view.turn_ended or (view.hand_over and edit is None and not view.repost):
            # Nothing to press until the turn comes back, and that turn posts the hand anew:
            # one deletion now instead of an edit now and a deletion then. A hand that ended
            # with no message showing it has no buttons to disable (unless it is news to be
            # posted: a player removed by someone else).
            if edit is not None:
                await self._retire(int(user_id), int(edit))
            return ""
        text = render_hand(view, escape=html)
        if view.turn_started:
            title = await self.chat_title(int(split_table_chat(chat.chat_id)[0]))
            header = (tr(N_("🔔 Your turn in {group}!"), view.locale, group=title) if title
                      else tr(N_("🔔 Your turn!"), view.locale))
            text = html(header) + "\n" + text
        text = clip_html(text)
        markup = self._hand_markup(user_id, view)
        anew = edit is not None and (view.turn_started or view.repost)
        with self._to_player(user_id):
            shown = await self._send_or_edit(int(user_id), text, markup, None if anew else edit)
        if anew and edit is not None and edit != shown:
            # Beside the rest of the move, not before it: the answer to the press and the
            # other hands do not wait for the old message's deletion.
            self._retiring.start(self._retire(int(user_id), int(edit)),
                                 "taking down an old hand message")  # no user named in the log
        return shown

    def _hand_markup(self, user_id: str, view: HandView) -> InlineKeyboardMarkup | None:
        """The hand's keyboard, or the colour picker the player has open on it."""
        if view.color_picker is not None and not view.hand_over:
            card, _uno = view.color_picker
            ids = HandIds(view.game_id, user_id, self.hand_number(view.game_id), view.press)
            option = next((o for o in view.plays if o.key == play_ref((Card.parse(card),))), None)
            if option is not None:
                return choice_keyboard(view, ids, option)
        return hand_keyboard(view, names=self.seat_names(view.game_id),
                             hand_number=self.hand_number(view.game_id),
                             web_app_url=self.web_app_url(view.game_id),
                             web_link=self.web_link(user_id, view.game_id))

    async def _retire(self, chat_id: int, message_id: int) -> None:
        """An old hand or table, its successor out: deleted, else its keyboard taken off."""
        try:
            await self.bot.delete_message(chat_id, message_id)
            return
        except TelegramError as error:
            log.info("could not delete hand message %s (%s); removing its keyboard", message_id,
                     error.message)
        try:
            await self.bot.edit_message_reply_markup(chat_id=chat_id, message_id=message_id,
                                                     reply_markup=None)
        except TelegramError as error:
            log.info("could not retire hand message %s: %s", message_id, error.message)

    # ---- helpers -----------------------------------------------------------------------------

    def _render_public(self, message: Public) -> tuple[Body, InlineKeyboardMarkup | None]:
        if isinstance(message, LobbyView):
            text = render_lobby(message, escape=html, mention=mention,
                                moment=lambda at: moment(at, "t", entity=self._date_time))
            return clip_html(text), lobby_keyboard(message, self.bot_username)
        if isinstance(message, TableView):  # a photo of the top card, the table as its caption
            text = render_table(message, escape=html, mention=mention, limit=CAPTION_LIMIT,
                                moment=lambda at: moment(at, "T", entity=self._date_time))
            return (TablePhoto(clip_html(text, CAPTION_LIMIT), TopCard.of(message)),
                    table_keyboard(message, self.bot_username))
        if isinstance(message, Notice):
            names = self.seat_names(message.game_id) if message.game_id else {}
            text = render_notice(message, escape=html, mention=mention, names=names)
            return clip_html(text), None
        raise TypeError(f"not a public view: {type(message).__name__}")

    async def _send_or_edit(self, chat_id: int, body: Body, markup: InlineKeyboardMarkup | None,
                            edit: str | None, thread: int | None = None) -> str:
        try:
            shown = await self._deliver(chat_id, body, markup, edit, thread)
        except ChatMigrated as error:
            self.moves.refused(chat_id, error.new_chat_id)
            raise
        except BadRequest as error:
            if lacks_rights(error):
                self.muted.refused(chat_id, error.message)
                raise
            text = body if isinstance(body, str) else body.caption
            if "<tg-time" not in text or "parse entities" not in error.message.lower():
                raise
            # A Bot API server older than 9.5 (self-hosted) has no date-time entity: show the
            # moments as their UTC text from now on.
            log.warning("the Bot API refused a date-time entity (%s); showing times in UTC", error.message)
            self._date_time = False
            plain = without_moments(body) if isinstance(body, str) else body.without_moments()
            return await self._deliver(chat_id, plain, markup, edit, thread)
        self.muted.delivered(chat_id)
        return shown

    async def _deliver(self, chat_id: int, body: Body, markup: InlineKeyboardMarkup | None,
                       edit: str | None, thread: int | None = None) -> str:
        if isinstance(body, TablePhoto):
            return await self._deliver_photo(chat_id, body, markup, edit, thread)
        if isinstance(body, RecapPhoto):
            try:
                recap = InputFile(await body.render(), filename="recap.png")
                sent = await self.bot.send_photo(chat_id, recap, caption=body.caption,
                                                 parse_mode=ParseMode.HTML, message_thread_id=thread)
                return str(sent.message_id)
            except BadRequest as error:  # a group that forbids media: its facts as text
                self.muted.refuse_photos(chat_id, error)
                body = body.caption
        text, stale = body, None  # stale: an old message left behind, still showing buttons
        if edit is not None:
            try:
                await self.bot.edit_message_text(text, chat_id=chat_id, message_id=int(edit),
                                                 parse_mode=ParseMode.HTML, reply_markup=markup)
                return edit
            except BadRequest as error:
                if "not modified" in error.message.lower():
                    return edit
                if "parse entities" in error.message.lower():
                    raise  # the text itself was refused: a new message would be too
                # Deleted, too old, not ours, or a photo (media forbidden now): sent anew.
                log.info("edit of message %s in chat %s failed (%s); sending anew", edit, chat_id, error.message)
                stale = None if "not found" in error.message.lower() else int(edit)
        sent = await self.bot.send_message(chat_id, text, parse_mode=ParseMode.HTML, reply_markup=markup,
                                           message_thread_id=thread)
        if stale is not None:
            await self._retire(chat_id, stale)
        return str(sent.message_id)

    async def _deliver_photo(self, chat_id: int, photo: TablePhoto, markup: InlineKeyboardMarkup | None,
                             edit: str | None, thread: int | None = None) -> str:
        """A photo table: one call. An edit changes the caption alone when the picture shown is
        known to be the same, else the whole media (which also turns the lobby's text message
        into the photo). Where no edit is possible, a new photo message."""
        if self.muted.photos_refused(chat_id):  # a group that forbids media: a text table
            return await self._deliver(chat_id, photo.caption, markup, edit, thread)
        key = photo.picture.key
        stale = False  # an old message left behind, still showing buttons
        if edit is not None:
            message_id = int(edit)
            try:
                if self._pictures.get((chat_id, message_id)) == key:
                    await self.bot.edit_message_caption(chat_id=chat_id, message_id=message_id,
                                                        caption=photo.caption, parse_mode=ParseMode.HTML,
                                                        reply_markup=markup)
                else:
                    shown = await self._with_file(photo, lambda source: self.bot.edit_message_media(
                        InputMediaPhoto(source, caption=photo.caption, parse_mode=ParseMode.HTML,
                                        filename=FILENAME),
                        chat_id=chat_id, message_id=message_id, reply_markup=markup))
                    await self.media.learn(key, shown)
                    self._pictures[(chat_id, message_id)] = key
                return edit
            except BadRequest as error:
                lowered = error.message.lower()
                if "not modified" in lowered:
                    self._pictures[(chat_id, message_id)] = key
                    return edit
                if "parse entities" in lowered or "caption is too long" in lowered:
                    raise  # the caption itself was refused: a new message would be too
                # Deleted, too old, not ours, or a Bot API server that cannot add a photo to a
                # text message: a new photo table, and the old message loses its buttons.
                log.info("edit of table %s in chat %s failed (%s); sending anew", edit, chat_id, error.message)
                stale = "not found" not in lowered
        try:
            sent = await self._with_file(photo, lambda source: self.bot.send_photo(
                chat_id, source, caption=photo.caption, parse_mode=ParseMode.HTML, filename=FILENAME,
                reply_markup=markup, message_thread_id=thread))
        except BadRequest as error:  # a group that forbids media: the table as text
            self.muted.refuse_photos(chat_id, error)
            return await self._deliver(chat_id, photo.caption, markup, edit, thread)
        await self.media.learn(key, sent)
        self._pictures[(chat_id, sent.message_id)] = key
        if edit is not None and stale:
            await self._retire(chat_id, int(edit))
        return str(sent.message_id)

    async def _with_file(self, photo: TablePhoto, call: Callable[[str | bytes], Awaitable[T]]) -> T:
        """``call(source)`` with the picture's stored file id, or its bytes; a file id Telegram
        refuses (another bot token's) is forgotten and the picture uploaded instead."""
        source = await self.media.source(photo.picture)
        try:
            return await call(source)
        except BadRequest as error:
            if isinstance(source, bytes) or not is_file_id_error(error.message):
                raise
            log.warning("a stored picture was refused (%s); uploading it again", error.message)
            self.media.forget(photo.picture.key)
            return await call(await self.media.source(photo.picture))

    async def send_hand_picture(self, user_id: str, view: HandView) -> None:
        """The player's whole hand as a picture, in their private chat (never the group).
        Raises DeliveryFailed like ``send_hand``."""
        if not user_id.isdigit():
            raise DeliveryFailed("other", "not a Telegram user")
        picture = InputFile(await hand_picture(view), filename="hand.png")
        caption = tr(N_("🖼 Your hand ({count}): the bright cards can be played now, the dimmed "
                        "ones cannot."), view.locale, count=len(view.cards))
        with self._to_player(user_id):
            await self.bot.send_photo(int(user_id), picture, caption=html(caption),
                                      parse_mode=ParseMode.HTML)

    @contextmanager
    def _to_player(self, user_id: str) -> Iterator[None]:
        """Telegram's refusals of a message to a player's private chat, as DeliveryFailed."""
        try:
            yield
        except Forbidden:
            self._blocked[user_id] = True
            raise DeliveryFailed("blocked") from None  # no detail: it would name the user
        except RetryAfter:
            raise DeliveryFailed("rate_limited") from None
        except TelegramError as error:
            raise DeliveryFailed("other", error.message) from None

    async def show_keyboard(self, chat_id: int, message_id: int, markup: InlineKeyboardMarkup | None) -> None:
        """Swap a hand message's keyboard (sub-menus, pages); a no-op edit is fine."""
        try:
            await self.bot.edit_message_reply_markup(chat_id=chat_id, message_id=message_id,
                                                     reply_markup=markup)
        except BadRequest as error:
            if "not modified" not in error.message.lower():
                raise
