"""A double click on a Discord hand button plays one card: the custom_id carries the token of
the hand it was made for."""

from __future__ import annotations

import asyncio
import dataclasses

from adapters.discord.custom_ids import HandId, decode
from bot.engine import Match
from bot.engine.cards import Card, Color

from .players import CHAT, Table
from .test_game import USERS, open_game


async def pair_of_green_sixes(bot, player: str) -> None:
    """The player to act holds G6 G6 B3 on a green 2 (house rules: jump-in)."""
    record = await bot.store.load(CHAT)
    match = Match.from_json(record.match)
    state = match.game
    everything = [c for h in state.hands for c in h] + list(state.draw_pile) + list(state.discard)
    wanted = [Card.parse(n) for n in ("G6", "G6", "B3")]
    top = Card.parse("G2")
    for card in (*wanted, top):
        everything.remove(card)
    hands, rest = [], everything
    for seat_player in state.players:
        if seat_player == player:
            hands.append(tuple(wanted))
        else:
            hands.append(tuple(rest[:4]))
            rest = rest[4:]
    new = state.evolve(hands=tuple(hands), draw_pile=tuple(rest), discard=(top,), color=Color.GREEN,
                       turn=state.players.index(player), pending_draw=0, drawn_card=None)
    assert new.card_total() == 108
    record.match = dataclasses.replace(match, game=new).to_json()
    await bot.store.save(record)


def test_hand_ids_carry_the_token_and_old_ids_still_parse() -> None:
    button = HandId("ab12", "101", 0, "p", "G6", "Ab3_-x")
    assert decode(button.encode()) == button
    assert decode(HandId("ab12", "101", 0, "d", press="Ab3_-x").encode()).press == "Ab3_-x"
    assert decode("uno:h:ab12:101:0:p:G6") == HandId("ab12", "101", 0, "p", "G6")  # before tokens
    assert decode("uno:h:ab12:101:0:p:G6:bad!") is None


async def test_a_double_click_plays_one_copy(bot):
    await open_game(bot, preset="house")
    table = Table(bot, USERS)
    current = bot.current_player_id()
    await pair_of_green_sixes(bot, current)
    user = USERS[current]
    message = await table.hand_message(user, fresh=False)
    mid = int(message["id"])
    six = next((h, c) for h, c in bot.hand_buttons(message) if h.arg == "pG6")
    assert six[0].press
    if six[0].action == "m":  # several of one rank: the picker offers "only this one"
        await bot.click(user, mid, six[1]["custom_id"])
        six = next((h, c) for h, c in bot.hand_buttons(bot.fake.messages[mid])
                   if h.action == "p" and h.arg == "pG6")
    clicks = [await bot.fake.click(user, mid, six[1]["custom_id"]) for _ in range(2)]
    await asyncio.gather(*(bot.fake.wait(c) for c in clicks))
    state = (await table.match()).game
    assert len(state.hand(current)) == 2  # one green 6 played, not both
    texts = [str(bot.fake.messages[mid].get("content") or "")]
    texts += [str(c.callback) for c in clicks]
    assert any("earlier moment" in t for t in texts), texts
