"""Languages: gettext catalogues (English and Simplified Chinese) and Text translation.

    from bot.i18n import translate, normalize_locale
    translate(Text(N_("{player} played {card}."), {"player": "Ana", "card": card}), "zh_CN")

Catalogues live in ``locales/<locale>/LC_MESSAGES/unobot.po`` (committed); ``python -m
bot.i18n.compile`` builds the ``.mo`` files, ``python -m bot.i18n.extract`` refreshes the
template and the ``.po`` files from the sources.
"""

from .catalogs import reload_catalogs
from .formatting import (
    SENTENCE_PAIR,
    Choice,
    CommandRef,
    Lines,
    Mention,
    field_names,
    format_text,
    is_text,
    isolate,
    sentences,
    separator,
    translate,
)
from .labels import card_label, color_label, rank_label
from .locale import DEFAULT_LOCALE, LANGUAGE_NAMES, LOCALES, language_name, normalize_locale
from .lookup import N_, gettext, key_named, ngettext

__all__ = [
    "DEFAULT_LOCALE", "LANGUAGE_NAMES", "LOCALES", "Choice", "CommandRef", "Lines", "Mention", "N_", "SENTENCE_PAIR", "card_label",
    "color_label", "field_names", "format_text", "gettext", "is_text", "isolate", "language_name",
    "key_named", "ngettext", "normalize_locale", "rank_label", "reload_catalogs", "sentences", "separator",
    "translate",
]
