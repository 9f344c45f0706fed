"""Challenge, restart with old buttons, 429s, slow answers (defer), expired and stale views."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest

from adapters.discord.custom_ids import HandId
from bot.coordinator import MemoryStore
from bot.engine import Match
from bot.engine.state import GameState

from .fake_discord import DEFERRED_MESSAGE, DEFERRED_UPDATE, EPHEMERAL
from .harness import BotHarness
from .players import CHAT, Table
from .test_game import ANA, BO, CY, USERS, open_game

# every card the deck still needs, so positions below keep the 108-card invariant
FILLER = ["Y3", "G+2", "B9", "Y8", "G1", "B4", "Y5", "G6"]


async def set_position(bot, hands: dict[str, list[str]], discard: list[str], current: str,
                       **rules) -> None:
    """Replace the running hand by a known position (as a stored game would be)."""
    record = await bot.store.load(CHAT)
    match = Match.from_json(record.match)
    game, _ = GameState.from_position(match.players, hands, FILLER, rules=match.rules.with_(**rules),
                                      discard=discard, current=current)
    record.match = dataclasses.replace(match, game=game).to_json()
    await bot.store.save(record)


async def test_challenge_of_a_wild_draw_four_through_buttons(bot, fake):
    await open_game(bot)
    a, b, c = (str(u.id) for u in (ANA, BO, CY))
    # Ana holds a red card matching the top: her Wild Draw Four is an illegal bluff
    await set_position(bot, {a: ["W+4", "R1", "G2"], b: ["G7", "R9"], c: ["B2", "Y1"]}, ["R3"], a)
    table = Table(bot, USERS)
    hand = await table.hand_message(ANA, fresh=False)
    wild = next((h, c) for h, c in bot.hand_buttons(hand) if h.action == "w")
    await bot.click(ANA, int(hand["id"]), wild[1]["custom_id"])
    picker = fake.messages[int(hand["id"])]
    green = next(c for h, c in bot.hand_buttons(picker) if h.action == "c" and h.arg.endswith("~G"))
    await bot.click(ANA, int(hand["id"]), green["custom_id"])
    # Bo, the victim, sees Challenge enabled on his hand and presses it
    bo_hand = await table.hand_message(BO, fresh=False)
    challenge = next(c for h, c in bot.hand_buttons(bo_hand) if h.action == "g")
    assert not challenge.get("disabled")
    cy_hand = await table.hand_message(CY, fresh=False)
    assert next(c for h, c in bot.hand_buttons(cy_hand) if h.action == "g").get("disabled")
    record = await bot.click(BO, int(bo_hand["id"]), challenge["custom_id"])
    assert record.callback_type == 7
    match = await table.match()
    assert len(match.game.hand(a)) == 2 + 4  # caught bluffing: Ana draws the four
    assert len(match.game.hand(b)) == 2


async def test_restart_mid_game_old_buttons_still_work(fake):
    store = MemoryStore()
    first = BotHarness(fake, store)
    await first.start()
    await open_game(first)
    table = Table(first, USERS)
    for _ in range(2):
        await table.take_turn(USERS[first.current_player_id()], use_slash=False)
    old_table = first.table_message()
    current = USERS[first.current_player_id()]
    old_hand = await table.hand_message(current, fresh=False)
    before = await store.load(CHAT)
    await first.stop()
    first.assert_no_errors()

    second = BotHarness(fake, store)  # a new bot process and coordinator on the same store
    await second.start()
    try:
        # the old hand message's buttons still work: play its first playable card
        playable = next((h, c) for h, c in second.hand_buttons(fake.messages[int(old_hand["id"])])
                        if h.action in ("p", "d") and not c.get("disabled"))
        record = await second.click(current, int(old_hand["id"]), playable[1]["custom_id"])
        assert record.callback_type == 7
        after = await store.load(CHAT)
        assert after.version > before.version and after.match != before.match
        # the turn passed: the table went out anew with its mention and the old one is gone
        # (whom it last mentioned is kept in memory only, so a restart posts it anew as well)
        assert int(old_table["id"]) not in fake.messages
        assert len([m for m in fake.channel_messages() if m.get("embeds")]) == 1
        mid, custom_id = second.table_button("hand")
        record = await second.click(CY, mid, custom_id)
        assert fake.response_message(record)["flags"] & EPHEMERAL
    finally:
        await second.stop()
    second.assert_no_errors()


async def test_429_on_the_table_edit_is_retried_and_the_game_goes_on(bot, fake):
    await open_game(bot)
    # the turn passes: the table goes out anew (a post), and that post is rate limited
    fake.rate_limit_next(r"POST /channels/\d+/messages$", retry_after=0.05)
    before = fake.count_requests("POST", r"/channels/\d+/messages")
    table = Table(bot, USERS)
    await table.take_turn(USERS[bot.current_player_id()], use_slash=False)
    after = fake.count_requests("POST", r"/channels/\d+/messages")
    assert after - before >= 2  # the 429 and the retry
    assert any(r.status == 429 for r in fake.requests)
    last_post = [r for r in fake.requests if r.method == "POST" and r.path.startswith("/channels/")][-1]
    assert last_post.status == 200


async def test_missing_permissions_do_not_break_the_game(bot, fake):
    await open_game(bot)
    fake.fail_next(r"POST /channels/\d+/messages$", 403,  # the table posted anew as the turn passes
                   {"message": "Missing Permissions", "code": 50013})
    table = Table(bot, USERS)
    mover = USERS[bot.current_player_id()]
    before = await table.match()
    await table.take_turn(mover, use_slash=False)
    assert (await table.match()) != before  # the move counted although the table edit failed
    bot.log.records.clear()  # the warning is expected; errors would have been ERROR records
    await table.take_turn(USERS[bot.current_player_id()], use_slash=False)
    assert len([m for m in fake.channel_messages() if m.get("embeds")]) == 1  # one table stands


class SlowCoordinator:
    """The real coordinator behind a delay, as a slow database would make it."""

    def __init__(self, inner, delay: float) -> None:
        self.inner, self.delay = inner, delay

    async def handle(self, command):
        await asyncio.sleep(self.delay)
        return await self.inner.handle(command)

    def __getattr__(self, name):
        return getattr(self.inner, name)


async def test_slow_answers_are_deferred_then_delivered(fake):
    bot = BotHarness(fake, MemoryStore(), ack_after=0.05,
                     coordinator_wrapper=lambda c: SlowCoordinator(c, 0.15))
    await bot.start()
    try:
        record = await bot.slash(ANA, "new")
        assert record.callback_type == DEFERRED_MESSAGE and record.callback["data"]["flags"] & EPHEMERAL
        message = fake.response_message(record)
        assert "Game created" in message["content"] and not message["flags"] & 128
        for user in (BO, CY):
            await bot.press_table(user, "join")
        await bot.press_table(ANA, "start")
        table = Table(bot, USERS)
        current = USERS[bot.current_player_id()]
        hand = await table.hand_message(current, fresh=False)
        draw = next(c for h, c in bot.hand_buttons(hand) if h.action == "d")
        record = await bot.click(current, int(hand["id"]), draw["custom_id"])
        assert record.callback_type == DEFERRED_UPDATE
        # the deferred answer edited the hand message in place
        assert fake.messages[int(hand["id"])]["edited_timestamp"] is not None
        assert record.callback_at - record.sent_at < 1.0
    finally:
        await bot.stop()
    bot.assert_no_errors()


async def test_unknown_interaction_10062_is_logged_not_fatal(bot, fake):
    await open_game(bot)
    fake.fail_next(r"POST /interactions/\d+/[^/]+/callback", 404,
                   {"message": "Unknown interaction", "code": 10062})
    record = await fake.slash(BO, "hand")
    await fake.wait_for(lambda: any(r.status == 404 for r in fake.requests))
    assert not record.callbacks
    # the bot keeps answering
    record = await bot.slash(BO, "hand")
    assert fake.response_message(record)["flags"] & EPHEMERAL


async def test_already_acknowledged_40060_falls_back_to_a_followup(bot, fake):
    await open_game(bot)
    fake.fail_next(r"POST /interactions/\d+/[^/]+/callback", 400,
                   {"message": "Interaction has already been acknowledged.", "code": 40060})
    record = await fake.slash(BO, "hand")
    await fake.wait(record)
    message = fake.messages[record.followups[0]]
    assert message["flags"] & EPHEMERAL and message["embeds"]


async def test_expired_hand_view_asks_to_press_my_hand_again(bot, fake):
    await open_game(bot)
    table = Table(bot, USERS)
    current = USERS[bot.current_player_id()]
    hand = await table.hand_message(current, fresh=False)
    refresh = next(c for h, c in bot.hand_buttons(hand) if h.action == "b")
    # the ephemeral message is gone (dismissed or expired): the update fails with 10008
    fake.fail_next(r"POST /interactions/\d+/[^/]+/callback", 404, {"message": "Unknown Message", "code": 10008})
    record = await fake.click(current, int(hand["id"]), refresh["custom_id"])
    await fake.wait_for(lambda: bool(record.followups))
    message = fake.messages[record.followups[0]]
    assert "My hand" in message["content"] and message["flags"] & EPHEMERAL


async def test_buttons_of_a_finished_game_are_refused(bot, fake):
    await open_game(bot)
    table = Table(bot, USERS)
    current = USERS[bot.current_player_id()]
    hand = await table.hand_message(current, fresh=False)
    await bot.slash(ANA, "stop")
    stale = next(c for h, c in bot.hand_buttons(hand) if h.action == "d")
    record = await bot.click(current, int(hand["id"]), stale["custom_id"])
    assert record.callback_type == 7
    assert "over" in fake.messages[int(hand["id"])]["content"]
    assert fake.messages[int(hand["id"])]["components"] == []


@pytest.mark.parametrize("action", ["p", "w"])
def test_custom_ids_fit_discords_limit(action):
    long = HandId("f" * 12, "9" * 20, 2, action, "W+4.R" if action == "w" else "R7.ai10")
    assert len(long.encode()) <= 100


class BrokenCoordinator(SlowCoordinator):
    async def handle(self, command):
        raise RuntimeError("boom")


async def test_an_unexpected_error_is_reported_and_the_player_still_gets_an_answer(fake):
    bot = BotHarness(fake, MemoryStore(), coordinator_wrapper=lambda c: BrokenCoordinator(c, 0))
    await bot.start()
    try:
        record = await bot.slash(ANA, "new")
        assert record.callback["data"]["flags"] & EPHEMERAL
        assert "Something went wrong" in record.callback["data"]["content"]
        assert [str(e) for e in bot.errors] == ["boom"]
    finally:
        await bot.stop()


async def test_a_deleted_table_message_is_posted_again(bot, fake):
    await open_game(bot)
    old_id = int(bot.table_message()["id"])
    del fake.messages[old_id]  # a moderator deleted it
    current = USERS[Match.from_json((await bot.store.load(CHAT)).match).game.current]
    await bot.slash(current, "draw")  # no table to click on: the player uses the slash command
    new_id = int(bot.table_message()["id"])
    assert new_id != old_id
    assert (await bot.store.load(CHAT)).table_message_id == str(new_id)
    # and the next move paints that one: edited in place, or posted anew in its stead
    table = Table(bot, USERS)
    await table.take_turn(USERS[bot.current_player_id()], use_slash=False)
    assert len([m for m in fake.channel_messages() if m.get("embeds")]) == 1


async def test_multi_play_picker_plays_every_card_of_a_rank(bot, fake):
    await open_game(bot, preset="house")
    a, b, c = (str(u.id) for u in (ANA, BO, CY))
    await set_position(bot, {a: ["R5", "B5", "G5", "Y9"], b: ["G7", "R9"], c: ["B2", "Y1"]}, ["R3"], a)
    table = Table(bot, USERS)
    hand = await table.hand_message(ANA, fresh=False)
    red5 = next(c for h, c in bot.hand_buttons(hand) if h.arg == "pR5")
    assert decode_action(red5) == "m"
    await bot.click(ANA, int(hand["id"]), red5["custom_id"])
    picker = fake.messages[int(hand["id"])]
    labels = [c["label"] for c in fake.iter_components(picker)]
    assert "Only Red 5" in labels and "All 3, Green 5 on top" in labels
    green_on_top = next(c for c in fake.iter_components(picker) if c["label"] == "All 3, Green 5 on top")
    await bot.click(ANA, int(hand["id"]), green_on_top["custom_id"])
    match = await table.match()
    assert [str(x) for x in match.game.hand(a)] == ["Y9"]
    assert str(match.game.top) == "G5"


def decode_action(component) -> str:
    from adapters.discord.custom_ids import decode

    return decode(component["custom_id"]).action


async def test_a_wild_turned_first_renders_before_its_colour_is_chosen(bot, fake):
    await open_game(bot)
    a, b, c = (str(u.id) for u in (ANA, BO, CY))
    await set_position(bot, {a: ["R1", "G2"], b: ["G7", "R9"], c: ["B2", "Y1"]}, ["W"], a,
                       first_wild="any_card")  # no colour named: the first player plays any card
    record = await bot.slash(ANA, "hand")
    hand = fake.response_message(record)
    assert "free choice" in hand["embeds"][-1]["description"]  # any card may follow it
    # a table published with that top card renders too
    await bot.slash(ANA, "draw")
    top = next(f for f in bot.table_message()["embeds"][0]["fields"] if f["name"] == "Top card")
    assert "Wild" in top["value"]
