"""A chat given a new id by its platform (a Telegram group upgraded to a supergroup): the game
goes on under the new id, its table posted anew below a notice, its timers running there; the
old id has no game; telling it twice changes nothing."""

from __future__ import annotations

from bot.coordinator import commands as cmds
from bot.coordinator import moved_chats
from bot.coordinator.ports import ChatKey
from bot.i18n import format_text

from .conftest import CHAT, Harness

NEW = ChatKey("telegram", "-1009100")


async def test_a_running_game_goes_on_under_the_new_id(h: Harness) -> None:
    people = await h.start(2)
    before = await h.record()
    sent = len(h.chat.public)

    assert await h.coordinator.chat_moved(CHAT, NEW) is True

    moved = [(chat, message, edit) for chat, message, edit in h.chat.public[sent:]]
    assert {chat for chat, _, _ in moved} == {NEW}
    notice, table = moved[0][1], moved[-1][1]
    assert format_text(notice.text, "en") == "This group was upgraded by Telegram: the game goes on here."
    assert format_text(notice.text, "zh") == "本群已被Telegram升级：游戏在这里继续。"
    assert table.game_id == before.game_id and moved[-1][2] is None  # a new message, not an edit
    assert await h.store.load(CHAT) is None
    h.key = NEW
    record = await h.record()
    assert record.game_id == before.game_id and record.table_message_id not in (None, before.table_message_id)
    # A move in the new chat, and the turn timer running there.
    state = await h.state()
    mover = next(p for p in people if p.id == state.current)
    assert (await h.do(cmds.Draw, mover)).ok
    assert (await h.record()).version > record.version
    current = (await h.state()).current
    await h.clock.advance(61)
    assert (await h.state()).current != current
    # The old id: no game; told again, nothing moves.
    h.key = CHAT
    assert (await h.do(cmds.Draw, mover)).error == "no_game"
    assert await h.coordinator.chat_moved(CHAT, NEW) is False


async def test_a_lobby_and_the_chats_settings_move_too(h: Harness) -> None:
    people = await h.lobby(2, settings={"language": "zh", "turn_timer": 45})
    assert await h.coordinator.chat_moved(CHAT, NEW) is True
    lobby = h.chat.lobbies(NEW)[-1]
    assert lobby.locale == "zh_CN" and len(lobby.seats) == 2
    assert (await h.store.chat_settings(NEW)).turn_timer == 45
    h.key = NEW
    assert (await h.do(cmds.StartGame, people[0])).ok
    assert h.chat.last_table(NEW).deadline == h.clock.now() + 45


async def test_a_chat_with_nothing_stored_moves_nothing(h: Harness) -> None:
    assert await h.coordinator.chat_moved(CHAT, NEW) is False
    assert h.chat.public == []


async def test_a_match_at_two_tables_moves_whole_and_finishes_in_the_new_chat() -> None:
    from dataclasses import replace

    from tests.coordinator.test_two_tables import human_command, open_two_tables

    h = Harness(seed=4)
    people = await open_two_tables(h, humans=2)
    hub = await h.record()
    h.games = hub.two_tables.games
    for _ in range(6):  # a few moves before the group is upgraded
        for who in people:
            command = await human_command(h, who)
            if command is not None:
                assert (await h.coordinator.handle(command)).ok
    assert await h.coordinator.chat_moved(CHAT, NEW) is True
    tables = [ChatKey(NEW.platform, f"{NEW.chat_id}#t{n}") for n in (1, 2)]
    moved_hub = await h.store.load(NEW)
    assert moved_hub.game_id == hub.game_id and moved_hub.two_tables.chats == tables
    for chat, game_id in zip(tables, hub.two_tables.games, strict=True):
        record = await h.store.load(chat)
        assert record.game_id == game_id and record.series.hub == NEW
        assert h.chat.tables(chat)  # each table posted anew where it plays now
    assert [n.text.msgid for n in h.chat.notices(NEW)] == [moved_chats.MOVED]
    for _ in range(20000):
        records = [await h.store.get(g) for g in h.games]
        if all(r.status == "finished" for r in records):
            break
        for who in people:
            command = await human_command(h, who)
            if command is not None:  # sent to the group's new chat: the hub routes it
                assert (await h.coordinator.handle(replace(command, chat=NEW))).ok
    assert [(await h.store.get(g)).status for g in h.games] == ["finished", "finished"]
    assert (await h.store.get(hub.game_id)).status == "finished"
    assert h.chat.notices(NEW)[-1].text.msgid.startswith("{winner} is the champion of both tables")
    here = await h.store.stats(CHAT.platform, people[0].id, NEW)
    assert (here.games, here.hands) == (1, 28)  # every hand of the match counted in the new chat
    before = await h.store.stats(CHAT.platform, people[0].id, CHAT)
    assert (before.games, before.hands) == (0, 0)


async def test_stopped_between_the_move_and_the_new_table_the_game_goes_on_after_a_restart(h: Harness) -> None:
    people = await h.start(2)
    assert await h.store.move_chat(CHAT, NEW)  # the process was killed right after this
    again = h.restart()
    await again.coordinator.resume()
    again.key = NEW
    state = await again.state()
    mover = next(p for p in people if p.id == state.current)
    sent = len(again.chat.public)
    assert (await again.do(cmds.Draw, mover)).ok
    tables = [(chat, edit) for chat, message, edit in again.chat.public[sent:]
              if getattr(message, "game_id", None) == (await again.record()).game_id]
    assert tables and all(chat == NEW for chat, _ in tables)
    assert tables[0][1] is None  # posted anew: the old id names a message of the old chat
