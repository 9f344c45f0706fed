"""A live page's socket: opened with the credential the page sends first, then its updates
pushed until the page goes. The web hand and the spectators' page both work this way."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, TypeVar

from aiohttp import WSMsgType, web

from .auth import TokenClaims
from .pages import json_text

FIRST_MESSAGE_TIMEOUT = 5.0  # seconds a new socket has to send its credential
COALESCE = 0.005  # seconds a page waits after a wake-up for the rest of the same move
UNAUTHORIZED = 4401  # the close code of a socket without a valid credential (the page signs out)
Snapshot = TypeVar("Snapshot")
log = logging.getLogger(__name__)


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


async def push_states(socket: web.WebSocketResponse, wake: asyncio.Event, snapshot: Snapshot | None,
                      read: Callable[[], Awaitable[Snapshot | None]],
                      encode: Callable[[Snapshot], dict[str, Any]],
                      sameness: Callable[[dict[str, Any]], Any], *, page: str, game_id: str) -> None:
    """Send the page its state, then again after each wake-up when it changed (``sameness``
    of two states equal: nothing to send), until the page goes; a game gone closes the
    socket as unauthorized. A failure is logged by its type alone (its text may quote a hand)
    and closes the socket: the page reconnects and reads afresh."""
    try:
        sent: Any = None
        while not socket.closed:
            if snapshot is None:
                await socket.close(code=UNAUTHORIZED, message=b"unauthorized")
                return
            data = encode(snapshot)
            same = sameness(data)
            if same != sent:
                await socket.send_json({"type": "state", "state": data})
                sent = same
            await wake.wait()
            # One transaction sends the table and its hands, each a wake-up: let them all
            # come, and read the game once for all of them rather than once per message.
            await asyncio.sleep(COALESCE)
            wake.clear()
            snapshot = await read()
    except ConnectionResetError:
        pass  # the page went away while a state was on its way
    except Exception as error:
        log.error("%s: pushing to a page of game %s failed with %s", page, game_id,
                  type(error).__name__)
        await socket.close(code=1011)
