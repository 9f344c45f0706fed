"""A bot process for test_fairness: ``serve()`` (the CLI's loop, signal handlers included)
against the fake Bot API at 127.0.0.1:<port>, with a group limit of one message a minute."""

from __future__ import annotations

import asyncio
import sys

from adapters.telegram.app import TelegramConfig, serve
from bot.coordinator import Coordinator
from bot.coordinator.clock import RealClock
from bot.coordinator.memory_store import MemoryStore


def main() -> None:
    port, token = int(sys.argv[1]), sys.argv[2]
    config = TelegramConfig(token=token, api_base_url=f"http://127.0.0.1:{port}", overall_rate=1000,
                            group_rate=1, group_period=60, max_retries=0, poll_timeout=1)
    store = MemoryStore()
    asyncio.run(serve(config, lambda chat: Coordinator(chat, store, RealClock(), ai_delay=0), store))


if __name__ == "__main__":
    main()
