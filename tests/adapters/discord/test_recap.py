"""A finished match's recap on Discord: an embed with the facts and the score chart attached,
after the match's end notice, and /uno recap posting it again; in English and Chinese."""

from __future__ import annotations

import io
import json

from PIL import Image

from bot.coordinator import ChatKey
from bot.engine import Match
from tests.adapters.telegram import helpers as tg_helpers

from .fake_discord import EPHEMERAL, FakeUser
from .test_game import ANA, BO, CY, open_game

BOSS = FakeUser(150, "Boss", admin=True)
LI = FakeUser(151, "Li", locale="zh-CN", admin=True)
CHAT = ChatKey("discord", "1000")


def recaps(fake) -> list[dict]:
    return [m for m in fake.public_history()
            if any("📈" in (e.get("title") or "") for e in m.get("embeds") or [])]


async def one_hand_match(bot, monkeypatch, admin: FakeUser, **settings: str) -> FakeUser:
    for key, value in settings.items():
        await bot.slash(admin, "settings", key=key, value=value)
    await open_game(bot)
    record = await bot.store.load(CHAT)
    mover = Match.from_json(record.match).game.current
    monkeypatch.setattr(tg_helpers, "CHAT", CHAT)  # the same position rigging, this chat
    await tg_helpers.rig(bot, hands={mover: ["R1"]}, current=mover, top="R9", color="R")
    player = next(u for u in (ANA, BO, CY) if str(u.id) == mover)
    await bot.slash(player, "play", card="R1")
    return player


async def test_the_recap_is_an_embed_with_the_chart_attached(bot, fake, monkeypatch):
    player = await one_hand_match(bot, monkeypatch, BOSS, target_score="1")
    history = fake.public_history()
    shown = recaps(fake)
    assert len(shown) == 1
    before = json.dumps(history[:history.index(shown[0])], ensure_ascii=False)
    assert "wins the match" in before
    embed = shown[0]["embeds"][0]
    assert "1 hand played." in embed["description"]
    assert f"Hands won: {player.name} 1" in embed["description"].replace("\\", "")
    picture = fake.embed_image(shown[0])
    assert picture is not None and Image.open(io.BytesIO(picture)).size == (1000, 600)


async def test_uno_recap_again_and_in_chinese(bot, fake, monkeypatch):
    none = json.dumps(fake.response_message(await bot.slash(LI, "recap")), ensure_ascii=False)
    assert "还没有打完的比赛" in none
    await one_hand_match(bot, monkeypatch, LI, target_score="1", language="zh")
    first = recaps(fake)[0]["embeds"][0]
    assert "共打了1局。" in first["description"]
    answer = fake.response_message(await bot.slash(BO, "recap"))
    assert answer["flags"] & EPHEMERAL
    again = recaps(fake)
    assert len(again) == 2 and again[1]["embeds"][0]["description"] == first["description"]
    assert fake.embed_image(again[1]) is not None
