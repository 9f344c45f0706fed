"""What the web hand's and the spectators' pages share on the server: the HTML page itself,
the credential a request carries, reading a JSON text a client sent without raising, and a
narrator's line that may be missing put in the reader's language."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from aiohttp import web

from bot.coordinator import Text
from bot.i18n import translate

# What a client may send that is not JSON: RecursionError is a deep nesting.
MALFORMED = (ValueError, UnicodeDecodeError, RecursionError)


def html_page(name: str) -> web.Response:
    """One of the package's pages (never cached: it must match the API it talks to)."""
    html = resources.files(__package__).joinpath(name).read_text(encoding="utf-8")
    return web.Response(text=html, content_type="text/html", headers={
        "Cache-Control": "no-store", "Referrer-Policy": "no-referrer",
        "X-Content-Type-Options": "nosniff"})


def bearer(request: web.Request) -> str | None:
    """The token of the request's ``Authorization: Bearer ...`` header (None: no header)."""
    header = request.headers.get("Authorization", "")
    return header.removeprefix("Bearer ").strip() if header else None


def unauthorized() -> web.Response:
    return web.json_response({"error": "unauthorized"}, status=401)


def json_text(text: Any) -> Any:
    """``text`` read as JSON, or None when it is not JSON."""
    try:
        return json.loads(text)
    except (*MALFORMED, TypeError):
        return None


def translated(value: Text | None, locale: str) -> str | None:
    """``value`` in ``locale`` (None: there is no such line)."""
    return None if value is None else translate(value, locale)
