"""The SQL store keeps the record it last saved or read and hands out copies of it while the
stored version is the same: a load then reads three small columns, not the whole row. Another
process's write makes what it holds stale, never wrong."""

from __future__ import annotations

from bot.coordinator.record import Outbox
from storage import open_store

from .test_contract import CHAT, make_record


class CountingReads:
    """Counts whole-row reads of the store's game rows (the hot path's driver layer)."""

    def __init__(self, store) -> None:
        self.whole = 0
        rows = store._rows
        for name in ("fetch_one", "fetch_active"):
            setattr(rows, name, self._counted(getattr(rows, name)))

    def _counted(self, fetch):
        async def counted(*args):
            self.whole += 1
            return await fetch(*args)

        return counted


async def test_a_load_at_the_version_saved_here_reads_no_whole_row(database_url):
    store = await open_store(database_url)
    try:
        saved = await store.save(make_record(hand_message_ids={"u1": "m1"}))
        reads = CountingReads(store)
        loaded = await store.load(CHAT)
        assert loaded == saved and reads.whole == 0
        loaded.hand_message_ids["u1"] = "changed"  # a private copy: nothing held changes
        loaded.seats[0].name = "Changed"
        again = await store.get(saved.game_id)
        assert again.hand_message_ids == {"u1": "m1"} and again.seats[0].name == "Ana"
        assert reads.whole == 0
    finally:
        await store.close()


async def test_another_process_s_save_and_delivery_mark_are_seen(database_url):
    first, second = await open_store(database_url), await open_store(database_url)
    try:
        saved = await first.save(make_record(table_message_id="t1"))
        theirs = await second.load(CHAT)
        theirs.table_message_id = "t2"
        theirs = await second.save(theirs)
        reads = CountingReads(first)
        seen = await first.load(CHAT)
        assert (seen.version, seen.table_message_id) == (theirs.version, "t2") and reads.whole == 1
        assert saved.version < seen.version

        owing = seen
        owing.delivery.outbox = Outbox(owing.version + 1, table=True)
        owing = await first.save(owing)
        assert (await first.load(CHAT)).delivery.outbox is not None
        assert await second.mark_delivered(owing.game_id, owing.version)
        assert (await first.load(CHAT)).delivery.outbox is None  # written without a version
        assert (await first.get(owing.game_id)).delivery.outbox is None
    finally:
        await first.close()
        await second.close()
