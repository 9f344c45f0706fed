"""Whole matches through commands: 2-10 players, both presets, humans and AI seats."""

from __future__ import annotations

import pytest

from bot.coordinator import commands as cmds
from bot.coordinator.record import REACTION_WINDOW
from bot.coordinator.views import Notice, Recap

from .conftest import Harness


async def play_match(h: Harness, people, max_moves: int = 5000) -> int:
    """Humans move through commands until the match ends; AI seats move by themselves."""
    by_id = {p.id: p for p in people}
    for moves in range(max_moves):
        record = await h.store.get(h.game_id)
        if record.status != "running":
            return moves
        state = await_state(record)
        current = state.current
        if current not in by_id and state.catchable:
            # AI seats leave people time to call out a forgotten UNO! (the fake clock waits)
            await h.clock.advance(REACTION_WINDOW)
            continue
        assert current in by_id, f"AI seat {current} did not move by itself"
        reply = await h.human_move(by_id[current])
        assert reply.ok, reply
    raise AssertionError("the match did not end")


def await_state(record):
    from bot.engine import Match

    return Match.from_json(record.match).game


@pytest.mark.parametrize("preset", ["official", "house"])
@pytest.mark.parametrize("players", range(2, 11))
async def test_full_match(players: int, preset: str) -> None:
    h = Harness(seed=players)
    humans = 1 if players < 4 else 2
    people = await h.lobby(humans, players - humans,
                           settings={"preset": preset, "target_score": 150, "turn_timer": 0})
    if players < 10:  # ten seats start by themselves
        assert (await h.do(cmds.StartGame, people[0])).ok
    h.game_id = (await h.record()).game_id
    await play_match(h, people)
    record = await h.store.get(h.game_id)
    assert record.status == "finished"
    results = h.store.results
    hands = [r for r in results if r.kind == "hand"]
    matches = [r for r in results if r.kind == "match"]
    assert len(matches) == 1 and len(hands) == record.match["hand_number"]
    assert sum(row.won for row in matches[0].players) >= 1
    assert {row.user_id for row in matches[0].players} == {s.user_id for s in record.seats}
    notices = [n.text.msgid for n in h.chat.notices()]
    assert sum("wins the match" in m for m in notices) == 1
    assert sum("won hand" in m for m in notices) == len(hands)
    # Every hand result names exactly one winner (or a team).
    for hand in hands:
        assert any(row.won for row in hand.players)
    # AI seats never receive private messages; humans get their hands.
    assert all(uid.startswith("u") for uid in h.chat.private)
    assert set(h.chat.private) == {p.id for p in people}
    # The match's end notice, then its recap.
    assert isinstance(h.chat.public[-1][1], Recap)
    assert isinstance(h.chat.public[-2][1], Notice)
