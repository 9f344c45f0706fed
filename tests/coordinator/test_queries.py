"""Questions a frontend asks about a stored game: a player's hand as the game has it now."""

from __future__ import annotations

from bot.coordinator import commands as cmds
from bot.coordinator import hand_now
from bot.engine.cards import Card

from .conftest import Harness


async def test_a_players_hand_now_is_read_from_the_stored_game(h: Harness) -> None:
    u1, u2 = await h.start(2)
    await h.rig({"u1": ["R1", "G2"], "u2": ["R5", "Y7"]}, ["B3"] * 10, ["R3"], current="u1")
    record = await h.record()
    mine = hand_now(await h.store.get(record.game_id), "u1", "zh_CN")
    assert mine is not None and mine.locale == "zh_CN" and mine.is_turn
    assert [o.card for o in mine.cards] == [Card.parse("R1"), Card.parse("G2")]
    assert [o.card for o in mine.cards if o.playable] == [Card.parse("R1")]
    theirs = hand_now(await h.store.get(record.game_id), "u2", "en")
    assert theirs is not None and not theirs.is_turn
    # Nobody else holds a hand there, no other game is this one, and a stopped game has none.
    assert hand_now(await h.store.get(record.game_id), "someone", "en") is None
    assert hand_now(await h.store.get("no-such-game"), "u1", "en") is None
    assert (await h.do(cmds.StopGame, u1)).ok
    assert hand_now(await h.store.get(record.game_id), "u1", "en") is None
