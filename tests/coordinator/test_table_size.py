"""hand_size against the deck: a table is full when the next hand would not fit, and the
player hears why, with the numbers."""

from __future__ import annotations

import pytest

from bot.coordinator import commands as cmds
from bot.coordinator.settings import HAND_SIZE_RANGE
from bot.coordinator.table_size import DEALT_LIMIT, seats_for
from bot.engine import Match, RuleSet
from bot.engine.errors import UnoError
from bot.i18n import translate

from .conftest import Harness, user


def said(reply, locale: str = "en") -> str:
    assert reply.text is not None
    return translate(reply.text, locale)


@pytest.mark.parametrize("hand_size", [7, 10, 11, 14, 20])
def test_the_limit_is_the_engines(hand_size: int) -> None:
    rules = RuleSet(hand_size=hand_size)
    most = seats_for(rules)
    players = [f"p{i}" for i in range(most + 1)]
    Match.start(players[:most], rules, 1)  # the most that fit are dealt
    if most < 10:
        with pytest.raises(UnoError):
            Match.start(players, rules, 1)
    assert most == min(10, DEALT_LIMIT // hand_size)


def test_the_hand_size_range_is_the_engines() -> None:
    low, high = HAND_SIZE_RANGE
    assert RuleSet(hand_size=low).hand_size == low and RuleSet(hand_size=high).hand_size == high
    for wrong in (low - 1, high + 1):
        with pytest.raises(UnoError):
            RuleSet(hand_size=wrong)


async def test_twenty_cards_seat_five_and_the_sixth_hears_why(h: Harness) -> None:
    people = await h.lobby(4, settings={"hand_size": 20})
    assert (await h.record()).status == "lobby"
    lobby = h.chat.public[-1][1]
    assert lobby.max_players == 5
    reply = await h.do(cmds.Join, user(5))
    assert reply.ok and (await h.record()).status == "running"  # the deck's last seat started it
    state = await h.state()
    assert [state.card_count(p.id) for p in people] == [20] * 4
    record_before = await h.record()
    refused = await h.do(cmds.Join, user(6))
    assert refused.error == "game_running"  # started: the usual answer
    assert (await h.record()).version == record_before.version


async def test_a_full_table_for_the_hand_size_refuses_with_the_numbers(h: Harness) -> None:
    await h.lobby(1, settings={"hand_size": 11})
    # Force a lobby that is already at the deck's limit without starting (9 seats of 11 cards).
    record = await h.record()
    from bot.coordinator.ports import Seat

    record.seats += [Seat(f"x{i}", f"X{i}") for i in range(8)]
    await h.store.save(record)
    version = (await h.record()).version
    for command, kw in ((cmds.Join, {}), (cmds.AddAiSeat, {"strategy": "easy"})):
        reply = await h.do(command, user(1) if command is cmds.AddAiSeat else user(2), **kw)
        assert reply.error == "full_for_hand_size", reply
        assert said(reply) == "This game is full: with 11 cards each, the deck deals to at most 9 players."
        zh = said(reply, "zh_CN")
        assert "11" in zh and "9" in zh and zh != said(reply)
    after = await h.record()
    assert after.version == version and len(after.seats) == 9


async def test_nine_seats_at_eleven_cards_start_instead_of_waiting_for_a_tenth(h: Harness) -> None:
    await h.lobby(8, settings={"hand_size": 11})
    reply = await h.do(cmds.Join, user(9))
    assert reply.ok, reply
    record = await h.record()
    assert record.status == "running" and len(record.seats) == 9
    assert (await h.state()).card_count("u9") == 11


async def test_raising_hand_size_under_a_lobby_too_full_for_it_is_refused(h: Harness) -> None:
    people = await h.lobby(6)
    reply = await h.do(cmds.ChangeSettings, people[0], changes={"hand_size": "20"})
    assert reply.error == "too_many_for_hand_size", reply
    assert said(reply) == ("6 players with 20 cards each need more cards than the deck holds: at most "
                           "5 players can play with 20 cards, or 6 players with 16 cards each.")
    assert (await h.store.chat_settings(h.key)).overrides.get("hand_size") is None
    assert RuleSet(**(await h.record()).rules).hand_size == 7
    assert (await h.do(cmds.ChangeSettings, people[0], changes={"hand_size": "16"})).ok
    assert (await h.do(cmds.StartGame, people[0])).ok
    assert (await h.state()).card_count("u6") == 16


async def test_a_stored_lobby_too_full_to_deal_is_refused_at_the_start(h: Harness) -> None:
    people = await h.lobby(7)
    record = await h.record()
    record.rules = RuleSet(hand_size=20).to_dict()  # e.g. written by an older version
    await h.store.save(record)
    reply = await h.do(cmds.StartGame, people[0])
    assert reply.error == "too_many_for_hand_size"
    assert "7 players with 20 cards" in said(reply)
    assert (await h.record()).status == "lobby"


async def test_hand_size_out_of_range_names_the_range(h: Harness) -> None:
    admin = user(1, is_admin=True)
    for value in ("0", "21", "-3"):
        reply = await h.do(cmds.ChangeSettings, admin, changes={"hand_size": value})
        assert reply.error == "bad_setting"
        assert said(reply) == f"The number of cards dealt must be from 1 to 20, not {int(value)}."
        assert "20" in said(reply, "zh_CN")
