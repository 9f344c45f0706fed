"""The group outbox alone: order kept, waiting edits merged, an in-flight edit never touched."""

import asyncio

from telegram.error import BadRequest

from adapters.telegram.outbox import GroupOutbox


class SlowChat:
    """Records what reaches the chat; each delivery takes ``delay`` seconds."""

    def __init__(self, delay: float = 0.05) -> None:
        self.delay = delay
        self.shown: list[tuple[str, str | None]] = []  # (text, edited id or None)
        self.next_id = 100
        self.gone: set[str] = set()

    async def deliver(self, chat_id, text, markup, edit):
        await asyncio.sleep(self.delay)
        if edit in self.gone:
            raise BadRequest("Message to edit not found")
        self.shown.append((text, edit))
        if edit is not None:
            return edit
        self.next_id += 1
        return str(self.next_id)


async def test_edits_waiting_behind_one_in_flight_are_merged_into_the_newest():
    chat = SlowChat()
    outbox = GroupOutbox(-1, chat.deliver)
    assert outbox.edit("7", "table 0", None) == "7"  # returns at once
    await asyncio.sleep(0.01)  # table 0 is on its way
    for turn in range(1, 5):
        outbox.edit("7", f"table {turn}", None)
    await outbox.drain()
    assert chat.shown == [("table 0", "7"), ("table 4", "7")]  # 0 was in flight; 1-3 merged into 4
    assert outbox.merged == 3


async def test_new_messages_keep_their_place_and_get_their_id():
    chat = SlowChat()
    outbox = GroupOutbox(-1, chat.deliver)
    outbox.edit("7", "table 1", None)
    outbox.edit("7", "table 2", None)  # merged into the waiting... or queued behind the in-flight one
    notice = asyncio.ensure_future(outbox.send("hand won", None))
    await asyncio.sleep(0)  # the notice is queued (the coordinator awaits it before going on)
    outbox.edit("7", "table 3", None)  # after the notice: not merged with an edit before it
    assert await notice == "101"
    await outbox.drain()
    texts = [text for text, _ in chat.shown]
    assert texts.index("hand won") < texts.index("table 3")
    assert texts[-1] == "table 3" and "table 2" in texts[: texts.index("hand won")]


async def test_an_edit_of_a_deleted_message_is_redirected_to_its_replacement():
    chat = SlowChat(delay=0)

    async def deliver(chat_id, text, markup, edit):
        try:
            return await chat.deliver(chat_id, text, markup, edit)
        except BadRequest:  # what the port does: send anew
            return await chat.deliver(chat_id, text, markup, None)

    chat.gone.add("7")
    outbox = GroupOutbox(-1, deliver)
    outbox.edit("7", "table 1", None)
    await outbox.drain()
    assert outbox.current_id("7") == "101"
    assert outbox.edit("7", "table 2", None) == "101"
    await outbox.drain()
    assert chat.shown[-1] == ("table 2", "101")
