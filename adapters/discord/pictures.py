"""Card pictures in Discord messages: the table's top card and a player's own hand, as files
attached to the message and shown as its embed's image (``attachment://<name>``).

Every message that shows a picture uploads it with the same request that sends or edits the
message (``files[n]`` in a multipart body), so a picture costs no REST call of its own. An edit
lists the new file as the message's only attachment (``attachments=[file]``): Discord then drops
the previous picture. We upload the picture with every edit, even when it did not change,
rather than keeping the old attachment: Discord does not list a file shown inside an embed in
the message's ``attachments`` (so there is no id to keep it by), and editing an embed whose
picture is not sent again has shown it twice, in and under the embed (discord-api-docs #5675).
A top card is 3-5 KB; the measured cost is in ``bench/discord.py``.

Drawing happens off the event loop (Pillow releases the GIL while it composes and compresses):
cards and top cards come from the renderer's caches; a hand is drawn from cached cards and kept
here, bounded by bytes, since the same hand is shown again on every click that changes nothing
in it (a page, a colour picker, Back).
"""

from __future__ import annotations

import asyncio
import io

import discord

from bot.coordinator import HandView, Recap
from bot.engine.cards import Card, Color
from bot.render.images import ByteBoundCache, Theme, hand_image, top_card_image
from bot.render.recap import recap_image

TOP_FILE = "top.png"
HAND_FILE = "hand.png"
RECAP_FILE = "recap.png"
HAND_CARD_HEIGHT = 120  # a 7-card hand is 368 x 120 px: readable in an embed on a phone
HAND_CACHE_BYTES = 4 * 1024 * 1024

_hands = ByteBoundCache(HAND_CACHE_BYTES, lambda data: len(data))  # type: ignore[arg-type]


def attachment_url(filename: str) -> str:
    return f"attachment://{filename}"


def as_file(data: bytes, filename: str) -> discord.File:
    """A fresh upload: discord.py reads and closes a File in its request, so never reuse one."""
    return discord.File(io.BytesIO(data), filename=filename)


async def top_card_png(top: Card, color: Color | None) -> bytes:
    """The table's top card, framed in the colour in force on a wild. Always the classic
    palette: the table is public, many people see it."""
    return await asyncio.to_thread(top_card_image, top, color, theme=Theme.CLASSIC)


async def recap_png(view: Recap, chat_name: str) -> bytes:
    """A finished match's score chart: drawn once, for its one message."""
    return await asyncio.to_thread(recap_image, view, chat_name)


def hand_theme(view: HandView) -> Theme:
    """The player's own card theme (``/uno cards``); an unknown value draws classic cards
    rather than failing a turn."""
    try:
        return Theme(view.theme)
    except ValueError:
        return Theme.CLASSIC


def hand_flags(view: HandView) -> tuple[bool, ...] | None:
    """Which cards are drawn bright. On your turn (or when a card may jump in) the ones you can
    play stand out and the others are darkened, like the disabled buttons under the picture;
    waiting with nothing to play, the hand is drawn plainly rather than all dark."""
    flags = tuple(o.playable and not view.hand_over for o in view.cards)
    return flags if view.is_turn or any(flags) else None


async def hand_png(view: HandView) -> bytes:
    """The picture of the player's hand, in their own card theme. Secret: it goes only into
    that player's ephemeral hand message."""
    cards = tuple(o.card for o in view.cards)
    flags = hand_flags(view)
    theme = hand_theme(view)
    key = (cards, flags, theme)
    return await asyncio.to_thread(
        _hands.get, key, lambda: hand_image(cards, HAND_CARD_HEIGHT, playable=flags, theme=theme))


def hand_cache_stats() -> tuple[int, int]:
    """(hits, misses) of the hand pictures' cache, for the benchmark."""
    return _hands.hits, _hands.misses


def again(files: list[discord.File]) -> list[discord.File]:
    """The same pictures for a second request (a follow-up after a refused answer): a File
    is spent by its request, but ours hold their bytes in memory."""
    fresh = []
    for spent in files:
        spent.fp.seek(0)
        fresh.append(as_file(spent.fp.read(), spent.filename))
    return fresh
