"""The bot's membership of a group: added, it says hello there, in the language of whoever
added it, with a button to the private chat where the cards will come; removed, the group's
game stops; other changes say nothing."""

from __future__ import annotations

from .conftest import ANA, BO, GROUP, Harness
from .fake_bot_api import TgUser
from .helpers import CHAT

CHEN = TgUser(1005, "陈", language_code="zh-hans")
OTHER_GROUP = -100888


def sent_to(harness: Harness, chat: int) -> list:
    return [c for c in harness.api.calls if c.method == "sendMessage" and c.chat_id == chat]


async def test_added_to_a_group_it_says_how_to_play_there(harness: Harness):
    await harness.start()
    harness.api.bot_membership(ANA, GROUP, "left", "member")
    await harness.api.wait_for(lambda: sent_to(harness, GROUP), what="the greeting")
    (greeting,) = sent_to(harness, GROUP)
    assert greeting.params["text"].startswith("Hello! I host UNO games in this group: /new opens one")
    (button,) = [b for row in greeting.params["reply_markup"]["inline_keyboard"] for b in row]
    assert button["text"] == "Open a private chat with me"
    assert button["url"] == "https://t.me/unotest_bot?start=hello"
    # Added by a Chinese client elsewhere: the hello in Chinese.
    harness.api.bot_membership(CHEN, OTHER_GROUP, "left", "member")
    await harness.api.wait_for(lambda: sent_to(harness, OTHER_GROUP), what="the Chinese greeting")
    (chinese,) = sent_to(harness, OTHER_GROUP)
    assert chinese.params["text"].startswith("大家好！")
    # The private chat's deep link answers with how to play in a group.
    first = await harness.ask(ANA, "/start hello", chat=ANA.id)
    assert first.startswith("Play UNO in a group")


async def test_other_membership_changes_say_nothing(harness: Harness):
    bot = await harness.start()
    harness.api.bot_membership(ANA, GROUP, "member", "left")  # removed from the group
    # Ana blocked the bot (a 403 said so already): the block is no message from her.
    bot.port._blocked[str(ANA.id)] = True
    harness.api.bot_membership(ANA, ANA.id, "member", "kicked")
    await harness.settle()
    assert bot.port._blocked.get(str(ANA.id))
    harness.api.bot_membership(ANA, ANA.id, "kicked", "member")  # she started it again
    await harness.settle()
    assert not bot.port._blocked.get(str(ANA.id))
    assert not sent_to(harness, GROUP) and not sent_to(harness, ANA.id)


async def test_removed_from_a_group_its_game_stops(harness: Harness):
    await harness.start()
    await harness.open_game(ANA, BO)
    await harness.start_game(ANA, [ANA, BO])
    game_id = (await harness.store.load(CHAT)).game_id
    harness.api.bot_membership(ANA, GROUP, "member", "kicked")

    async def stopped() -> bool:
        record = await harness.store.get(game_id)
        return record is not None and record.status == "stopped"

    await harness.until(stopped, "the game stopped")
    assert await harness.store.load(CHAT) is None  # the group may open a game again later
