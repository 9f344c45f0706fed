"""Notify me: a person asks to hear about the chat's next game; when it opens they are told
privately once (or mentioned in the chat when they cannot be reached privately)."""

from __future__ import annotations

from bot.coordinator import commands as cmds
from bot.coordinator.ports import User
from bot.coordinator.views import Notice

from .conftest import Harness, user

WATCHER = User("u7", "Wen", locale="zh-hans")


async def test_asking_then_a_new_game_tells_privately_once(h: Harness) -> None:
    reply = await h.do(cmds.NotifyMe, WATCHER)
    assert reply.ok and "tell you privately" in reply.text.msgid
    assert reply.locale == "zh_CN"
    opener = user(1)
    assert (await h.do(cmds.NewGame, opener)).ok
    told = h.chat.told["u7"]
    assert len(told) == 1 and told[0].text.params["player"] == "P1"
    assert told[0].locale == "zh_CN" and told[0].game_id == (await h.record()).game_id
    assert (await h.do(cmds.StopGame, opener)).ok
    assert (await h.do(cmds.NewGame, opener)).ok
    assert len(h.chat.told["u7"]) == 1  # a request is answered once


async def test_asking_again_undoes_it(h: Harness) -> None:
    assert (await h.do(cmds.NotifyMe, WATCHER)).ok
    undo = await h.do(cmds.NotifyMe, WATCHER)
    assert undo.ok and "not tell you" in undo.text.msgid
    assert (await h.do(cmds.NewGame, user(1))).ok
    assert not h.chat.told.get("u7")


async def test_the_opener_is_not_told_about_their_own_game(h: Harness) -> None:
    assert (await h.do(cmds.NotifyMe, user(1))).ok
    assert (await h.do(cmds.NewGame, user(1))).ok
    assert not h.chat.told.get("u1")
    assert await h.store.take_notify_requests(h.key) == []


async def test_who_cannot_be_reached_privately_is_mentioned_in_the_chat(h: Harness) -> None:
    h.chat.unreachable.add("u7")
    assert (await h.do(cmds.NotifyMe, WATCHER)).ok
    assert (await h.do(cmds.NotifyMe, user(8))).ok
    assert (await h.do(cmds.NewGame, user(1))).ok
    assert len(h.chat.told["u8"]) == 1
    mention = [m for _, m, _ in h.chat.public if isinstance(m, Notice) and "as you asked" in m.text.msgid]
    assert len(mention) == 1 and mention[0].mentions == ("u7",)
    assert [m.name for m in mention[0].text.params["players"]] == ["Wen"]


async def test_requests_are_per_chat(h: Harness) -> None:
    from bot.coordinator.ports import ChatKey

    other = ChatKey("telegram", "-999")
    assert (await h.coordinator.handle(cmds.NotifyMe(other, WATCHER))).ok
    assert (await h.do(cmds.NewGame, user(1))).ok
    assert not h.chat.told.get("u7")
    assert await h.store.take_notify_requests(other) == [("u7", "Wen", "zh_CN")]
