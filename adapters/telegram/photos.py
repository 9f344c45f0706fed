"""Card pictures on Telegram: the group table as a photo, and a player's hand as a picture.

The table of a running hand is a photo message: the top card's picture (``top_card_image``,
always the classic palette: many people look at it) with the table text as its caption. It is
edited once per turn like the text table was: ``editMessageCaption`` when only the text
changed, ``editMessageMedia`` when the top card (or the colour named on a wild) changed.

A picture is uploaded once. The answer to the first upload names the file (the largest
size's ``file_id``); ``MediaFiles`` keeps it in memory and in the store
(``save_media_file``), so every later table, in any group and after a restart, sends the id
and not the bytes. File ids belong to one bot token: an id Telegram no longer accepts is
forgotten and the picture uploaded again.

A caption holds at most 1,024 characters (after entity parsing), a quarter of a text
message: the table is rendered to fit, dropping "what just happened" lines first (the top
card, the seats and whose turn it is always stay; see ``render_table(limit=...)``).
"""

from __future__ import annotations

import asyncio
import html as html_module
import logging
import re
from dataclasses import dataclass, replace
from typing import Any

from telegram import Message

from bot.coordinator import HandView, Recap, TableView
from bot.engine.cards import Card, Color
from bot.render.images import Theme, hand_image, top_card_image
from bot.render.recap import recap_image, recap_lines

from .texts import clip_html, html, without_moments

log = logging.getLogger(__name__)

PLATFORM = "telegram"
CAPTION_LIMIT = 1024  # Telegram's cap on a caption, counted after entity parsing
# Part of every stored key: drawing the cards differently later means new keys (and one new
# upload per picture), never an old picture shown under a new look.
PICTURE_VERSION = "v1"
FILENAME = "card.png"


def visible_length(html_text: str) -> int:
    """Characters Telegram counts against a caption's limit: the text without its markup."""
    return len(html_module.unescape(re.sub(r"<[^>]+>", "", html_text)))


@dataclass(frozen=True)
class TopCard:
    """The picture of a table: the top card, and on a wild the colour in force (its frame)."""

    card: Card
    color: Color | None

    @classmethod
    def of(cls, view: TableView) -> TopCard:
        # A coloured card looks the same whatever is named: one picture (and key) per card.
        return cls(view.top, view.color if view.top.is_wild else None)

    @property
    def key(self) -> str:
        """Its key in the store's media files, e.g. "photo:top:v1:R5" or "photo:top:v1:W+4:B"."""
        tail = f":{self.color.value}" if self.color is not None else ""
        return f"photo:top:{PICTURE_VERSION}:{self.card}{tail}"

    def render(self) -> bytes:
        return top_card_image(self.card, self.color, theme=Theme.CLASSIC)


@dataclass(frozen=True)
class TablePhoto:
    """What a photo table message shows: the picture and the caption (HTML)."""

    caption: str
    picture: TopCard

    def without_moments(self) -> TablePhoto:
        return replace(self, caption=without_moments(self.caption))


@dataclass(frozen=True)
class RecapPhoto:
    """A finished match's recap: its chart, with the facts as the caption (HTML). Drawn for
    each match, so never kept as a file id."""

    caption: str
    view: Recap
    chat_name: str

    @classmethod
    def of(cls, view: Recap, chat_name: str) -> RecapPhoto:
        caption = "\n".join(recap_lines(view, chat_name, escape=html))
        return cls(clip_html(caption, CAPTION_LIMIT), view, chat_name)

    def without_moments(self) -> RecapPhoto:
        return self

    async def render(self) -> bytes:
        return await asyncio.to_thread(recap_image, self.view, self.chat_name)


class MediaFiles:
    """Telegram file ids of the pictures uploaded so far (key -> file id), kept in the store.

    ``store`` is any GameStore with ``media_files``/``save_media_file`` (None: memory only).
    """

    def __init__(self, store: Any = None) -> None:
        self._store = store
        self._ids: dict[str, str] = {}
        self.uploads = 0  # pictures sent as bytes by this process (for tests and logs)

    async def load(self) -> None:
        """Every stored id, once at start."""
        if self._store is not None:
            self._ids.update(await self._store.media_files(PLATFORM))

    def get(self, key: str) -> str | None:
        return self._ids.get(key)

    def forget(self, key: str) -> None:
        self._ids.pop(key, None)

    async def source(self, picture: TopCard) -> str | bytes:
        """The stored file id, else the picture's bytes (drawn off the event loop)."""
        known = self._ids.get(picture.key)
        if known is not None:
            return known
        self.uploads += 1
        return await asyncio.to_thread(picture.render)

    async def learn(self, key: str, message: Message | bool) -> None:
        """The file id Telegram gave the picture now shown in ``message``: kept for next time.
        A failed save only costs an upload after the next restart."""
        if not isinstance(message, Message) or not message.photo:
            return
        file_id = max(message.photo, key=lambda size: size.width * size.height).file_id
        if self._ids.get(key) == file_id:
            return
        self._ids[key] = file_id
        if self._store is None:
            return
        try:
            await self._store.save_media_file(PLATFORM, key, file_id)
        except Exception as error:  # noqa: BLE001 -- the table is shown; the id is only a saving
            log.warning("could not store the file id of %s: %s", key, type(error).__name__)


def is_file_id_error(message: str) -> bool:
    """Telegram refused a file id (another bot's, or a token changed): upload instead."""
    lowered = message.lower()
    return "file identifier" in lowered or "file_id" in lowered or "remote file" in lowered


async def hand_picture(view: HandView) -> bytes:
    """The whole hand in the player's own card theme, the cards they cannot play now dimmed."""
    cards = [option.card for option in view.cards]
    playable = [option.playable for option in view.cards]
    theme = Theme(view.theme)
    return await asyncio.to_thread(lambda: hand_image(cards, playable=playable, theme=theme))
