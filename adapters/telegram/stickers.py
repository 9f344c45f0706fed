"""Card stickers: the bot's own sticker sets, one per card theme, drawn by the renderer.

Each set holds 116 stickers (Telegram allows 120): the 54 faces, each wild framed in each of
the four colours (8, so the group sees the colour chosen) and the 54 faces greyed (cards
that cannot be played now). A set belongs to the operator (TELEGRAM_OWNER_ID, a user who
started the bot) and is named ``uno_<theme>_by_<bot username>``.

Built in the background at start, classic first, never blocking the game; inline mode shows
text results for a theme until its set is complete. Progress lives on Telegram and in the
database, so nothing is uploaded twice:
- each uploaded file's id is stored at once (``sticker-upload:<theme>:<face>``), so a crash
  between the upload and the set does not upload it again;
- a sticker in a set has a file id of its own, known from getStickerSet only: they are read
  and stored (``sticker:<theme>:<face>``) after the set is created and after the additions;
- at start, a theme whose 116 ids are stored costs no call at all. Otherwise the set is read
  from Telegram (a build cut short, or a database wiped): the stickers it holds are kept and
  only the missing ones are added, in order. A set whose stickers are not ours in our order
  (edited by hand) is deleted and made again, as ids are matched by position.
A Bot API error (400, 429 after the rate limiter's retries, the network) is logged without
secrets and the build tried again later, with a growing delay; the bot keeps running.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import dataclass

from telegram import Bot, InputSticker, Sticker
from telegram.constants import StickerFormat
from telegram.error import BadRequest, RetryAfter, TelegramError

from bot.coordinator import Backoff, GameStore
from bot.engine.cards import Card, Color, Rank
from bot.render.images import Theme, sticker_image, wild_sticker_image

log = logging.getLogger(__name__)

PLATFORM = "telegram"
MAX_INITIAL = 50  # createNewStickerSet takes at most 50 stickers; the rest one by one
SET_NAMES = {Theme.CLASSIC: "uno_classic", Theme.HIGH_CONTRAST: "uno_contrast"}
SET_TITLES = {Theme.CLASSIC: "UNO cards", Theme.HIGH_CONTRAST: "UNO cards (high contrast)"}
# A sticker's emoji (what Telegram suggests it for) also checks that a set we find holds our
# faces in our order: a colour square for a card, a heart of the colour for a coloured wild.
COLOR_EMOJI = {Color.RED: "🟥", Color.GREEN: "🟩", Color.BLUE: "🟦", Color.YELLOW: "🟨"}
WILD_EMOJI = "🌈"
CHOSEN_EMOJI = {Color.RED: "❤", Color.GREEN: "💚", Color.BLUE: "💙", Color.YELLOW: "💛"}
GREY_EMOJI = "⬜"
GREY = "grey"


@dataclass(frozen=True)
class Face:
    """One sticker of a set: a card, a wild in a chosen colour, or a greyed card."""
    card: Card
    color: Color | None = None  # the colour chosen for a wild
    dimmed: bool = False

    @property
    def key(self) -> str:  # "R5", "W+4:R", "R5:grey": unique in a theme
        return f"{self.card}:{self.color.value}" if self.color else f"{self.card}:{GREY}" \
            if self.dimmed else str(self.card)

    @property
    def emoji(self) -> str:
        if self.dimmed:
            return GREY_EMOJI
        if self.color is not None:
            return CHOSEN_EMOJI[self.color]
        return COLOR_EMOJI[self.card.color] if self.card.color else WILD_EMOJI

    def render(self, theme: Theme) -> bytes:
        if self.color is not None:
            return wild_sticker_image(self.card, self.color, theme=theme)
        return sticker_image(self.card, theme=theme, dimmed=self.dimmed)


def _all_cards() -> list[Card]:
    return ([Card(color, rank) for color in Color for rank in Rank if not rank.is_wild]
            + [Card(None, Rank.WILD), Card(None, Rank.WILD_DRAW_FOUR)])


# The order of a set: positions map stickers to faces, so it never changes.
FACES: tuple[Face, ...] = tuple(
    [Face(card) for card in _all_cards()]
    + [Face(card, color) for card in _all_cards() if card.is_wild for color in Color]
    + [Face(card, dimmed=True) for card in _all_cards()])


def sticker_key(theme: Theme, face: Face) -> str:
    return f"sticker:{theme.value}:{face.key}"


def upload_key(theme: Theme, face: Face) -> str:
    return f"sticker-upload:{theme.value}:{face.key}"


def set_name(theme: Theme, bot_username: str) -> str:
    return f"{SET_NAMES[theme]}_by_{bot_username}"


def _same_emoji(a: str | None, b: str) -> bool:
    return (a or "").replace("\ufe0f", "") == b.replace("\ufe0f", "")


class StickerSets:
    """The card stickers' file ids, per theme, and the background task that makes them."""

    def __init__(self, bot: Bot, store: GameStore, owner_id: int, bot_username: str, *,
                 themes: Sequence[Theme] = (Theme.CLASSIC, Theme.HIGH_CONTRAST),
                 retry_delay: float = 60.0, max_retry_delay: float = 3600.0,
                 pace: float = 0.2) -> None:
        self.bot = bot
        self.store = store
        self.owner_id = owner_id
        self.bot_username = bot_username
        self.themes = tuple(themes)
        self.retry_delay = retry_delay
        self.max_retry_delay = max_retry_delay
        self.pace = pace  # seconds between two sticker calls: game messages come first
        self._ids: dict[str, str] = {}  # media key -> file id
        self._ready: set[Theme] = set()
        self._task: asyncio.Task[None] | None = None

    # ---- what inline mode asks -----------------------------------------------------------

    def ready(self, theme: Theme) -> bool:
        return theme in self._ready

    def file_id(self, theme: Theme, card: Card, *, color: Color | None = None,
                dimmed: bool = False) -> str | None:
        """The sticker of this card (a wild in ``color``; greyed), once the theme's set is
        complete; None before."""
        if theme not in self._ready:
            return None
        return self._ids.get(sticker_key(theme, Face(card, color if card.is_wild else None, dimmed)))

    def distrust(self, theme: Theme) -> None:
        """Telegram refused a stored sticker (the set was deleted by hand): show text results
        and check the set again in the background."""
        if theme in self._ready:
            log.warning("the %s card stickers were refused by Telegram: checking the set again",
                        theme.value)
            self._ready.discard(theme)
            if self._task is None or self._task.done():
                self._task = asyncio.create_task(self._run((theme,), trust_store=False))

    # ---- the background build ------------------------------------------------------------

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(self.themes))

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None and not task.done():
            task.cancel()
            try:
                await task
            except asyncio.CancelledError:
                pass

    async def wait(self) -> None:
        """Until the build in progress ends (tests)."""
        if self._task is not None:
            await asyncio.shield(self._task)

    async def _run(self, themes: Sequence[Theme], *, trust_store: bool = True) -> None:
        backoff = Backoff(self.retry_delay, self.max_retry_delay)
        try:
            self._ids.update(await self.store.media_files(PLATFORM))
        except Exception:
            log.exception("could not read the stored sticker ids: building the sets anew")
        for theme in themes:
            failures = 0
            while True:
                try:
                    await self.ensure(theme, trust_store=trust_store)
                    break
                except TelegramError as error:
                    failures += 1
                    wait = max(backoff.delay(failures), _retry_seconds(error))
                    log.warning("sticker set %s: %s: %s (trying again in %.0f s)%s",
                                set_name(theme, self.bot_username), type(error).__name__,
                                error.message, wait, _hint(error))
                except Exception:  # a bug or the database: logged, tried again later
                    failures += 1
                    wait = backoff.delay(failures)
                    log.exception("sticker set %s could not be built (trying again in %.0f s)",
                                  set_name(theme, self.bot_username), wait)
                await asyncio.sleep(wait)

    async def ensure(self, theme: Theme, *, trust_store: bool = True) -> None:
        """Make the theme's set complete and its ids known, uploading only what is missing."""
        keys = [sticker_key(theme, face) for face in FACES]
        if trust_store and all(key in self._ids for key in keys):
            self._ready.add(theme)  # a restart: no call at all
            return
        name = set_name(theme, self.bot_username)
        held = await self._read_set(name)
        if held is not None and not self._ours(held):
            log.warning("sticker set %s holds stickers that are not ours in our order: making it again",
                        name)
            await self.bot.delete_sticker_set(name)
            held = None
        if held is not None:
            await self._remember(theme, held)
        done = len(held) if held is not None else 0
        try:
            if held is None:
                first = [await self._input(theme, face) for face in FACES[:MAX_INITIAL]]
                await self.bot.create_new_sticker_set(self.owner_id, name, SET_TITLES[theme], first)
                log.info("sticker set %s created (%d of %d stickers)", name, len(first), len(FACES))
                done = len(first)
                await self._remember(theme, await self._read_set(name) or ())
            if done < len(FACES):
                for face in FACES[done:]:
                    await self.bot.add_sticker_to_set(self.owner_id, name, await self._input(theme, face))
                await self._remember(theme, await self._read_set(name) or ())
        except BadRequest as error:
            if "file identifier" in error.message.lower():  # an upload Telegram no longer has
                for face in FACES:
                    self._ids.pop(upload_key(theme, face), None)  # upload them again next time
            raise
        if not all(key in self._ids for key in keys):
            raise BadRequest(f"sticker set {name} is still incomplete after the build")
        self._ready.add(theme)
        log.info("sticker set %s is complete: inline mode shows %s card stickers", name, theme.value)

    async def _read_set(self, name: str) -> tuple[Sticker, ...] | None:
        try:
            return (await self.bot.get_sticker_set(name)).stickers
        except BadRequest as error:
            if "STICKERSET_INVALID" in error.message.upper():
                return None  # no such set (yet)
            raise

    @staticmethod
    def _ours(stickers: Sequence[Sticker]) -> bool:
        return len(stickers) <= len(FACES) and all(
            _same_emoji(sticker.emoji, face.emoji) for sticker, face in zip(stickers, FACES, strict=False))

    async def _remember(self, theme: Theme, stickers: Sequence[Sticker]) -> None:
        """Store the file id of every sticker the set holds (by position), new ones only."""
        for sticker, face in zip(stickers, FACES, strict=False):
            key = sticker_key(theme, face)
            if self._ids.get(key) != sticker.file_id:
                await self.store.save_media_file(PLATFORM, key, sticker.file_id)
                self._ids[key] = sticker.file_id

    async def _input(self, theme: Theme, face: Face) -> InputSticker:
        """The face as an InputSticker: its uploaded file, uploaded now unless it was before."""
        key = upload_key(theme, face)
        if key not in self._ids:
            if self.pace:
                await asyncio.sleep(self.pace)
            picture = await asyncio.to_thread(face.render, theme)  # ~10-40 ms: off the loop
            uploaded = await self.bot.upload_sticker_file(self.owner_id, picture, StickerFormat.STATIC)
            await self.store.save_media_file(PLATFORM, key, uploaded.file_id)
            self._ids[key] = uploaded.file_id
        elif self.pace:
            await asyncio.sleep(self.pace)
        return InputSticker(self._ids[key], [face.emoji], StickerFormat.STATIC)


def _retry_seconds(error: TelegramError) -> float:
    """What a 429 asks to wait (a timedelta with PTB_TIMEDELTA=1, else seconds)."""
    if not isinstance(error, RetryAfter):
        return 0.0
    value = error.retry_after
    return value.total_seconds() if hasattr(value, "total_seconds") else float(value)


def _hint(error: TelegramError) -> str:
    text = error.message.lower()
    if "peer_id_invalid" in text or "user not found" in text:
        return "; TELEGRAM_OWNER_ID must be the id of a user who has started the bot"
    return ""
