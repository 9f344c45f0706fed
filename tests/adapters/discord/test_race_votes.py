"""/uno log and /uno vote end through the real discord.py client against the fake Discord,
on the fake clock, in English and Chinese; /uno new refused with who can end the game."""

from __future__ import annotations

import json

from bot.coordinator import ChatKey
from bot.engine import Match
from tests.adapters.telegram import helpers as tg_helpers

from .fake_discord import EPHEMERAL, FakeUser
from .test_game import ANA, BO, CY, open_game

LI = FakeUser(120, "Li", locale="zh-CN")
ZED = FakeUser(555000111222, "Zed")
CHAT = ChatKey("discord", "1000")


def public_text(fake) -> str:
    return json.dumps(fake.public_history(), ensure_ascii=False)


async def current(bot) -> str:
    record = await bot.store.load(CHAT)
    return Match.from_json(record.match).game.current


async def test_the_race_and_its_log(bot, fake, monkeypatch):
    await open_game(bot)
    mover = await current(bot)
    monkeypatch.setattr(tg_helpers, "CHAT", CHAT)  # the same position rigging, this chat
    await tg_helpers.rig(bot, hands={mover: ["R1", "R2"]}, current=mover, top="R9", color="R")
    player = next(u for u in (ANA, BO, CY) if str(u.id) == mover)
    await bot.slash(player, "play", card="R1")
    await bot.clock.advance(0.85)
    await bot.slash(ZED, "call")  # a bystander calls the player out
    assert "Zed caught" in public_text(fake).replace("\u2068", "").replace("\u2069", "")
    assert "0.85 s after the play" in public_text(fake)
    log = fake.response_message(await bot.slash(BO, "log"))
    shown = json.dumps(log, ensure_ascii=False)
    assert log["flags"] & EPHEMERAL and "0.85 s" in shown and "(window 3 s)" in shown
    chinese = json.dumps(fake.response_message(await bot.slash(LI, "log")), ensure_ascii=False)
    assert "第1局" in chinese and "0.85秒" in chinese


async def test_a_majority_votes_the_game_away(bot, fake):
    await open_game(bot)
    refused = json.dumps(fake.response_message(await bot.slash(ZED, "new")))
    assert "/uno vote end" in refused and "/uno stop" in refused
    await bot.slash(BO, "vote end")
    assert "votes to end the game: 1 of 2 votes needed" in public_text(fake)
    again = json.dumps(fake.response_message(await bot.slash(BO, "vote end")))
    assert "already voted" in again
    chinese = json.dumps(fake.response_message(await bot.slash(LI, "vote end")), ensure_ascii=False)
    assert "你" in chinese  # not seated: told so in Chinese
    await bot.slash(CY, "vote end")
    assert "voted to end the game: it ends here" in public_text(fake)
    assert await bot.store.load(CHAT) is None
    await bot.slash(ANA, "new")
    assert (await bot.store.load(CHAT)).status == "lobby"
