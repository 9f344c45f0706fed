"""Two settings changes at once both count, in one process (the chat's lock)
and across two processes on one database (a version check, retried)."""

from __future__ import annotations

import asyncio

from bot.coordinator import commands as cmds
from bot.coordinator.clock import FakeClock
from bot.coordinator.coordinator import Coordinator
from bot.coordinator.ports import ChatKey, User, VersionConflict
from storage import open_store
from tests.fakes import FakeChat

ANA = User("a1", "Ana", is_admin=True)
BO = User("a2", "Bo", is_admin=True)


async def change_together(first: Coordinator, second: Coordinator, chat: ChatKey):
    return await asyncio.gather(
        first.handle(cmds.ChangeSettings(chat, ANA, {"turn_timer": 30})),
        second.handle(cmds.ChangeSettings(chat, BO, {"language": "zh_CN"})))


async def test_two_admins_at_once_in_one_process(database_url):
    store = await open_store(database_url)
    coordinator = Coordinator(FakeChat(), store, FakeClock(), ai_delay=0)
    try:
        for trial in range(5):
            chat = ChatKey("telegram", f"-{trial}")
            if trial % 2:  # with and without settings stored before
                await store.save_chat_settings(chat, await store.chat_settings(chat))
            replies = await change_together(coordinator, coordinator, chat)
            assert all(r.ok for r in replies), replies
            settings = await store.chat_settings(chat)
            assert (settings.turn_timer, settings.language) == (30, "zh_CN")
    finally:
        await coordinator.close()
        await store.close()


async def test_two_processes_at_once_on_one_database(database_url):
    stores = [await open_store(database_url), await open_store(database_url)]
    first, second = (Coordinator(FakeChat(), s, FakeClock(), ai_delay=0) for s in stores)
    try:
        for trial in range(5):
            chat = ChatKey("discord", f"{trial}")
            replies = await change_together(first, second, chat)
            assert all(r.ok for r in replies), replies
            settings = await stores[0].chat_settings(chat)
            assert (settings.turn_timer, settings.language) == (30, "zh_CN")
    finally:
        for coordinator in (first, second):
            await coordinator.close()
        for store in stores:
            await store.close()


async def test_a_stale_settings_write_is_refused(store):
    chat = ChatKey("telegram", "-9")
    read = await store.chat_settings(chat)
    saved = await store.update_chat_settings(chat, read)
    assert saved.version == read.version + 1
    try:
        await store.update_chat_settings(chat, read)  # written over since it was read
    except VersionConflict:
        pass
    else:
        raise AssertionError("a stale write was stored")
    assert (await store.chat_settings(chat)).version == saved.version
