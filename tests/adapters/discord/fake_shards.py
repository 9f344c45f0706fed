"""The fake Discord with several guilds, each on its shard, and bot processes told apart.

Each guild's events (READY's guild list, GUILD_CREATE, interactions) go to the gateway
socket that identified with that guild's shard, as Discord routes them. A bot process sends
its REST calls under its own prefix (``api_base_for(name)``), so every write is recorded with
the process that made it and the channel it wrote to (``writes``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from adapters.discord.shards import shard_of

from .fake_discord import FakeDiscord, InteractionRecord


@dataclass(frozen=True)
class Write:
    process: str | None  # the prefix the call came under (None: the plain /api/v10)
    method: str
    path: str
    channel_id: int | None  # the channel (a thread's parent) it wrote to, if any
    status: int


CHANNEL_PATH = re.compile(r"/channels/(\d+)(?:/|$)")
CALLBACK_PATH = re.compile(r"/interactions/(\d+)/[^/]+/callback")
WEBHOOK_PATH = re.compile(r"/webhooks/\d+/([^/]+)")


class ShardedFakeDiscord(FakeDiscord):
    def __init__(self, guilds: dict[int, tuple[int, ...]], *, shard_count: int, **kwargs: Any) -> None:
        """``guilds``: guild id -> its text channels' ids."""
        first = next(iter(guilds))
        super().__init__(guild_id=first, channel_ids=guilds[first], **kwargs)
        self.guilds = guilds
        self.shard_count = shard_count
        self.guild_of_channel = {c: g for g, channels in guilds.items() for c in channels}
        self.writes: list[Write] = []
        self._shard_of_socket: dict[web.WebSocketResponse, int] = {}

    async def start(self) -> None:
        app = web.Application()  # the plain routes, and the same under each process's prefix
        app.router.add_get("/gateway", self._gateway)
        app.router.add_get("/attachments/{channel}/{id}/{name}", self._download)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._rest)
        app.router.add_route("*", "/{process}/api/v10/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    def api_base_for(self, process: str) -> str:
        return f"http://127.0.0.1:{self.port}/{process}/api/v10"

    def shard_of_guild(self, guild_id: int) -> int:
        return shard_of(guild_id, self.shard_count)

    def shard_of_channel(self, channel_id: int) -> int | None:
        guild = self.guild_of_channel.get(channel_id)
        return None if guild is None else self.shard_of_guild(guild)

    def connected_shards(self) -> set[int]:
        return {shard for ws, shard in self._shard_of_socket.items() if ws in self._sockets}

    # ---- gateway: each guild on its shard ------------------------------------------------

    async def _identify(self, ws: web.WebSocketResponse, identify: dict[str, Any]) -> None:
        shard, count = identify.get("shard") or [0, 1]
        assert count == self.shard_count, identify["shard"]
        self._shard_of_socket[ws] = shard
        mine = [g for g in self.guilds if self.shard_of_guild(g) == shard]
        await self._dispatch_to(ws, "READY", {
            "v": 10, "user": self._bot_user(), "session_id": f"s{shard}-{self.next_id()}",
            "resume_gateway_url": self.gateway_url, "shard": [shard, count],
            "guilds": [{"id": str(g), "unavailable": True} for g in mine],
            "application": {"id": str(self.application_id), "flags": 0},
        })
        for guild in mine:
            await self._dispatch_to(ws, "GUILD_CREATE", self._payload_of(guild))
        self.ready.set()

    def _payload_of(self, guild: int) -> dict[str, Any]:
        saved = self.guild_id, self.channel_ids
        self.guild_id, self.channel_ids = guild, self.guilds[guild]
        try:
            return self._guild_payload()
        finally:
            self.guild_id, self.channel_ids = saved

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        guild = int(data.get("guild_id") or self.guild_id)
        shard = self.shard_of_guild(guild)
        sockets = [ws for ws in reversed(self._sockets) if self._shard_of_socket.get(ws) == shard]
        if not sockets:
            raise RuntimeError(f"shard {shard} is not connected to the fake gateway")
        await self._dispatch_to(sockets[0], event, data)

    # ---- the guild of each channel ---------------------------------------------------------

    def _interaction_base(self, itype: int, user: Any, channel_id: int) -> tuple[InteractionRecord, dict[str, Any]]:
        record, payload = super()._interaction_base(itype, user, channel_id)
        guild = str(self.guild_of_channel.get(channel_id, self.guild_id))
        payload["guild_id"] = payload["channel"]["guild_id"] = guild
        payload["authorizing_integration_owners"] = {"0": guild}
        return record, payload

    def _message_payload(self, channel_id: str, body: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        payload = super()._message_payload(channel_id, body, **kwargs)
        guild = self.guild_of_channel.get(int(channel_id))
        if guild is not None:
            payload["guild_id"] = str(guild)
        return payload

    # ---- who wrote where -------------------------------------------------------------------

    async def _rest(self, request: web.Request) -> web.Response:
        response = await super()._rest(request)
        if request.method != "GET":
            path = "/" + request.match_info["tail"]
            self.writes.append(Write(request.match_info.get("process"), request.method, path,
                                     self._channel_written(path), response.status))
        return response

    def _channel_written(self, path: str) -> int | None:
        interaction = None
        if m := CHANNEL_PATH.match(path):
            channel = int(m.group(1))
            thread = self.threads.get(channel)
            return int(thread["parent_id"]) if thread else channel
        if m := CALLBACK_PATH.match(path):
            interaction = self.interactions.get(int(m.group(1)))
        elif m := WEBHOOK_PATH.match(path):
            interaction = next((r for r in self.interactions.values() if r.token == m.group(1)), None)
        return interaction.channel_id if interaction is not None else None
