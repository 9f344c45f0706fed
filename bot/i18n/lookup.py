"""Message lookup: gettext/ngettext against the loaded catalogues, English as the fallback."""

from __future__ import annotations

from .catalogs import get_catalog
from .locale import normalize_locale


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
