"""Privacy over whole AI-played games: at the moment of every public message, the cards it
shows are face-up cards (the discard pile: the cards just played and the first card), never
a card only a hand holds; each private hand goes to its owner and holds exactly their cards."""

from __future__ import annotations

from collections import Counter

import pytest

from bot.coordinator.memory_store import MemoryStore
from bot.coordinator.views import LobbyView, Notice, Recap, TableView, Text
from bot.engine import Card, Match
from bot.i18n import Lines
from tests.fakes import FakeChat

from .conftest import Harness


def cards_in(value) -> list[Card]:
    if isinstance(value, Card):
        return [value]
    if isinstance(value, Text) and "turned to choose the dealer" in value.msgid:
        return []  # turned face up for everyone, and back in the deck before the shuffle
    if isinstance(value, Text):
        return [c for v in value.params.values() for c in cards_in(v)]
    if isinstance(value, Lines):
        return cards_in(value.items)
    if isinstance(value, list | tuple):
        return [c for v in value for c in cards_in(v)]
    return []


class AuditingChat(FakeChat):
    def __init__(self, store: MemoryStore) -> None:
        super().__init__()
        self.store = store
        self.checked_public = 0
        self.checked_private = 0
        self.violations: list[str] = []  # the coordinator logs and swallows port errors

    async def _state(self, game_id):
        record = await self.store.get(game_id)
        return Match.from_json(record.match).game if record and record.match else None

    async def publish(self, chat, message, *, edit=None):
        try:
            await self._audit_public(chat, message)
        except AssertionError as error:
            self.violations.append(f"{error}: {message!r}")
        return await super().publish(chat, message, edit=edit)

    async def _audit_public(self, chat, message) -> None:
        state = await self._state(message.game_id)
        if isinstance(message, TableView):
            shown = cards_in(message.last)  # the top card is checked on its own
            assert state is not None and message.top == state.top
        elif isinstance(message, Notice):
            shown = cards_in(message.text)
        elif isinstance(message, Recap):  # names, scores and counts: never a card
            assert not cards_in([message.heading, *message.facts]), "a card in a recap"
            shown = []
        else:
            assert isinstance(message, LobbyView)
            shown = []
        if shown:
            assert state is not None
            face_up = Counter(state.discard)
            assert not Counter(shown) - face_up, f"public cards {shown} not face up"
            for seat in message.seats if isinstance(message, TableView) else ():
                assert seat.cards == state.card_count(seat.user_id)
        self.checked_public += 1

    async def send_hand(self, chat, user_id, view, *, edit=None):
        state = await self._state(view.game_id)
        if view.user_id != user_id or Counter(o.card for o in view.cards) != Counter(state.hand(user_id)):
            self.violations.append(f"hand of {user_id} wrong: {view!r}")
        self.checked_private += 1
        return await super().send_hand(chat, user_id, view, edit=edit)


@pytest.mark.parametrize("players, preset, level", [
    (2, "official", "easy"), (4, "house", "hard"), (6, "official", "normal"), (10, "house", "easy"),
])
async def test_no_hand_card_is_ever_public(players: int, preset: str, level: str) -> None:
    store = MemoryStore()
    chat = AuditingChat(store)
    h = Harness(seed=players, store=store, chat=chat, hand_pause=1)
    people = await h.lobby(1, players - 1, level=level,
                           settings={"preset": preset, "target_score": 120, "turn_timer": 0})
    if players < 10:
        from bot.coordinator import commands as cmds

        assert (await h.do(cmds.StartGame, people[0])).ok
    game_id = (await h.record()).game_id
    for _ in range(3000):
        record = await store.get(game_id)
        if record.status != "running":
            break
        if "next_hand" in record.deadlines:
            await h.clock.advance(1)
            continue
        if Match.from_json(record.match).game.current != people[0].id:
            await h.clock.advance(3)  # AI seats hold while someone forgot UNO! (fair window)
            continue
        assert (await h.human_move(people[0])).ok
    assert chat.violations == []
    assert (await store.get(game_id)).status == "finished"
    assert chat.checked_public > 10 and chat.checked_private > 5
