"""``settings`` as typed: what the words ask for, read the same on every platform that takes text."""

from __future__ import annotations

import pytest

from bot.coordinator import ChatKey, Text, User, settings_command
from bot.coordinator import commands as cmds

CHAT, USER = ChatKey("test", "c1"), User("u1", "Ana")


@pytest.mark.parametrize(("words", "changes"), [
    (["stacking=same", "jump_in=on"], {"stacking": "same", "jump_in": "on"}),
    (["stacking", "same"], {"stacking": "same"}),
    (["发牌数＝5"], {"发牌数": "5"}),  # a Chinese keyboard's full-width sign
    (["发牌数：5"], {"发牌数": "5"}),  # as the list writes it
    (["hand_size", "=", "5", "jump_in=", "off"], {"hand_size": "5", "jump_in": "off"}),
    (["turn_timer:0"], {"turn_timer": "0"}),
])
def test_changes_are_read_as_people_write_them(words: list[str], changes: dict[str, str]) -> None:
    command = settings_command(CHAT, USER, words)
    assert isinstance(command, cmds.ChangeSettings) and command.changes == changes


def test_nothing_shows_the_settings_and_a_word_alone_says_how_to_write_a_change() -> None:
    assert isinstance(settings_command(CHAT, USER, []), cmds.ShowSettings)
    for words in (["stacking"], ["stacking=same", "jump_in"], ["=on"]):
        usage = settings_command(CHAT, USER, words)
        assert isinstance(usage, Text) and usage.msgid.startswith("Write settings as name=value")
