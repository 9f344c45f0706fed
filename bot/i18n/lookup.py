"""Message lookup: gettext/ngettext against the loaded catalogues, English as the fallback."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping

from .catalogs import get_catalog
from .locale import LOCALES, normalize_locale


def N_(msgid: str) -> str:
    """Marks a msgid for extraction without translating it now (same as the coordinator's)."""
    return msgid


def gettext(msgid: str, locale: str | None) -> str:
    """The translation of ``msgid`` in ``locale``, or ``msgid`` itself when there is none."""
    found = get_catalog(normalize_locale(locale)).messages.get(msgid)
    if isinstance(found, str):
        return found
    if isinstance(found, tuple):  # a plural entry looked up as a singular
        return found[0]
    return msgid


def ngettext(singular: str, plural: str, n: int, locale: str | None) -> str:
    """The form of a plural message for count ``n`` (Chinese has one form, English two)."""
    catalog = get_catalog(normalize_locale(locale))
    found = catalog.messages.get(singular)
    if isinstance(found, tuple):
        index = catalog.plural(n)
        return found[index] if 0 <= index < len(found) else found[-1]
    if isinstance(found, str):
        return found
    return singular if n == 1 else plural


def label_words(label: str) -> str:
    """A label's words before its parenthesis, either width: "Turn timer" of "Turn timer
    (seconds, 0 = off)", "同类叠加" of "同类叠加（+2接+2，+4接+4）"; the whole label without one."""
    return label.replace("（", "(").split("(", 1)[0].strip() or label


def key_named(text: str, labels: Mapping[str, str]) -> str | None:
    """The key of ``labels`` (key -> msgid) whose label, in any of the bot's languages, is what
    a person typed (case and letter width aside): "困难" for hard; None for none. A label's
    words before its parenthesis name it too: "turn timer" for "Turn timer (seconds, 0 = off)",
    "同类叠加" for "同类叠加（+2接+2，+4接+4）"."""
    typed = unicodedata.normalize("NFKC", text).strip().casefold()
    if not typed:
        return None
    for key, msgid in labels.items():
        for locale in LOCALES:
            label = unicodedata.normalize("NFKC", gettext(msgid, locale)).casefold()
            if typed in (label, label_words(label)):
                return key
    return None
