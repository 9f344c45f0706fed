"""The coordinator on SqlStore behaves exactly as on its MemoryStore: the same seeded match
produces the same messages, the same final record and the same stats; and a coordinator
restarted on the database resumes the game with its timers and message ids."""

from __future__ import annotations

from dataclasses import asdict

import pytest

from bot.coordinator import commands as cmds
from bot.coordinator.clock import FakeClock
from bot.coordinator.context import Context
from bot.coordinator.coordinator import Coordinator
from bot.coordinator.memory_store import MemoryStore
from bot.coordinator.ports import ChatKey, ChatSettings
from storage import open_store
from tests.fakes import FakeChat

from .games import deck_is_whole, humans, next_command

CHAT = ChatKey("telegram", "-42")


async def play_seeded_match(store, clock: FakeClock, preset: str) -> FakeChat:
    chat = FakeChat()
    coordinator = Coordinator(chat, store, clock, ai_delay=0, seed=11)
    await store.save_chat_settings(CHAT, ChatSettings(preset=preset, overrides={"target_score": 120},
                                                      turn_timer=0))
    users = humans(2)
    assert (await coordinator.handle(cmds.NewGame(CHAT, users["u1"]))).ok
    assert (await coordinator.handle(cmds.Join(CHAT, users["u2"]))).ok
    for _ in range(2):
        assert (await coordinator.handle(cmds.AddAiSeat(CHAT, users["u1"], strategy="normal"))).ok
    assert (await coordinator.handle(cmds.StartGame(CHAT, users["u1"]))).ok
    game_id = (await store.load(CHAT)).game_id
    for _ in range(3000):
        record = await store.get(game_id)
        assert deck_is_whole(record.match)
        command = next_command(record, users)
        if command is None:
            break
        reply = await coordinator.handle(command)
        assert reply.ok, reply
        await clock.advance(1.5)  # time moves on between human moves
    await coordinator.close()
    assert (await store.get(game_id)).status == "finished"
    return chat


@pytest.mark.parametrize("preset", ["official", "house"])
async def test_a_seeded_match_is_identical_on_sql_and_in_memory(preset, database_url, monkeypatch):
    # Game ids are random even for a seeded coordinator; fix it so the messages compare equal.
    monkeypatch.setattr(Context, "new_game_id", staticmethod(lambda: "g0000000001"))
    memory_clock, sql_clock = FakeClock(), FakeClock()
    memory = MemoryStore(now=memory_clock.now)
    sql = await open_store(database_url, now=sql_clock.now)  # stamps follow the test clock
    try:
        memory_chat = await play_seeded_match(memory, memory_clock, preset)
        sql_chat = await play_seeded_match(sql, sql_clock, preset)
        assert sql_chat.public == memory_chat.public
        assert dict(sql_chat.private) == dict(memory_chat.private)
        [memory_record] = [await memory.get(g) for g in {m.game_id for _, m, _ in memory_chat.public
                                                          if getattr(m, "game_id", None)}]
        sql_record = await sql.get(memory_record.game_id)
        assert asdict(sql_record) == asdict(memory_record)
        for user_id in ("u1", "u2", "ai1"):
            assert await sql.stats("telegram", user_id) == await memory.stats("telegram", user_id)
            assert await sql.stats("telegram", user_id, CHAT) == await memory.stats("telegram", user_id, CHAT)
        board = await sql.leaderboard("telegram", CHAT)
        assert board == await memory.leaderboard("telegram", CHAT)
        assert {p.user_id for p in board} == {"u1", "u2"}  # AI seats never on the board
        assert sum(p.games for p in board) == 2
    finally:
        await sql.close()


async def test_a_restarted_coordinator_resumes_from_the_database(sqlite_database):
    clock = FakeClock()
    store = await open_store(sqlite_database, now=clock.now)
    chat = FakeChat()
    users = humans(3)
    first = Coordinator(chat, store, clock, ai_delay=0, seed=5)
    await store.save_chat_settings(CHAT, ChatSettings(turn_timer=30, overrides={"target_score": 60}))
    assert (await first.handle(cmds.NewGame(CHAT, users["u1"]))).ok
    for uid in ("u2", "u3"):
        assert (await first.handle(cmds.Join(CHAT, users[uid]))).ok
    assert (await first.handle(cmds.StartGame(CHAT, users["u1"]))).ok
    for _ in range(4):
        assert (await first.handle(next_command(await store.load(CHAT), users))).ok
    await first.close()  # the process stops: its timers are gone, its deliveries settled
    before = await store.load(CHAT)
    assert before.delivery.outbox is None  # delivered and recorded as such: nothing owed
    await store.close()

    # A new process: a new store on the same file, a new coordinator, later in time.
    store = await open_store(sqlite_database, now=clock.now)
    try:
        [loaded] = await store.active_games()
        assert asdict(loaded) == asdict(before)
        assert deck_is_whole(loaded.match)
        second = Coordinator(chat, store, clock, ai_delay=0, seed=6)
        await second.resume()
        current = next_command(loaded, users).user.id
        # The turn deadline passed while "down": it fires at once on the next clock tick.
        await clock.advance(max(0.0, loaded.deadlines["turn"] - clock.now()) + 0.01)
        after = await store.load(CHAT)
        assert after.version > loaded.version and deck_is_whole(after.match)
        assert next_command(after, users).user.id != current  # the timed-out player lost the turn
        # Buttons and messages from before the restart keep working: same ids, edited in place.
        assert after.table_message_id == before.table_message_id
        assert all(after.hand_message_ids[u] == before.hand_message_ids[u] for u in before.hand_message_ids)
        assert chat.public[-1][2] == before.table_message_id
        for _ in range(3000):
            record = await store.load(CHAT)
            if record is None:
                break
            reply = await second.handle(next_command(record, users))
            assert reply.ok, reply
        finished = await store.get(before.game_id)
        assert finished.status == "finished" and deck_is_whole(finished.match)
        assert (await store.stats("telegram", "u1")).games == 1
        await second.close()
    finally:
        await store.close()


async def test_a_move_stored_but_whose_answer_was_lost_is_delivered_by_the_next(database_url):
    # The statement bound ran out (or the connection dropped) just as the database committed:
    # the save raised, this process still holds the game as it was, and the next command
    # finds the version moved, reads the game as stored and delivers what that move owed.
    from tests.coordinator.conftest import Harness
    from tests.coordinator.hand_to_win import a_hand_u1_wins_with_r5, hand_results, player_to_act

    store = await open_store(database_url)
    try:
        h = Harness(store=store)
        u1, *_ = await a_hand_u1_wins_with_r5(h)
        write = store._rows.write

        async def committed_then_lost(**statements):
            store._rows.write = write
            await write(**statements)
            raise TimeoutError

        store._rows.write = committed_then_lost
        reply = await h.do(cmds.PlayCards, u1, cards=("R5",))
        assert not reply.ok and reply.error == "internal"
        assert (await h.match()).hand_number == 2 and hand_results(h) == []
        assert (await h.human_move(await player_to_act(h))).ok
        assert len(hand_results(h)) == 1
    finally:
        await store.close()


async def test_a_match_moved_to_a_new_chat_id_mid_way_finishes_there(database_url):
    # A Telegram group upgraded to a supergroup in the middle of a match, with a second process
    # on the database holding the game as it last saw it under the old id.
    store, other_store = await open_store(database_url), await open_store(database_url)
    clock = FakeClock()
    moved_to = ChatKey("telegram", "-10042")
    try:
        chat, other_chat = FakeChat(), FakeChat()
        coordinator = Coordinator(chat, store, clock, ai_delay=0, seed=5)
        other = Coordinator(other_chat, other_store, clock, ai_delay=0, seed=6)
        await store.save_chat_settings(CHAT, ChatSettings(overrides={"target_score": 60}, turn_timer=0))
        users = humans(2)
        assert (await coordinator.handle(cmds.NewGame(CHAT, users["u1"]))).ok
        assert (await coordinator.handle(cmds.Join(CHAT, users["u2"]))).ok
        assert (await coordinator.handle(cmds.StartGame(CHAT, users["u1"]))).ok
        game_id = (await store.load(CHAT)).game_id
        for _ in range(8):
            command = next_command(await store.get(game_id), users)
            assert (await other.handle(command)).ok  # the other process holds the game now
        assert await coordinator.chat_moved(CHAT, moved_to)
        command = next_command(await store.get(game_id), users)
        stale = type(command)(**{**command.__dict__, "chat": CHAT})
        assert (await other.handle(stale)).error == "no_game"  # its copy names the old id
        for _ in range(3000):
            record = await store.get(game_id)
            assert record.chat == moved_to and deck_is_whole(record.match)
            command = next_command(record, users)
            if command is None:
                break
            assert command.chat == moved_to and (await coordinator.handle(command)).ok
        finished = await store.get(game_id)
        assert finished.status == "finished" and finished.chat == moved_to
        assert (await store.stats("telegram", "u1", moved_to)).games == 1
        assert (await store.stats("telegram", "u1", CHAT)).games == 0
        await coordinator.close()
        await other.close()
    finally:
        await store.close()
        await other_store.close()
