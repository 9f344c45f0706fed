"""The sticker-set part of the fake Bot API (a mixin of FakeBotApi): uploadStickerFile,
createNewStickerSet, addStickerToSet, getStickerSet, deleteStickerSet, and the check of
answerInlineQuery's results (cached stickers must name a sticker that exists).

Faithful to the Bot API where it matters to the bot: a set's name must end in
``_by_<bot username>``; createNewStickerSet takes 1-50 stickers, a set holds at most 120; a
static sticker is a WEBP or PNG with one side of exactly 512 px and the other at most 512; a
sticker in a set has a file id of its own, not the id of the file uploaded for it; the owner
must be a user who started the bot (``strangers`` lists those who did not).
"""

from __future__ import annotations

import io
import itertools
import re
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from PIL import Image

MAX_INITIAL = 50
MAX_STICKERS = 120
MAX_STATIC_BYTES = 512 * 1024
SET_NAME = re.compile(r"^[A-Za-z](?!.*__)[A-Za-z0-9_]{0,63}$")


class StickerApiError(Exception):
    def __init__(self, status: int, description: str) -> None:
        super().__init__(description)
        self.status = status
        self.description = description


@dataclass
class FakeSticker:
    file_id: str  # the id inline results use (not the upload's)
    file_unique_id: str
    emoji: str
    data: bytes  # the picture uploaded for it
    width: int
    height: int


@dataclass
class FakeStickerSet:
    name: str
    title: str
    owner: int
    stickers: list[FakeSticker] = field(default_factory=list)


@dataclass
class StickerState:
    uploads: dict[str, bytes] = field(default_factory=dict)  # upload file id -> the file
    sets: dict[str, FakeStickerSet] = field(default_factory=dict)
    strangers: set[int] = field(default_factory=set)  # users who never started the bot
    ids: Any = field(default_factory=lambda: itertools.count(1))

    def sticker(self, file_id: str) -> FakeSticker | None:
        for sticker_set in self.sets.values():
            for sticker in sticker_set.stickers:
                if sticker.file_id == file_id:
                    return sticker
        return None


class FakeStickerApi:
    bot_username: str  # from FakeBotApi

    @cached_property
    def stickers(self) -> StickerState:
        return StickerState()

    # ---- the methods ---------------------------------------------------------------------

    async def _api_uploadStickerFile(self, params: dict[str, Any]) -> dict[str, Any]:
        self._known_user(params)
        if params.get("sticker_format") != "static":
            raise StickerApiError(400, "Bad Request: STICKER_FILE_INVALID")  # only static here
        data = _file_bytes(params.get("sticker"))
        _check_static(data)
        file_id = f"UPL{next(self.stickers.ids)}"
        self.stickers.uploads[file_id] = data
        return {"file_id": file_id, "file_unique_id": f"u{file_id}", "file_size": len(data)}

    async def _api_createNewStickerSet(self, params: dict[str, Any]) -> bool:
        owner = self._known_user(params)
        name = str(params.get("name", ""))
        suffix = f"_by_{self.bot_username}".lower()
        if not SET_NAME.match(name) or not name.lower().endswith(suffix) or len(name) > 64:
            raise StickerApiError(400, "Bad Request: invalid sticker set name is specified")
        if name.lower() in (n.lower() for n in self.stickers.sets):
            raise StickerApiError(400, "Bad Request: sticker set name is already occupied")
        title = str(params.get("title", ""))
        if not 1 <= len(title) <= 64:
            raise StickerApiError(400, "Bad Request: invalid sticker set title is specified")
        given = params.get("stickers")
        if not isinstance(given, list) or not 1 <= len(given) <= MAX_INITIAL:
            raise StickerApiError(400, "Bad Request: STICKERS_TOO_MUCH" if isinstance(given, list)
                                  and given else "Bad Request: stickers are empty")
        made = [self._sticker(item, params) for item in given]
        self.stickers.sets[name] = FakeStickerSet(name, title, owner, made)
        return True

    async def _api_addStickerToSet(self, params: dict[str, Any]) -> bool:
        owner = self._known_user(params)
        sticker_set = self.stickers.sets.get(str(params.get("name", "")))
        if sticker_set is None or sticker_set.owner != owner:
            raise StickerApiError(400, "Bad Request: STICKERSET_INVALID")
        if len(sticker_set.stickers) >= MAX_STICKERS:
            raise StickerApiError(400, "Bad Request: STICKERS_TOO_MUCH")
        sticker_set.stickers.append(self._sticker(params.get("sticker"), params))
        return True

    async def _api_getStickerSet(self, params: dict[str, Any]) -> dict[str, Any]:
        sticker_set = self.stickers.sets.get(str(params.get("name", "")))
        if sticker_set is None:
            raise StickerApiError(400, "Bad Request: STICKERSET_INVALID")
        return {"name": sticker_set.name, "title": sticker_set.title, "sticker_type": "regular",
                "stickers": [{"file_id": s.file_id, "file_unique_id": s.file_unique_id,
                              "type": "regular", "width": s.width, "height": s.height,
                              "is_animated": False, "is_video": False, "emoji": s.emoji,
                              "set_name": sticker_set.name, "file_size": len(s.data)}
                             for s in sticker_set.stickers]}

    async def _api_deleteStickerSet(self, params: dict[str, Any]) -> bool:
        if self.stickers.sets.pop(str(params.get("name", "")), None) is None:
            raise StickerApiError(400, "Bad Request: STICKERSET_INVALID")
        return True

    async def _api_answerInlineQuery(self, params: dict[str, Any]) -> bool:
        results = params.get("results")
        if not isinstance(results, list) or len(results) > 50:
            raise StickerApiError(400, "Bad Request: RESULTS_TOO_MUCH")
        ids = [str(r.get("id", "")) for r in results]
        if len(set(ids)) != len(ids) or any(not 1 <= len(i.encode()) <= 64 for i in ids):
            raise StickerApiError(400, "Bad Request: RESULT_ID_INVALID")
        for result in results:
            if result.get("type") == "sticker":
                if self.stickers.sticker(str(result.get("sticker_file_id"))) is None:
                    raise StickerApiError(400, "Bad Request: wrong file identifier/HTTP URL specified")
            elif result.get("type") == "article":
                if not result.get("title") or "input_message_content" not in result:
                    raise StickerApiError(400, "Bad Request: RESULT_ID_INVALID")
        return True

    # ---- helpers -------------------------------------------------------------------------

    def _known_user(self, params: dict[str, Any]) -> int:
        user_id = int(params.get("user_id", 0))
        if user_id <= 0 or user_id in self.stickers.strangers:
            raise StickerApiError(400, "Bad Request: PEER_ID_INVALID")
        return user_id

    def _sticker(self, item: Any, params: dict[str, Any]) -> FakeSticker:
        """A new sticker of a set from an InputSticker: an uploaded file id or an attached file."""
        if not isinstance(item, dict) or item.get("format") != "static":
            raise StickerApiError(400, "Bad Request: STICKER_FILE_INVALID")
        emojis = item.get("emoji_list")
        if not isinstance(emojis, list) or not 1 <= len(emojis) <= 20:
            raise StickerApiError(400, "Bad Request: STICKER_EMOJI_INVALID")
        source = item.get("sticker")
        if isinstance(source, str) and source.startswith("attach://"):
            data = _file_bytes(params.get(source.removeprefix("attach://")))
            _check_static(data)
        elif isinstance(source, str) and source in self.stickers.uploads:
            data = self.stickers.uploads[source]
        else:
            raise StickerApiError(400, "Bad Request: wrong file identifier/HTTP URL specified")
        number = next(self.stickers.ids)
        with Image.open(io.BytesIO(data)) as image:
            width, height = image.size
        return FakeSticker(f"CAACAgStk{number}", f"AgStk{number}", str(emojis[0]), data, width, height)


def _file_bytes(value: Any) -> bytes:
    if value is None or isinstance(value, str):
        raise StickerApiError(400, "Bad Request: there is no sticker in the request")
    return bytes(value.file.read())  # an aiohttp FileField


def _check_static(data: bytes) -> None:
    if len(data) > MAX_STATIC_BYTES:
        raise StickerApiError(400, "Bad Request: file is too big")
    try:
        with Image.open(io.BytesIO(data)) as image:
            kind, (width, height) = image.format, image.size
    except OSError:
        raise StickerApiError(400, "Bad Request: STICKER_FILE_INVALID") from None
    if kind not in ("WEBP", "PNG") or max(width, height) != 512:
        raise StickerApiError(400, "Bad Request: STICKER_PNG_DIMENSIONS")
