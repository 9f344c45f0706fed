"""Per-chat memory follows the chats in play. Chats with nothing going on
(no lock held, no timer, no delivery queued) are forgotten, automatically as chats pile up,
and work as before when they come back."""

from __future__ import annotations

import gc

from bot.coordinator import commands as cmds
from bot.coordinator.ports import ChatKey

from .conftest import Harness, user


async def open_and_stop(h: Harness, chat: ChatKey) -> None:
    assert (await h.coordinator.handle(cmds.NewGame(chat, user(1)))).ok
    assert (await h.coordinator.handle(cmds.StopGame(chat, user(1)))).ok


def remembered(h: Harness) -> int:
    return len(h.coordinator.remembered_chats())


async def test_idle_chats_are_forgotten_and_live_ones_kept() -> None:
    h = Harness()
    await h.lobby(2)  # a lobby with its expiry timer: in play
    for n in range(20):
        await open_and_stop(h, ChatKey("telegram", f"-{n}"))
    assert remembered(h) == 21
    assert h.coordinator.forget_idle_chats() == 20
    assert remembered(h) == 1 and h.key in h.coordinator.locks.chats()
    await open_and_stop(h, ChatKey("telegram", "-3"))  # a forgotten chat works as before
    assert (await h.do(cmds.StartGame, user(1))).ok  # and so does the live one


async def test_memory_stays_bounded_as_chats_come_and_go() -> None:
    h = Harness()
    for n in range(700):
        await open_and_stop(h, ChatKey("telegram", f"-{n}"))
    assert remembered(h) <= 2 * 256 + 1  # swept as they pile up, not one entry per chat ever seen


async def test_a_running_bot_compacts_finished_games_once_a_day() -> None:
    h = Harness()
    h.coordinator.retention = 3600.0  # UNOBOT_RETENTION_DAYS, in seconds
    people = await h.start(2)
    game_id = (await h.record()).game_id
    assert (await h.do(cmds.StopGame, people[0])).ok
    assert (await h.store.get(game_id)).match is not None  # kept for now
    await h.clock.advance(86400 + 1)
    await open_and_stop(h, ChatKey("telegram", "-77"))  # the first command of a new day
    await h.coordinator.close()  # waits for the clean-up it started
    stopped = await h.store.get(game_id)
    assert stopped.status == "stopped" and stopped.match is None


async def test_a_games_logged_steps_are_kept_out_of_the_cycle_collectors_way() -> None:
    """Every save's steps stay in memory for as long as the store does: kept as plain bytes,
    they add nothing for the collector to walk, and still read back as logged."""
    h = Harness()
    people = {person.id: person for person in await h.start(2, ais=1)}
    for _ in range(8):  # the people's moves; the AI seat moves by itself
        await h.human_move(people[(await h.state()).current])
    game_id = (await h.record()).game_id
    history = await h.store.match_history(game_id)
    assert history is not None and history.log and all(isinstance(s, list) for _, s, _ in history.log)
    gc.collect()
    logged = h.store._logs[game_id]
    assert logged and not any(gc.is_tracked(row) for row in logged)
