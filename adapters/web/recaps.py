"""A finished match's recap on the web pages: its lines in the page's JSON, its picture from
an endpoint the page's own credential opens.

The picture is fetched by the page with its ``Authorization`` header (never a token in an
address) and shown from a blob. A request without a valid credential gets a short 403 page,
one whose game has no recap (yet) a 404 page, both in the reader's language: a browser that
opens the address by hand learns what is wrong, and nothing of the game.
"""

from __future__ import annotations

import asyncio
import html
from collections import OrderedDict
from importlib import resources
from typing import Any

from aiohttp import web

from bot.coordinator import N_, Recap, Text
from bot.i18n import gettext, translate
from bot.render.recap import recap_image, recap_lines

LABELS = {
    "recap": N_("Match recap"),
    "recap_chart": N_("Each player's score after every hand"),
}
NO_RECAP = Text(N_("This game has no recap yet: it is drawn when the match ends."))
PICTURES_KEPT = 32  # drawn pictures kept (about 40 KB each): every open page of a game asks once


def recap_labels(locale: str) -> dict[str, str]:
    return {key: gettext(msgid, locale) for key, msgid in LABELS.items()}


def recap_json(view: Recap | None, image: str) -> dict[str, Any] | None:
    """The recap as the page shows it: the title and facts as text (read out by screen
    readers), the picture's address and a key that changes only with the picture."""
    if view is None:
        return None
    _, *facts = recap_lines(view)
    return {"title": translate(view.heading, view.locale), "facts": facts, "image": image,
            "key": f"{view.game_id}:{view.locale}"}


class RecapPictures:
    """The recaps' pictures, drawn once per match and language (off the event loop)."""

    def __init__(self) -> None:
        self._drawn: OrderedDict[tuple[str, str], bytes] = OrderedDict()

    async def png(self, view: Recap) -> bytes:
        key = (view.game_id, view.locale)
        picture = self._drawn.get(key)
        if picture is None:
            picture = await asyncio.to_thread(recap_image, view)
            self._drawn[key] = picture
            while len(self._drawn) > PICTURES_KEPT:
                self._drawn.popitem(last=False)
        self._drawn.move_to_end(key)
        return picture

    async def response(self, view: Recap) -> web.Response:
        return web.Response(body=await self.png(view), content_type="image/png", headers={
            "Cache-Control": "private, no-store", "X-Content-Type-Options": "nosniff"})


def reader_locale(request: web.Request) -> str:
    """The language of someone whose credential says nothing (it was refused): the browser's
    first choice, Chinese or English."""
    first = request.headers.get("Accept-Language", "").split(",")[0].strip().lower()
    return "zh_CN" if first.startswith("zh") else "en"


def refusal_page(status: int, text: Text | str, locale: str) -> web.Response:
    """A short page saying why there is no picture (403: the credential; 404: no recap)."""
    words = translate(text, locale) if isinstance(text, Text) else gettext(text, locale)
    lang = "zh-CN" if locale.startswith("zh") else "en"
    body = (f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8"><title>UNO</title>'
            f'</head><body><p>{html.escape(words)}</p></body></html>')
    return web.Response(status=status, text=body, content_type="text/html", headers={
        "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"})


async def script(_request: web.Request) -> web.Response:
    """``/recap.js``: how the web hand and the spectator page show a recap (one script)."""
    text = resources.files(__package__).joinpath("recap.js").read_text(encoding="utf-8")
    return web.Response(text=text, content_type="text/javascript", headers={
        "Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff"})
