"""Another process saving the same game: the coordinator reloads and retries once, then
answers "busy" with nothing sent; the loser never publishes a state it did not store."""

from __future__ import annotations

from bot.coordinator import commands as cmds
from bot.coordinator.memory_store import MemoryStore

from .conftest import Harness


class RivalStore(MemoryStore):
    """Before each of the next ``rival_saves`` game saves, a rival process saves first (a
    harmless change), so the coordinator's save hits a version conflict."""

    def __init__(self, *a, **kw) -> None:
        super().__init__(*a, **kw)
        self.rival_saves = 0

    async def save(self, record, results=()):
        if self.rival_saves and record.version:
            self.rival_saves -= 1
            rival = await self.get(record.game_id)
            rival.book.timeouts["rival"] = rival.book.timeouts.get("rival", 0) + 1
            await super().save(rival)
        return await super().save(record, results)


async def test_one_conflict_is_retried_and_wins() -> None:
    store = RivalStore()
    h = Harness(store=store)
    people = await h.start(2, settings={"turn_timer": 0})
    by_id = {p.id: p for p in people}
    current = (await h.state()).current
    before = await h.record()
    store.rival_saves = 1
    reply = await h.human_move(by_id[current])
    assert reply.ok
    after = await h.record()
    assert after.book.timeouts["rival"] == 1  # the rival's change survived the retry
    assert after.match != before.match


async def test_two_conflicts_answer_busy_and_send_nothing() -> None:
    store = RivalStore()
    h = Harness(store=store)
    people = await h.start(2, settings={"turn_timer": 0})
    current = (await h.state()).current
    before = await h.record()
    published, private = len(h.chat.public), h.chat.private_count
    store.rival_saves = 2
    reply = await h.do(cmds.Draw, next(p for p in people if p.id == current))
    assert (reply.ok, reply.error) == (False, "busy")
    after = await h.record()
    assert after.match == before.match and after.book.timeouts["rival"] == 2
    assert (len(h.chat.public), h.chat.private_count) == (published, private)
