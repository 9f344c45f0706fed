"""A live page's socket: opened with the credential the page sends first, then its updates
pushed until the page goes. The web hand and the spectators' page both work this way."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, TypeVar

from aiohttp import WSMsgType, web

from .auth import TokenClaims
from .pages import json_text

FIRST_MESSAGE_TIMEOUT = 5.0  # seconds a new socket has to send its credential
COALESCE = 0.005  # seconds a page waits after a wake-up for the rest of the same move
UNAUTHORIZED = 4401  # the close code of a socket without a valid credential (the page signs out)
Snapshot = TypeVar("Snapshot")


async def opened(socket: web.WebSocketResponse, field: str,
                 claims_of: Callable[[Any], TokenClaims | None],
                 snapshot_of: Callable[[TokenClaims], Awaitable[Snapshot | None]],
                 ) -> tuple[TokenClaims, Snapshot] | None:
    """The claims of the credential the page sends first (``field`` of a JSON object) and what
    they may see; None once the socket is closed as unauthorized (nothing sent in time, not
    JSON, no valid credential, nothing to see)."""
    try:
        first = await socket.receive(timeout=FIRST_MESSAGE_TIMEOUT)
    except TimeoutError:
        await socket.close(code=UNAUTHORIZED, message=b"unauthorized")
        return None
    claims = None
    if first.type == WSMsgType.TEXT:
        message = json_text(first.data)
        if isinstance(message, dict):
            claims = claims_of(message.get(field))
    snapshot = await snapshot_of(claims) if claims else None
    if claims is None or snapshot is None:
        await socket.close(code=UNAUTHORIZED, message=b"unauthorized")
        return None
    return claims, snapshot


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
