"""Tables that tell the truth on Discord: when a hand ends or the game is stopped, the table
message shows how it ended, with no turn, no countdown and no buttons."""

from __future__ import annotations

import hashlib
import re

from .players import Table
from .test_game import ANA, USERS, open_game, play_until_hand_over


def fields(message: dict) -> dict[str, str]:
    embed = (message.get("embeds") or [{}])[0]
    return {field["name"]: field["value"] for field in embed.get("fields", [])}


async def test_a_stopped_game_leaves_a_table_without_turn_or_buttons(bot, fake):
    await open_game(bot)
    table_id = int(bot.table_message()["id"])
    assert "Turn" in fields(fake.messages[table_id]) and "<t:" in fields(fake.messages[table_id])["Turn"]
    await bot.slash(ANA, "stop")
    closed = fake.messages[table_id]
    assert not list(fake.iter_components(closed))  # the buttons are gone
    shown = fields(closed)
    assert "Turn" not in shown and "<t:" not in str(closed["embeds"])
    assert "stopped the game" in shown["Result"] and "Ana" in shown["Result"]


async def test_the_table_of_a_finished_hand_says_who_won(bot, fake):
    await open_game(bot)
    hand_one = Table(bot, USERS)
    await play_until_hand_over(bot, hand_one)
    # the table stands where the last turn posted it: the one whose embed has a result
    closed = next(m for m in fake.channel_messages() if m.get("embeds") and "Result" in fields(m))
    first = int(closed["id"])
    assert not list(fake.iter_components(closed))
    shown = fields(closed)
    assert "Turn" not in shown and "won hand 1" in shown["Result"] and "Standings" in shown["Result"]
    # The next hand is played on a table message of its own, with its buttons.
    assert int(bot.table_message()["id"]) != first and bot.current_player_id() is not None


async def test_a_stopped_lobby_loses_its_buttons(bot, fake):
    await bot.slash(ANA, "new")
    lobby_id = int(bot.table_message()["id"])
    await bot.slash(ANA, "stop")
    closed = fake.messages[lobby_id]
    assert not list(fake.iter_components(closed))
    description = closed["embeds"][0]["description"]
    assert "stopped the game" in description and "Press Join" not in description
    assert "Lobby closes" not in fields(closed)


async def test_the_table_footer_carries_the_sealed_deck_and_the_hand_end_its_seed(bot, fake):
    await open_game(bot)
    footer = bot.table_message()["embeds"][0]["footer"]["text"]
    sealed = re.search(r"🔒 Deck sealed · SHA-256 ((?:[0-9A-F]{4} ){3}[0-9A-F]{4})…", footer)
    assert sealed is not None, footer
    await play_until_hand_over(bot, Table(bot, USERS))
    notice = next(m["content"] for m in fake.channel_messages() if "won hand 1" in (m.get("content") or ""))
    seed = re.search(r"🔓 Seed of hand 1: ([0-9a-f]{64})", notice).group(1)
    digest = hashlib.sha256(seed.encode()).hexdigest().upper()
    assert digest.startswith(sealed.group(1).replace(" ", ""))
    assert " ".join(digest[i:i + 4] for i in range(0, 64, 4)) in notice
