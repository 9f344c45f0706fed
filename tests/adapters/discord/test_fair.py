"""A fair UNO! on Discord: the colour picker of a wild also declares UNO! in the same click."""

from __future__ import annotations

import dataclasses

from bot.engine import Match
from bot.engine.cards import Card

from .players import CHAT, Table
from .test_game import ANA, BO, USERS, open_game


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
    with_uno = [(h, c) for h, c in bot.hand_buttons(picker) if h.action == "c" and h.arg.endswith("!")]
    assert len(with_uno) == 4 and all("UNO!" in c["label"] for _, c in with_uno)
    await bot.click(user, mid, with_uno[0][1]["custom_id"])
    state = (await table.match()).game
    assert len(state.hand(current)) == 1
    assert current in state.declared and state.catchable == ()


async def test_late_join_from_the_tables_join_button(bot):
    from .fake_discord import EPHEMERAL, FakeUser

    dee = FakeUser(104, "Dee")
    await open_game(bot, preset="house")
    table = Table(bot, USERS)
    joins = [c for row in bot.table_message()["components"] for c in row["components"]
             if c.get("custom_id", "").endswith(":join")]
    assert joins, "a running house game offers Join on the table"
    current = bot.current_player_id()
    record = await bot.press_table(dee, "join")
    message = bot.fake.response_message(record)
    assert message["flags"] & EPHEMERAL
    assert "joined" in message["content"]
    assert any(h.action == "d" for h, _ in bot.hand_buttons(message))  # the hand came with it
    state = (await table.match()).game
    assert "104" in state.players and len(state.hand("104")) == state.rules.hand_size
    assert state.players[state.players.index("104") - 1] == current
    embed = bot.table_message()["embeds"][0]
    assert "Dee" in (embed.get("description") or "")


async def test_notify_me_from_the_lobby_then_a_dm_or_a_mention(bot):
    from .fake_discord import FakeUser

    dee, eve = FakeUser(104, "Dee"), FakeUser(105, "Eve")
    await bot.slash(ANA, "new")
    for user in (dee, eve):
        record = await bot.press_table(user, "notify")
        assert "tell you privately" in bot.fake.response_message(record)["content"]
    bot.fake.closed_dms.add(105)
    await bot.slash(ANA, "stop")
    await bot.slash(BO, "new")
    dm = bot.fake.dm_channels[104]
    told = [m for m in bot.fake.messages.values() if m["channel_id"] == str(dm)]
    assert len(told) == 1 and "opened a new game" in told[0]["content"] and "<#1000>" in told[0]["content"]
    mentions = [m for m in bot.fake.channel_messages() if "as you asked" in (m["content"] or "")]
    assert len(mentions) == 1 and "<@105>" in mentions[0]["content"]
    assert [str(u) for u in mentions[0]["_allowed_mentions"]["users"]] == ["105"]  # pings Eve only
    assert not bot.fake.unhandled
