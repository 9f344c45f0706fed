"""discord.py's REST calls, reported to the operator port (``adapters.ops``).

``HTTPClient.request`` is wrapped to name each call by its route template (``POST
/channels/{channel_id}/messages``: no id, no interaction token), and an aiohttp trace (the
client's ``http_trace`` option) sees every attempt under it: discord.py retries 429s and
some 5xx inside ``request``, and each of those attempts is a call of its own. Interaction
answers and their follow-ups go out through discord.py's webhook adapter on the same
session, outside ``request``: the trace names those from their path, the id and token
segments replaced by placeholders.
"""

from __future__ import annotations

import contextvars
import functools
from typing import Any

import aiohttp
import discord
import yarl

from adapters.ops import PlatformReport

_route: contextvars.ContextVar[str | None] = contextvars.ContextVar("discord_route", default=None)


def route_name(route: discord.http.Route) -> str:
    return f"{route.method} {route.path}"


def webhook_route_name(method: str, url: yarl.URL) -> str | None:
    """The route template of an interaction or webhook call (None for any other URL)."""
    parts = url.path.split("/")
    for kind, names in (("interactions", ("{interaction_id}", "{interaction_token}")),
                        ("webhooks", ("{webhook_id}", "{webhook_token}"))):
        if kind in parts:
            at = parts.index(kind) + 1
            rest = parts[at:]
            named = [*names[:len(rest)], *("{message_id}" if part.isdigit() else part
                                             for part in rest[len(names):])]
            return f"{method} /{kind}/{'/'.join(named)}".rstrip("/")
    return None


def http_trace(report: PlatformReport) -> aiohttp.TraceConfig:
    """For the client's ``http_trace``: each attempt's status (the gateway's websocket
    handshake goes through the same session, outside any named route: not counted)."""

    async def answered(session: Any, context: Any, params: aiohttp.TraceRequestEndParams) -> None:
        name = _route.get() or webhook_route_name(params.method, params.url)
        if name is None:
            return
        response = params.response
        report.call(name, response.status)
        if response.status == 429:
            report.rate_limited(await _retry_after(response))

    async def failed(session: Any, context: Any, params: aiohttp.TraceRequestExceptionParams) -> None:
        name = _route.get() or webhook_route_name(params.method, params.url)
        if name is not None:
            report.call(name, None, type(params.exception).__name__)

    trace = aiohttp.TraceConfig()
    trace.on_request_end.append(answered)
    trace.on_request_exception.append(failed)
    return trace


async def _retry_after(response: aiohttp.ClientResponse) -> float:
    # The body's retry_after is what discord.py waits; reading it here leaves it cached for
    # discord.py to read again.
    try:
        body = await response.json(content_type=None)
        return float(body["retry_after"])
    except (ValueError, KeyError, TypeError, aiohttp.ClientError):
        try:
            return float(response.headers.get("Retry-After", 0))
        except ValueError:
            return 0.0


def name_routes(http: discord.http.HTTPClient) -> None:
    """Wrap ``http.request`` so the trace knows which route each attempt belongs to."""
    request = http.request

    @functools.wraps(request)
    async def named(route: discord.http.Route, **kwargs: Any) -> Any:
        token = _route.set(route_name(route))
        try:
            return await request(route, **kwargs)
        finally:
            _route.reset(token)

    http.request = named  # type: ignore[method-assign]
