"""Turn timers on the fake clock, AFK takeover/leave, restart with resume(), unreachable
players."""

from __future__ import annotations

from bot.coordinator import commands as cmds
from bot.coordinator.views import Card
from bot.i18n import format_text

from .conftest import Harness


async def test_timeout_draws_and_passes(h: Harness) -> None:
    await h.start(2)
    state = await h.state()
    player, count = state.current, state.card_count(state.current)
    deadline = (await h.record()).deadlines["turn"]
    assert deadline == h.clock.now() + 60
    assert h.chat.last_table().deadline == deadline
    await h.clock.advance(59)
    assert (await h.state()).current == player
    await h.clock.advance(2)
    after = await h.state()
    assert after.current != player and after.card_count(player) >= count  # drew (penalty or 1)
    assert any("ran out of time" in t.msgid for t in h.chat.last_table().last)
    assert (await h.record()).book.timeouts[player] == 1


async def test_acting_resets_the_timeout_run(h: Harness) -> None:
    people = await h.start(2)
    by_id = {p.id: p for p in people}
    first = (await h.state()).current
    await h.clock.advance(61)
    second = (await h.state()).current
    assert second != first
    assert (await h.human_move(by_id[second])).ok
    while (await h.state()).current != first:  # e.g. a skip: the same player again
        assert (await h.human_move(by_id[(await h.state()).current])).ok
    assert (await h.human_move(by_id[first])).ok
    assert (await h.record()).book.timeouts.get(first, 0) == 0


async def test_three_timeouts_hand_the_seat_to_a_bot(h: Harness) -> None:
    await h.start(2, 1)
    game_id = (await h.record()).game_id
    for _ in range(12):
        record = await h.store.get(game_id)
        if all(seat.ai for seat in record.seats) or record.status != "running":
            break
        await h.clock.advance(61)
    record = await h.store.get(game_id)
    assert [s.ai for s in record.seats] == ["normal", "normal", "normal"]
    takeovers = [n for n in h.chat.notices() if "bot plays for them" in n.text.msgid]
    assert len(takeovers) == 1  # the last person away ends the game instead
    # With nobody left to play for, the game ends by itself, counting for nobody.
    assert (record.status, record.book.end_reason) == ("stopped", "away")
    assert "Everyone has missed" in h.chat.notices()[-1].text.msgid
    assert not any(r.kind == "match" for r in h.store._results)
    for user_id in ("u1", "u2"):  # each person's hand shows the end, with nothing to press
        closed = h.chat.last_hand(user_id)
        assert closed.hand_over and not closed.moves and not closed.set_aside


async def test_a_player_a_bot_takes_over_from_and_who_then_leaves_has_nothing_to_press(h: Harness) -> None:
    u1, u2, u3 = await h.start(3)
    for _ in range(12):
        if (await h.record()).book.taken_over:
            break
        await h.clock.advance(61)
    away = (await h.record()).book.taken_over[0]
    set_aside = h.chat.last_hand(away)  # a bot plays for them: their hand offers nothing
    assert set_aside.set_aside and not set_aside.moves
    assert set_aside.note.msgid == "You were away too long: a bot plays for you until you open your hand again."
    assert (await h.do(cmds.Leave, next(u for u in (u1, u2, u3) if u.id == away))).ok
    closed = h.chat.last_hand(away)
    assert closed.set_aside and not closed.moves and closed.note.msgid == "You left the game."


async def test_three_timeouts_leave_when_the_chat_says_so(h: Harness) -> None:
    await h.start(3, settings={"afk_policy": "leave"})
    for _ in range(12):
        if len((await h.record()).seats) < 3:
            break
        await h.clock.advance(61)
    record = await h.record()
    assert len(record.seats) == 2
    state = await h.state()
    assert len(state.players) == 2 and state.card_total() == 108
    assert any("away too long and left" in t.msgid for t in h.chat.last_table().last)
    gone = next(u for u in ("u1", "u2", "u3") if u not in state.players)
    closed = h.chat.last_hand(gone)  # their hand message keeps nothing to press
    assert closed.set_aside and closed.note.msgid == "You were away too long and left the game."


async def test_no_timer_when_switched_off(h: Harness) -> None:
    await h.start(2, settings={"turn_timer": 0})
    before = await h.record()
    assert "turn" not in before.deadlines
    await h.clock.advance(10_000)
    assert (await h.record()).match == before.match


async def test_restart_continues_with_the_same_messages(h: Harness) -> None:
    people = await h.start(2, settings={"turn_timer": 0})
    by_id = {p.id: p for p in people}
    assert (await h.human_move(by_id[(await h.state()).current])).ok
    table_id = (await h.record()).table_message_id
    hand_ids = dict((await h.record()).hand_message_ids)
    sends = h.chat.public_sends
    await h.coordinator.close()
    h2 = h.restart()
    await h2.coordinator.resume()
    assert (await h2.human_move(by_id[(await h2.state()).current])).ok
    assert h.chat.public_sends == sends and h.chat.public[-1][2] == table_id
    assert (await h2.record()).table_message_id == table_id
    assert (await h2.record()).hand_message_ids == hand_ids


async def test_restart_fires_a_passed_deadline(h: Harness) -> None:
    await h.start(2)
    player = (await h.state()).current
    await h.coordinator.close()
    await h.clock.advance(300)  # the process is down: nothing happens
    assert (await h.state()).current == player
    h2 = h.restart()
    await h2.coordinator.resume()
    await h.clock.advance(0)
    assert (await h2.state()).current != player
    assert (await h2.record()).deadlines["turn"] == h.clock.now() + 60


async def test_restart_lets_a_waiting_bot_move(h: Harness) -> None:
    await h.start(1, 2, settings={"turn_timer": 0})
    await h.rig({"u1": ["R1", "R2"], "ai1": ["G5", "R6"], "ai2": ["B3", "R4"]},
                ["Y1", "Y2", "Y3", "Y4"], ["R9"], current="ai1", color="R")
    h2 = h.restart()
    await h2.coordinator.resume()
    state = await h2.state()
    assert state.current == "u1" and state.card_count("ai1") == 1


async def test_unreachable_player_keeps_the_seat_and_gets_the_hand_later(h: Harness) -> None:
    h.chat.block("u2")
    people = await h.start(2, settings={"turn_timer": 0})
    warnings = [n for n in h.chat.notices() if n.mentions == ("u2",)]
    assert len(warnings) == 1
    assert not any(isinstance(v, Card) for v in warnings[0].text.params.values())
    record = await h.record()
    assert record.delivery.unreachable == ["u2"] and len(record.seats) == 2
    by_id = {p.id: p for p in people}
    turns_of_u2 = 0
    for _ in range(4):  # more moves: no second warning
        assert (await h.human_move(by_id[(await h.state()).current])).ok
        turns_of_u2 += (await h.state()).current == "u2"
    assert not next(s for s in h.chat.last_table().seats if s.user_id == "u2").reachable
    assert len([n for n in h.chat.notices() if n.mentions == ("u2",) and not n.transient]) == 1
    # Each turn that reached u2 pinged them in the chat instead (a transient notice).
    pings = [n for n in h.chat.notices() if n.transient]
    assert turns_of_u2 and len(pings) == turns_of_u2
    assert all(n.mentions == ("u2",) and n.text.params == {"player": "P2"} for n in pings)
    h.chat.unblock("u2")
    assert await h.coordinator.user_reachable("telegram", "u2") == 1
    assert h.chat.last_hand("u2").user_id == "u2"
    assert (await h.record()).delivery.unreachable == []


async def test_show_hand_resends_after_unblocking(h: Harness) -> None:
    h.chat.block("u2")
    u1, u2 = await h.start(2, settings={"turn_timer": 0})
    h.chat.unblock("u2")
    reply = await h.do(cmds.ShowHand, u2)
    assert reply.ok and reply.hand is not None
    assert len(h.chat.private["u2"]) == 1
    assert (await h.record()).delivery.unreachable == []
    assert len([n for n in h.chat.notices() if n.mentions == ("u2",)]) == 1


async def test_hand_pause_deals_the_next_hand_later() -> None:
    h = Harness(hand_pause=5)
    people = await h.start(2, settings={"turn_timer": 0, "hand_size": 2})
    by_id = {p.id: p for p in people}
    for _ in range(200):
        record = await h.record()
        if "next_hand" in record.deadlines:
            break
        assert (await h.human_move(by_id[(await h.state()).current])).ok
    record = await h.record()
    assert "next_hand" in record.deadlines
    assert (await h.do(cmds.Draw, people[0])).error == "hand_over"
    hand = (await h.match()).hand_number
    sends = h.chat.public_sends
    await h.clock.advance(5)
    assert (await h.match()).hand_number == hand + 1
    assert h.chat.public_sends == sends + 1  # a fresh table message for the new hand


async def test_a_player_taken_over_by_a_bot_can_come_back() -> None:
    from bot.coordinator.clock import FakeClock
    from bot.coordinator.coordinator import Coordinator

    clock = FakeClock()
    h = Harness(clock=clock)
    # Bots wait 30 s here, so the returning player has a moment to act.
    h.coordinator = Coordinator(h.chat, h.store, clock, ai_delay=30, seed=4)
    people = await h.start(2, settings={"turn_timer": 20})
    for _ in range(30):
        record = await h.record()
        if any(s.ai for s in record.seats):
            break
        await clock.advance(21)
    record = await h.record()
    away = next(s for s in record.seats if s.ai)
    assert away.user_id in record.book.taken_over
    other = next(p for p in people if p.id != away.user_id)
    while (await h.state()).current != away.user_id:
        # The other player plays on (timing out too, everyone would be away: the game ends).
        assert (await h.human_move(other)).ok
    who = next(p for p in people if p.id == away.user_id)
    reply = await h.human_move(who)
    assert reply.ok, reply
    record = await h.record()
    assert next(s for s in record.seats if s.user_id == who.id).ai is None
    assert who.id not in record.book.taken_over
    await h.coordinator.close()


async def test_the_turn_before_a_bot_takes_over_the_player_is_warned(h: Harness) -> None:
    people = await h.start(2, 1)
    away = people[0].id
    warned = []
    for _ in range(40):
        record = await h.record()
        if record.seat_of(away).ai is not None:
            break
        current = (await h.state()).current
        if current != away:  # the other person plays on: only one is away
            assert (await h.human_move(next(p for p in people if p.id == current))).ok
            continue
        missed = record.book.timeouts.get(away, 0)
        await h.clock.advance(61)
        note = h.chat.last_hand(away).note
        if missed + 1 == 2:  # the second in a row: the next one hands the seat over
            warned.append(format_text(note, "en"))
            assert "miss the next turn too and a bot plays for you" in warned[-1]
            assert warned[-1].startswith("You drew ")  # with the card the timeout drew
            assert format_text(note, "zh_CN").endswith("下次再超时，将由机器人替你出牌。"), format_text(note, "zh_CN")
        elif note is not None:
            assert "miss the next turn" not in format_text(note, "en")
    assert len(warned) == 1 and (await h.record()).seat_of(away).ai is not None


async def test_the_warning_says_leave_when_the_chat_removes_players_away(h: Harness) -> None:
    people = await h.start(3, settings={"afk_policy": "leave"})
    away = people[0].id
    for _ in range(12):
        if (await h.record()).book.timeouts.get(away, 0) == 2 or (await h.record()).seat_of(away) is None:
            break
        current = (await h.state()).current
        if current != away:
            assert (await h.human_move(next(p for p in people if p.id == current))).ok
            continue
        await h.clock.advance(61)
    assert (await h.record()).book.timeouts.get(away) == 2
    assert "miss the next turn too and you leave the game" in format_text(h.chat.last_hand(away).note, "en")


async def test_a_player_a_bot_stands_in_for_takes_the_seat_back_by_opening_their_hand(h: Harness) -> None:
    people = await h.start(2, 1)
    away, other = people
    for _ in range(40):
        record = await h.record()
        if record.seat_of(away.id).ai is not None:
            break
        current = (await h.state()).current
        if current != away.id:
            assert (await h.human_move(other)).ok
            continue
        await h.clock.advance(61)
    record = await h.record()
    assert record.seat_of(away.id).ai is not None and away.id in record.book.taken_over
    assert h.chat.last_hand(away.id).set_aside  # nothing to press while a bot plays for them
    told = [n for n in h.chat.notices() if "a bot plays for them" in n.text.msgid][-1]
    assert "until they open their hand again" in format_text(told.text, "en")
    shown = await h.do(cmds.ShowHand, away)  # back, wherever the turn is
    assert shown.ok, shown
    record = await h.record()
    assert record.seat_of(away.id).ai is None and away.id not in record.book.taken_over
    assert any("is back and plays again" in t.msgid for t in h.chat.last_table().last)
    assert h.chat.last_hand(away.id).cards  # their hand, to play on
    assert not h.chat.last_hand(away.id).set_aside
    assert (await h.do(cmds.ShowHand, other)).ok  # someone never away: nothing changes
    assert (await h.record()).seat_of(other.id).ai is None
