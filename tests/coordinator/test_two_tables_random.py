"""Two tables under random play: people move, press what their hands offer, leave, are
removed, vote to end, time out, reopen their hands and the process restarts, in a random
order. Every table keeps its 108 cards; a pressed move the hand offered is taken; each
person's last hand shows their cards and offers moves exactly when they have some (a
call-out aside: the table offers it); a seat a bot plays keeps no live hand."""

from __future__ import annotations

import random

import pytest

from bot.coordinator import commands as cmds
from bot.engine import Match, legal_actions
from bot.engine.actions import CatchUno
from tests.coordinator.conftest import Harness
from tests.coordinator.test_two_tables import SETTINGS, human_command, table_records


async def press_an_offered_move(h: Harness, who) -> None:
    shown = [v for v in h.chat.private.get(who.id, ()) if v.game_id in h.games]
    if not shown or shown[-1].hand_over:
        return
    moves = [m for m in shown[-1].moves if m.kind != "catch"]
    if moves:
        move = random.Random(len(h.chat.private[who.id])).choice(moves)
        reply = await h.do(cmds.ChooseMove, who, ref=move.ref, press=shown[-1].press)
        assert reply.ok, (move, reply)


async def check_tables(h: Harness) -> None:
    for record in await table_records(h):
        if record is None or record.status != "running" or record.match is None:
            continue
        state = Match.from_json(record.match).game
        assert state.card_total() == 108
        for seat in record.seats:
            views = [v for v in h.chat.private.get(seat.user_id, ()) if v.game_id == record.game_id]
            if not views or seat.user_id not in state.players:
                continue
            last = views[-1]
            if seat.ai is not None:
                assert last.hand_over and not last.moves, seat.user_id
                continue
            assert sorted(str(o.card) for o in last.cards) == sorted(map(str, state.hand(seat.user_id)))
            if not last.hand_over:
                own = [a for a in legal_actions(state, seat.user_id) if not isinstance(a, CatchUno)]
                assert bool([m for m in last.moves if m.kind != "catch"]) == bool(own), seat.user_id


@pytest.mark.parametrize("seed", range(5))
async def test_two_tables_under_random_play(seed: int) -> None:
    rng = random.Random(seed)
    h = Harness(seed=seed)
    humans = rng.choice([2, 3, 4])
    people = await h.lobby(humans, 8 - humans, settings={
        **SETTINGS, "turn_timer": 60, "afk_policy": rng.choice(["ai", "leave"])})
    assert (await h.do(cmds.StartGame, people[0])).ok
    h.games = (await h.record()).two_tables.games
    for _ in range(250):
        roll, who = rng.random(), rng.choice(people)
        if roll < 0.55:
            command = await human_command(h, who)
            if command is not None:
                assert (await h.coordinator.handle(command)).ok
        elif roll < 0.70:
            await press_an_offered_move(h, who)
        elif roll < 0.74:
            await h.do(cmds.Leave, who)
        elif roll < 0.76:
            await h.do(cmds.Kick, people[0], target=rng.choice(["2", "3", "5", "P2"]))
        elif roll < 0.80:
            await h.do(cmds.VoteEnd, who)
        elif roll < 0.86:
            await h.clock.advance(rng.choice([61, 700]))
        elif roll < 0.92:
            await h.do(cmds.ShowHand, who)
        elif roll < 0.93:  # the process restarts: a new coordinator on the same store
            games = h.games
            h = h.restart()
            h.games = games
            await h.coordinator.resume()
        elif roll < 0.94:
            await h.do(cmds.CallUno, who)
        await check_tables(h)
        if not any(r is not None and r.active for r in await table_records(h)):
            break
