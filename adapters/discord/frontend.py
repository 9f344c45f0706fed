"""Interactions in, coordinator commands out, answers back: the Discord edge, kept thin.

Every interaction is answered within Discord's 3 s: the command runs, and if the coordinator
has not answered after ``ack_after`` seconds the interaction is deferred and the answer sent
later as an edit. Replies go to the sender only (ephemeral); public output goes through the
ChatPort (the table message). No rule is decided here: refusals come from the coordinator.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Iterator
from typing import Any

import discord

from bot.coordinator import (
    ChatKey,
    Commands,
    GameStore,
    HandView,
    Reply,
    Text,
    User,
    refusal_text,
)
from bot.coordinator import commands as cmd
from bot.i18n import N_, format_text, normalize_locale

from . import components as ui
from .custom_ids import PICKER_ACTIONS, HandId, TableId
from .embeds import explanation_embed, fmt, reply_embed, reply_pages, reply_text, tr
from .hand_views import OpenHands, as_new_message
from .membership import cannot_post, missing_permissions
from .pictures import again

log = logging.getLogger(__name__)

UNKNOWN_INTERACTION = 10062
ALREADY_ACKNOWLEDGED = 40060
MISSING_PERMISSIONS = 50013

ErrorHook = Callable[[BaseException], None]


def chat_of(interaction: discord.Interaction) -> ChatKey:
    return ChatKey("discord", str(interaction.channel_id))


def user_of(interaction: discord.Interaction) -> User:
    perms = interaction.permissions
    return User(id=str(interaction.user.id), name=interaction.user.display_name,
                locale=str(interaction.locale), is_admin=perms.manage_guild or perms.administrator)


class Frontend:
    def __init__(self, store: GameStore, *, ack_after: float = 2.0, on_error: ErrorHook | None = None,
                 hands: OpenHands | None = None) -> None:
        self.store = store
        self.hands = hands if hands is not None else OpenHands()  # each player's open hand view (shared with the ChatPort)
        self.coordinator: Commands | None = None  # set by the app once built (it needs the ChatPort first)
        self.ready = asyncio.Event()  # set after coordinator.resume()
        self.ack_after = ack_after
        self.on_error = on_error
        self._handling = 0  # interactions being handled (an answer may be followed by tidying)
        self._settled = asyncio.Event()
        self._settled.set()

    @contextlib.contextmanager
    def _handler(self) -> Iterator[None]:
        self._handling += 1
        self._settled.clear()
        try:
            yield
        finally:
            self._handling -= 1
            if not self._handling:
                self._settled.set()

    async def settled(self, timeout: float = 10.0) -> None:
        """Until every interaction being handled is done (tests; a clean stop)."""
        await asyncio.wait_for(self._settled.wait(), timeout)

    # ---- running a command -----------------------------------------------------------------

    async def _handle(self, command: cmd.Command) -> Reply:
        await self.ready.wait()
        assert self.coordinator is not None, "ready is set after the coordinator"
        return await self.coordinator.handle(command)

    async def run(self, interaction: discord.Interaction, command: cmd.Command, *,
                  update: bool = False) -> tuple[Reply, bool]:
        """Run ``command``; defer the interaction if the answer takes longer than ``ack_after``.
        Returns the reply and whether the interaction was deferred."""
        task = asyncio.ensure_future(self._handle(command))
        done, _ = await asyncio.wait({task}, timeout=self.ack_after)
        deferred = False
        if not done:
            deferred = await self._defer(interaction, update=update)
        try:
            return await task, deferred
        except Exception as error:  # the coordinator should never raise; answer anyway
            self.report(error, interaction)
            return Reply(ok=False, text=_something_went_wrong(), error="internal",
                         locale=normalize_locale(str(interaction.locale))), deferred

    async def _defer(self, interaction: discord.Interaction, *, update: bool) -> bool:
        try:
            if update:
                await interaction.response.defer()  # DEFERRED_UPDATE_MESSAGE: edit it later
            else:
                await interaction.response.defer(ephemeral=True, thinking=True)
            return True
        except discord.NotFound:
            log.warning("interaction %s expired before it could be deferred", interaction.id)
        except discord.HTTPException as error:
            if error.code != ALREADY_ACKNOWLEDGED:
                raise
        return False

    def report(self, error: BaseException, interaction: discord.Interaction | None = None) -> None:
        where = f" (interaction {interaction.id}, channel {interaction.channel_id})" if interaction else ""
        log.error("unexpected error in the Discord adapter%s", where, exc_info=error)
        if self.on_error is not None:
            self.on_error(error)

    async def apologise(self, interaction: discord.Interaction) -> None:
        """After an unexpected error: a short ephemeral answer rather than "interaction failed"."""
        text = fmt(refusal_text("frontend_failed"), _locale(interaction))
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException:
            pass  # the interaction is gone; the error is already logged

    # ---- answering -------------------------------------------------------------------------

    async def answer(self, interaction: discord.Interaction, reply: Reply, *, deferred: bool,
                     show_hand: bool = True, page: int = 0) -> None:
        """A new ephemeral message: the reply, and the sender's hand with its buttons."""
        if reply.bilingual and reply.lines:  # the rules: one message per page
            first, *rest = reply_pages(reply)
            await self._send_new(interaction, content="", embeds=[first], view=None, deferred=deferred)
            for embed in rest:
                await self._followup(interaction, embeds=[embed])
            return
        text = reply_text(reply) if reply_embed(reply) is None else ""
        embeds = [e for e in (reply_embed(reply),) if e is not None]
        view: discord.ui.View | None = None
        files: list[discord.File] = []
        chat_id, owner = _keys(interaction)
        hand = self.hands.newest(chat_id, owner, reply.hand) if show_hand else None
        if hand is not None:
            shown = await self.hands.message(hand, owner, page)
            embeds += shown["embeds"]
            view = shown["view"]
            files = shown["attachments"]  # the hand's picture: only ever in this ephemeral answer
        view = view or self._watch_view(reply)
        content = _prefix(reply, text)
        missing = missing_permissions(interaction.app_permissions, isinstance(interaction.channel, discord.Thread))
        if missing:  # the channel refuses the game's messages (rights taken away): say why too
            content = "\n".join(part for part in (cannot_post(missing, _locale(interaction)), content) if part)
        sent = await self._send_new(interaction, content=content, embeds=embeds, view=view,
                                    deferred=deferred, files=files)
        if hand is not None and sent is not None:  # the newest hand view: it refreshes itself now
            message_id, followup_id = sent
            await self.hands.adopt(chat_id, owner, interaction, message_id=message_id,
                                   followup_id=followup_id, page=page)

    def _watch_view(self, reply: Reply) -> discord.ui.View | None:
        """Link buttons to the live tables a watch command answered with."""
        links = self.hands.web_links
        if not reply.watch or links is None:
            return None
        view = discord.ui.View(timeout=None)
        for link in reply.watch:
            view.add_item(discord.ui.Button(style=discord.ButtonStyle.link,
                                            label=format_text(link.label, reply.locale)[:80],
                                            url=links.watch("discord", link.game_id)))
        return view

    async def _send_new(self, interaction: discord.Interaction, *, content: str,
                        embeds: list[discord.Embed], view: discord.ui.View | None,
                        deferred: bool, files: list[discord.File] | None = None,
                        ) -> tuple[int | None, int | None] | None:
        """Answer with a new ephemeral message. Returns (its id, the follow-up id if it had to
        be a follow-up), or None when nothing arrived."""
        kwargs: dict[str, Any] = {"content": content or None, "embeds": embeds}
        if view is not None:
            kwargs["view"] = view
        files = files or []
        try:
            if deferred:  # the "thinking" message becomes the answer, with its files
                message = await interaction.edit_original_response(attachments=files, **kwargs)
                return message.id, None
            if files:
                kwargs["files"] = files
            callback = await interaction.response.send_message(ephemeral=True, **kwargs)
            return getattr(callback, "message_id", None), None
        except discord.NotFound as error:
            log.warning("could not answer interaction %s (code %s)", interaction.id, error.code)
            return None
        except discord.HTTPException as error:
            if error.code != ALREADY_ACKNOWLEDGED:
                raise
            if files:
                kwargs["files"] = again(files)
            followup = await self._followup(interaction, **kwargs)
            return (followup, followup) if followup is not None else None

    async def _followup(self, interaction: discord.Interaction, **kwargs: Any) -> int | None:
        try:
            message = await interaction.followup.send(ephemeral=True, wait=True, **kwargs)
            return message.id
        except discord.HTTPException as error:
            log.warning("follow-up to interaction %s failed (code %s)", interaction.id, error.code)
            return None

    async def update_hand(self, interaction: discord.Interaction, hand: HandView | None, note: str, *,
                          deferred: bool, page: int = 0, view: discord.ui.View | None = None) -> None:
        """Refresh the hand message the player clicked on (the answer to their click)."""
        chat_id, owner = _keys(interaction)
        if hand is None:
            self.hands.discard(chat_id, owner)
            kwargs: dict[str, Any] = {"content": note or None, "embeds": [], "view": None, "attachments": []}
        else:
            hand = self.hands.newest(chat_id, owner, hand)
            assert hand is not None
            kwargs = await self.hands.message(hand, owner, page, note, components=view)
        try:
            if deferred:
                await interaction.edit_original_response(**kwargs)
            else:
                await interaction.response.edit_message(**kwargs)
        except discord.NotFound as error:
            if error.code == UNKNOWN_INTERACTION:
                log.warning("interaction %s expired before its answer", interaction.id)
                return
            # the hand message itself is gone (dismissed, expired): ask for a fresh one
            self.hands.forget(chat_id, owner)
            loc = _locale(interaction)
            await self._followup(interaction, content=tr(
                N_("This hand view has expired. Press {button} on the table again."), loc,
                button=ui.hand_button_label(loc)))
            return
        except discord.HTTPException as error:
            if error.code != ALREADY_ACKNOWLEDGED:
                raise
            new = as_new_message({**kwargs, "attachments": again(kwargs["attachments"])})
            followup = await self._followup(interaction, **{k: v for k, v in new.items() if v is not None})
            if hand is not None and followup is not None:
                await self.hands.adopt(chat_id, owner, interaction, message_id=followup, followup_id=followup,
                                       page=page)
            return
        if hand is None:
            self.hands.forget(chat_id, owner)
        else:  # this click renewed the view's 15 minutes
            message = interaction.message
            await self.hands.adopt(chat_id, owner, interaction, message_id=message.id if message else None,
                                   page=page)

    async def tell(self, interaction: discord.Interaction, content: str) -> None:
        """A short ephemeral explanation that changes nothing."""
        await self._send_new(interaction, content=content, embeds=[], view=None, deferred=False)

    async def tell_at_length(self, interaction: discord.Interaction, text: str) -> None:
        """A long one (the help): in an embed, whose description holds 4,096 characters where
        a message's content holds 2,000 (command mentions with real ids are long)."""
        await self._send_new(interaction, content="", embeds=[explanation_embed(text)], view=None,
                             deferred=False)

    # ---- slash commands --------------------------------------------------------------------

    async def slash(self, interaction: discord.Interaction, make: Callable[[ChatKey, User], cmd.Command], *,
                    show_hand: bool = True) -> Reply | None:
        """Run the command and answer it; returns the reply (None when it failed)."""
        try:
            with self._handler():
                with self.hands.answering(*_keys(interaction)):
                    reply, deferred = await self.run(interaction, make(chat_of(interaction), user_of(interaction)))
                    await self.answer(interaction, reply, deferred=deferred, show_hand=show_hand)
                await self._refresh_leftover(interaction)
                return reply
        except Exception as error:
            self.report(error, interaction)
            await self.apologise(interaction)
        return None

    async def _refresh_leftover(self, interaction: discord.Interaction) -> None:
        """A hand that arrived while answering and that the answer did not show (a table
        button, a short reply): the open view is refreshed now."""
        chat_id, owner = _keys(interaction)
        hand = self.hands.leftover(chat_id, owner)
        if hand is not None:
            await self.hands.refresh(chat_id, owner, hand)

    async def peek_hand(self, interaction: discord.Interaction) -> HandView | None:
        """The caller's hand for a lookup (autocomplete): their open view is not touched."""
        chat_id, owner = _keys(interaction)
        with self.hands.answering(chat_id, owner):
            hand = await self.own_hand(interaction)
        self.hands.discard(chat_id, owner)
        return hand

    async def own_hand(self, interaction: discord.Interaction) -> HandView | None:
        reply = await self._handle(cmd.ShowHand(chat_of(interaction), user_of(interaction)))
        return reply.hand

    # ---- components ------------------------------------------------------------------------

    async def on_component(self, interaction: discord.Interaction, control: TableId | HandId | None) -> None:
        """A click on a UNO button (a hand view's only from its owner: ``refuse_stranger``)."""
        try:
            with self._handler():
                with self.hands.answering(*_keys(interaction)):
                    if isinstance(control, TableId):
                        await self._table_click(interaction, control)
                    elif isinstance(control, HandId):
                        await self._hand_click(interaction, control)
                    else:
                        await self.tell(interaction, fmt(refusal_text("bad_button"), _locale(interaction)))
                await self._refresh_leftover(interaction)
        except Exception as error:
            self.report(error, interaction)
            await self.apologise(interaction)

    async def refuse_stranger(self, interaction: discord.Interaction) -> None:
        """Someone pressed another player's hand view: only they are told, nothing runs."""
        try:
            with self._handler():
                loc = _locale(interaction)
                await self.tell(interaction, tr(N_("These are another player's cards. Press {button} on "
                                                   "the table to see yours."), loc,
                                                button=ui.hand_button_label(loc)))
        except Exception as error:
            self.report(error, interaction)
            await self.apologise(interaction)

    async def _current_game(self, chat: ChatKey) -> str | None:
        record = await self.store.load(chat)
        return record.game_id if record is not None else None

    async def _table_click(self, interaction: discord.Interaction, button: TableId) -> None:
        chat, user = chat_of(interaction), user_of(interaction)
        if await self._current_game(chat) != button.game:
            await self.tell(interaction, fmt(refusal_text("game_ended"), _locale(interaction)))
            return
        command: cmd.Command = {
            "join": cmd.Join, "start": cmd.StartGame, "hand": cmd.ShowHand, "uno": cmd.CallUno,
            "ai": cmd.AddAiSeat, "notify": cmd.NotifyMe,
        }[button.action](chat, user)
        reply, deferred = await self.run(interaction, command)
        await self.answer(interaction, reply, deferred=deferred, show_hand=button.action in ("hand", "join"))

    async def _hand_click(self, interaction: discord.Interaction, button: HandId) -> None:
        loc = _locale(interaction)
        chat, user = chat_of(interaction), user_of(interaction)
        if await self._current_game(chat) != button.game:
            await self.update_hand(interaction, None, tr(
                N_("This hand view belongs to a game that is over. Press {button} on the table again."),
                loc, button=ui.hand_button_label(loc)),
                deferred=False)
            return
        if button.action in (*PICKER_ACTIONS, "pg", "b"):
            await self._hand_navigation(interaction, button)
            return
        ref = button.move_ref()
        if ref is None and button.action == "u":  # an older UNO! button: declare or call out
            command: cmd.Command = cmd.CallUno(chat, user)
        elif ref is None:
            await self.tell(interaction, fmt(refusal_text("bad_button"), loc))
            return
        else:
            # The token of the hand the button was made for: a double click is refused as stale.
            # UNO! ("u") declares or calls out, about others' state: settled, not token-checked.
            press = None if button.action == "u" else button.press or None
            command = cmd.ChooseMove(chat, user, ref=ref, press=press)
        reply, deferred = await self.run(interaction, command, update=True)
        hand = reply.hand
        if hand is None:  # a refusal carries no hand: show the current one under the reason
            hand = await self.own_hand(interaction)
        await self.update_hand(interaction, hand, _prefix(reply, reply_text(reply)), deferred=deferred,
                               page=button.page)

    async def seats_listed(self, interaction: discord.Interaction) -> list[tuple[str, bool]]:
        """The seats of the channel's game in table order: (name, whether an AI plays it)."""
        record = await self.store.load(chat_of(interaction))
        return [(seat.name, seat.ai is not None) for seat in record.seats] if record is not None else []

    async def _seat_names(self, chat: ChatKey) -> dict[str, str]:
        record = await self.store.load(chat)
        return {seat.user_id: seat.name for seat in record.seats} if record is not None else {}

    async def _hand_navigation(self, interaction: discord.Interaction, button: HandId) -> None:
        """Pure UI: a picker (colour, swap target, the ways to play a card, UNO!'s choices),
        another page, or back to the hand."""
        chat = chat_of(interaction)
        reply, deferred = await self.run(interaction, cmd.ShowHand(chat, user_of(interaction)), update=True)
        hand = reply.hand
        owner = str(interaction.user.id)
        if hand is None:
            await self.update_hand(interaction, None, _prefix(reply, reply_text(reply)), deferred=deferred)
            return
        page = int(button.arg) if button.action == "pg" and button.arg.isdigit() else button.page
        if button.action in PICKER_ACTIONS:
            picker = ui.picker_components(hand, owner, button, await self._seat_names(chat))
            if picker is not None:
                await self.update_hand(interaction, hand, ui.picker_prompt(hand, button), deferred=deferred,
                                       page=button.page, view=picker)
                return
            await self.update_hand(interaction, hand, tr(N_("You no longer hold that card."), hand.locale)
                                   if button.action != "k" else "", deferred=deferred, page=page)
            return
        await self.update_hand(interaction, hand, "", deferred=deferred, page=page)


def _keys(interaction: discord.Interaction) -> tuple[str, str]:
    """(channel id, user id): whose hand view, where."""
    return str(interaction.channel_id), str(interaction.user.id)


def _locale(interaction: discord.Interaction) -> str:
    return normalize_locale(str(interaction.locale))


def _prefix(reply: Reply, text: str) -> str:
    if not text:
        return ""
    return text if reply.ok else "⚠️ " + text


def _something_went_wrong() -> Text:
    return refusal_text("frontend_failed")
