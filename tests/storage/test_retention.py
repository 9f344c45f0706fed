"""On every store: finished games keep their results (stats, leaderboard)
but drop their final cards after the retention time; live games and games still owing a
delivery are never touched."""

from __future__ import annotations

import time

from bot.coordinator.clock import FakeClock
from bot.coordinator.coordinator import Coordinator
from bot.coordinator.ports import ChatKey, PlayerResult
from bot.coordinator.record import DeliveryState, Outbox
from tests.fakes import FakeChat

from .test_contract import MATCH_JSON, make_record, result


async def test_finished_games_drop_their_cards_but_keep_their_results(store):
    finished = await store.save(make_record("gf", ChatKey("telegram", "1"), "finished",
                                            match=MATCH_JSON, hand_message_ids={"u1": "m1"}),
                                [result("match", 1, [PlayerResult("u1", "Ana", points=90, won=True)],
                                        game_id="gf", chat=ChatKey("telegram", "1"))])
    await store.save(make_record("gr", ChatKey("telegram", "2"), "running", match=MATCH_JSON,
                                 hand_message_ids={"u1": "m2"}))
    await store.save(make_record("go", ChatKey("telegram", "3"), "stopped", match=MATCH_JSON,
                                 delivery=DeliveryState(Outbox(1, table=True))))
    stats = await store.stats("telegram", "u1")

    assert await store.compact_finished(time.time() - 3600) == 0  # not old enough yet
    coordinator = Coordinator(FakeChat(), store, FakeClock(time.time() + 10), retention=5)
    assert await coordinator.compact_finished() == 1

    compacted = await store.get("gf")
    assert compacted.status == "finished" and compacted.match is None and compacted.hand_message_ids == {}
    assert compacted.version == finished.version  # not a move: nothing else changed
    assert (await store.get("gr")).match == MATCH_JSON  # a live game keeps everything
    assert (await store.get("go")).match == MATCH_JSON  # owes a delivery: kept until delivered
    assert await store.stats("telegram", "u1") == stats  # results stay
    assert await store.compact_finished(time.time() + 10) == 0  # once
