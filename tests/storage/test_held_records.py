"""The SQL store keeps the record it last saved or read and hands out copies of it while the
stored version is the same: a load then reads three small columns, not the whole row. Another
process's write makes what it holds stale, never wrong."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.coordinator import commands as cmds
from bot.coordinator.clock import FakeClock
from bot.coordinator.coordinator import Coordinator
from bot.coordinator.ports import ChatKey, ChatSettings, VersionConflict
from bot.coordinator.record import Outbox
from storage import open_store
from storage.held_records import HeldRecords
from tests.fakes import FakeChat

from .games import humans, next_command
from .test_contract import CHAT, make_record

GAME_CHAT = ChatKey("telegram", "-77")


class CountingReads:
    """Counts whole-row reads of the store's game rows (the hot path's driver layer)."""

    def __init__(self, store) -> None:
        self.whole = 0
        rows = store._rows
        for name in ("fetch_one", "fetch_active"):
            setattr(rows, name, self._counted(getattr(rows, name)))

    def _counted(self, fetch):
        async def counted(*args):
            self.whole += 1
            return await fetch(*args)

        return counted


async def test_a_load_at_the_version_saved_here_reads_no_whole_row(database_url):
    store = await open_store(database_url)
    try:
        saved = await store.save(make_record(hand_message_ids={"u1": "m1"}))
        reads = CountingReads(store)
        loaded = await store.load(CHAT)
        assert loaded == saved and reads.whole == 0
        loaded.hand_message_ids["u1"] = "changed"  # a private copy: nothing held changes
        loaded.seats[0] = replace(loaded.seats[0], name="Changed")
        again = await store.get(saved.game_id)
        assert again.hand_message_ids == {"u1": "m1"} and again.seats[0].name == "Ana"
        assert reads.whole == 0
    finally:
        await store.close()


async def test_another_process_s_save_and_delivery_mark_are_seen(database_url):
    first, second = await open_store(database_url), await open_store(database_url)
    try:
        saved = await first.save(make_record(table_message_id="t1"))
        theirs = await second.load(CHAT)
        theirs.table_message_id = "t2"
        theirs = await second.save(theirs)
        reads = CountingReads(first)
        seen = await first.load(CHAT)
        assert (seen.version, seen.table_message_id) == (theirs.version, "t2") and reads.whole == 1
        assert saved.version < seen.version

        owing = seen
        owing.delivery.outbox = Outbox(owing.version + 1, table=True)
        owing = await first.save(owing)
        assert (await first.load(CHAT)).delivery.outbox is not None
        assert await second.mark_delivered(owing.game_id, owing.version)
        assert (await first.load(CHAT)).delivery.outbox is None  # written without a version
        assert (await first.get(owing.game_id)).delivery.outbox is None
    finally:
        await first.close()
        await second.close()


async def test_a_copy_handed_out_unread_is_checked_by_its_save(database_url):
    first, second = await open_store(database_url), await open_store(database_url)
    try:
        await first.save(make_record())
        copy, unread = await first.load_held(CHAT)
        assert unread and await first.still_current(copy)
        theirs = await second.load(CHAT)
        await second.save(theirs)  # another process moved on
        assert not await first.still_current(copy)
        with pytest.raises(VersionConflict):
            await first.save(copy)
        fresh, unread = await first.load_held(CHAT)  # the conflict dropped what was held
        assert not unread and fresh.version == theirs.version + 1
    finally:
        await first.close()
        await second.close()


async def test_a_delivery_marked_elsewhere_makes_the_held_copy_stale(database_url):
    first, second = await open_store(database_url), await open_store(database_url)
    try:
        record = make_record()
        record.delivery.outbox = Outbox(1, table=True)
        saved = await first.save(record)
        copy, unread = await first.load_held(CHAT)
        assert unread and copy.delivery.outbox is not None
        assert await second.mark_delivered(saved.game_id, saved.version)
        # Its version is unchanged, but what it owes is not: the copy is not current, and a
        # save of it would store a delivered outbox as owed again.
        assert not await first.still_current(copy)
        with pytest.raises(VersionConflict):
            await first.save(copy)
        assert (await first.load(CHAT)).delivery.outbox is None
    finally:
        await first.close()
        await second.close()


async def test_a_process_holding_an_old_copy_decides_on_the_stored_game(database_url):
    """Two processes take turns moving one game, so each holds the game as it saved it two
    moves ago: every move arrives where the held copy is stale."""
    stores = [await open_store(database_url) for _ in range(3)]  # the third one only looks
    coordinators = [Coordinator(FakeChat(), store, FakeClock(), ai_delay=0, seed=3)
                    for store in stores[:2]]
    looks = stores[2]
    try:
        await looks.save_chat_settings(GAME_CHAT, ChatSettings(turn_timer=0))
        users = humans(2)
        first = coordinators[0]
        assert (await first.handle(cmds.NewGame(GAME_CHAT, users["u1"]))).ok
        assert (await first.handle(cmds.Join(GAME_CHAT, users["u2"]))).ok
        assert (await first.handle(cmds.StartGame(GAME_CHAT, users["u1"]))).ok
        stale = 0
        for turn in range(12):
            record = await looks.load(GAME_CHAT)
            handler = coordinators[turn % 2]
            held, unread = await handler.store.load_held(GAME_CHAT)
            stale += unread and held.version != record.version
            # A held copy saying it is another player's turn must not be answered so, nor
            # saved on: the game is read and the move played.
            reply = await handler.handle(next_command(record, users))
            assert reply.ok, reply
            assert (await looks.load(GAME_CHAT)).version > record.version
        assert stale >= 10
    finally:
        for coordinator in coordinators:
            await coordinator.close()
        for store in stores:
            await store.close()


def test_the_chat_index_holds_what_the_lru_holds():
    held = HeldRecords(2)
    chats = [ChatKey("telegram", str(n)) for n in range(3)]
    records = [make_record(f"g{n}", chat=chat) for n, chat in enumerate(chats)]
    for record in records[:2]:
        held.hold(record)
    assert held.active_in(chats[0]) is records[0] and held.get("g1") is records[1]
    held.hold(records[2])  # the least recently held game goes, from both
    assert held.get("g0") is None and held.active_in(chats[0]) is None
    assert held.active_in(chats[2]) is records[2]
    held.hold(replace(records[1], status="finished"))  # a finished game is no chat's active one
    assert held.active_in(chats[1]) is None and held.get("g1").status == "finished"
    held.forget("g2")
    assert held.get("g2") is None and held.active_in(chats[2]) is None


def test_a_chat_s_new_game_is_not_dropped_with_its_old_one():
    held = HeldRecords(4)
    chat = ChatKey("telegram", "9")
    old, new = make_record("old", chat=chat), make_record("new", chat=chat)
    held.hold(old)
    held.hold(new)
    held.forget("old")  # the chat's active game is the new one: it stays
    assert held.active_in(chat) is new


def test_a_game_is_found_through_its_chat_or_by_its_id():
    held = HeldRecords(4)
    chat = ChatKey("telegram", "5")
    running, finished = make_record("now", chat=chat), make_record("then", chat=chat, status="finished")
    held.hold(finished)
    held.hold(running)
    assert held.find("now", chat) is running
    assert held.find("then", chat) is finished  # not the chat's active game: by its id
    assert held.find("never", chat) is None
