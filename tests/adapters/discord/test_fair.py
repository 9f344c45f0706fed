"""A fair UNO! on Discord: the colour picker of a wild also declares UNO! in the same click."""

from __future__ import annotations

import dataclasses

from bot.engine import Match
from bot.engine.cards import Card

from .players import CHAT, Table
from .test_game import USERS, open_game


async def give(bot, player: str, names: list[str]) -> None:
    """Give the player to act exactly these cards (taken from the pile or another hand)."""
    record = await bot.store.load(CHAT)
    match = Match.from_json(record.match)
    state = match.game
    hands = [list(h) for h in state.hands]
    pile = list(state.draw_pile)
    seat = state.players.index(player)
    pile += hands[seat]
    wanted = [Card.parse(n) for n in names]
    for card in wanted:
        if card in pile:
            pile.remove(card)
        else:
            other = next(i for i, h in enumerate(hands) if i != seat and card in h)
            hands[other][hands[other].index(card)] = pile.pop(0)
    hands[seat] = wanted
    new = state.evolve(hands=tuple(tuple(h) for h in hands), draw_pile=tuple(pile))
    assert new.card_total() == 108
    record.match = dataclasses.replace(match, game=new).to_json()
    await bot.store.save(record)


async def test_uno_is_declared_from_the_colour_picker(bot):
    await open_game(bot)
    table = Table(bot, USERS)
    current = bot.current_player_id()
    await give(bot, current, ["W", "Y+2"])
    user = USERS[current]
    message = await table.hand_message(user, fresh=False)
    mid = int(message["id"])
    wild = next(c for h, c in bot.hand_buttons(message) if h.action == "w")
    await bot.click(user, mid, wild["custom_id"])
    picker = bot.fake.messages[mid]
    with_uno = [(h, c) for h, c in bot.hand_buttons(picker) if h.action == "c" and h.arg.endswith(".u")]
    assert len(with_uno) == 4 and all("UNO!" in c["label"] for _, c in with_uno)
    await bot.click(user, mid, with_uno[0][1]["custom_id"])
    state = (await table.match()).game
    assert len(state.hand(current)) == 1
    assert current in state.declared and state.catchable == ()
