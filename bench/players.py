"""The chat and the human seat that the coordinator benchmarks drive games with.

The human of each game is played by the "normal" strategy through commands (the path a chat
adapter takes). Like a person, it learns that it is its turn from a message in its chat, not
by asking again and again, and it reads its hand from what it was shown (the game as the bot
holds it, ``load_held``), not from the database: what is timed is the bot's work, not the
driver's.
"""

from __future__ import annotations

import asyncio
import random

from bot.ai import get_strategy
from bot.coordinator import commands as cmds
from bot.coordinator.coordinator import Coordinator
from bot.coordinator.ports import ChatKey, GameStore, User
from bot.engine.actions import ChooseColor, Draw, Pass, Play


class BenchChat:
    """Counts messages and yields once per send, like a network call; every message in a
    chat wakes the player waiting there, as a notification wakes a person."""

    def __init__(self, yield_each: bool = True) -> None:
        self.public = 0
        self.private = 0
        self.yield_each = yield_each
        self.missed_wake_ups = 0
        self._news: dict[ChatKey, asyncio.Event] = {}

    def news(self, chat: ChatKey) -> asyncio.Event:
        """Set by every message sent in ``chat``; the waiting player clears it before looking."""
        return self._news.setdefault(chat, asyncio.Event())

    def _tell(self, chat: ChatKey) -> None:
        event = self._news.get(chat)  # only where a player waits: the memory figure is the bot's
        if event is not None:
            event.set()

    async def wait_for_news(self, chat: ChatKey, seconds: float = 1.0) -> None:
        try:
            async with asyncio.timeout(seconds):
                await self.news(chat).wait()
        except TimeoutError:  # a turn that came with no message: look again anyway, and count it
            self.missed_wake_ups += 1

    async def publish(self, chat, message, *, edit=None):
        self.public += 1
        self._tell(chat)
        if self.yield_each:
            await asyncio.sleep(0)
        return edit or f"m{self.public}"

    async def send_hand(self, chat, user_id, view, *, edit=None):
        self.private += 1
        self._tell(chat)
        if self.yield_each:
            await asyncio.sleep(0)
        return edit or f"p{self.private}"


async def open_game(coordinator: Coordinator, chat: ChatKey, human: User, bots: int = 3) -> None:
    for command in (cmds.NewGame(chat, human), *[cmds.AddAiSeat(chat, human, "normal")] * bots,
                    cmds.StartGame(chat, human)):
        reply = await coordinator.handle(command)
        assert reply.ok, reply


def command_for(action, chat: ChatKey, human: User) -> cmds.Command:
    if isinstance(action, Play):
        return cmds.PlayCards(chat, human, tuple(str(c) for c in action.cards),
                              action.color.value if action.color else None, action.uno, action.swap)
    if isinstance(action, Draw):
        return cmds.Draw(chat, human)
    if isinstance(action, Pass):
        return cmds.Pass(chat, human)
    if isinstance(action, ChooseColor):  # the dealer names a first Wild's colour
        return cmds.NameColor(chat, human, color=action.color.value)
    return cmds.Challenge(chat, human)


async def play_human(coordinator: Coordinator, store: GameStore, chat_port: BenchChat, chat: ChatKey,
                     human: User, rng: random.Random, max_moves: int = 100_000, pace: float = 0.0,
                     until: float = float("inf")) -> None:
    """The human seat to the end of the match (or, thinking ``pace`` seconds (x0.5 to x1.5)
    before each move, until the loop's clock reaches ``until``)."""
    strategy = get_strategy("normal")
    loop = asyncio.get_running_loop()
    for _ in range(max_moves):
        chat_port.news(chat).clear()
        record, _ = await store.load_held(chat)
        if record is None or not record.active:
            return
        state = record.current().game
        if state.current != human.id:
            await chat_port.wait_for_news(chat)
            continue
        if pace:
            await asyncio.sleep(rng.uniform(0.5, 1.5) * pace)
            if loop.time() >= until:
                return
        reply = await coordinator.handle(command_for(strategy.choose(state, human.id, rng), chat, human))
        assert reply.ok, reply
