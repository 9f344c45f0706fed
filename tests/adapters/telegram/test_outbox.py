"""The group outbox alone: order kept, waiting edits merged, an in-flight edit never touched."""

import asyncio

from telegram.error import BadRequest

from adapters.telegram.outbox import GroupOutbox
from tests.waiting import wait_until


class SlowChat:
    """Records what reaches the chat; each delivery takes ``delay`` seconds (``started``
    counts the deliveries under way or done, so a test can wait for one to be in flight)."""

    def __init__(self, delay: float = 0.05) -> None:
        self.delay = delay
        self.shown: list[tuple[str, str | None]] = []  # (text, edited id or None)
        self.next_id = 100
        self.gone: set[str] = set()
        self.started = 0

    async def deliver(self, chat_id, text, markup, edit):
        self.started += 1
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
    await wait_until(lambda: chat.started == 1, what="table 0 on its way")
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


class FlakyChat(SlowChat):
    """Refuses the first ``failures`` deliveries with a passing error (a 5xx, a 403)."""

    def __init__(self, failures: int, error: Exception) -> None:
        super().__init__(delay=0)
        self.failures = failures
        self.error = error
        self.attempts = 0

    async def deliver(self, chat_id, text, markup, edit):
        self.attempts += 1
        if self.attempts <= self.failures:
            raise self.error
        return await super().deliver(chat_id, text, markup, edit)


async def test_a_refused_table_edit_is_repainted_when_delivery_works_again():
    from telegram.error import Forbidden, NetworkError

    for error in (NetworkError("Bad Gateway"), Forbidden("bot was kicked from the group")):
        chat = FlakyChat(3, error)
        outbox = GroupOutbox(-1, chat.deliver, retry_delays=(0.01,))
        outbox.edit("7", "table after the move", None)
        await outbox.drain()
        assert chat.shown == [("table after the move", "7")]
        assert chat.attempts == 4 and outbox.repainted == 1


async def test_a_newer_table_replaces_a_failed_one_waiting_to_be_retried():
    from telegram.error import NetworkError

    chat = FlakyChat(1, NetworkError("Bad Gateway"))
    outbox = GroupOutbox(-1, chat.deliver, retry_delays=(0.05,))
    outbox.edit("7", "old table", None)
    await wait_until(lambda: chat.attempts == 1, what="the first attempt to fail")  # the retry waits
    outbox.edit("7", "new table", None)
    await outbox.drain()
    assert chat.shown == [("new table", "7")]  # the old one never repainted over it


async def test_retries_stop_after_their_time_and_bad_requests_are_not_retried():
    from telegram.error import NetworkError

    chat = FlakyChat(100, NetworkError("Bad Gateway"))
    outbox = GroupOutbox(-1, chat.deliver, retry_delays=(0.01,), retry_for=0.05)
    outbox.edit("7", "table", None)
    await outbox.drain()
    assert chat.shown == [] and 5 <= chat.attempts <= 7
    wrong = FlakyChat(1, BadRequest("Can't parse entities"))
    outbox = GroupOutbox(-1, wrong.deliver, retry_delays=(0.01,))
    outbox.edit("7", "table", None)
    await outbox.drain()
    assert wrong.attempts == 1 and outbox.idle


async def test_idle_group_outboxes_are_dropped_past_the_limit(monkeypatch):
    from adapters.telegram import port as port_module
    from adapters.telegram.port import TelegramChatPort

    monkeypatch.setattr(port_module, "OUTBOXES_KEPT", 4)
    port = TelegramChatPort(bot=None, bot_username="unotest_bot")  # outboxes only
    busy = port.outbox(-1)
    busy._queue.append(object())  # something still waiting in the first group
    for chat_id in range(-2, -10, -1):
        port.outbox(chat_id)
    assert len(port._outboxes) <= 5 and port._outboxes[(-1, None)] is busy


async def test_an_edit_queued_while_its_message_is_replaced_goes_to_the_replacement():
    """The edit in flight finds its message cannot be edited and sends a new one; an edit
    queued meanwhile (with the old id) must go to the new message, not post a second one."""
    chat = SlowChat(delay=0.02)

    async def deliver(chat_id, text, markup, edit):
        if edit == "7":  # this message cannot take the edit: a new one replaces it
            chat.gone.add("7")
            return await chat.deliver(chat_id, text, markup, None)
        return await chat.deliver(chat_id, text, markup, edit)

    outbox = GroupOutbox(-1, deliver)
    outbox.edit("7", "table 1", None)
    await wait_until(lambda: chat.started == 1, what="table 1 on its way")
    assert outbox.edit("7", "table 2", None) == "7"  # not known yet where it will be
    await outbox.drain()
    assert chat.shown == [("table 1", None), ("table 2", "101")]
    assert outbox.current_id("7") == "101"
