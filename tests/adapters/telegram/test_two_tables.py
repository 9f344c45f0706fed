"""Two tables at once on Telegram, with the real PTB against the fake Bot API: a forum topic
per table where the group has topics, else both tables in the group, each its own message."""

from __future__ import annotations

from .conftest import ANA, BO, GROUP, data_of
from .helpers import CHAT, hand_results, play_until_hand_ends


def table_messages(h, thread=None):
    return [m for m in h.api.topic_messages(GROUP, thread) if any(d.startswith("t:") for d in data_of(m))]


async def start_two_tables(h) -> None:
    h.api.admins[GROUP] = {ANA.id}
    await h.start()
    reply = await h.ask(ANA, "/settings rotation=on tables=2 reaction_window=0")
    assert "Settings saved" in reply
    await h.open_game(ANA, BO)
    for seats in range(3, 9):
        h.say(ANA, "/ai easy")

        async def seated(n=seats) -> bool:
            record = await h.store.load(CHAT)
            return record is not None and len(record.seats) == n

        await h.until(seated, f"{seats} seats")
    await h.start_game(ANA, [ANA, BO])


async def test_without_topics_both_tables_play_in_the_group_each_with_its_own_message(harness):
    await start_two_tables(harness)
    await harness.settle()
    tables = table_messages(harness)
    texts = [m.text for m in tables]
    assert any("table 1" in t for t in texts) and any("table 2" in t for t in texts)
    assert len({m.message_id for m in tables}) >= 2
    assert harness.api.calls_to("createForumTopic")  # asked, refused: not a forum
    assert any("two tables at once" in m.text for m in harness.api.chat_messages(GROUP))
    turns = await play_until_hand_ends(harness, [ANA, BO])  # hand buttons reach the right table
    assert hand_results(harness) and turns >= 0


async def test_with_topics_each_table_has_its_own_topic(harness):
    harness.api.forums.add(GROUP)
    await start_two_tables(harness)
    await harness.settle()
    topics = harness.api.topics[GROUP]
    assert [name for _, name in topics] == ["UNO table 1", "UNO table 2"]
    for number, (thread, _) in enumerate(topics, 1):
        posted = table_messages(harness, thread)
        assert posted and all(f"table {number}" in m.text for m in posted)
    assert not table_messages(harness, None)  # no table in the group's general topic
    await play_until_hand_ends(harness, [ANA, BO])
    assert hand_results(harness)
