"""Translation and HTML helpers for the Telegram adapter's own strings and the renderer's output.

Player-facing text is rendered by ``bot.render.text`` (plain text, with our escape/mention
callables for HTML) and translated by ``bot.i18n``; this module only adapts them to
Telegram's HTML parse mode and caps.
"""

from __future__ import annotations

import html as html_module
import re
from datetime import UTC, datetime
from typing import Any

from telegram.helpers import escape, mention_html

from bot.coordinator import Text
from bot.i18n import normalize_locale, translate
from bot.render.text import shortened

POPUP_LIMIT = 200  # answerCallbackQuery text
MESSAGE_LIMIT = 4096


def tr(msgid: str, locale: str, **params: Any) -> str:
    """Translate one of the adapter's msgids (marked with ``N_`` at the call site)."""
    return translate(Text(msgid, params), locale)


def user_locale(language_code: str | None) -> str:
    return normalize_locale(language_code)


def mention(user_id: str, name: str) -> str:
    """HTML mention of a human (Telegram ids are digits); AI seats are just their name."""
    if user_id.lstrip("-").isdigit():
        return mention_html(int(user_id), name)
    return escape(name)


def moment(when: float, style: str = "T", *, entity: bool = True) -> str:
    """A moment as Telegram's date-time entity: clients show it in the reader's own time zone
    and format (``style`` "T" 22:45:00, "t" 22:45); older clients show the UTC fallback, which
    is all that is sent when ``entity`` is False."""
    at = datetime.fromtimestamp(when, UTC)
    fallback = at.strftime("%H:%M:%S" if style == "T" else "%H:%M") + " UTC"
    if not entity:
        return fallback
    return f'<tg-time unix="{int(when)}" format="{style}">{fallback}</tg-time>'


_MOMENT = re.compile(r"<tg-time [^>]*>([^<]*)</tg-time>")


def without_moments(text: str) -> str:
    """HTML with each date-time entity replaced by its UTC fallback text."""
    return _MOMENT.sub(r"\1", text)


def html(text: str) -> str:
    return escape(text)


def clip_html(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """HTML cut to ``limit`` at a line break: our tags and entities never span lines, so the
    result still parses (a cut inside a tag would make Telegram refuse the whole message)."""
    if len(text) <= limit:
        return text
    cut = text.rfind("\n", 0, limit - 1)
    if cut > 0:
        return text[:cut] + "\n…"
    plain = html_module.unescape(re.sub(r"<[^>]+>", "", text))  # one huge line: drop the markup
    return escape(shortened(plain, limit // 2))
