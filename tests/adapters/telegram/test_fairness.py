"""One chat cannot hurt the others: refusals go privately, a chat's backlog is capped so a
flooding group never holds every update slot, and SIGTERM ends the bot within a few seconds
even with handlers stuck behind Telegram's group limit."""

from __future__ import annotations

import asyncio
import dataclasses
import os
import signal
import sys
from pathlib import Path

import pytest

from adapters.telegram.app import TelegramBot, TelegramConfig
from adapters.telegram.fairness import FairUpdateProcessor
from bot.coordinator import Coordinator
from bot.coordinator.clock import FakeClock
from bot.coordinator.memory_store import MemoryStore

from .conftest import ANA, BO, GROUP, Harness, make_config
from .fake_bot_api import FakeBotApi, TgUser

OTHER_GROUP = -100888
ROOT = Path(__file__).resolve().parents[3]
FLOODERS = [TgUser(7000 + i, f"F{i}") for i in range(6)]  # never started the bot: no DMs


async def test_a_refusal_in_a_group_goes_to_the_sender_privately(harness: Harness):
    await harness.start()
    mark = len(harness.api.calls)
    harness.say(ANA, "/join")  # no game here: refused
    told = await harness.api.wait_for(
        lambda: [c for c in harness.api.calls[mark:] if c.method == "sendMessage" and c.chat_id == ANA.id],
        what="Ana's private answer")
    assert "no game" in told[0].params["text"].lower()
    await harness.settle()
    assert not [c for c in harness.api.calls[mark:] if c.method == "sendMessage" and c.chat_id == GROUP]


def flood(api: FakeBotApi, count: int) -> None:
    """Refused commands in GROUP from people the bot cannot DM: each answer must go to the
    group, where Telegram allows one message a minute in these tests."""
    for user in FLOODERS:
        api.forbid_chat(user.id)
    for i in range(count):
        api.send_text(FLOODERS[i % len(FLOODERS)], GROUP, "/join")


async def test_a_flooding_group_does_not_starve_another(api: FakeBotApi):
    config = dataclasses.replace(make_config(api), group_rate=1, group_period=60, max_retries=0,
                                 concurrent_updates=32, stop_grace=1.0)
    store = MemoryStore()
    bot = TelegramBot(config, lambda port: Coordinator(port, store, FakeClock(), ai_delay=0), store)
    await bot.start()
    try:
        flood(api, 80)  # more than every update slot of the old design
        await api.wait_for(lambda: not api._updates, what="the flood to be fetched")
        # Another group's /new is answered at once: its lobby appears.
        api.send_text(BO, OTHER_GROUP, "/new")
        await api.wait_for(lambda: api.calls_to("sendMessage", OTHER_GROUP), timeout=5,
                           what="the other group's lobby")
        processor = bot.app.update_processor
        assert isinstance(processor, FairUpdateProcessor)
        assert processor.dropped > 0  # the flooding chat's backlog is capped
        assert processor.current_concurrent_updates <= config.chat_concurrent + config.chat_backlog
    finally:
        await asyncio.wait_for(bot.stop(), 15)  # handlers stuck behind the group limit: cancelled


@pytest.mark.slow
async def test_sigterm_ends_a_flooded_bot_within_seconds(api: FakeBotApi):
    env = {**os.environ, "PTB_TIMEDELTA": "1", "NO_PROXY": "127.0.0.1,localhost",
           "PYTHONPATH": str(ROOT)}
    child = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.adapters.telegram.sigterm_child", str(api.port), api.token,
        cwd=ROOT, env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
    try:
        await api.wait_for(lambda: api.calls_to("deleteWebhook"), timeout=20, what="the bot to poll")
        flood(api, 40)
        # The first answer went to the group; the others wait for Telegram's group limit.
        await api.wait_for(lambda: api.calls_to("sendMessage", GROUP), timeout=10, what="a group reply")
        await api.wait_for(lambda: not api._updates, what="the flood to be fetched")
        # Each refusal is tried privately first (refused: these people never started the bot),
        # then goes to the group. The first went out; wait until a full set of the group's
        # handlers were refused privately too: they are the ones behind the group limit.
        per_chat = TelegramConfig(token=api.token).chat_concurrent

        def refused_privately() -> list:
            flooders = {user.id for user in FLOODERS}
            return [c for c in api.calls_to("sendMessage")
                    if c.chat_id in flooders and c.done_at is not None]

        await api.wait_for(lambda: len(refused_privately()) >= per_chat + 1, timeout=10,
                           what="the handlers to reach the group limit")
        child.send_signal(signal.SIGTERM)
        output, _ = await asyncio.wait_for(child.communicate(), 15)
    finally:
        if child.returncode is None:
            child.kill()
            await child.wait()
    assert child.returncode == 0, output.decode()[-2000:]


async def test_an_update_cancelled_while_waiting_its_turn_is_closed_not_left_unawaited():
    """A shutdown cancels handlers still waiting behind their chat's running one: their
    coroutines are closed (Python would warn that they were never awaited)."""
    from telegram import Chat, Message, Update

    processor = FairUpdateProcessor(8, per_chat=1, backlog=4)
    chat = Chat(GROUP, "group")
    update = Update(1, message=Message(1, None, chat))
    release = asyncio.Event()

    async def running() -> None:
        await release.wait()

    async def waiting() -> None:
        raise AssertionError("never runs")

    first = asyncio.create_task(processor.do_process_update(update, running()))
    handler = waiting()
    second = asyncio.create_task(processor.do_process_update(update, handler))
    await asyncio.sleep(0)  # both reach the chat's gate: the second waits behind the first
    assert processor.cancel_running() == 2
    results = await asyncio.gather(first, second, return_exceptions=True)
    assert all(isinstance(r, asyncio.CancelledError) for r in results)
    assert handler.cr_frame is None  # closed
