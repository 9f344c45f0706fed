"""A group upgraded to a supergroup by Telegram (a new chat id; the old one takes no more
messages): the running game goes on in the supergroup, its table posted there below a notice,
whether the bot hears of it from the service messages or from a send refused with the new id;
what was still queued for the old group is dropped, not retried for half an hour."""

from __future__ import annotations

from bot.coordinator.ports import ChatKey

from .conftest import ANA, BO, GROUP, Harness, data_of, table_calls
from .helpers import CHAT

SUPERGROUP = -1001777
NEW_CHAT = ChatKey("telegram", str(SUPERGROUP))
NOTICE = "This group was upgraded by Telegram: the game goes on here."


async def moved(harness: Harness) -> bool:
    record = await harness.store.load(NEW_CHAT)
    return record is not None and record.table_message_id is not None


async def test_told_by_the_service_messages_the_game_goes_on_in_the_supergroup(harness: Harness):
    await harness.start()
    await harness.open_game(ANA, BO)
    await harness.start_game(ANA, [ANA, BO])
    game_id = (await harness.store.load(CHAT)).game_id
    harness.api.upgrade_group(ANA, GROUP, SUPERGROUP)
    await harness.until(lambda: moved(harness), "the game moved to the supergroup")
    await harness.settle()
    record = await harness.store.load(NEW_CHAT)
    assert record.game_id == game_id and await harness.store.load(CHAT) is None
    texts = [c.params.get("text") or c.params.get("caption") for c in harness.api.calls_to(None, SUPERGROUP)]
    assert NOTICE in texts
    (table,) = table_calls(harness.api, SUPERGROUP)  # the table, posted once, with its buttons
    assert table.method == "sendPhoto"
    shown = harness.api.message(SUPERGROUP, int(record.table_message_id))
    assert any(d.startswith("t:") for d in data_of(shown))
    # A move from the private chat plays on, and the supergroup's table shows it.
    calls = len(harness.api.calls)
    mover = ANA if (await harness.store.load(NEW_CHAT)).current().game.current == str(ANA.id) else BO
    harness.say(mover, "/draw", chat=mover.id)
    await harness.api.wait_for(lambda: [c for c in harness.api.calls[calls:]
                                        if c.chat_id == SUPERGROUP and c.method in
                                        ("editMessageCaption", "editMessageMedia")],
                               what="the supergroup's table edited")
    assert not [c for c in harness.api.calls[calls:] if c.chat_id == GROUP]


async def test_a_send_refused_with_the_new_id_moves_the_game_and_drops_the_old_queue(harness: Harness):
    await harness.start()
    await harness.open_game(ANA, BO)
    await harness.start_game(ANA, [ANA, BO])
    harness.api.upgrade_group(ANA, GROUP, SUPERGROUP, tell=False)  # no service message came
    # The next thing said in the group is refused with the new id.
    mover = ANA if (await harness.store.load(CHAT)).current().game.current == str(ANA.id) else BO
    harness.say(mover, "/draw", chat=mover.id)
    await harness.until(lambda: moved(harness), "the game moved to the supergroup")
    old_group = harness.bot.port._outboxes[(GROUP, None)]
    await harness.api.wait_for(lambda: old_group.idle, what="the old group's queue given up")
    await harness.settle()
    refused = [c for c in harness.api.calls_to(None, GROUP) if c.status == 400]
    assert len(refused) == 1  # tried once: not again and again for half an hour
    texts = [c.params.get("text") or c.params.get("caption") for c in harness.api.calls_to(None, SUPERGROUP)]
    assert NOTICE in texts and table_calls(harness.api, SUPERGROUP)
