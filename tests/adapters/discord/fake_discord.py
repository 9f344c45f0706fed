"""A fake Discord (REST under /api/v10 + gateway websocket) on 127.0.0.1, for the real discord.py.

It keeps what a test needs to assert on: every REST request, every message (channel messages
and interaction responses, with their flags and components) and every interaction callback.
It also plays the users: ``slash``/``click``/``autocomplete`` send INTERACTION_CREATE over the
gateway exactly as Discord would, and return an ``InteractionRecord`` to wait on.

Files are kept like Discord keeps them: a multipart request (``payload_json`` + ``files[n]``)
uploads them; the ``attachments`` array says which files the message holds after a create or an
edit (new ones by their ``files[n]`` index, retained ones by id; v10: whatever is not listed is
removed, and without the array an edit keeps what was there and appends the new files). An
embed image ``attachment://name`` is resolved to that file's URL, and the file then shows inside
the embed, not in the message's ``attachments`` (as Discord answers). A reference to a file the
message does not hold is recorded in ``unresolved`` (tests assert it stays empty).

Limits of the fake (on purpose): one guild, text channels only, no message content events.
"""

from __future__ import annotations

import asyncio
import copy
import io
import itertools
import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web
from PIL import Image

EPHEMERAL = 64
JSON = "application/json"  # exactly: discord.py checks the content type verbatim
ALL_PERMISSIONS = str((1 << 50) - 1)
MEMBER_PERMISSIONS = str(0x400 | 0x800 | 0x4000 | 0x8000 | 0x10000 | 0x40 | 0x80000000)  # view, send, embed...
MANAGE_GUILD = 1 << 5
THREAD_PERMISSIONS = (1 << 35) | (1 << 38)  # create public threads, send messages in threads

# Callback types (Discord's InteractionResponseType)
MESSAGE = 4
DEFERRED_MESSAGE = 5
DEFERRED_UPDATE = 6
UPDATE_MESSAGE = 7
AUTOCOMPLETE_RESULT = 8


def _now_iso() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S.000000+00:00", time.gmtime())


@dataclass
class FakeUser:
    id: int
    name: str
    locale: str = "en-US"
    admin: bool = False

    def payload(self) -> dict[str, Any]:
        return {"id": str(self.id), "username": self.name.lower(), "global_name": self.name,
                "discriminator": "0", "avatar": None, "bot": False}

    def member_payload(self, guild_id: int) -> dict[str, Any]:
        perms = ALL_PERMISSIONS if self.admin else MEMBER_PERMISSIONS
        return {"user": self.payload(), "nick": None, "roles": [], "joined_at": _now_iso(),
                "deaf": False, "mute": False, "flags": 0, "permissions": perms, "avatar": None}


@dataclass
class StoredFile:
    """A file uploaded with a message: its bytes stay here, the message holds its attachment."""

    id: int
    filename: str
    data: bytes
    url: str

    def attachment(self) -> dict[str, Any]:
        payload: dict[str, Any] = {"id": str(self.id), "filename": self.filename, "size": len(self.data),
                                   "url": self.url, "proxy_url": self.url}
        try:
            with Image.open(io.BytesIO(self.data)) as image:
                payload.update(width=image.width, height=image.height,
                               content_type=f"image/{(image.format or 'png').lower()}")
        except Exception:  # noqa: BLE001 - not an image: Discord lists it without a size
            payload["content_type"] = "application/octet-stream"
        return payload


@dataclass
class RecordedRequest:
    method: str
    path: str  # without /api/v10
    query: dict[str, str]
    body: Any
    status: int
    at: float


@dataclass
class InteractionRecord:
    """One interaction the fake sent, and everything the bot answered to it."""

    id: int
    token: str
    type: int  # 2 command, 3 component, 4 autocomplete
    user: FakeUser
    sent_at: float
    callbacks: list[dict[str, Any]] = field(default_factory=list)  # raw callback bodies
    callback_at: float | None = None
    message_id: int | None = None  # the message the response created or updated
    followups: list[int] = field(default_factory=list)
    source_message: int | None = None  # for a click: the message holding the component
    channel_id: int = 0
    done: asyncio.Event = field(default_factory=asyncio.Event)  # a final answer arrived

    @property
    def callback(self) -> dict[str, Any]:
        return self.callbacks[0]

    @property
    def callback_type(self) -> int:
        return self.callbacks[0]["type"]


class FakeDiscord:
    def __init__(self, *, guild_id: int = 900, channel_ids: tuple[int, ...] = (1000,),
                 application_id: int = 700, bot_user_id: int = 701,
                 token: str = "fake-token") -> None:
        self.guild_id = guild_id
        self.app_permissions = ALL_PERMISSIONS  # the bot's in the channel, as interactions say
        self.channel_ids = channel_ids
        self.application_id = application_id
        self.bot_user_id = bot_user_id
        self.token = token
        self.requests: list[RecordedRequest] = []
        self.messages: dict[int, dict[str, Any]] = {}  # id -> latest payload
        self.dm_channels: dict[int, int] = {}  # user id -> their DM channel with the bot
        self.closed_dms: set[int] = set()  # users whose DMs are closed (50007)
        self.message_history: list[tuple[str, dict[str, Any]]] = []  # ("create"|"edit", payload)
        self.interactions: dict[int, InteractionRecord] = {}
        self.commands: list[dict[str, Any]] = []  # the synced application commands
        self.unhandled: list[str] = []  # REST routes the fake does not know: tests assert empty
        self.threads: dict[int, dict[str, Any]] = {}  # threads the bot opened, by id
        self.no_threads = False  # True: the bot may not open threads (403)
        # What GET /users/@me/guilds says the bot may do in the guild (a permission integer).
        self.bot_guild_permissions = str(int(MEMBER_PERMISSIONS) | THREAD_PERMISSIONS)
        self.identifies: list[dict[str, Any]] = []
        self.files: dict[str, StoredFile] = {}  # attachment URL -> the uploaded file
        self.unresolved: list[str] = []  # attachment:// references to files the message lacks
        self._ids = itertools.count(10_000_000)
        self._faults: list[tuple[re.Pattern[str], int, dict[str, Any], dict[str, str]]] = []
        self._holds: list[tuple[re.Pattern[str], asyncio.Event]] = []
        self.latency = 0.0  # seconds every REST request waits before it is handled: a real network
        self._sockets: list[web.WebSocketResponse] = []
        self._seq = itertools.count(1)
        self._runner: web.AppRunner | None = None
        self.port = 0
        self.ready = asyncio.Event()

    # ---- lifecycle -------------------------------------------------------------------------

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/gateway", self._gateway)
        app.router.add_get("/attachments/{channel}/{id}/{name}", self._download)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def close(self) -> None:
        for ws in list(self._sockets):
            await ws.close()
        if self._runner:
            await self._runner.cleanup()

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    def next_id(self) -> int:
        return next(self._ids)

    # ---- faults ----------------------------------------------------------------------------

    def fail_next(self, path_regex: str, status: int, body: dict[str, Any] | None = None,
                  headers: dict[str, str] | None = None, times: int = 1) -> None:
        """Answer the next ``times`` requests whose "METHOD /path" matches with this error."""
        for _ in range(times):
            self._faults.append((re.compile(path_regex), status, body or {}, headers or {}))

    def rate_limit_next(self, path_regex: str, retry_after: float = 0.05, times: int = 1) -> None:
        # discord.py retries a 429 only when it carries a Via header (else it assumes Cloudflare)
        self.fail_next(path_regex, 429, {"message": "You are being rate limited.",
                                         "retry_after": retry_after, "global": False},
                       {"Via": "1.1 google", "X-RateLimit-Scope": "user"}, times)

    def hold_next(self, path_regex: str) -> asyncio.Event:
        """Keep the next request whose "METHOD /path" matches unanswered until the returned
        event is set (a slow round trip, on demand)."""
        release = asyncio.Event()
        self._holds.append((re.compile(path_regex), release))
        return release

    async def _wait_if_held(self, key: str) -> None:
        for i, (pattern, release) in enumerate(self._holds):
            if pattern.search(key):
                del self._holds[i]
                await release.wait()
                return

    def _take_fault(self, key: str) -> tuple[int, dict[str, Any], dict[str, str]] | None:
        for i, (pattern, status, body, headers) in enumerate(self._faults):
            if pattern.search(key):
                del self._faults[i]
                return status, body, headers
        return None

    # ---- gateway ---------------------------------------------------------------------------

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        self._sockets.append(ws)
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 40_000}, "s": None, "t": None}))
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                data = json.loads(msg.data)
                op = data.get("op")
                if op == 1:
                    await ws.send_str(json.dumps({"op": 11, "d": None, "s": None, "t": None}))
                elif op == 2:
                    self.identifies.append(data["d"])
                    await self._identify(ws, data["d"])
        finally:
            if ws in self._sockets:
                self._sockets.remove(ws)
        return ws

    async def _identify(self, ws: web.WebSocketResponse, identify: dict[str, Any]) -> None:
        shard = identify.get("shard") or [0, 1]
        owns_guild = (self.guild_id >> 22) % shard[1] == shard[0]
        await self._dispatch_to(ws, "READY", {
            "v": 10, "user": self._bot_user(), "session_id": f"s{shard[0]}",
            "resume_gateway_url": self.gateway_url, "shard": shard,
            "guilds": [{"id": str(self.guild_id), "unavailable": True}] if owns_guild else [],
            "application": {"id": str(self.application_id), "flags": 0},
        })
        if owns_guild:
            await self._dispatch_to(ws, "GUILD_CREATE", self._guild_payload())
        self.ready.set()

    async def _dispatch_to(self, ws: web.WebSocketResponse, event: str, data: dict[str, Any]) -> None:
        await ws.send_str(json.dumps({"op": 0, "t": event, "s": next(self._seq), "d": data}))

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        if not self._sockets:
            raise RuntimeError("no bot connected to the fake gateway")
        # with several shards, the guild's events go to the shard that owns it; one socket here
        await self._dispatch_to(self._sockets[-1], event, data)

    def _bot_user(self) -> dict[str, Any]:
        return {"id": str(self.bot_user_id), "username": "unobot", "global_name": "UNO Bot",
                "discriminator": "0", "avatar": None, "bot": True, "flags": 0, "verified": True,
                "mfa_enabled": False}

    def _guild_payload(self) -> dict[str, Any]:
        gid = str(self.guild_id)
        return {
            "id": gid, "name": "UNO Club", "icon": None, "owner_id": "1", "afk_timeout": 300,
            "verification_level": 0, "default_message_notifications": 0, "explicit_content_filter": 0,
            "features": [], "mfa_level": 0, "system_channel_flags": 0, "premium_tier": 0,
            "preferred_locale": "en-US", "nsfw_level": 0, "premium_progress_bar_enabled": False,
            "unavailable": False, "large": False, "member_count": 4, "emojis": [], "stickers": [],
            "roles": [{"id": gid, "name": "@everyone", "permissions": MEMBER_PERMISSIONS,
                       "position": 0, "color": 0, "hoist": False, "managed": False,
                       "mentionable": False, "flags": 0}],
            "channels": [{"id": str(c), "type": 0, "name": f"uno-{i}", "position": i,
                          "permission_overwrites": [], "guild_id": gid, "nsfw": False,
                          "parent_id": None, "topic": None, "rate_limit_per_user": 0}
                         for i, c in enumerate(self.channel_ids)],
            "members": [{"user": self._bot_user(), "roles": [], "joined_at": _now_iso(),
                         "deaf": False, "mute": False, "flags": 0}],
            "threads": [], "voice_states": [], "presences": [], "stage_instances": [],
            "guild_scheduled_events": [], "soundboard_sounds": [],
        }

    # ---- users' side: interactions ---------------------------------------------------------

    def _interaction_base(self, itype: int, user: FakeUser, channel_id: int) -> tuple[InteractionRecord, dict[str, Any]]:
        iid = self.next_id()
        record = InteractionRecord(id=iid, token=f"tok{iid}", type=itype, user=user,
                                   sent_at=time.perf_counter(), channel_id=channel_id)
        self.interactions[iid] = record
        payload = {
            "id": str(iid), "application_id": str(self.application_id), "type": itype,
            "token": record.token, "version": 1, "guild_id": str(self.guild_id),
            "channel_id": str(channel_id),
            "channel": {"id": str(channel_id), "type": 0, "guild_id": str(self.guild_id),
                        "name": "uno", "position": 0, "permission_overwrites": [], "nsfw": False,
                        "parent_id": None},
            "member": user.member_payload(self.guild_id), "locale": user.locale,
            "guild_locale": "en-US", "app_permissions": self.app_permissions,
            "attachment_size_limit": 8 * 1024 * 1024, "entitlements": [],
            "authorizing_integration_owners": {"0": str(self.guild_id)}, "context": 0,
        }
        return record, payload

    def _command_id(self, name: str) -> str:
        for cmd in self.commands:
            if cmd["name"] == name:
                return cmd["id"]
        return str(self.next_id())

    async def slash(self, user: FakeUser, sub: str, channel_id: int | None = None,
                    users: tuple[FakeUser, ...] = (), group: str = "uno", **options: Any) -> InteractionRecord:
        """``/uno <sub> option:value ...``. FakeUser values become USER options (resolved)."""
        return await self._command(2, user, sub, channel_id, group, options, focused=None)

    async def autocomplete(self, user: FakeUser, sub: str, focused: str, value: str,
                           channel_id: int | None = None, group: str = "uno", **options: Any) -> InteractionRecord:
        return await self._command(4, user, sub, channel_id, group, {**options, focused: value}, focused=focused)

    async def _command(self, itype: int, user: FakeUser, sub: str, channel_id: int | None,
                       group: str, options: dict[str, Any], focused: str | None) -> InteractionRecord:
        channel_id = channel_id or self.channel_ids[0]
        record, payload = self._interaction_base(itype, user, channel_id)
        sub_options, resolved_users, resolved_members = [], {}, {}
        for name, value in options.items():
            if value is None:
                continue
            if isinstance(value, FakeUser):
                resolved_users[str(value.id)] = value.payload()
                member = value.member_payload(self.guild_id)
                member.pop("user")
                resolved_members[str(value.id)] = member
                option = {"type": 6, "name": name, "value": str(value.id)}
            elif isinstance(value, bool):
                option = {"type": 5, "name": name, "value": value}
            elif isinstance(value, int):
                option = {"type": 4, "name": name, "value": value}
            else:
                option = {"type": 3, "name": name, "value": str(value)}
            if name == focused:
                option["focused"] = True
            sub_options.append(option)
        *nest, leaf = sub.split()  # "vote end": a subcommand inside a subcommand group
        option_tree: dict[str, Any] = {"type": 1, "name": leaf, "options": sub_options}
        for parent in reversed(nest):
            option_tree = {"type": 2, "name": parent, "options": [option_tree]}
        data: dict[str, Any] = {"id": self._command_id(group), "name": group, "type": 1,
                                "options": [option_tree]}
        if resolved_users:
            data["resolved"] = {"users": resolved_users, "members": resolved_members}
        payload["data"] = data
        await self.dispatch("INTERACTION_CREATE", payload)
        return record

    async def click(self, user: FakeUser, message_id: int, custom_id: str,
                    values: list[str] | None = None) -> InteractionRecord:
        """Press a component found on a stored message (a select when ``values`` is given)."""
        message = self.messages[message_id]
        component = self.find_component(message, custom_id)
        if component is None:
            raise AssertionError(f"no component {custom_id!r} on message {message_id}")
        record, payload = self._interaction_base(3, user, int(message["channel_id"]))
        record.source_message = message_id
        payload["message"] = self._public(copy.deepcopy(message))
        payload["data"] = {"custom_id": custom_id, "component_type": component["type"]}
        if values is not None:
            payload["data"]["values"] = values
        await self.dispatch("INTERACTION_CREATE", payload)
        return record

    @staticmethod
    def iter_components(message: dict[str, Any]):
        for row in message.get("components") or []:
            yield from row.get("components", [])

    def find_component(self, message: dict[str, Any], custom_id: str) -> dict[str, Any] | None:
        return next((c for c in self.iter_components(message) if c.get("custom_id") == custom_id), None)

    async def wait(self, record: InteractionRecord, timeout: float = 5.0) -> InteractionRecord:
        """Until the interaction got its final answer (a response, or the edit after a defer)."""
        await asyncio.wait_for(record.done.wait(), timeout)
        return record

    async def wait_for(self, predicate: Callable[[], bool], timeout: float = 5.0) -> None:
        deadline = time.monotonic() + timeout
        while not predicate():
            if time.monotonic() > deadline:
                raise AssertionError("condition not met in time")
            await asyncio.sleep(0.005)

    # ---- helpers for assertions ------------------------------------------------------------

    def channel_messages(self, channel_id: int | None = None) -> list[dict[str, Any]]:
        """Public messages the bot posted in the channel (latest state of each)."""
        cid = str(channel_id or self.channel_ids[0])
        return [m for m in self.messages.values()
                if m["channel_id"] == cid and not m["flags"] & EPHEMERAL and not m.get("_interaction")]

    def public_history(self) -> list[dict[str, Any]]:
        """Every non-ephemeral message state ever shown (creations and edits)."""
        return [m for _, m in self.message_history if not m["flags"] & EPHEMERAL]

    def response_message(self, record: InteractionRecord) -> dict[str, Any]:
        assert record.message_id is not None, "the interaction has no response message"
        return self.messages[record.message_id]

    def message_files(self, message: dict[str, Any]) -> dict[str, StoredFile]:
        """Every file a message holds (in its embeds or loose), by filename."""
        return {f.filename: f for f in (self.files[a["url"]] for a in message.get("_files") or [])}

    def embed_image(self, message: dict[str, Any], index: int = 0) -> bytes | None:
        """The bytes of the picture shown in the message's embed (None: no picture)."""
        embeds = message.get("embeds") or []
        url = ((embeds[index] if index < len(embeds) else {}).get("image") or {}).get("url")
        stored = self.files.get(url) if url else None
        return stored.data if stored is not None else None

    def uploads(self, request: RecordedRequest) -> dict[str, bytes]:
        """The files a recorded request uploaded, by filename."""
        body = request.body if isinstance(request.body, dict) else {}
        return {name: data for name, data in (body.get("_files") or {}).values()}

    def count_requests(self, method: str, path_regex: str) -> int:
        pattern = re.compile(path_regex)
        return sum(1 for r in self.requests if r.method == method and pattern.search(r.path))

    # ---- REST ------------------------------------------------------------------------------

    async def _rest(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["tail"]
        body: Any = None
        if request.can_read_body:
            if request.content_type == "application/json":
                body = await request.json()
            elif request.content_type.startswith("multipart/"):
                body = await self._read_multipart(request)
        key = f"{request.method} {path}"
        await self._wait_if_held(key)
        if self.latency:
            await asyncio.sleep(self.latency)
        fault = self._take_fault(key)
        if fault is not None:
            status, fbody, headers = fault
            self._record(request, path, body, status)
            return web.Response(status=status, body=json.dumps(fbody).encode(),
                                headers={"Content-Type": JSON, **headers})
        if request.headers.get("Authorization") not in (f"Bot {self.token}", None) and not path.startswith("/webhooks") \
                and not path.startswith("/interactions"):
            self._record(request, path, body, 401)
            return self._json({"message": "401: Unauthorized", "code": 0}, 401)
        status, result = self._route(request.method, path, dict(request.query), body)
        self._record(request, path, body, status)
        if status == 204:
            return web.Response(status=204)
        return self._json(result, status)

    async def _read_multipart(self, request: web.Request) -> Any:
        """``payload_json`` and the ``files[n]`` parts (kept under the private key ``_files``:
        placeholder index -> (filename, bytes))."""
        reader = await request.multipart()
        body: dict[str, Any] = {}
        files: dict[str, tuple[str, bytes]] = {}
        async for part in reader:
            name = part.name or ""  # type: ignore[union-attr]
            if name == "payload_json":
                body.update(json.loads(await part.text()))  # type: ignore[union-attr]
            elif m := re.fullmatch(r"files\[(\d+)\]", name):
                files[m.group(1)] = (part.filename or "untitled", bytes(await part.read()))  # type: ignore[union-attr]
        body["_files"] = files
        return body

    async def _download(self, request: web.Request) -> web.Response:
        stored = self.files.get(str(request.url.with_query(None)))
        if stored is None:
            return web.Response(status=404)
        return web.Response(body=stored.data, content_type="image/png")

    def _record(self, request: web.Request, path: str, body: Any, status: int) -> None:
        self.requests.append(RecordedRequest(request.method, path, dict(request.query), body, status,
                                             time.perf_counter()))

    @staticmethod
    def _json(data: Any, status: int = 200) -> web.Response:
        # body + header, not text=: aiohttp would append "; charset=utf-8" to the content type
        return web.Response(status=status, body=json.dumps(data).encode(), headers={"Content-Type": JSON})

    def _route(self, method: str, path: str, query: dict[str, str], body: Any) -> tuple[int, Any]:
        app = str(self.application_id)
        if method == "GET" and path == "/users/@me":
            return 200, self._bot_user()
        if method == "GET" and path == "/users/@me/guilds":
            return 200, [{"id": str(self.guild_id), "name": "UNO Club", "icon": None, "owner": False,
                          "permissions": self.bot_guild_permissions, "features": []}]
        if method == "GET" and path == "/oauth2/applications/@me":
            return 200, {"id": app, "name": "unobot", "icon": None, "description": "", "rpc_origins": [],
                         "bot_public": True, "bot_require_code_grant": False, "verify_key": "00",
                         "flags": 0, "owner": self._bot_user(), "team": None, "summary": ""}
        if method == "GET" and path in ("/gateway", "/gateway/bot"):
            return 200, {"url": self.gateway_url, "shards": 1,
                         "session_start_limit": {"total": 1000, "remaining": 1000,
                                                 "reset_after": 0, "max_concurrency": 1}}
        if m := re.fullmatch(r"/applications/\d+(?:/guilds/\d+)?/commands", path):
            if method == "PUT":
                self.commands = [{**c, "id": str(self.next_id()), "application_id": app,
                                  "version": "1", "type": c.get("type", 1)} for c in body]
                return 200, self.commands
            if method == "GET":
                return 200, self.commands
        if m := re.fullmatch(r"/channels/(\d+)/threads", path):
            if method == "POST":
                return self._create_thread(m.group(1), body)
        if method == "POST" and path == "/users/@me/channels":  # open a DM channel
            user_id = int(body["recipient_id"])
            dm = self.dm_channels.setdefault(user_id, self.next_id())
            return 200, {"id": str(dm), "type": 1, "last_message_id": None,
                         "recipients": [{"id": str(user_id), "username": f"user{user_id}",
                                         "discriminator": "0", "global_name": None, "avatar": None}]}
        if m := re.fullmatch(r"/channels/(\d+)/messages", path):
            owner = next((u for u, dm in self.dm_channels.items() if dm == int(m.group(1))), None)
            if method == "POST" and owner in self.closed_dms:
                return 403, {"message": "Cannot send messages to this user", "code": 50007}
            if method == "POST":
                return 200, self._create_message(m.group(1), body)
        if m := re.fullmatch(r"/channels/(\d+)/messages/(\d+)", path):
            mid = int(m.group(2))
            if mid not in self.messages:
                return 404, {"message": "Unknown Message", "code": 10008}
            if method == "PATCH":
                return 200, self._edit_message(mid, body)
            if method == "GET":
                return 200, self.messages[mid]
            if method == "DELETE":
                self.messages.pop(mid)
                return 204, None
        if m := re.fullmatch(r"/interactions/(\d+)/([^/]+)/callback", path):
            if method == "POST":
                return self._callback(int(m.group(1)), m.group(2), body, query)
        if m := re.fullmatch(r"/webhooks/(\d+)/([^/]+)(?:/messages/(@original|\d+))?", path):
            return self._webhook(method, m.group(2), m.group(3), body)
        self.unhandled.append(f"{method} {path}")
        return 404, {"message": "404: Not Found", "code": 0}

    def _message_payload(self, channel_id: str, body: dict[str, Any], *, flags: int = 0,
                         interaction: InteractionRecord | None = None) -> dict[str, Any]:
        mid = self.next_id()
        payload = {
            "id": str(mid), "channel_id": channel_id, "guild_id": str(self.guild_id), "type": 0,
            "author": self._bot_user(), "content": body.get("content") or "",
            "embeds": body.get("embeds") or [], "components": body.get("components") or [],
            "attachments": [], "mentions": [], "mention_roles": [], "mention_everyone": False,
            "pinned": False, "tts": False, "timestamp": _now_iso(), "edited_timestamp": None,
            "flags": flags | int(body.get("flags") or 0),
            "_allowed_mentions": body.get("allowed_mentions"),  # private marker: who may be pinged
            "_files": [],  # private: every attachment the message holds (inside embeds or loose)
        }
        self._attach(payload, body, creating=True)
        if interaction is not None:
            payload["_interaction"] = interaction.id  # private marker (stripped from clicks)
            payload["interaction_metadata"] = {"id": str(interaction.id), "type": interaction.type,
                                               "user": interaction.user.payload(),
                                               "authorizing_integration_owners": {}}
        self.messages[mid] = payload
        self.message_history.append(("create", copy.deepcopy(payload)))
        return payload

    def _create_thread(self, parent_id: str, body: dict[str, Any]) -> tuple[int, Any]:
        """A public thread without a starter message (``TextChannel.create_thread``)."""
        if self.no_threads:
            return 403, {"message": "Missing Permissions", "code": 50013}
        tid = self.next_id()
        thread = {"id": str(tid), "type": int(body.get("type") or 11), "guild_id": str(self.guild_id),
                  "parent_id": parent_id, "name": body.get("name", ""), "owner_id": str(self.bot_user_id),
                  "message_count": 0, "member_count": 1, "rate_limit_per_user": 0, "flags": 0,
                  "thread_metadata": {"archived": False, "locked": False, "archive_timestamp": _now_iso(),
                                      "auto_archive_duration": int(body.get("auto_archive_duration") or 1440)}}
        self.threads[tid] = thread
        return 201, thread

    def _create_message(self, channel_id: str, body: dict[str, Any]) -> dict[str, Any]:
        return self._message_payload(channel_id, body)

    def _edit_message(self, mid: int, body: dict[str, Any]) -> dict[str, Any]:
        message = self.messages[mid]
        for key in ("content", "embeds", "components"):
            if key in body:
                message[key] = body[key] if body[key] is not None else ([] if key != "content" else "")
        self._attach(message, body, creating=False)
        message["edited_timestamp"] = _now_iso()
        self.message_history.append(("edit", copy.deepcopy(message)))
        return message

    def _attach(self, message: dict[str, Any], body: dict[str, Any], *, creating: bool) -> None:
        """The files the message holds after this create or edit, and its embed images."""
        uploaded = body.get("_files") or {}
        held = {a["id"]: a for a in message.get("_files") or []}
        if "attachments" in body:  # v10: exactly the listed files, new (by index) and retained (by id)
            kept = []
            for entry in body.get("attachments") or []:
                key = str(entry.get("id"))
                if key in uploaded and isinstance(entry.get("id"), int):
                    kept.append(self._store(message["channel_id"], *uploaded[key]))
                elif key in held:
                    kept.append(held[key])
                else:
                    self.unresolved.append(f"attachment id {key}")
        else:  # without the array: a create holds the uploaded files, an edit appends them
            kept = [] if creating else list(held.values())
            kept += [self._store(message["channel_id"], *uploaded[k]) for k in sorted(uploaded, key=int)]
        message["_files"] = kept
        kept_urls = {a["url"] for a in kept}
        shown: set[str] = set()
        message["embeds"] = copy.deepcopy(message.get("embeds") or [])  # the request stays as sent
        for embed in message["embeds"]:
            for slot in ("image", "thumbnail"):
                url = (embed.get(slot) or {}).get("url") or ""
                if url.startswith("attachment://"):
                    found = next((a for a in kept if a["filename"] == url.removeprefix("attachment://")), None)
                    if found is None:
                        self.unresolved.append(url)
                        embed.pop(slot)
                        continue
                    embed[slot] = {"url": found["url"], "proxy_url": found["proxy_url"],
                                   "width": found.get("width"), "height": found.get("height")}
                    url = found["url"]
                elif url.startswith(self._attachments_base) and url not in kept_urls:
                    self.unresolved.append(url)  # the file was removed: a dead picture
                shown.add(url)
        # a file shown in an embed is not listed again: Discord lists only the loose ones
        message["attachments"] = [a for a in kept if a["url"] not in shown]

    @property
    def _attachments_base(self) -> str:
        return f"http://127.0.0.1:{self.port}/attachments/"

    def _store(self, channel_id: str, filename: str, data: bytes) -> dict[str, Any]:
        aid = self.next_id()
        url = f"{self._attachments_base}{channel_id}/{aid}/{filename}"
        stored = StoredFile(aid, filename, data, url)
        self.files[url] = stored
        return stored.attachment()

    def _callback(self, iid: int, token: str, body: dict[str, Any], query: dict[str, str]) -> tuple[int, Any]:
        record = self.interactions.get(iid)
        if record is None or record.token != token:
            return 404, {"message": "Unknown interaction", "code": 10062}
        if record.callbacks:
            return 400, {"message": "Interaction has already been acknowledged.", "code": 40060}
        record.callbacks.append(body)
        record.callback_at = time.perf_counter()
        ctype = body["type"]
        data = {**(body.get("data") or {}), "_files": body.get("_files") or {}}
        channel_id = str(record.channel_id)
        result: dict[str, Any] = {"interaction": {"id": str(iid), "type": record.type}}
        message: dict[str, Any] | None = None
        if ctype in (MESSAGE, DEFERRED_MESSAGE):
            flags = int(data.get("flags") or 0)
            message = self._message_payload(channel_id, data if ctype == MESSAGE else {}, flags=flags,
                                             interaction=record)
            if ctype == DEFERRED_MESSAGE:
                message["flags"] |= 128  # loading
            record.message_id = int(message["id"])
            result["interaction"].update(response_message_id=message["id"],
                                         response_message_loading=ctype == DEFERRED_MESSAGE,
                                         response_message_ephemeral=bool(message["flags"] & EPHEMERAL))
        elif ctype in (UPDATE_MESSAGE, DEFERRED_UPDATE):
            source = record.source_message
            if source is not None:
                record.message_id = source
                if ctype == UPDATE_MESSAGE:
                    message = self._edit_message(source, data)
                else:
                    message = self.messages[source]
        if ctype not in (DEFERRED_MESSAGE, DEFERRED_UPDATE):
            record.done.set()
        if message is not None:
            result["resource"] = {"type": ctype, "message": self._public(message)}
        if query.get("with_response") in ("1", "true"):
            return 200, result
        return 204, None

    def _webhook(self, method: str, token: str, which: str | None, body: Any) -> tuple[int, Any]:
        record = next((r for r in self.interactions.values() if r.token == token), None)
        if record is None:
            return 404, {"message": "Unknown Webhook", "code": 10015}
        if which is None and method == "POST":  # followup
            flags = int((body or {}).get("flags") or 0)
            message = self._message_payload(str(record.channel_id), body or {}, flags=flags,
                                           interaction=record)
            record.followups.append(int(message["id"]))
            record.done.set()
            return 200, self._public(message)
        target = record.message_id if which == "@original" else int(which) if which else None
        if target is None or target not in self.messages:
            return 404, {"message": "Unknown Message", "code": 10008}
        if method == "PATCH":
            message = self._edit_message(target, body or {})
            message["flags"] &= ~128
            record.done.set()
            return 200, self._public(message)
        if method == "GET":
            return 200, self._public(self.messages[target])
        if method == "DELETE":
            self.messages.pop(target)
            return 204, None
        return 405, {"message": "405: Method Not Allowed", "code": 0}

    @staticmethod
    def _public(message: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in message.items() if not k.startswith("_")}
