"""A Chinese group plays a whole hand on the real client and reads no English: the table, each
hand, the turn notices, every button and every answer to a press are in Chinese (names, the
word UNO and a hash's digits aside)."""

from __future__ import annotations

import re
from dataclasses import replace

from .conftest import ANA, BO, CY, GROUP, Harness, shown_text
from .fake_bot_api import CHAT_TITLES
from .helpers import play_until_hand_ends

PLAYERS = [replace(user, language_code="zh-hans") for user in (ANA, BO, CY)]
# What may stay in Latin letters: the players' names, UNO, the hash's name and a time's zone.
ALLOWED = {"Ana", "Bo", "Cy", "UNO", "SHA", "UTC"}
WORD = re.compile(r"[A-Za-z][A-Za-z'’]{2,}")
# A game's id, a seed, a hash's groups of digits.
HEX = re.compile(r"(?<![0-9A-Za-z])(?:[0-9a-f]{10,}|[0-9A-F]{4})(?![0-9A-Za-z])")


def english_in(text: str) -> list[str]:
    plain = HEX.sub(" ", re.sub(r"<[^>]+>", "", text))
    return [word for word in WORD.findall(plain) if word not in ALLOWED]


def shown(call) -> list[str]:
    """Every text a call shows a person: the message or caption, the answer to a press, the
    buttons' labels."""
    texts = [text for text in (shown_text(call),) if text]
    if call.method == "answerCallbackQuery" and call.params.get("text"):
        texts.append(str(call.params["text"]))
    markup = call.params.get("reply_markup")
    if isinstance(markup, dict):
        texts += [str(b.get("text", "")) for row in markup.get("inline_keyboard", []) for b in row]
    return texts


async def test_a_chinese_group_plays_a_whole_hand_in_chinese(harness: Harness, monkeypatch):
    monkeypatch.setitem(CHAT_TITLES, GROUP, "周五UNO之夜")
    await harness.start()
    creator = PLAYERS[0]
    harness.say(creator, "/lang zh")
    await harness.settle()
    await harness.open_game(*PLAYERS)
    await harness.start_game(creator, PLAYERS)
    await play_until_hand_ends(harness, PLAYERS)
    await harness.settle()
    english = {(call.method, text): words for call in harness.api.calls for text in shown(call)
               if (words := english_in(text))}
    assert not english, english
    assert len(harness.api.calls) > 30  # a whole hand was played and shown
