"""A finished match's recap on Telegram: the score chart as a photo after the match's end
notice, the facts as its caption, and /recap posting it again; in English and Chinese."""

from __future__ import annotations

import html
import io

from PIL import Image

from .conftest import ANA, BO, CY, GROUP, Harness
from .fake_bot_api import TgUser
from .helpers import next_actor, refresh_hands, rig

PLAYERS = [ANA, BO, CY]
IDS = {u: str(u.id) for u in PLAYERS}
LI = TgUser(1005, "Li", language_code="zh-hans")


def recaps(h: Harness) -> list:
    return [m for m in h.api.chat_messages(GROUP) if m.photo and "📈" in m.text]


def caption(message) -> str:
    return html.unescape(message.text)


async def one_hand_match(h: Harness, settings: str = "target_score=1") -> TgUser:
    mover = await one_hand_match_played(h, settings)
    await h.api.wait_for(lambda: recaps(h), what="the match's recap")
    return mover


async def one_hand_match_played(h: Harness, settings: str = "target_score=1") -> TgUser:
    """A match to one point, its winning card played (its recap on its way)."""
    h.api.admins[GROUP] = {ANA.id}
    assert "Settings saved" in await h.ask(ANA, f"/settings {settings}")
    await h.open_game(ANA, BO, CY)
    await h.start_game(ANA, PLAYERS)
    mover = await next_actor(h, PLAYERS)
    await rig(h, hands={IDS[mover]: ["R1"]}, current=IDS[mover], top="R9", color="R")
    await refresh_hands(h, PLAYERS)
    h.say(mover, "/play R1")
    return mover


async def test_the_recap_photo_follows_the_match_notice(harness: Harness):
    await harness.start()
    mover = await one_hand_match(harness)
    texts = [m.text for m in harness.api.chat_messages(GROUP)]
    shown = recaps(harness)[0]
    assert any("wins the match" in t for t in texts[:texts.index(shown.text)])
    assert "Match of" in caption(shown) and "the winner scores the others' cards" in caption(shown)
    assert "1 hand played." in shown.text and f"Hands won: {mover.first_name} 1" in shown.text
    assert "UNO! catches: none." in shown.text and "Longest hand: hand 1" in shown.text
    picture = Image.open(io.BytesIO(harness.api.files[shown.photo]))
    assert picture.size == (1000, 600)


async def test_recap_shows_the_last_match_again_in_chinese(harness: Harness):
    await harness.start()
    refused = await harness.ask(LI, "/recap", privately=True)
    assert "还没有打完的比赛" in refused
    await one_hand_match(harness, "target_score=1 language=zh")
    first = recaps(harness)[0]
    assert "共打了1局。" in first.text and "赢下的局数" in first.text
    harness.say(BO, "/recap")
    await harness.api.wait_for(lambda: len(recaps(harness)) == 2, what="the recap again")
    again = recaps(harness)[1]
    assert again.text == first.text
