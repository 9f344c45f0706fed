"""A Chinese channel plays a whole hand on the real client and reads no English: the table, the
turn pings, each hand view, every button and every answer are in Chinese (names, the word UNO
and a hash's digits aside)."""

from __future__ import annotations

import re
from typing import Any

from .fake_discord import FakeUser
from .players import Table

LI, MEI, WANG = (FakeUser(120 + i, name, locale="zh-CN") for i, name in enumerate(("Li", "Mei", "Wang")))
USERS = {str(user.id): user for user in (LI, MEI, WANG)}
# What may stay in Latin letters: the players' names, UNO and the hash's name.
ALLOWED = {"Li", "Mei", "Wang", "UNO", "SHA"}
WORD = re.compile(r"[A-Za-z][A-Za-z'’]{2,}")
# Mentions and times, a game's id, a seed, a hash's groups of digits.
MARKUP = re.compile(r"<[@#/:!&][^>]*>|(?<![0-9A-Za-z])(?:[0-9a-f]{10,}|[0-9A-F]{4})(?![0-9A-Za-z])")


def shown(payload: dict[str, Any]) -> list[str]:
    """Every text of a message: content, embeds, buttons and menus."""
    texts = [payload.get("content") or ""]
    for embed in payload.get("embeds") or []:
        texts += [embed.get("title") or "", embed.get("description") or "",
                  (embed.get("footer") or {}).get("text") or ""]
        texts += [part for field in embed.get("fields", []) for part in (field["name"], field["value"])]
    for row in payload.get("components") or []:
        for item in row.get("components", []):
            texts.append(item.get("label") or item.get("placeholder") or "")
            texts += [option.get("label", "") for option in item.get("options") or []]
    return texts


def english_in(text: str) -> list[str]:
    return [word for word in WORD.findall(MARKUP.sub(" ", text)) if word not in ALLOWED]


async def test_a_chinese_channel_plays_a_whole_hand_in_chinese(bot, fake):
    await bot.slash(LI, "new")
    await bot.slash(LI, "language", language="zh_CN", scope="chat")
    await bot.slash(LI, "settings", key="hand_size", value="4")
    await bot.press_table(MEI, "join")
    await bot.press_table(WANG, "join")
    await bot.press_table(LI, "start")
    table = Table(bot, USERS)
    for turn in range(400):
        match = await table.match()
        if match is None or match.hand_number != 1:
            break
        await table.take_turn(USERS[match.game.current], use_slash=turn % 3 == 2)
    else:
        raise AssertionError("the hand did not finish")
    english = {text: words for _kind, payload in fake.message_history for text in shown(payload)
               if (words := english_in(text))}
    assert not english, english
    assert len(fake.message_history) > 30  # a whole hand was played and shown
