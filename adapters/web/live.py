"""A live page's socket: push its updates until the page goes."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Coroutine
from typing import Any

from aiohttp import WSMsgType, web


async def push_until_closed(socket: web.WebSocketResponse, push: Coroutine[Any, Any, None]) -> None:
    """Run ``push`` while the page stays; the page sends nothing more, so wait for it to close."""
    pusher = asyncio.create_task(push)
    try:
        async for message in socket:
            if message.type in (WSMsgType.ERROR, WSMsgType.CLOSE):
                break
    finally:
        pusher.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await pusher
