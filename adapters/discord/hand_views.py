"""Each player's open hand view, so that it refreshes itself when their turn comes.

An ephemeral message cannot be edited through the channel; but for 15 minutes after an
interaction, that interaction's webhook may edit its response (``@original``) or a follow-up
(by id). We keep, per channel and player, the latest interaction that showed their hand (the
last hand message they opened, or clicked on: every click renews the 15 minutes). When the
coordinator sends that player a hand (their turn came, their cards changed, the hand ended),
the view is edited in place. Exactly one view per player stays live: when a newer one opens,
the older one becomes a short stub pointing below, so no stale "it is your turn" lingers.
Older than ``TOKEN_LIFETIME``, or after a restart (kept in
memory only), the view is left alone and the table's turn mention asks for a click on My hand.

The hand message shows a picture of the hand (pictures.py) in its embed, right above the
buttons; every edit sends the new picture with it, in the same request.

While one of the player's own interactions is being answered, that answer repaints the hand:
a hand arriving meanwhile is kept (the newest wins) for the answer to show, and if the answer
shows no hand (a table button, a short reply) it is delivered through the webhook afterwards.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import discord

from adapters.links import HandLinks
from bot.coordinator import HandView
from bot.i18n import N_, normalize_locale

from . import components as ui
from .embeds import fmt, hand_embed, tr
from .pictures import HAND_FILE, as_file, hand_png

log = logging.getLogger(__name__)

TOKEN_LIFETIME = 14 * 60.0  # Discord allows 15 minutes; keep a margin for a slow edit
Key = tuple[str, str]  # (channel id, user id)


@dataclass
class OpenHand:
    interaction: discord.Interaction  # the latest interaction that showed this hand message
    message_id: int | None  # the hand message (None when Discord did not say)
    followup_id: int | None  # None: the interaction's own response; else its follow-up
    page: int
    since: float  # clock time the interaction arrived

    async def edit(self, **kwargs: Any) -> None:
        if self.followup_id is None:
            await self.interaction.edit_original_response(**kwargs)
        else:
            await self.interaction.followup.edit_message(self.followup_id, **kwargs)


def hand_message(view: HandView, owner: str, page: int = 0, note: str = "",
                 components: discord.ui.View | None = None,
                 web_link: str | None = None, picture: bytes | None = None) -> dict[str, Any]:
    """The arguments that edit a message into ``view`` (its embed, its buttons and, with
    ``picture``, the hand's picture as the message's one file; with ``web_link``, a link to the
    player's web hand in the embed: the five button rows are the cards' and the controls').
    A new message takes the files as ``files``: see ``as_new_message``. A hand set aside (the
    player left, a bot plays for them) becomes the line saying why, with nothing to press."""
    if view.set_aside:
        return {"content": fmt(view.note, view.locale), "embeds": [], "view": None, "attachments": []}
    pages = ui.page_count(view)
    page = min(max(page, 0), pages - 1)
    embed = hand_embed(view, note, page, pages, picture=picture is not None)
    if web_link and not view.hand_over:
        embed.add_field(name="🃏", value=f"[{tr(N_('Open my hand in the browser'), view.locale)}]"
                                          f"({web_link})", inline=False)
    return {"content": None, "embeds": [embed],
            "view": components or ui.hand_components(view, owner, page),
            "attachments": [as_file(picture, HAND_FILE)] if picture is not None else []}


def as_new_message(kwargs: dict[str, Any]) -> dict[str, Any]:
    """Edit arguments for a new message: its files are uploaded as ``files`` (a new message
    has no attachments to keep or drop)."""
    new = {k: v for k, v in kwargs.items() if k != "attachments"}
    if kwargs.get("attachments"):
        new["files"] = kwargs["attachments"]
    return new


class OpenHands:
    def __init__(self, clock: Callable[[], float] = time.monotonic,
                 lifetime: float = TOKEN_LIFETIME, web_links: HandLinks | None = None) -> None:
        self.clock = clock
        self.lifetime = lifetime
        self.web_links = web_links
        self._open: dict[Key, OpenHand] = {}
        self._answering: dict[Key, int] = {}
        self._waiting: dict[Key, HandView] = {}
        self.refreshes = 0  # webhook edits made, for the benchmark
        self._pruned = clock()

    async def message(self, view: HandView, owner: str, page: int = 0, note: str = "",
                      components: discord.ui.View | None = None) -> dict[str, Any]:
        """``hand_message`` with the picture of the hand (none for an empty one) and the
        player's own signed web-hand link, when there is one. Called once per request: the
        picture's File is spent by the request that sends it."""
        link = (self.web_links.signed("discord", owner, view.game_id)
                if self.web_links is not None else None)
        picture = await hand_png(view) if view.cards and not view.set_aside else None
        return hand_message(view, owner, page, note, components, web_link=link, picture=picture)

    # ---- what is open ----------------------------------------------------------------------

    async def adopt(self, chat_id: str, user_id: str, interaction: discord.Interaction, *,
                    message_id: int | None, followup_id: int | None = None, page: int = 0) -> None:
        """``interaction`` just showed the player's hand in message ``message_id``: that view is
        the one to refresh from now on (for 15 minutes); a different, older one becomes a stub."""
        previous = self.live(chat_id, user_id)
        self._open[(chat_id, user_id)] = OpenHand(interaction, message_id, followup_id, page, self.clock())
        self._prune()
        if previous is not None and (previous.message_id is None or previous.message_id != message_id):
            await self._retire(chat_id, previous, normalize_locale(str(interaction.locale)))

    async def _retire(self, chat_id: str, old: OpenHand, locale: str) -> None:
        try:
            await old.edit(content=tr(N_("Your hand is shown in a newer message below."), locale),
                           embeds=[], view=None, attachments=[])
        except discord.HTTPException as error:  # dismissed or expired: nothing to tidy
            log.info("an older hand view in channel %s was not turned into a stub (HTTP %s, code %s)",
                     chat_id, error.status, error.code)

    def _prune(self) -> None:
        """Drop expired views now and then: each holds an interaction, and players come and go."""
        now = self.clock()
        if now - self._pruned < 60:
            return
        self._pruned = now
        for key in [k for k, opened in self._open.items() if now - opened.since >= self.lifetime]:
            del self._open[key]

    def count(self) -> int:
        return len(self._open)

    def forget(self, chat_id: str, user_id: str) -> None:
        self._open.pop((chat_id, user_id), None)

    def live(self, chat_id: str, user_id: str) -> OpenHand | None:
        """The player's open hand view, if its interaction can still edit it."""
        key = (chat_id, user_id)
        opened = self._open.get(key)
        if opened is not None and self.clock() - opened.since >= self.lifetime:
            del self._open[key]
            return None
        return opened

    # ---- the player's own interactions -----------------------------------------------------

    @contextmanager
    def answering(self, chat_id: str, user_id: str) -> Iterator[None]:
        """While the player's own interaction is answered (its answer shows the hand)."""
        key = (chat_id, user_id)
        self._answering[key] = self._answering.get(key, 0) + 1
        try:
            yield
        finally:
            left = self._answering[key] - 1
            if left:
                self._answering[key] = left
            else:
                del self._answering[key]

    def newest(self, chat_id: str, user_id: str, view: HandView | None) -> HandView | None:
        """The hand to show in an answer: one that arrived while answering, else ``view``."""
        waiting = self._waiting.pop((chat_id, user_id), None)
        return waiting if waiting is not None and view is not None else view

    def leftover(self, chat_id: str, user_id: str) -> HandView | None:
        """A hand that arrived while answering and that the answer did not show."""
        if (chat_id, user_id) in self._answering:
            return None
        return self._waiting.pop((chat_id, user_id), None)

    def discard(self, chat_id: str, user_id: str) -> None:
        self._waiting.pop((chat_id, user_id), None)

    # ---- delivering ------------------------------------------------------------------------

    async def deliver(self, chat_id: str, user_id: str, view: HandView) -> None:
        """The coordinator sends this player a hand: refresh their open view, or keep it for
        the answer being built for them."""
        if (chat_id, user_id) in self._answering:
            self._waiting[(chat_id, user_id)] = view
            return
        await self.refresh(chat_id, user_id, view)

    async def refresh(self, chat_id: str, user_id: str, view: HandView) -> bool:
        """Edit the player's open hand view through its interaction's webhook."""
        opened = self.live(chat_id, user_id)
        if opened is None:
            return False
        try:
            await opened.edit(**await self.message(view, user_id, opened.page))
        except discord.HTTPException as error:
            # dismissed (10008), token expired (50027 / 10015) or Discord failing: the view is
            # not ours any more; the next turn mention asks for My hand
            self.forget(chat_id, user_id)
            log.info("hand view in channel %s could not be refreshed (HTTP %s, code %s)",
                     chat_id, error.status, error.code)
            return False
        self.refreshes += 1
        if view.set_aside:  # nothing more is sent to it: My hand opens a new one
            self.forget(chat_id, user_id)
        return True
