"""The watch command: links to the chat's game for anyone there, one per table of a two-table
match; refused with the reason without a web page or a game. And the public snapshot a
spectator's page is built from holds counts of cards only."""

from __future__ import annotations

from bot.coordinator import commands as cmds
from bot.coordinator import spectator_snapshot
from bot.coordinator.ports import ChatKey
from tests.coordinator.conftest import CHAT, Harness, user

SETTINGS = {"rotation": "on", "tables": "2"}


async def test_anyone_gets_the_games_link_and_a_two_table_match_one_per_table():
    h = Harness(seed=5)
    people = await h.lobby(1, 7, settings=SETTINGS)
    assert (await h.do(cmds.StartGame, people[0])).ok
    hub = await h.record()
    reply = await h.do(cmds.Watch, user(9))  # not seated
    assert reply.ok
    assert [link.game_id for link in reply.watch] == hub.two_tables.games
    assert [link.label.params for link in reply.watch] == [{"table": 1}, {"table": 2}]
    table_chat = ChatKey(CHAT.platform, f"{CHAT.chat_id}#t2")
    at_table = await h.coordinator.handle(cmds.Watch(table_chat, user(9)))
    assert [link.game_id for link in at_table.watch] == [hub.two_tables.games[1]]
    snapshot = await spectator_snapshot(h.store, hub.two_tables.games[1])
    assert snapshot is not None and snapshot.table is not None
    assert all(isinstance(seat.cards, int) for seat in snapshot.table.seats)


async def test_without_a_web_page_or_a_game_it_says_why():
    h = Harness()
    assert (await h.do(cmds.Watch, user(9))).error == "no_game"
    await h.start(2)
    refused = await h.do(cmds.Watch, user(9), web=False)
    assert refused.error == "no_web" and not refused.watch
    assert "WEBAPP_URL" in refused.text.msgid
