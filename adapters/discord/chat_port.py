"""The coordinator's ChatPort on Discord: one public table message per game, which mentions
the player whose turn it is, and their open hand view refreshed.

Turns reach people with a mention, and an edit notifies nobody: so when the turn passes to a
person (never an AI seat), the table is posted anew with a line naming them in its content
(allowed mentions: that user only) and the previous table deleted, 2 REST calls; while the
turn stays (they drew, a timer was changed) or passes to an AI seat, the table is edited in
place, 1 call. A separate ping beside an edited table cost 3 (the edit, the ping, the old
ping's deletion). The old table is deleted beside the rest of the turn's delivery, not before
it: the mover's answer and the hands do not wait for that round trip. Clicks on a table
deleted a moment ago still work: table buttons answer with ephemeral messages and never edit
the table. Whom the table last mentioned is kept in memory: after a restart the first table
is posted anew once more.

The table shows the top card as its embed's picture (pictures.py): the file goes with the
table's own send or edit, so the picture costs no REST call of its own.

Private hands: Discord lets a bot show an ephemeral message only as the answer to that
player's own interaction, so ``send_hand`` cannot push a new one. We chose not to DM hands (DMs
fail with 50007 for many users, and switching between the server and DMs is what players of
other bots complain about). A player opens their hand with My hand or ``/uno hand``; that
message then refreshes itself through its interaction's webhook for 15 minutes (see
``hand_views``), so when the turn comes an ordinary card takes one click. After that the
table's mention asks for a click on My hand.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

import discord

from bot.aside import Aside
from bot.coordinator import (
    TURN_PING,
    TURN_PING_OPEN_HAND,
    ChatKey,
    DeliveryFailed,
    HandView,
    LobbyView,
    Notice,
    Public,
    Recap,
    TableView,
    split_table_chat,
    virtual_table_chat,
)
from bot.i18n import N_

from .components import hand_button_label, lobby_components, table_components
from .embeds import lobby_embed, notice_content, recap_embed, table_embed, tr, tr_markup
from .hand_views import OpenHands
from .pictures import RECAP_FILE, TOP_FILE, as_file, recap_png, top_card_png

log = logging.getLogger(__name__)

MISSING_PERMISSIONS = 50013  # e.g. no Attach Files: the table goes out without its picture
PICTURES_RETRY = 600.0  # seconds before a channel that refused a picture is offered one again


@dataclass(frozen=True)
class Ping:
    """Whose turn the table last announced with a mention (one per game's chat)."""

    game_id: str
    hand_number: int
    user_id: str


class DiscordChatPort:
    def __init__(self, client: discord.Client, hands: OpenHands | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.client = client
        self.hands = hands if hands is not None else OpenHands()
        self.sends = 0  # REST calls made, for the benchmark
        self.edits = 0
        self.deletes = 0
        self.failures: dict[str, int] = {}  # chat id -> publish failures (permissions, ...)
        self.pings: dict[str, Ping] = {}  # chat id -> the turn its table last announced
        self.clock = clock
        self.pictures_refused: dict[str, float] = {}  # chat id -> when it refused a picture
        self._deleting = Aside(log)  # old tables on their way out

    def _render(self, message: Public, *, picture: bool = False, content: str | None = None) -> dict:
        if isinstance(message, TableView):
            return {"content": content, "embed": table_embed(message, picture=picture),
                    "view": table_components(message)}
        if isinstance(message, LobbyView):
            return {"content": None, "embed": lobby_embed(message), "view": lobby_components(message)}
        assert isinstance(message, Notice)
        return {"content": notice_content(message), "embed": None, "view": None}

    async def _picture(self, chat: ChatKey, message: Public) -> bytes | None:
        """The table's top card (a lobby or a notice shows none; nor a channel that refused
        a picture in the last PICTURES_RETRY seconds)."""
        if not isinstance(message, TableView):
            return None
        refused = self.pictures_refused.get(chat.chat_id)
        if refused is not None:
            if self.clock() - refused < PICTURES_RETRY:
                return None
            del self.pictures_refused[chat.chat_id]  # perhaps granted since: try again
        return await top_card_png(message.top, message.color)

    async def publish(self, chat: ChatKey, message: Public, *, edit: str | None = None) -> str | None:
        if isinstance(message, Recap):
            return await self._publish_recap(chat, message)
        if not isinstance(message, TableView):
            if isinstance(message, LobbyView):  # a new game: no turn of an older one stands
                self.pings.pop(chat.chat_id, None)
            return await self._publish(chat, message, edit=edit)
        turn = self._turn(chat, message)
        if turn is None:  # nobody to notify: an AI seat's turn, or the table's last state
            self.pings.pop(chat.chat_id, None)
            return await self._publish(chat, message, edit=edit)
        content, ping = turn
        if self.pings.get(chat.chat_id) == ping:  # still their turn: told already
            return await self._publish(chat, message, edit=edit, content=content)
        # An edit notifies nobody: the table goes out anew, mentioning them, and the old goes.
        published = await self._publish(chat, message, edit=None, content=content,
                                         mention=ping.user_id)
        self.pings[chat.chat_id] = ping
        if edit is not None and edit != published:
            self._deleting.start(self._delete(chat, int(edit)),
                                 f"deleting an old table in channel {chat.chat_id}")
        return published

    @property
    def deleting(self) -> int:
        """Old tables whose deletion is on its way."""
        return len(self._deleting)

    async def settled(self, timeout: float = 10.0) -> None:
        """Until the old tables being deleted are gone, for ``timeout`` seconds at most."""
        await self._deleting.wait(timeout)

    async def close(self, timeout: float) -> None:
        """Let the deletions on their way finish for ``timeout`` seconds, then stop them: a
        deletion cut short leaves an old table standing, which only shows an older state."""
        await self._deleting.close(timeout)

    async def open_table(self, chat: ChatKey, number: int, locale: str) -> ChatKey:
        """Table ``number`` of a two-table match plays in a public thread of the channel (its
        own table message, turn mentions and buttons); without the right to open threads, in the
        channel itself beside the other table."""
        title = tr(N_("UNO table {table}"), locale, table=number)
        try:
            channel = self.client.get_channel(int(chat.chat_id)) or \
                await self.client.fetch_channel(int(chat.chat_id))
            if not isinstance(channel, discord.TextChannel):
                raise TypeError(f"threads open in text channels, not {type(channel).__name__}")
            thread = await channel.create_thread(name=title, type=discord.ChannelType.public_thread,
                                                 auto_archive_duration=1440)
        except (discord.HTTPException, TypeError) as error:
            log.info("no thread for table %s in channel %s (%s): both tables in the channel",
                     number, chat.chat_id, type(error).__name__)
            return virtual_table_chat(chat, number)
        self.sends += 1
        return ChatKey(chat.platform, str(thread.id))

    async def _publish(self, chat: ChatKey, message: Public, *, edit: str | None,
                       content: str | None = None, mention: str | None = None) -> str | None:
        channel = self.client.get_partial_messageable(int(split_table_chat(chat.chat_id)[0]))
        picture = await self._picture(chat, message)
        text = (content, mention)
        try:
            return await self._put(channel, chat, message, edit, picture, text)
        except discord.Forbidden as error:
            if picture is None or error.code != MISSING_PERMISSIONS:
                raise self._failed(chat, error) from None
            # most likely no Attach Files here: show the table without its picture (the top
            # card is in the text too) and leave pictures alone here for a while
            self.pictures_refused[chat.chat_id] = self.clock()
            log.warning("channel %s refused the table with its picture (code %s): showing the top "
                        "card as text; grant Attach Files to show it as a picture", chat.chat_id, error.code)
        except discord.HTTPException as error:
            raise self._failed(chat, error) from None
        try:
            return await self._put(channel, chat, message, edit, None, text)
        except discord.HTTPException as error:
            raise self._failed(chat, error) from None

    async def _publish_recap(self, chat: ChatKey, view: Recap) -> str:
        """A finished match: the facts in an embed, the score chart attached; without the
        right to attach files, the facts alone."""
        channel_id = int(split_table_chat(chat.chat_id)[0])
        channel = self.client.get_partial_messageable(channel_id)
        name = getattr(self.client.get_channel(channel_id), "name", None) or ""
        none = discord.AllowedMentions.none()
        try:
            try:
                self.sends += 1
                sent = await channel.send(embed=recap_embed(view, name), allowed_mentions=none,
                                          file=as_file(await recap_png(view, name), RECAP_FILE))
            except discord.Forbidden as error:
                if error.code != MISSING_PERMISSIONS:
                    raise
                sent = await channel.send(embed=recap_embed(view, name, picture=False),
                                          allowed_mentions=none)
        except discord.HTTPException as error:
            raise self._failed(chat, error) from None
        return str(sent.id)

    async def _put(self, channel: discord.PartialMessageable, chat: ChatKey, message: Public,
                   edit: str | None, picture: bytes | None,
                   text: tuple[str | None, str | None] = (None, None)) -> str:
        """Edit the message ``edit`` into ``message``, or post it (a notice, or the old table
        is gone). ``text``: a table's content and the user it may notify. Raises what
        Discord answered."""
        content, mention = text
        kwargs = self._render(message, picture=picture is not None, content=content)
        if edit is not None and not isinstance(message, Notice):
            try:
                self.edits += 1
                # the new top card replaces the old one: v10 keeps only the files listed
                # (a lobby lists none: a lobby shown where a table was has no card left over)
                files = [as_file(picture, TOP_FILE)] if picture is not None else []
                edited = await channel.get_partial_message(int(edit)).edit(
                    attachments=files, allowed_mentions=discord.AllowedMentions.none(), **kwargs)
                return str(edited.id)
            except discord.NotFound:
                log.info("table message %s in %s is gone; posting a new one", edit, chat)
        mentions = tuple(u for u in getattr(message, "mentions", ()) if u.isdigit())
        if mention is not None:
            mentions = (mention,)
        allowed = discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                          users=[discord.Object(int(u)) for u in mentions])
        if picture is not None:  # a fresh File: one that went with a failed edit is spent
            kwargs["file"] = as_file(picture, TOP_FILE)
        self.sends += 1
        sent = await channel.send(allowed_mentions=allowed, **{k: v for k, v in kwargs.items() if v is not None})
        return str(sent.id)

    def _failed(self, chat: ChatKey, error: discord.HTTPException) -> DeliveryFailed:
        """Missing permissions or a Discord error must not break the game: log, and tell the
        coordinator the message did not go out (it tries again later, so the table is
        repainted as soon as Discord accepts it)."""
        self.failures[chat.chat_id] = self.failures.get(chat.chat_id, 0) + 1
        if isinstance(error, discord.Forbidden):
            log.warning("missing permissions to post in channel %s (code %s): grant View Channel, "
                        "Send Messages, Embed Links and Attach Files", chat.chat_id, error.code)
        else:
            log.warning("could not post in channel %s: HTTP %s code %s", chat.chat_id, error.status, error.code)
        return DeliveryFailed("forbidden" if isinstance(error, discord.Forbidden) else "other",
                              f"HTTP {error.status}")

    async def notify_user(self, chat: ChatKey, user_id: str, message: Notice) -> None:
        """ "Notify me": a DM with a link to the channel. Closed DMs (50007) or any other
        refusal raise DeliveryFailed("blocked"): the coordinator then mentions them in the
        channel instead."""
        if not user_id.isdigit():
            raise DeliveryFailed("other", "not a Discord user")
        content = notice_content(message) + f"\n<#{chat.chat_id}>"
        try:
            channel = await self.client.create_dm(discord.Object(int(user_id)))
            await channel.send(content=content, allowed_mentions=discord.AllowedMentions.none())
        except discord.Forbidden:
            raise DeliveryFailed("blocked") from None
        except discord.HTTPException as error:
            raise DeliveryFailed("other", str(error.code)) from None
        self.sends += 1

    async def send_hand(self, chat: ChatKey, user_id: str, view: HandView, *,
                        edit: str | None = None) -> str | None:
        """Refresh the player's open hand view, if any (see the module docstring). No message
        id to store: the view belongs to an interaction, not to the game."""
        if view.hand_over:  # the table's final edit drops the mention; a new hand mentions anew
            standing = self.pings.get(chat.chat_id)
            if standing is not None and standing.game_id == view.game_id:
                del self.pings[chat.chat_id]
        await self.hands.deliver(chat.chat_id, user_id, view)
        if view.set_aside and view.repost and view.note is not None and user_id.isdigit():
            await self._tell_in_channel(chat, user_id, view)
        return None

    async def _tell_in_channel(self, chat: ChatKey, user_id: str, view: HandView) -> None:
        """A seat taken from its player as news to them (removed from the game, or gone after
        too many timeouts): no hand can be pushed to them, so its note, which says why and
        never names a card, goes to the channel mentioning them. An open hand view shows it
        too, but an edit notifies nobody."""
        assert view.note is not None
        try:
            await self.publish(chat, Notice(view.locale, view.note, (user_id,), view.game_id))
        except DeliveryFailed as failure:
            log.info("channel %s: a removed player's note could not be posted (%s)",
                     chat.chat_id, failure.reason)

    # ---- the turn's mention -----------------------------------------------------------------

    def _turn(self, chat: ChatKey, table: TableView) -> tuple[str, Ping] | None:
        """The line naming the person to act, and that turn; None when no person acts."""
        current = next((s for s in table.seats if s.user_id == table.current), None)
        if current is None or current.is_ai or not current.user_id.isdigit():
            return None
        user = f"<@{current.user_id}>"
        if self.hands.live(chat.chat_id, current.user_id) is not None:
            text = tr_markup(TURN_PING, table.locale, player=user)
        else:  # the table's button opens their hand: the ping names it
            text = tr_markup(TURN_PING_OPEN_HAND, table.locale, player=user,
                             button=hand_button_label(table.locale))
        if table.deadline:
            text += f" ⏱️ <t:{int(table.deadline)}:R>"
        return text, Ping(table.game_id, table.hand_number, current.user_id)

    async def _delete(self, chat: ChatKey, message_id: int) -> None:
        """The table the new one replaces. Never fails the move: a table left behind only
        shows an older state (its buttons still answer)."""
        channel = self.client.get_partial_messageable(int(split_table_chat(chat.chat_id)[0]))
        try:
            self.deletes += 1
            await channel.get_partial_message(message_id).delete()
        except discord.NotFound:
            pass  # someone deleted it already
        except discord.HTTPException as error:
            log.info("could not delete an old table in channel %s (HTTP %s)", chat.chat_id, error.status)
