"""Whole games through the real discord.py against the fake Discord: slash commands and the
buttons found in the recorded messages, as three people would play."""

from __future__ import annotations

import json
import re

import pytest

from bot.coordinator import MemoryStore
from bot.coordinator.views import Notice, Text

from .fake_discord import EPHEMERAL, FakeUser
from .harness import BotHarness
from .players import CHAT, Table

ANA, BO, CY = FakeUser(101, "Ana", admin=False), FakeUser(102, "Bo"), FakeUser(103, "Cy")
USERS = {str(u.id): u for u in (ANA, BO, CY)}


async def open_game(bot, *, hand_size: int | None = 4, preset: str | None = None) -> None:
    await bot.slash(ANA, "new")
    options = {}
    if hand_size:
        options["hand_size"] = hand_size
    if preset:
        options["preset"] = preset
    for key, value in options.items():  # /uno settings key:value, one setting at a time
        record = await bot.slash(ANA, "settings", key=key, value=str(value))
        assert record.callback["data"]["flags"] & EPHEMERAL
    for user in (BO, CY):
        reply = await bot.press_table(user, "join")
        assert "joined" in reply.callback["data"]["content"]
    await bot.press_table(ANA, "start")


async def play_until_hand_over(bot, table: Table, *, max_turns: int = 400) -> None:
    start_hand = (await table.match()).hand_number
    for turn in range(max_turns):
        match = await table.match()
        if match is None or match.hand_number != start_hand:
            return
        current = bot.current_player_id()
        assert current in USERS, bot.table_message()["embeds"]
        await table.take_turn(USERS[current], use_slash=turn % 3 == 2)
        await table.check_privacy()
    raise AssertionError("the hand did not finish")


async def test_three_players_play_a_whole_hand_with_slash_commands_and_buttons(bot, fake):
    await open_game(bot)
    table = Table(bot, USERS)
    await play_until_hand_over(bot, table)
    assert table.slash_plays > 0 and table.button_plays > 0
    # the hand's result was announced publicly, and one table stands (each repost deleted the last)
    notices = [m["content"] for m in fake.channel_messages() if m["content"]]
    assert any(re.search(r"Ana|Bo|Cy", n) for n in notices), notices
    tables = [m for m in fake.channel_messages() if m["components"] and m["embeds"]]
    assert len(tables) <= 2  # the lobby became the table; at most one more for the next hand
    assert len(bot.pings()) == 1  # one turn ping stands: each new one replaced the last
    # every response that showed a hand was ephemeral
    for record in fake.interactions.values():
        if record.message_id is None:
            continue
        message = fake.messages.get(record.message_id)
        if message and any(c.get("custom_id", "").startswith("uno:h:") for c in fake.iter_components(message)):
            assert message["flags"] & EPHEMERAL, message
    assert (await table.match()) is not None


@pytest.mark.parametrize("seed,preset", [(1, "house"), (2, "official"), (3, "house"), (4, None)])
async def test_privacy_over_whole_hands(fake, seed, preset):
    bot = BotHarness(fake, MemoryStore(), seed=seed)
    await bot.start()
    try:
        await open_game(bot, hand_size=5, preset=preset)
        table = Table(bot, USERS)
        await play_until_hand_over(bot, table)
        assert table.checked_history > 10
    finally:
        await bot.stop()
    bot.assert_no_errors()


async def test_the_privacy_check_catches_a_leak(bot, fake):
    await open_game(bot)
    table = Table(bot, USERS)
    await table.check_privacy()
    match = await table.match()
    held = match.game.hand(str(BO.id))[0]
    leak = Notice("en", Text("Bo holds {card}", {"card": held}))
    await bot.app.chat_port.publish(CHAT, leak)
    with pytest.raises(AssertionError, match="held card"):
        await table.check_privacy()


async def test_autocomplete_offers_only_the_callers_cards(bot, fake):
    await open_game(bot, hand_size=7)
    table = Table(bot, USERS)
    match = await table.match()
    for user in (ANA, BO, CY):
        record = await fake.wait(await fake.autocomplete(user, "play", "card", ""))
        assert record.callback_type == 8
        offered = {c["value"] for c in record.callback["data"]["choices"]}
        assert offered == {str(c) for c in match.game.hand(str(user.id))}
    # a bystander has no hand: nothing offered
    stranger = FakeUser(199, "Zed")
    record = await fake.wait(await fake.autocomplete(stranger, "play", "card", ""))
    assert record.callback["data"]["choices"] == []


async def test_someone_clicking_another_players_hand_view_changes_nothing(bot, fake):
    await open_game(bot)
    table = Table(bot, USERS)
    current = USERS[bot.current_player_id()]
    other = next(u for u in USERS.values() if u is not current)
    message = await table.hand_message(current, fresh=False)
    before = await bot.store.load(CHAT)
    playable = next(c for h, c in bot.hand_buttons(message) if h.action in ("p", "w", "s", "d")
                    and not c.get("disabled"))
    record = await bot.click(other, int(message["id"]), playable["custom_id"])
    assert record.callback_type == 4 and record.callback["data"]["flags"] & EPHEMERAL
    assert "another player" in record.callback["data"]["content"]
    after = await bot.store.load(CHAT)
    assert after.version == before.version and after.match == before.match
    # the owner's hand message itself was not touched
    assert fake.messages[int(message["id"])]["components"] == message["components"]


async def test_wrong_turn_click_gets_an_ephemeral_refusal_and_a_refreshed_hand(bot, fake):
    await open_game(bot)
    table = Table(bot, USERS)
    waiting = next(u for k, u in USERS.items() if k != bot.current_player_id())
    message = await table.hand_message(waiting, fresh=False)
    draw = next(c for h, c in bot.hand_buttons(message) if h.action == "d")
    assert draw.get("disabled")  # not their turn: the button is off
    before = await bot.store.load(CHAT)
    # a forged/stale click anyway (e.g. from a view shown during their last turn)
    record = await bot.click(waiting, int(message["id"]), draw["custom_id"])
    assert record.callback_type == 7  # the hand message itself was updated
    updated = fake.messages[int(message["id"])]
    assert "⚠️" in updated["embeds"][0]["description"]
    after = await bot.store.load(CHAT)
    assert after.match == before.match


@pytest.mark.parametrize("how", ["slash", "button"])
async def test_uno_call_race_costs_exactly_one_penalty(bot, fake, how):
    await open_game(bot, hand_size=2)
    table = Table(bot, USERS)
    # play until somebody is left with one card without declaring
    for _ in range(60):
        current = USERS[bot.current_player_id()]
        await table.take_turn(current, use_slash=False, declare=False)
        match = await table.match()
        exposed = [p for p in match.game.players if len(match.game.hand(p)) == 1]
        if exposed:
            break
    else:
        raise AssertionError("nobody got down to one card")
    target = exposed[0]
    match = await table.match()
    callers = [u for k, u in USERS.items() if k != target]
    before = len(match.game.hand(target))
    # both call at once (/uno call, or UNO! on the table): the coordinator serialises, one penalty
    if how == "slash":
        r1, r2 = await fake.slash(callers[0], "call"), await fake.slash(callers[1], "call")
    else:
        mid, custom_id = bot.table_button("uno")
        r1, r2 = await fake.click(callers[0], mid, custom_id), await fake.click(callers[1], mid, custom_id)
    await fake.wait(r1)
    await fake.wait(r2)
    match = await table.match()
    assert len(match.game.hand(target)) == before + 2  # official penalty: two cards, once
    answers = [r.callback["data"]["content"] for r in (r1, r2)]
    assert all(r.callback["data"]["flags"] & EPHEMERAL for r in (r1, r2))
    assert len(set(answers)) == 2, answers  # one caught them, the other was too late


async def test_one_player_against_two_ai_seats_added_with_the_button(bot, fake):
    await bot.slash(ANA, "new")
    await bot.slash(ANA, "settings", key="hand_size", value="4")
    for _ in range(2):
        record = await bot.press_table(ANA, "ai")
        assert record.callback["data"]["flags"] & EPHEMERAL
    await bot.press_table(ANA, "start")
    table = Table(bot, {str(ANA.id): ANA})
    start_hand = (await table.match()).hand_number
    for _ in range(200):
        match = await table.match()
        if match is None or match.hand_number != start_hand:
            break
        # AI seats move inside the coordinator; whenever we look, it is Ana's turn
        assert bot.current_player_id() == str(ANA.id)
        await table.take_turn(ANA, use_slash=False)
        await table.check_privacy()
    else:
        raise AssertionError("the hand did not finish")
    names = " ".join(f["value"] for f in bot.table_message()["embeds"][0]["fields"])
    assert "🤖" in names


async def test_the_add_ai_button_seats_a_bot_of_the_channels_level(bot, fake):
    """The button names no level: the channel's ai_level setting (chosen with /uno settings,
    its value autocompleted) decides it, and the lobby says which."""
    await bot.slash(ANA, "new")
    await bot.press_table(ANA, "ai")
    await bot.slash(ANA, "settings", key="ai_level", value="hard")
    await bot.press_table(ANA, "ai")
    record = await bot.store.load(CHAT)
    assert [seat.ai for seat in record.seats if seat.ai] == ["normal", "hard"]
    lobby = json.dumps(bot.table_message(), ensure_ascii=False)
    assert "(hard) takes a seat" in lobby, lobby
    assert "🤖 · normal" in lobby and "🤖 · hard" in lobby  # each bot's level beside its seat


async def test_a_leavers_open_hand_view_loses_its_buttons(bot, fake):
    """A player who leaves mid-game: their open hand view becomes the line saying so, with
    nothing to press (its buttons would only be refused now)."""
    await open_game(bot)
    hand = await bot.open_hand(CY)
    assert bot.hand_buttons(hand)
    await bot.slash(CY, "leave")

    def closed() -> bool:
        return not list(fake.iter_components(fake.messages[int(hand["id"])]))

    await fake.wait_for(closed)
    shown = fake.messages[int(hand["id"])]
    assert shown["content"] == "You left the game." and not shown["embeds"]
    assert bot.hand_buttons(await bot.open_hand(BO))  # the others play on
