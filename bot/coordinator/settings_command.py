"""``settings`` as typed, on every platform that takes text: nothing shows the settings;
``stacking=same jump_in=off``, or one name and its value (``stacking same``), changes them.

People type what the settings list shows them: a Chinese keyboard's full-width ``＝`` and
``：`` (the list writes ``发牌数：7``), spaces around the sign, and a setting's label in place
of its key (``setting_schema.setting`` reads it). Names and values are checked by the
coordinator, as the buttons' are."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from bot.i18n import CommandRef

from . import commands as cmds
from .ports import ChatKey, User
from .views import N_, Text

USAGE = N_("Write settings as name=value, e.g. \"{command} stacking=same\".")
# "=" or ":" (full-width ones are read as these), with any spaces around it.
_SIGN = re.compile(r"\s*[=:]\s*")


def settings_command(chat: ChatKey, user: User, words: Sequence[str]) -> cmds.Command | Text:
    """The command ``words`` ask for, or the usage when they are not one."""
    if not words:
        return cmds.ShowSettings(chat, user)
    text = unicodedata.normalize("NFKC", " ".join(words)).strip()
    pairs = _SIGN.sub("=", text).split()
    if len(pairs) == 2 and "=" not in text and ":" not in text:
        return cmds.ChangeSettings(chat, user, changes={pairs[0]: pairs[1]})
    changes: dict[str, str] = {}
    for pair in pairs:
        key, sign, value = pair.partition("=")
        if not sign or not key:
            return Text(USAGE, {"command": CommandRef("settings")})
        changes[key] = value
    return cmds.ChangeSettings(chat, user, changes=changes)


__all__ = ["USAGE", "settings_command"]
