"""A harness for coordinator tests: FakeChat + MemoryStore + FakeClock, users, and helpers to
drive humans through commands and to set up exact positions."""

from __future__ import annotations

import pytest

from bot.coordinator import commands as cmds
from bot.coordinator.clock import FakeClock
from bot.coordinator.coordinator import Coordinator
from bot.coordinator.memory_store import MemoryStore
from bot.coordinator.ports import ChatKey, GameRecord, User
from bot.engine import GameState, Match, RuleSet, legal_actions
from bot.engine.actions import CatchUno, ChooseColor, DeclareUno, Draw, Pass, Play
from tests.fakes import FakeChat

CHAT = ChatKey("telegram", "-100")


def user(n: int, **kw) -> User:
    return User(f"u{n}", f"P{n}", **kw)


class Harness:
    def __init__(self, *, seed: int = 7, hand_pause: float = 0.0, lobby_timeout: float = 600.0,
                 store: MemoryStore | None = None, chat: FakeChat | None = None,
                 clock: FakeClock | None = None) -> None:
        self.chat = chat or FakeChat()
        self.clock = clock or FakeClock()
        self.store = store or MemoryStore(now=self.clock.now)
        self.seed = seed
        self.coordinator = Coordinator(self.chat, self.store, self.clock, ai_delay=0,
                                       hand_pause=hand_pause, lobby_timeout=lobby_timeout, seed=seed,
                                       notifier=self.chat)
        self.key = CHAT

    def restart(self) -> Harness:
        """A new coordinator on the same store and chat (the process restarted)."""
        return Harness(seed=self.seed + 1, store=self.store, chat=self.chat, clock=self.clock)

    async def do(self, command_type, who: User, **kw):
        return await self.coordinator.handle(command_type(self.key, who, **kw))

    async def lobby(self, humans: int, ais: int = 0, *, settings: dict | None = None,
                    level: str = "normal") -> list[User]:
        people = [user(i, is_admin=(i == 1)) for i in range(1, humans + 1)]
        if settings:
            await self.coordinator.store.save_chat_settings(self.key, await self._settings(settings))
        reply = await self.do(cmds.NewGame, people[0])
        assert reply.ok, reply
        for person in people[1:]:
            assert (await self.do(cmds.Join, person)).ok
        for _ in range(ais):
            assert (await self.do(cmds.AddAiSeat, people[0], strategy=level)).ok
        return people

    async def _settings(self, changes: dict):
        from bot.coordinator.settings import apply_changes

        return apply_changes(await self.store.chat_settings(self.key), changes)

    async def start(self, humans: int, ais: int = 0, **kw) -> list[User]:
        people = await self.lobby(humans, ais, **kw)
        reply = await self.do(cmds.StartGame, people[0])
        assert reply.ok, reply
        return people

    async def record(self) -> GameRecord:
        record = await self.store.load(self.key)
        assert record is not None
        return record

    async def match(self) -> Match:
        return Match.from_json((await self.record()).match)

    async def state(self) -> GameState:
        return (await self.match()).game

    async def rig(self, hands: dict, draw_pile: list, discard: list, *, current: str,
                  color: str | None = None, rules: RuleSet | None = None, **kw) -> GameState:
        """Replace the running hand by an exact position (players = the record's seats)."""
        record = await self.record()
        players = [s.user_id for s in record.seats]
        rules = rules or RuleSet(**record.rules)
        old = Match.from_json(record.match)
        kw.setdefault("seed", old.game.seed)  # the hand keeps the seed sealed at its deal
        state, _ = GameState.from_position(players, hands, draw_pile, rules=rules, discard=discard,
                                           color=color, current=current, **kw)
        match = Match(tuple(players), rules, old.seed, old.score_items, old.hand_number, state)
        record.match = match.to_json()
        record.rules = rules.to_dict()
        await self.store.save(record)
        return state

    async def human_move(self, who: User) -> object:
        """One sensible move for a human through commands: play the first legal card (declaring
        UNO), else pass after drawing, else draw. Returns the reply."""
        return await self.coordinator.handle(await self.move_for(who))

    async def move_for(self, who: User) -> cmds.Command:
        state = await self.state()
        actions = [a for a in legal_actions(state, who.id) if not isinstance(a, CatchUno | DeclareUno)]
        named = next((a for a in actions if isinstance(a, ChooseColor)), None)
        if named is not None:  # the dealer names the colour of a Wild turned first
            return cmds.NameColor(self.key, who, color=named.color.value)
        play = next((a for a in actions if isinstance(a, Play) and a.swap is None), None) or \
            next((a for a in actions if isinstance(a, Play)), None)
        if play is not None:
            return cmds.PlayCards(self.key, who, tuple(str(c) for c in play.cards),
                                  play.color.value if play.color else None,
                                  state.card_count(who.id) - len(play.cards) == 1, play.swap)
        if any(isinstance(a, Pass) for a in actions):
            return cmds.Pass(self.key, who)
        if any(isinstance(a, Draw) for a in actions):
            return cmds.Draw(self.key, who)
        raise AssertionError(f"{who.id} has nothing to do")


@pytest.fixture
def h() -> Harness:
    return Harness()


@pytest.fixture(autouse=True)
def no_logged_errors(request, caplog):
    """The coordinator swallows and logs unexpected errors (by design); a test fails if one
    was logged, unless it is marked ``allow_errors``."""
    yield
    if request.node.get_closest_marker("allow_errors"):
        return
    errors = [r for r in caplog.get_records("call")
              if r.levelno >= 40 and r.name.startswith("bot.coordinator")]
    assert not errors, [r.getMessage()[:300] for r in errors]


def pytest_configure(config):
    config.addinivalue_line("markers", "allow_errors: the test expects logged coordinator errors")
