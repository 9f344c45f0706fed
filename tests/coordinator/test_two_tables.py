"""Two tables at once: 8 players, 7 rounds of new partners, 28 hands at each table, shared
standings; each table its own record, lock, table message and timers."""

from __future__ import annotations

import pytest

from bot.coordinator import commands as cmds
from bot.coordinator.clock import FakeClock
from bot.coordinator.coordinator import Coordinator
from bot.coordinator.memory_store import MemoryStore
from bot.coordinator.ports import ChatKey, GameRecord
from bot.coordinator.tables import split_table_chat
from bot.coordinator.views import Recap
from bot.engine import Match, legal_actions
from bot.engine.actions import CatchUno, ChooseColor, DeclareUno, Pass, Play
from bot.i18n import translate
from tests.coordinator.conftest import CHAT, Harness, user
from tests.coordinator.test_recap import replayed_facts
from tests.fakes import FakeChat

T1, T2 = ChatKey(CHAT.platform, f"{CHAT.chat_id}#t1"), ChatKey(CHAT.platform, f"{CHAT.chat_id}#t2")
SETTINGS = {"rotation": "on", "tables": "2"}


async def open_two_tables(h: Harness, humans: int = 1) -> list:
    people = await h.lobby(humans, 8 - humans, settings=SETTINGS)
    reply = await h.do(cmds.StartGame, people[0])
    assert reply.ok, reply
    return people


async def table_records(h: Harness) -> list[GameRecord]:
    hub = await h.record() if await h.store.load(CHAT) else None
    games = hub.two_tables.games if hub else h.games
    return [await h.store.get(g) for g in games]


async def human_command(h: Harness, who) -> cmds.Command | None:
    """A sensible move for ``who`` sent to the group's chat (the hub routes it), or None when
    it is not their turn."""
    for record in await table_records(h):
        if record.status == "running" and any(s.user_id == who.id for s in record.seats):
            state = Match.from_json(record.match).game
            break
    else:
        return None
    if state.current != who.id:
        return None
    actions = [a for a in legal_actions(state, who.id) if not isinstance(a, CatchUno | DeclareUno)]
    named = next((a for a in actions if isinstance(a, ChooseColor)), None)
    if named is not None:  # the dealer names the colour of a Wild turned first
        return cmds.NameColor(CHAT, who, color=named.color.value)
    play = next((a for a in actions if isinstance(a, Play)), None)
    if play is not None:
        return cmds.PlayCards(CHAT, who, tuple(str(c) for c in play.cards),
                              play.color.value if play.color else None,
                              state.card_count(who.id) - len(play.cards) == 1, play.swap)
    if any(isinstance(a, Pass) for a in actions):
        return cmds.Pass(CHAT, who)
    return cmds.Draw(CHAT, who)


def partner_pairs(record_match: Match) -> set[frozenset]:
    state = record_match.game
    return {frozenset(state.teammates(p)) for p in state.players}


async def test_two_tables_play_28_hands_each_and_name_a_champion():
    h = Harness(seed=4)
    people = await open_two_tables(h, humans=2)
    hub = await h.record()
    h.games = hub.two_tables.games
    first = await table_records(h)
    assert [r.chat for r in first] == [T1, T2]
    assert sorted(s.user_id for r in first for s in r.seats) == sorted(s.user_id for s in hub.seats)
    assert h.chat.tables(T1) and h.chat.tables(T2)  # each table its own table message
    names = {s.user_id: s.name for s in hub.seats}
    pairs = [frozenset(names[p] for p in pair) for r in first
             for pair in partner_pairs(Match.from_json(r.match))]
    for _ in range(20000):
        if all(r.status == "finished" for r in await table_records(h)):
            break
        moved = False
        for who in people:
            command = await human_command(h, who)
            if command is not None:
                reply = await h.coordinator.handle(command)
                assert reply.ok, reply
                moved = True
        assert moved or all(r.status == "finished" for r in await table_records(h)), "stuck"
    records = await table_records(h)
    matches = [Match.from_json(r.match) for r in records]
    assert [m.hand_number for m in matches] == [28, 28]
    for chat in (T1, T2):  # rounds 2..7 are announced at each table with the new partners
        rounds = [n for n in h.chat.notices(chat) if n.text.msgid.startswith("Round {round}")]
        assert [n.text.params["round"] for n in rounds] == [2, 3, 4, 5, 6, 7]
        pairs += [frozenset((t.params["player"], t.params["other"])) for n in rounds
                  for t in n.text.params["teams"]]
    assert len(pairs) == 28 == len(set(pairs))  # every two players partnered exactly once
    assert await h.store.load(CHAT) is None  # the hub finished too
    final = h.chat.notices(CHAT)[-1]
    assert final.text.msgid.startswith("{winner} is the champion of both tables")
    totals = {p: matches[0].scores[p] + matches[1].scores[p] for p in matches[0].players}
    listed = [(row.params["name"], row.params["points"]) for row in final.text.params["standings"]]
    assert sorted(listed) == sorted((names[p], v) for p, v in totals.items())
    assert listed[0][1] == max(totals.values())
    # Standings across both tables after every hand, in each table's hand notices
    hand_notices = [n for chat in (T1, T2) for n in h.chat.notices(chat) if "won hand" in n.text.msgid]
    assert len(hand_notices) == 56
    for notice in hand_notices:
        assert len(notice.text.params["standings"]) == 8


async def test_both_tables_run_at_once_on_their_own_timers():
    clock = FakeClock()
    chat = FakeChat()
    store = MemoryStore(now=clock.now)
    h = Harness(seed=9, store=store, chat=chat, clock=clock)
    h.coordinator = Coordinator(chat, store, clock, ai_delay=1.0, seed=9)
    people = await h.lobby(1, 7, settings={**SETTINGS, "turn_timer": "5"})
    assert (await h.do(cmds.StartGame, people[0])).ok
    games = (await h.record()).two_tables.games
    versions = {g: [] for g in games}
    for _ in range(60):  # bots act on their timers, the human's turns time out
        await clock.advance(1.0)
        for g in games:
            versions[g].append((await store.get(g)).version)
    for g in games:  # each table kept moving on its own
        assert versions[g][-1] - versions[g][0] > 20
    published = [c for c, _, _ in chat.public if c in (T1, T2)]
    switches = sum(1 for a, b in zip(published, published[1:], strict=False) if a != b)
    assert switches > 20  # the two tables' messages interleave: both play at the same time
    assert chat.tables(T1)[-1].game_id != chat.tables(T2)[-1].game_id
    await h.coordinator.close()


async def test_routing_settings_refusals_and_stop_everywhere():
    h = Harness(seed=5)
    people = await h.lobby(1, 6, settings=SETTINGS)
    reply = await h.do(cmds.StartGame, people[0])
    assert not reply.ok and reply.error == "two_tables_players"
    assert (await h.do(cmds.AddAiSeat, people[0], strategy="easy")).ok
    assert (await h.do(cmds.AddAiSeat, people[0], strategy="easy")).error == "game_full"  # 8 seats
    assert (await h.do(cmds.StartGame, people[0])).ok
    outsider = user(9)
    assert (await h.do(cmds.Draw, outsider)).error == "not_in_game"
    hub = await h.record()
    games = hub.two_tables.games
    reply = await h.do(cmds.StopGame, people[0])
    assert reply.ok
    assert await h.store.load(CHAT) is None
    assert [(await h.store.get(g)).status for g in games] == ["stopped", "stopped"]


async def test_a_leaver_is_replaced_by_a_bot_and_the_schedule_holds():
    h = Harness(seed=6)
    people = await h.lobby(2, 6, settings=SETTINGS)
    assert (await h.do(cmds.StartGame, people[0])).ok
    hub = await h.record()
    games = hub.two_tables.games
    assert (await h.do(cmds.Leave, people[1])).ok
    record = next(r for r in [await h.store.get(g) for g in games]
                  if any(s.user_id == people[1].id for s in r.seats))
    seat = next(s for s in record.seats if s.user_id == people[1].id)
    assert seat.ai is not None and len(record.seats) == 4
    closed = h.chat.last_hand(people[1].id)  # their own hand message keeps nothing to press
    assert closed.set_aside and closed.note.msgid == "You left the game."


async def test_a_restart_keeps_the_two_table_match():
    h = Harness(seed=8)
    people = await open_two_tables(h, humans=1)
    h2 = h.restart()
    await h2.coordinator.resume()
    h2.games = (await h2.record()).two_tables.games
    command = None
    for _ in range(50):
        command = await human_command(h2, people[0])
        if command is not None:
            break
    assert command is not None  # the human's turn came (bots played on after the restart)
    reply = await h2.coordinator.handle(command)
    assert reply.ok, reply


def test_split_table_chat():
    assert split_table_chat("-100#t2:55") == ("-100", 2, "55")
    assert split_table_chat("-100#t1") == ("-100", 1, None)
    assert split_table_chat("-100") == ("-100", None, None)


@pytest.mark.parametrize("value", ["3", "x"])
async def test_bad_tables_setting_is_refused(value):
    h = Harness()
    people = await h.lobby(1)
    reply = await h.do(cmds.ChangeSettings, people[0], changes={"tables": value})
    assert not reply.ok and reply.error == "bad_setting"


async def test_a_setting_sent_in_the_group_applies_at_both_tables():
    h = Harness(seed=3)
    people = await h.lobby(2, 6, settings={**SETTINGS, "turn_timer": "30"})
    assert (await h.do(cmds.StartGame, people[0])).ok
    games = (await h.record()).two_tables.games
    records = [await h.store.get(g) for g in games]
    assert [r.options.turn_timer for r in records] == [30, 30]
    assert any("turn" in r.deadlines for r in records)
    reply = await h.do(cmds.ChangeSettings, people[0],
                       changes={"turn_timer": "0", "reaction_window": "5", "language": "zh_CN"})
    assert reply.ok and reply.text.msgid == "Settings saved."
    records = [await h.store.get(g) for g in games]
    for record in records:  # both tables changed at once, the running turn included
        assert record.options.turn_timer == 0 and "turn" not in record.deadlines
        assert record.options.reaction_window == 5 and record.options.language == "zh_CN"
    versions = [r.version for r in records]
    await h.clock.advance(600)  # no timer left to fire: nobody is moved on
    assert [(await h.store.get(g)).version for g in games] == versions
    # And back on: the turn being played at each table gets the new timer.
    assert (await h.do(cmds.ChangeSettings, people[0], changes={"turn_timer": "20"})).ok
    records = [await h.store.get(g) for g in games]
    assert [r.options.turn_timer for r in records] == [20, 20]
    assert all(r.deadlines.get("turn") == h.clock.now() + 20 for r in records
               if Match.from_json(r.match).game.current is not None)
    waiting = [r for r in records if "turn" in r.deadlines]
    assert waiting
    await h.clock.advance(21)  # the new timer is armed: the waiting turns time out
    for record in waiting:
        assert (await h.store.get(record.game_id)).version > record.version
    records = [await h.store.get(g) for g in games]
    # What cannot change mid-match is refused, with the reason, and changes no table.
    refused = await h.do(cmds.ChangeSettings, people[0], changes={"stacking": "off"})
    assert not refused.ok and refused.error == "game_running" and refused.text.msgid
    assert [(await h.store.get(g)).rules for g in games] == [r.rules for r in records]
    # Only who may manage the group changes its settings.
    refused = await h.do(cmds.ChangeSettings, people[1], changes={"turn_timer": "0"})
    assert not refused.ok and refused.error == "not_allowed"
    assert [(await h.store.get(g)).options.turn_timer for g in games] == [20, 20]


async def test_a_finished_two_table_match_posts_one_recap_of_both_tables():
    h = Harness(seed=4)
    people = await h.lobby(1, 7, settings={**SETTINGS, "rotation_hands": "1"})
    assert (await h.do(cmds.StartGame, people[0])).ok
    hub = await h.record()
    h.games = hub.two_tables.games
    for _ in range(5000):
        if await h.store.load(CHAT) is None:
            break
        command = await human_command(h, people[0])
        if command is not None:
            assert (reply := await h.coordinator.handle(command)).ok, reply
    assert await h.store.load(CHAT) is None  # the champion is named
    recaps = [(chat, m) for chat, m, _ in h.chat.public if isinstance(m, Recap)]
    assert len(recaps) == 1  # one for the whole match, none per table
    chat, shown = recaps[0]
    assert chat == CHAT and shown.game_id == hub.game_id and shown.tables == tuple(h.games)
    hub_posts = [m for c, m, _ in h.chat.public if c == CHAT]
    assert hub_posts[-1] is shown and "champion of both tables" in hub_posts[-2].text.msgid
    # One line per player, one point per hand number (both tables' hands of that number).
    matches = [Match.from_json((await h.store.get(g)).match) for g in h.games]
    names = {s.user_id: s.name for s in hub.seats}
    totals = {names[p]: matches[0].scores[p] + matches[1].scores[p] for p in names}
    assert len(shown.lines) == 8 and all(len(line.scores) == 7 for line in shown.lines)
    assert {line.name: line.scores[-1] for line in shown.lines} == totals
    assert all(line.start == 0 for line in shown.lines)
    rows = [r for g in h.games for r in await h.store.game_results(g) if r.kind == "hand"]
    after_first = {names[p.user_id]: p.points for r in rows if r.hand_number == 1 for p in r.players}
    assert {line.name: line.scores[0] for line in shown.lines} == after_first
    facts = {fact.msgid: fact for fact in shown.facts}
    played = facts["{count} hand played at each of the {tables} tables."]
    assert (played.params["count"], played.params["tables"]) == (7, 2)
    tally = facts["Hands won: {tally}"].params["tally"]
    assert sum(t.params["count"] for t in tally) == sum(1 for r in rows for p in r.players if p.won)
    longest = next(f for f in shown.facts if f.msgid.startswith("Longest hand"))
    assert longest.msgid == "Longest hand: hand {hand} at table {table}, {count} move."
    assert longest.params["table"] in (1, 2) and 1 <= longest.params["hand"] <= 7
    # The biggest penalty of either table, as a replay of both finds it (table 1 on a tie).
    expected = None
    for table, game in enumerate(h.games, 1):
        found = replayed_facts(await h.store.match_history(game))[1]
        if found is not None and (expected is None or found[0] > expected[0]):
            expected = (found[0], names[found[1]], table, found[2])
    assert expected is not None, "no penalty in this match: the check proves nothing"
    biggest = next(f for f in shown.facts if f.msgid.startswith("Biggest penalty"))
    assert (biggest.params["count"], biggest.params["player"], biggest.params["table"],
            biggest.params["hand"]) == expected
    assert translate(played, "en") == "7 hands played at each of the 2 tables."
    assert translate(shown.axis_hand, "zh_CN") != "Hand at each table"
    # /recap in the match's chat posts the same recap again.
    reply = await h.do(cmds.ShowRecap, people[0])
    assert reply.ok
    assert h.chat.public[-1][0] == CHAT and h.chat.public[-1][1] == shown
    # And the race log after it: each table's race under its number.
    log = await h.do(cmds.ShowLog, people[0])
    assert log.ok and log.text.msgid.startswith("The last game is over")
    headings = [line.params["table"] for line in log.lines if line.msgid == "Table {table}:"]
    assert headings and set(headings) <= {1, 2}
