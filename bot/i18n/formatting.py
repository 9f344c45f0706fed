"""``translate``: a Text (msgid + params) into one language, params localised too.

Text comes from ``bot.coordinator.views``; it is recognised by shape (``msgid`` + ``params``)
so that this package never imports the coordinator (which itself uses ``bot.i18n``).
"""

from __future__ import annotations

import string
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from bot.engine.cards import Card, Color, Rank

from .labels import card_label, color_label, rank_label
from .locale import normalize_locale
from .lookup import N_, gettext, label_words, ngettext

Escape = Callable[[str], str]
MentionFn = Callable[[str, str], str]  # (user_id, display name) -> markup that pings the user
CommandFn = Callable[[str], str]  # a command's name ("new") -> how the platform writes it

SEPARATORS = {"en": ", ", "zh_CN": "、"}
# Two sentences on one line, as a Text param pair or joined here (``sentences``): Chinese
# ends a sentence with 。 and puts no space after it.
SENTENCE_PAIR = N_("{first} {then}")
_formatter = string.Formatter()


@dataclass(frozen=True)
class Mention:
    """A param value naming a player: shown as the name, or as a ping where the adapter can."""

    user_id: str
    name: str


FSI, PDI = "\u2068", "\u2069"  # first-strong isolate ... pop directional isolate


def isolate(text: str) -> str:
    """Wrap a name (or any interpolated user text) in Unicode directional isolates, so a
    right-to-left name cannot reorder the words around it (what Fluent does for every
    placeable). Idempotent."""
    if not text or (text.startswith(FSI) and text.endswith(PDI)):
        return text
    return FSI + text + PDI


# Params that carry people's names (as str, or a list of them): isolated when shown.
NAME_FIELDS = frozenset({"player", "players", "caller", "challenger", "target", "winner", "bluffer",
                         "by", "other", "name", "creator"})


def _isolated(value: Any) -> Any:
    if isinstance(value, str):
        return isolate(value)
    if isinstance(value, list | tuple) and all(isinstance(v, str) for v in value):
        return type(value)(isolate(v) for v in value)
    return value


@dataclass(frozen=True)
class Lines:
    """A param value shown as one line per item, each ending the line (sentences that a list
    separator would run together: "played X., Y takes 2"). Empty: nothing at all."""

    items: tuple[Any, ...]


@dataclass(frozen=True)
class CommandRef:
    """A param value naming one of the bot's commands ("new", "hand"): each platform writes it
    its own way (Telegram ``/new``, Discord ``/uno new``), so shared texts never name another
    platform's command. Without an adapter's ``command`` function it reads ``/new``."""

    name: str


@dataclass(frozen=True)
class Choice:
    """A param value naming a setting's value as it is typed (``key``) with its name in the
    reader's language (``label``, a msgid; its words before a parenthesis): "same (same
    kind)", "same（同类叠加）"; the key alone where the name says no more ("off")."""

    key: str
    label: str


CHOICE = N_("{key} ({label})")


def choice_text(choice: Choice, locale: str) -> str:
    short = label_words(gettext(choice.label, locale))
    if short.casefold() == choice.key.replace("_", " ").casefold():
        return choice.key
    return gettext(CHOICE, locale).format(key=choice.key, label=short)


def separator(locale: str | None) -> str:
    return SEPARATORS[normalize_locale(locale)]


def sentences(said: Iterable[str], locale: str | None) -> str:
    """Sentences already translated, on one line as ``locale`` writes them (SENTENCE_PAIR's gap)."""
    return gettext(SENTENCE_PAIR, locale).format(first="", then="").join(said)


def is_text(value: Any) -> bool:
    return hasattr(value, "msgid") and hasattr(value, "params") and isinstance(value.msgid, str)


def field_names(template: str) -> set[str]:
    """The ``{name}`` fields of a msgid or translation (top-level names, "{a.b}" -> "a")."""
    names = set()
    try:
        parsed = list(_formatter.parse(template))
    except ValueError:
        return {"<malformed>"}
    for _literal, field, _spec, _conversion in parsed:
        if field is not None:
            names.add(field.split(".")[0].split("[")[0])
    return names


def _localise(value: Any, locale: str, escape: Escape, mention: MentionFn | None,
              command: CommandFn | None = None, names: bool = True) -> str:
    """One param value as markup: localised, then escaped (nested Texts escape themselves)."""
    if is_text(value):
        return format_text(value, locale, escape=escape, mention=mention, command=command,
                           isolate_names=names)
    if isinstance(value, Mention):
        name = isolate(value.name) if names else value.name
        return mention(value.user_id, name) if mention else escape(name)
    if isinstance(value, CommandRef):
        return command(value.name) if command else escape("/" + value.name)
    if isinstance(value, Choice):
        return escape(choice_text(value, locale))
    if isinstance(value, Lines):
        return "".join(_localise(v, locale, escape, mention, command, names) + escape("\n")
                       for v in value.items)
    if isinstance(value, Card):
        return escape(card_label(value, locale))
    if isinstance(value, Color):
        return escape(color_label(value, locale))
    if isinstance(value, Rank):
        return escape(rank_label(value, locale))
    if isinstance(value, bool):
        return escape(gettext(N_("yes") if value else N_("no"), locale))
    if isinstance(value, list | tuple | set | frozenset):
        items = sorted(value, key=str) if isinstance(value, set | frozenset) else value
        return escape(separator(locale)).join(_localise(v, locale, escape, mention, command, names)
                                              for v in items)
    return escape(str(value))


def _fill(template: str, params: Mapping[str, Any], locale: str, escape: Escape,
          mention: MentionFn | None, command: CommandFn | None = None, names: bool = True) -> str:
    """Format ``template``; a field without a param stays visible as ``{name}``."""
    out = []
    for literal, field, spec, conversion in _formatter.parse(template):
        out.append(escape(literal))
        if field is None:
            continue
        try:
            value, _ = _formatter.get_field(field, (), params)
        except (KeyError, IndexError, AttributeError):
            out.append(escape("{" + field + "}"))
            continue
        if spec or conversion:  # "{n:>3}", "{x!r}": plain Python formatting, no localising
            value = _formatter.format_field(_formatter.convert_field(value, conversion), spec or "")
            out.append(escape(value))
        elif names and field in NAME_FIELDS:
            out.append(_localise(_isolated(value), locale, escape, mention, command, names))
        else:
            out.append(_localise(value, locale, escape, mention, command, names))
    return "".join(out)


def format_text(text: Any, locale: str | None, *, escape: Escape = str,
                mention: MentionFn | None = None, command: CommandFn | None = None,
                isolate_names: bool = True) -> str:
    """Translate and fill a Text, escaping the literal parts and param values with ``escape``
    (e.g. html.escape), rendering Mention params with ``mention`` and CommandRef params with
    ``command`` (markup, not escaped again). A broken translation
    (unknown field, bad braces) falls back to the English msgid rather than failing a game.
    People's names (``NAME_FIELDS``) are isolated for right-to-left text unless
    ``isolate_names`` is False."""
    loc = normalize_locale(locale)
    params = text.params or {}
    plural = getattr(text, "plural", None)
    if plural:  # ngettext: the form for params["count"] in this language
        count = params.get("count", 0)
        count = count if isinstance(count, int) else 0
        translated = ngettext(text.msgid, plural, count, loc)
        english = text.msgid if count == 1 else plural
    else:
        translated = gettext(text.msgid, loc)
        english = text.msgid
    try:
        return _fill(translated, params, loc, escape, mention, command, isolate_names)
    except (ValueError, TypeError):
        if translated == english:
            return escape(english)
    try:
        return _fill(english, params, loc, escape, mention, command, isolate_names)
    except (ValueError, TypeError):
        return escape(english)


def translate(text: Any, locale: str | None) -> str:
    """Plain-text translation of a Text: msgid translated, params localised (Card -> label,
    Color -> colour name, nested Text -> translated, lists joined with the locale's separator).
    Names are not isolated: for the terminal, logs and private labels."""
    return format_text(text, locale, isolate_names=False)
