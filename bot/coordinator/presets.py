"""Saved presets: what a name may be, and ``preset <verb> [name]`` as typed on any platform
(Telegram ``/preset save party``, the console ``preset use UNO...``) turned into a command."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from . import commands as cmds
from .ports import ChatKey, User
from .preset_codes import PREFIX
from .refusals import Refusal
from .views import N_, Text

NAME_LIMIT = 24  # characters: a name reads as a word in a list, a button or a command
PRESETS_PER_CHAT = 20  # enough for every house variant a group plays; bounds the list's length
NAME_PUNCTUATION = "-_"

USAGE = N_("Presets: save NAME (keep this chat's rules), list, use NAME or CODE, delete NAME, "
           "share [NAME] (a code any chat can use).")

VERBS: dict[str, str] = {
    "save": "save", "保存": "save", "存": "save",
    "list": "list", "ls": "list", "列表": "list", "列出": "list",
    "use": "use", "load": "use", "使用": "use", "用": "use",
    "delete": "delete", "del": "delete", "remove": "delete", "rm": "delete", "删除": "delete",
    "share": "share", "code": "share", "分享": "share",
}


def preset_name(text: str) -> str:
    """A name as stored (NFKC, trimmed), or Refusal("bad_preset_name") saying what a name is.
    Letters of any script count: a Chinese group names its presets in Chinese."""
    name = unicodedata.normalize("NFKC", str(text)).strip()
    fine = (0 < len(name) <= NAME_LIMIT
            and all(ch.isalnum() or ch in NAME_PUNCTUATION for ch in name)
            and not name.casefold().startswith(PREFIX.casefold()))
    if not fine:
        raise Refusal("bad_preset_name", {"name": name[:40], "most": NAME_LIMIT})
    return name


def preset_command(chat: ChatKey, user: User, words: Sequence[str]) -> cmds.Command | Text:
    """``save NAME``, ``list``, ``use NAME|CODE``, ``delete NAME``, ``share [NAME]`` (English or
    Chinese verbs; nothing: list) as a command, or the usage when the words are not one."""
    if not words:
        return cmds.ListPresets(chat, user)
    verb = VERBS.get(unicodedata.normalize("NFKC", words[0]).strip().lower())
    rest = " ".join(words[1:]).strip()
    if verb == "list" and not rest:
        return cmds.ListPresets(chat, user)
    if verb == "share":
        return cmds.SharePreset(chat, user, name=rest or None)
    if verb is None or verb == "list" or not rest:
        return Text(USAGE)
    if verb == "save":
        return cmds.SavePreset(chat, user, name=rest)
    if verb == "use":
        return cmds.UsePreset(chat, user, name=rest)
    return cmds.DeletePreset(chat, user, name=rest)


__all__ = ["NAME_LIMIT", "PRESETS_PER_CHAT", "USAGE", "preset_command", "preset_name"]
