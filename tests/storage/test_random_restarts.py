"""The database keeps what the memory store keeps, through restarts: the same random commands
(legal moves, leaving, votes, colour pickers, reopened hands, time passing) go to a
coordinator on each, and now and then both processes restart, the database one on a new store
over the same database (nothing held in memory survives). After every step both stores hold
the same game: status, seats, book, deadlines, the match itself, open colour pickers."""

from __future__ import annotations

import random

import pytest

from bot.coordinator import commands as cmds
from bot.coordinator.clock import FakeClock
from bot.coordinator.coordinator import Coordinator
from bot.coordinator.memory_store import MemoryStore
from bot.coordinator.ports import User
from bot.coordinator.settings import apply_changes
from bot.engine import legal_actions
from bot.engine.actions import CatchUno, ChooseColor, DeclareUno, Draw, Pass, Play
from storage import open_store
from tests.coordinator.conftest import CHAT
from tests.fakes import FakeChat

PEOPLE = [User(f"u{i}", f"P{i}") for i in range(1, 5)]
RULES = [{}, {"preset": "house"},
         {"seven_zero": True, "jump_in": True, "stacking": "progressive", "multi_play": True}]


class Process:
    """One bot process: its coordinator on ``store``, with a chat of its own and ``clock``
    (the store's clock too)."""

    def __init__(self, store, seed: int, clock: FakeClock) -> None:
        self.store = store
        self.clock = clock
        self.chat = FakeChat()
        self.coordinator = Coordinator(self.chat, store, self.clock, ai_delay=0, seed=seed)


def stored(record):
    if record is None:
        return None
    match = record.current()
    return (record.status, [(s.user_id, s.ai) for s in record.seats], record.book.to_json(),
            sorted(record.deadlines), match.to_json() if match is not None else None,
            {u: p.card for u, p in record.delivery.color_pickers.items()}, record.options)


def legal_command(rng: random.Random, record, who: User) -> cmds.Command | None:
    if record is None or record.status != "running":
        return None
    actions = legal_actions(record.current().game, who.id)
    if not actions:
        return None
    action = rng.choice(actions)
    if isinstance(action, Play):
        return cmds.PlayCards(CHAT, who, tuple(str(c) for c in action.cards),
                              action.color.value if action.color else None, rng.random() < 0.5,
                              action.swap)
    if isinstance(action, ChooseColor):
        return cmds.NameColor(CHAT, who, color=action.color.value)
    if isinstance(action, CatchUno):
        return cmds.CallUno(CHAT, who, target=action.target)
    for kind, command in ((Draw, cmds.Draw), (Pass, cmds.Pass), (DeclareUno, cmds.DeclareUno)):
        if isinstance(action, kind):
            return command(CHAT, who)
    return cmds.Challenge(CHAT, who)


def next_command(rng: random.Random, record, who: User) -> cmds.Command | str | None:
    roll = rng.random()
    if roll < 0.80:
        return legal_command(rng, record, who)
    for limit, command in ((0.81, cmds.Leave(CHAT, who)), (0.83, cmds.VoteEnd(CHAT, who)),
                           (0.87, cmds.ShowHand(CHAT, who)),
                           (0.90, cmds.OpenColorPicker(CHAT, who, card=rng.choice(["W", "W+4", ""])))):
        if roll < limit:
            return command
    return "time" if roll < 0.95 else "restart"


@pytest.mark.parametrize("seed", range(6))
async def test_the_database_keeps_what_memory_keeps_through_restarts(database_url, seed):
    rng = random.Random(seed)
    memory_clock, database_clock = FakeClock(), FakeClock()
    memory = Process(MemoryStore(now=memory_clock.now), seed, memory_clock)
    database = Process(await open_store(database_url, now=database_clock.now), seed, database_clock)
    rules = rng.choice(RULES)
    people = PEOPLE[:rng.choice([2, 3, 4])]
    try:
        for side in (memory, database):
            settings = await side.store.chat_settings(CHAT)
            await side.store.save_chat_settings(CHAT, apply_changes(settings, {**rules, "turn_timer": 60}))
        opening = [cmds.NewGame(CHAT, people[0]), *(cmds.Join(CHAT, p) for p in people[1:]),
                   cmds.AddAiSeat(CHAT, people[0], strategy="easy"), cmds.StartGame(CHAT, people[0])]
        for command in opening:
            assert (await memory.coordinator.handle(command)).ok
            assert (await database.coordinator.handle(command)).ok
        for step in range(300):
            record = await memory.store.load(CHAT)
            if record is None:
                break
            command = next_command(rng, record, rng.choice(people))
            if command == "time":
                seconds = rng.choice([61, 700])
                await memory.clock.advance(seconds)
                await database.clock.advance(seconds)
            elif command == "restart":
                await memory.coordinator.close()
                await database.coordinator.close()
                await database.store.close()
                memory = Process(memory.store, seed + step, memory.clock)
                database = Process(await open_store(database_url, now=database_clock.now),
                                   seed + step, database_clock)
                await memory.coordinator.resume()
                await database.coordinator.resume()
            elif command is not None:
                a = await memory.coordinator.handle(command)
                b = await database.coordinator.handle(command)
                assert (a.ok, a.error) == (b.ok, b.error), (step, command)
            assert stored(await memory.store.load(CHAT)) == stored(await database.store.load(CHAT)), step
    finally:
        await memory.coordinator.close()
        await database.coordinator.close()
        await database.store.close()
