"""What a turn costs in public REST calls (real discord.py against the fake Discord): a plain
turn passing to a person posts the table anew with their mention and deletes the old one, 2
calls; a turn that stays (a draw) edits the table, 1; over a whole hand at most 3 per turn.
Counting calls, not timing them."""

from __future__ import annotations

from .harness import MENTION
from .players import Table, shows_turn
from .test_game import ANA, BO, CY, USERS, open_game
from .test_resilience import set_position

A, B, C = (str(u.id) for u in (ANA, BO, CY))
CEILING = 3  # public REST calls per turn


async def a_turn_about_to_pass(bot) -> tuple[str, str]:
    """A game where the mover holds R1 (their one card that matches R3) and the turn then
    passes to a person not pinged for this hand yet (a turn that comes back unseen edits):
    (mover, the player after them)."""
    await open_game(bot)
    pinged = bot.current_player_id()
    seats = [A, B, C]
    mover = next(p for p in seats if seats[(seats.index(p) + 1) % 3] != pinged)
    others = iter([["R5", "Y7", "G9"], ["B2", "Y1"]])
    hands = {p: ["R1", "G2", "B3"] if p == mover else next(others) for p in seats}
    await set_position(bot, hands, ["R3"], mover)
    return mover, seats[(seats.index(mover) + 1) % 3]


async def click_with_a_call_held(bot, fake, table: Table, mover: str, held: str):
    """The mover clicks R1 in their hand view while Discord holds the next request matching
    ``held`` (given the old table's id) unanswered: (the old table, the click's interaction,
    not yet answered, the event that releases the held request)."""
    hand = await table.hand_message(USERS[mover], fresh=False)
    old = bot.table_message()
    _, play = table._first_playable(hand)
    release = fake.hold_next(held.format(old=old["id"]))
    return old, await fake.click(USERS[mover], int(hand["id"]), play["custom_id"]), release


async def play_with_the_deletion_held(bot, fake, table: Table, mover: str):
    """The mover plays R1 from their hand view while Discord holds the old table's deletion
    unanswered: (the old table, the click's interaction, the event that releases it)."""
    old, clicked, release = await click_with_a_call_held(
        bot, fake, table, mover, "^DELETE /channels/1000/messages/{old}$")
    answered = await fake.wait(clicked)
    await bot.app.frontend.settled()
    return old, answered, release


def public(fake, since: int) -> list[tuple[str, str]]:
    """(method, path) of the channel calls made since request number ``since``."""
    return [(r.method, r.path) for r in fake.requests[since:] if r.path.startswith("/channels/")]


async def test_a_plain_turn_reposts_the_table_with_the_mention_and_deletes_the_old(bot, fake):
    mover, after = await a_turn_about_to_pass(bot)
    table = Table(bot, USERS)
    await table.hand_message(USERS[mover], fresh=False)
    old = bot.table_message()
    mark = len(fake.requests)
    await table.take_turn(USERS[mover], use_slash=False)  # R1 on R3: the next player's turn
    calls = public(fake, mark)
    new = bot.table_message()
    assert calls == [("POST", "/channels/1000/messages"),
                     ("DELETE", f"/channels/1000/messages/{old['id']}")], calls
    assert MENTION.findall(new["content"]) == [after]
    assert [str(u) for u in new["_allowed_mentions"]["users"]] == [after]
    assert int(old["id"]) not in fake.messages  # one table stands


async def test_the_answer_and_the_hands_do_not_wait_for_the_old_tables_deletion(bot, fake):
    mover, after = await a_turn_about_to_pass(bot)
    table = Table(bot, USERS)
    waiting = await table.hand_message(USERS[after], fresh=False)  # a hand view kept open
    old, answered, release = await play_with_the_deletion_held(bot, fake, table, mover)
    assert bot.table_message()["id"] != old["id"]  # the new table is out, with its mention
    assert int(old["id"]) in fake.messages  # and the old one still stands: its deletion is held
    # the next player's open hand already shows their turn: it did not wait for the deletion
    await fake.wait_for(lambda: shows_turn(fake.messages[int(waiting["id"])]))
    release.set()
    await bot.settled(answered)
    assert int(old["id"]) not in fake.messages


async def test_the_next_players_hand_does_not_wait_for_the_new_table(bot, fake):
    """The table and the next player's hand view go to different places: the hand view is
    refreshed while the new table's post is still on its way."""
    mover, after = await a_turn_about_to_pass(bot)
    table = Table(bot, USERS)
    waiting = await table.hand_message(USERS[after], fresh=False)  # a hand view kept open
    old, clicked, release = await click_with_a_call_held(
        bot, fake, table, mover, "^POST /channels/1000/messages$")
    await fake.wait_for(lambda: shows_turn(fake.messages[int(waiting["id"])]))
    assert bot.table_message()["id"] == old["id"]  # the new table is still held
    release.set()
    await bot.settled(await fake.wait(clicked))
    assert MENTION.findall(bot.table_message()["content"]) == [after]


async def test_a_stop_waits_a_bounded_time_for_an_old_tables_deletion(bot, fake):
    mover, _ = await a_turn_about_to_pass(bot)
    old, _, release = await play_with_the_deletion_held(bot, fake, Table(bot, USERS), mover)
    port = bot.app.chat_port
    assert port.deleting == 1
    await port.close(timeout=0.05)  # the deletion is still held: given up, not waited for
    assert port.deleting == 0
    assert int(old["id"]) in fake.messages  # an old table left standing shows an older state
    release.set()


async def test_a_draw_that_keeps_the_turn_edits_the_table_in_place(bot, fake):
    await open_game(bot)
    # Ana plays R1; Bo holds nothing that matches it and must draw
    await set_position(bot, {A: ["R1", "G2", "B3"], B: ["G7", "Y9"], C: ["B2", "Y1"]}, ["R3"], A)
    table = Table(bot, USERS)
    await table.take_turn(ANA, use_slash=False)
    hand = await table.hand_message(BO, fresh=False)
    before = bot.table_message()
    draw = next(c for h, c in bot.hand_buttons(hand) if h.action == "d")
    mark = len(fake.requests)
    await bot.click(BO, int(hand["id"]), draw["custom_id"])
    match = await table.match()
    if match.game.current != B:  # the rules passed the turn with the draw: a turn passed
        assert len(public(fake, mark)) <= 2
        return
    assert public(fake, mark) == [("PATCH", f"/channels/1000/messages/{before['id']}")]
    assert MENTION.findall(bot.table_message()["content"]) == [B]  # still names him


async def test_a_whole_hand_costs_at_most_three_public_calls_per_turn(bot, fake):
    await open_game(bot)
    table = Table(bot, USERS)
    first = (await table.match()).hand_number
    mark = len(fake.requests)
    turns = 0
    for _ in range(300):
        match = await table.match()
        if match is None or match.hand_number != first or match.game.winner is not None:
            break
        await table.take_turn(USERS[bot.current_player_id()], use_slash=False, declare=False)
        turns += 1
    assert turns > 3
    calls = public(fake, mark)
    assert len(calls) <= CEILING * turns, (len(calls), turns)
