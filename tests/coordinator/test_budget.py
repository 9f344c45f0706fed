"""Message budget per turn: at most one public send/edit, at most two private hand updates
(the actor and the player to act) unless other hands changed (penalties, swaps, rotations)
or, under jump-in, a player may now jump in on the new top card or no longer on the old one."""

from __future__ import annotations

from collections import Counter

import pytest

from bot.coordinator.memory_store import MemoryStore
from bot.coordinator.views import Notice
from bot.engine import Match
from tests.fakes import FakeChat

from .conftest import Harness


class CountingStore(MemoryStore):
    """Remembers the match after every save that changed it."""

    def __init__(self, *a, **kw) -> None:
        super().__init__(*a, **kw)
        self.snapshots: dict[int, dict] = {}

    async def save(self, record, results=()):
        saved = await super().save(record, results)
        if saved.match is not None:
            self.snapshots[self.saves] = saved.match
        return saved


class TaggingChat(FakeChat):
    def __init__(self, store: CountingStore) -> None:
        super().__init__()
        self.store = store
        self.public_by_save: Counter[int] = Counter()
        self.private_by_save: Counter[int] = Counter()
        self.notice_saves: set[int] = set()

    async def publish(self, chat, message, *, edit=None):
        self.public_by_save[self.store.saves] += 1
        if isinstance(message, Notice):
            self.notice_saves.add(self.store.saves)
        return await super().publish(chat, message, edit=edit)

    async def send_hand(self, chat, user_id, view, *, edit=None):
        self.private_by_save[self.store.saves] += 1
        return await super().send_hand(chat, user_id, view, edit=edit)


@pytest.mark.parametrize("preset", ["official", "house"])
async def test_messages_per_turn(preset: str) -> None:
    store = CountingStore()
    chat = TaggingChat(store)
    h = Harness(seed=11, store=store, chat=chat)
    store._now = h.clock.now
    people = await h.start(4, settings={"preset": preset, "turn_timer": 0})
    by_id = {p.id: p for p in people}
    for _ in range(400):
        record = await h.store.load(h.key)
        if record is None:
            break
        state = Match.from_json(record.match).game
        assert (await h.human_move(by_id[state.current])).ok
    saves = sorted(store.snapshots)
    turns = 0
    for previous, save in zip(saves, saves[1:], strict=False):
        if save in chat.notice_saves:
            continue  # a hand ended: its notice and the next hand's table
        turns += 1
        assert chat.public_by_save[save] <= 1, save
        before, after = Match.from_json(store.snapshots[previous]), Match.from_json(store.snapshots[save])
        if before.hand_number != after.hand_number:
            continue
        b, a = before.game, after.game
        changed = {p for p in a.players if b.hand(p) != a.hand(p)}
        jumpers = {p for state in (b, a) if state.rules.jump_in and not state.top.is_wild
                   for p in state.players if state.top in state.hand(p)}
        allowed = {b.current, a.current} | changed | jumpers
        assert chat.private_by_save[save] <= max(2, len(allowed)), (save, changed)
    assert turns > 100
