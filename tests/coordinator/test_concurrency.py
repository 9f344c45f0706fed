"""Commands racing on one game, with a chat port that yields like network I/O: the chat lock
serialises them, every card stays in play, and nothing goes wrong."""

from __future__ import annotations

import asyncio

from bot.coordinator import commands as cmds
from bot.engine import Match
from tests.fakes import FakeChat

from .conftest import Harness


class YieldingChat(FakeChat):
    async def publish(self, chat, message, *, edit=None):
        await asyncio.sleep(0)
        return await super().publish(chat, message, edit=edit)

    async def send_hand(self, chat, user_id, view, *, edit=None):
        await asyncio.sleep(0)
        return await super().send_hand(chat, user_id, view, edit=edit)


async def test_racing_commands_are_serialised() -> None:
    h = Harness(chat=YieldingChat(), seed=5)
    people = await h.start(4, 1, settings={"preset": "house", "turn_timer": 0})
    by_id = {p.id: p for p in people}
    accepted = rounds = 0
    for rounds in range(120):  # noqa: B007 - counted after the loop

        record = await h.store.load(h.key)
        if record is None:
            break
        state = Match.from_json(record.match).game
        if state.current not in by_id:
            break
        # The player to act moves twice at once (only one can be that move), everyone calls UNO,
        # and the others try to draw out of turn.
        mover = by_id[state.current]
        move = await h.move_for(mover)
        racing = [h.coordinator.handle(move), h.coordinator.handle(move)]
        racing += [h.do(cmds.CallUno, p) for p in people]
        racing += [h.do(cmds.Draw, p) for p in people if p is not mover]
        replies = await asyncio.gather(*racing, return_exceptions=True)
        assert not any(isinstance(r, BaseException) for r in replies), replies
        assert all(r.ok or r.error for r in replies)
        assert all(r.error != "internal" for r in replies)
        accepted += sum(r.ok for r in replies)
        after = await h.store.get(record.game_id)
        if after.match:
            assert Match.from_json(after.match).game.card_total() == 108
        assert after.version > record.version
    assert rounds > 20 and accepted >= rounds
