"""No token in the Discord bot's log at DEBUG, the most talkative level the CLI sets: not the
bot token, not an interaction's token (in webhook URLs and gateway payloads, it lets whoever
holds it answer as the bot for 15 minutes)."""

from __future__ import annotations

import io
import logging

import pytest

from bot.logs import RedactingFilter, redact

from .test_game import ANA, BO, open_game


@pytest.fixture
def debug_log(fake):
    """What the CLI sets up: root at DEBUG, a handler carrying the redacting filter."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(RedactingFilter())
    root = logging.getLogger()
    old_level = root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    logging.getLogger("discord").setLevel(logging.DEBUG)
    redact(fake.token)  # what the CLI registers from DISCORD_TOKEN
    yield stream
    root.removeHandler(handler)
    root.setLevel(old_level)


async def test_no_bot_or_interaction_token_in_a_debug_log(fake, debug_log, bot):
    await open_game(bot, hand_size=2)
    await bot.press_table(BO, "hand")
    await bot.slash(ANA, "hand")
    text = debug_log.getvalue()
    assert "/interactions/" in text and "INTERACTION_CREATE" in text  # discord.py did log them
    tokens = [record.token for record in fake.interactions.values()]
    assert tokens and fake.token not in text
    for token in tokens:
        assert f"/{token}/" not in text and f"'{token}'" not in text and f'"{token}"' not in text
