"""A fake Telegram Bot API server on 127.0.0.1 (aiohttp) for running the real
python-telegram-bot ``Application`` offline.

It records every request (method + decoded params), keeps the messages it "sent" (so tests
can read the current text and inline keyboard of any message, edits included), lets tests
inject updates (commands, callback queries, inline queries, chosen inline results) and
failures (403 for a chat, one 429 with ``retry_after``), and long-polls ``getUpdates``.

PTB posts form fields: string parameters raw, everything else JSON-encoded (GUIDE §5).
"""

from __future__ import annotations

import asyncio
import html
import io
import itertools
import json
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from aiohttp import web
from aiohttp.web_request import FileField

from .fake_stickers import FakeStickerApi, StickerApiError

# Parameters PTB sends as raw strings: never JSON-decode these (a text "5" must stay "5").
STRING_PARAMS = {
    "text", "parse_mode", "callback_query_id", "inline_query_id", "next_offset", "url",
    "secret_token", "language_code", "inline_message_id", "caption", "switch_pm_text",
    "switch_pm_parameter", "scope_type", "name", "photo",
    "title", "sticker_format", "sticker_type",
}
CAPTION_LIMIT = 1024  # characters after entity parsing


@dataclass
class ApiCall:
    method: str
    params: dict[str, Any]
    at: float  # time.perf_counter() when the request arrived
    status: int = 200  # what the fake answered
    done_at: float | None = None  # time.perf_counter() when the answer went out

    @property
    def chat_id(self) -> int | None:
        value = self.params.get("chat_id")
        return int(value) if value is not None else None


@dataclass
class StoredMessage:
    chat_id: int
    message_id: int
    text: str
    reply_markup: dict[str, Any] | None
    parse_mode: str | None = None
    edits: int = 0
    thread_id: int | None = None  # the forum topic it was posted in
    # A photo message: the file id of its largest size (``text`` then holds its caption).
    photo: str | None = None

    def buttons(self) -> list[dict[str, Any]]:
        """Every inline button, row by row, flattened."""
        rows = (self.reply_markup or {}).get("inline_keyboard", [])
        return [button for row in rows for button in row]


@dataclass(frozen=True)
class TgUser:
    id: int
    first_name: str
    language_code: str | None = "en"
    username: str | None = None

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.id, "is_bot": False, "first_name": self.first_name}
        if self.language_code:
            data["language_code"] = self.language_code
        if self.username:
            data["username"] = self.username
        return data


@dataclass
class Failure:
    status: int
    description: str
    chat_id: int | None = None
    method: str | None = None
    retry_after: int | None = None
    times: int | None = None  # None = until removed
    migrate_to: int | None = None  # the group became this supergroup


CHAT_TITLES: dict[int, str] = {}  # a group's title, where a test names it
# What a bot that may not write in a group is refused there.
SENDING_METHODS = ("sendMessage", "sendPhoto", "editMessageText", "editMessageCaption",
                   "editMessageMedia", "editMessageReplyMarkup")


def _command_entity(text: str) -> dict[str, Any]:
    """A text that starts with "/" carries its bot_command entity (the first word)."""
    if not text.startswith("/"):
        return {}
    return {"entities": [{"type": "bot_command", "offset": 0, "length": len(text.split()[0])}]}


def _chat_dict(chat_id: int) -> dict[str, Any]:
    if chat_id < 0:
        return {"id": chat_id, "type": "supergroup", "title": CHAT_TITLES.get(chat_id, f"group {chat_id}")}
    return {"id": chat_id, "type": "private", "first_name": f"user {chat_id}"}


class FakeBotApi(FakeStickerApi):  # sticker sets: fake_stickers.py
    def __init__(self, token: str = "123456:TEST-TOKEN", bot_id: int = 123456,
                 bot_username: str = "unotest_bot") -> None:
        self.token = token
        self.bot_id = bot_id
        self.bot_username = bot_username
        self.calls: list[ApiCall] = []
        self.messages: dict[tuple[int, int], StoredMessage] = {}
        self._by_chat: dict[int, dict[int, StoredMessage]] = {}
        self._answer_waiters: dict[str, asyncio.Future[ApiCall]] = {}
        self._answers: dict[str, list[ApiCall]] = {}  # callback query id -> its answers
        self.admins: dict[int, set[int]] = {}  # chat id -> admin user ids
        self.forums: set[int] = set()  # groups with topics (the bot may open topics there)
        self.topics: dict[int, list[tuple[int, str]]] = {}  # chat id -> (thread id, name) opened
        self._thread_ids = itertools.count(500)
        self.failures: list[Failure] = []
        self.deleted: list[StoredMessage] = []  # messages the bot deleted, in their last state
        self.undeletable: set[int] = set()  # message ids deleteMessage refuses (older than 48 h)
        self.date_time_entities = True  # False: a Bot API older than 9.5 refuses <tg-time>
        self.delays: dict[int, float] = {}  # chat id -> seconds every answer is held back
        self._holds: list[tuple[str, int, asyncio.Event]] = []  # (method, chat id, release)
        self.latency = 0.0  # seconds every answer (but getUpdates) is held back: a real network
        self.webhook_info: dict[str, Any] = {"url": "", "has_custom_certificate": False,
                                             "pending_update_count": 0}  # getWebhookInfo
        self._updates: list[dict[str, Any]] = []
        self._update_ids = itertools.count(1)
        self._message_ids = itertools.count(1000)
        self._file_ids = itertools.count(1)
        self.files: dict[str, bytes] = {}  # file id -> the bytes uploaded (every size's id)
        self.uploads: list[str] = []  # file ids made by uploads, in order (largest size)
        self._sizes: dict[str, tuple[int, int]] = {}  # file id -> (width, height)
        self._callback_ids = itertools.count(1)
        self._new_update = asyncio.Event()
        self._new_call = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self.port = 0
        self.injected_at: dict[int, float] = {}  # update id -> perf_counter() at injection
        # Awaited on every recorded call before it is answered (tests snapshot state there).
        self.observer: Callable[[ApiCall], Awaitable[None]] | None = None

    # ---- lifecycle ------------------------------------------------------------------------

    async def start(self) -> str:
        app = web.Application()
        app.router.add_post("/bot{token}/{method}", self._handle)
        app.router.add_get("/bot{token}/{method}", self._handle)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        return self.base_url

    async def stop(self) -> None:
        self._new_update.set()  # release a pending long poll
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/bot"

    # ---- failures ---------------------------------------------------------------------------

    def forbid_chat(self, chat_id: int) -> None:
        """The user never started the bot: every request to their private chat is a 403."""
        self.failures.append(Failure(403, "Forbidden: bot can't initiate conversation with a user",
                                     chat_id=chat_id))

    def allow_chat(self, chat_id: int) -> None:
        self.failures = [f for f in self.failures if not (f.status == 403 and f.chat_id == chat_id)]

    def rate_limit_once(self, *, chat_id: int | None = None, method: str | None = None,
                        retry_after: int = 1) -> None:
        self.failures.append(Failure(429, f"Too Many Requests: retry after {retry_after}",
                                     chat_id=chat_id, method=method, retry_after=retry_after,
                                     times=1))

    def hold_next(self, method: str, chat_id: int) -> asyncio.Event:
        """Keep the next ``method`` call about ``chat_id`` unanswered until the returned event
        is set (a slow round trip, on demand)."""
        release = asyncio.Event()
        self._holds.append((method, chat_id, release))
        return release

    async def _wait_if_held(self, call: ApiCall) -> None:
        for i, (method, chat_id, release) in enumerate(self._holds):
            if method == call.method and chat_id == call.chat_id:
                del self._holds[i]
                await release.wait()
                return

    def slow_chat(self, chat_id: int, seconds: float) -> None:
        """Answer every request about this chat ``seconds`` late (a slow network path)."""
        self.delays[chat_id] = seconds

    def _failure_for(self, method: str, params: dict[str, Any]) -> Failure | None:
        chat = params.get("chat_id")
        chat_id = int(chat) if chat is not None else None
        for failure in self.failures:
            if failure.method is not None and failure.method != method:
                continue
            if failure.chat_id is not None and failure.chat_id != chat_id:
                continue
            if failure.times is not None:
                failure.times -= 1
                if failure.times <= 0:
                    self.failures.remove(failure)
            return failure
        return None

    # ---- injecting updates -----------------------------------------------------------------

    def push_update(self, payload: dict[str, Any]) -> int:
        update_id = next(self._update_ids)
        self._updates.append({"update_id": update_id, **payload})
        self.injected_at[update_id] = time.perf_counter()
        self._new_update.set()
        return update_id

    def send_text(self, user: TgUser, chat_id: int, text: str,
                  reply_to: StoredMessage | dict[str, Any] | None = None, *,
                  via_bot: bool = False) -> int:
        """A user writes ``text`` in ``chat_id`` (a command gets its bot_command entity);
        ``via_bot``: the message is an inline result the user sent through this bot."""
        message: dict[str, Any] = {
            "message_id": next(self._message_ids), "date": int(time.time()),
            "chat": _chat_dict(chat_id), "from": user.to_dict(), "text": text,
        }
        if via_bot:
            message["via_bot"] = self._bot_user()
        message.update(_command_entity(text))
        if reply_to is not None:
            message["reply_to_message"] = reply_to if isinstance(reply_to, dict) else {
                "message_id": reply_to.message_id, "date": int(time.time()),
                "chat": _chat_dict(reply_to.chat_id), "text": reply_to.text}
        return self.push_update({"message": message})

    def upgrade_group(self, user: TgUser, old: int, new: int, *, tell: bool = True) -> None:
        """``user`` makes group ``old`` a supergroup, the chat ``new``: from now on every request
        about ``old`` is refused with the new id; with ``tell``, the two service messages come
        (in the old chat with the new id, in the new one with the old id)."""
        self.failures.append(Failure(400, "Bad Request: group chat was upgraded to a supergroup chat",
                                     chat_id=old, migrate_to=new))
        if not tell:
            return
        for chat_id, field_name, other in ((old, "migrate_to_chat_id", new),
                                           (new, "migrate_from_chat_id", old)):
            self.push_update({"message": {
                "message_id": next(self._message_ids), "date": int(time.time()),
                "chat": _chat_dict(chat_id), "from": user.to_dict(), field_name: other}})

    def mute_bot(self, chat_id: int, *, photos_only: bool = False) -> None:
        """The group lets the bot send nothing (an admin restricted it, or only admins may
        write): every message or edit it sends there is refused for lack of rights; with
        ``photos_only``, its photos only (the group forbids media)."""
        for method in SENDING_METHODS:
            if photos_only and method not in ("sendPhoto", "editMessageMedia"):
                continue
            kind = "photos" if method in ("sendPhoto", "editMessageMedia") else "text messages"
            self.failures.append(Failure(400, f"Bad Request: not enough rights to send {kind} to the chat",
                                         chat_id=chat_id, method=method))

    def unmute_bot(self, chat_id: int) -> None:
        self.failures = [f for f in self.failures
                         if not (f.chat_id == chat_id and "not enough rights" in f.description)]

    def bot_membership(self, user: TgUser, chat_id: int, old: str, new: str) -> int:
        """``user`` changes the bot's membership of ``chat_id`` from ``old`` to ``new`` ("left",
        "member", "kicked"): adds it to a group, or blocks it in their private chat."""
        def member(status: str) -> dict[str, Any]:
            return {"user": self._bot_user(), "status": status,
                    **({"until_date": 0} if status == "kicked" else {})}

        return self.push_update({"my_chat_member": {
            "chat": _chat_dict(chat_id), "from": user.to_dict(), "date": int(time.time()),
            "old_chat_member": member(old), "new_chat_member": member(new)}})

    def edit_text(self, user: TgUser, chat_id: int, message_id: int, text: str) -> int:
        """``user`` edits their message ``message_id`` in ``chat_id`` to ``text`` (a command
        gets its bot_command entity, as a new message does)."""
        message: dict[str, Any] = {
            "message_id": message_id, "date": int(time.time()), "edit_date": int(time.time()),
            "chat": _chat_dict(chat_id), "from": user.to_dict(), "text": text}
        message.update(_command_entity(text))
        return self.push_update({"edited_message": message})

    def user_message(self, user: TgUser, chat_id: int, text: str = "hi") -> dict[str, Any]:
        """A message by ``user`` (to reply to, e.g. for /kick)."""
        return {"message_id": next(self._message_ids), "date": int(time.time()),
                "chat": _chat_dict(chat_id), "from": user.to_dict(), "text": text}

    def press(self, user: TgUser, message: StoredMessage, data: str) -> str:
        """``user`` presses the callback button carrying ``data`` under ``message``."""
        callback_id = str(next(self._callback_ids))
        self.push_update({"callback_query": {
            "id": callback_id, "from": user.to_dict(), "chat_instance": str(message.chat_id),
            "data": data,
            "message": self._message_dict(message),
        }})
        return callback_id

    def inline_query(self, user: TgUser, query: str = "", offset: str = "",
                     chat_type: str = "supergroup") -> str:
        query_id = f"iq{next(self._callback_ids)}"
        self.push_update({"inline_query": {"id": query_id, "from": user.to_dict(), "query": query,
                                           "offset": offset, "chat_type": chat_type}})
        return query_id

    def choose_inline_result(self, user: TgUser, result_id: str, query: str = "") -> int:
        return self.push_update({"chosen_inline_result": {
            "result_id": result_id, "from": user.to_dict(), "query": query}})

    # ---- reading what the bot did ----------------------------------------------------------

    def calls_to(self, method: str | None = None, chat_id: int | None = None) -> list[ApiCall]:
        return [c for c in self.calls
                if (method is None or c.method == method)
                and (chat_id is None or c.chat_id == chat_id)]

    def chat_messages(self, chat_id: int) -> list[StoredMessage]:
        """The messages the bot sent to a chat, oldest first, in their current (edited) state."""
        return sorted(self._by_chat.get(chat_id, {}).values(), key=lambda m: m.message_id)

    def message(self, chat_id: int, message_id: int) -> StoredMessage:
        return self.messages[(chat_id, message_id)]

    def answers(self, callback_id: str) -> list[ApiCall]:
        return list(self._answers.get(callback_id, ()))

    async def wait_for(self, predicate: Callable[[], Any], timeout: float = 10.0,
                       what: str = "condition") -> Any:
        """Poll the recorder until ``predicate()`` is truthy (returned) or fail after ``timeout``."""
        deadline = time.monotonic() + timeout
        while True:
            result = predicate()
            if result:
                return result
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(f"timed out waiting for {what}; last calls: "
                                     f"{[(c.method, c.params.get('chat_id')) for c in self.calls[-8:]]}")
            self._new_call.clear()
            try:
                await asyncio.wait_for(self._new_call.wait(), min(remaining, 0.05))
            except TimeoutError:
                pass

    async def wait_answer(self, callback_id: str, timeout: float = 10.0) -> ApiCall:
        found = self.answers(callback_id)
        if found:
            return found[0]
        waiter = self._answer_waiters.setdefault(callback_id, asyncio.get_running_loop().create_future())
        try:
            return await asyncio.wait_for(asyncio.shield(waiter), timeout)
        except TimeoutError:
            raise AssertionError(f"callback query {callback_id} was never answered") from None

    async def wait_idle(self, quiet: float = 0.15, timeout: float = 10.0) -> None:
        """Wait until every injected update was fetched and no API call came for ``quiet`` s."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            count = len(self.calls)
            await asyncio.sleep(quiet)
            if len(self.calls) == count and not self._updates:
                return
        raise AssertionError("the bot never went quiet")

    # ---- the HTTP side -----------------------------------------------------------------------

    def _bot_user(self) -> dict[str, Any]:
        return {"id": self.bot_id, "is_bot": True, "first_name": "UNO", "username": self.bot_username}

    @staticmethod
    def _decode(form: Any) -> dict[str, Any]:
        params: dict[str, Any] = {}
        for key, value in form.items():
            if key in STRING_PARAMS or not isinstance(value, str):
                params[key] = value
                continue
            try:
                params[key] = json.loads(value)
            except ValueError:
                params[key] = value
        return params

    async def _handle(self, request: web.Request) -> web.Response:
        response, call = await self._respond(request)
        if call is not None:
            call.done_at = time.perf_counter()
        return response

    async def _respond(self, request: web.Request) -> tuple[web.Response, ApiCall | None]:
        method = request.match_info["method"]
        if request.match_info["token"] != self.token:
            return self._error(401, "Unauthorized"), None
        params = self._decode(await request.post()) if request.can_read_body else {}
        call = ApiCall(method, params, time.perf_counter())
        if method != "getUpdates":
            self.calls.append(call)
            if method == "answerCallbackQuery":
                self._answers.setdefault(str(params.get("callback_query_id")), []).append(call)
            self._new_call.set()
            if self.observer is not None:
                await self.observer(call)
        if self._holds:
            await self._wait_if_held(call)
        delay = (self.delays.get(call.chat_id, 0.0) if call.chat_id is not None else 0.0) + \
            (self.latency if method != "getUpdates" else 0.0)
        if delay:
            await asyncio.sleep(delay)
        failure = self._failure_for(method, params) if method != "getUpdates" else None
        if failure is not None:
            call.status = failure.status
            extra = {"parameters": {"retry_after": failure.retry_after}} if failure.retry_after else {}
            if failure.migrate_to is not None:
                extra = {"parameters": {"migrate_to_chat_id": failure.migrate_to}}
            return self._error(failure.status, failure.description, **extra), call
        handler = getattr(self, f"_api_{method}", None)
        if handler is None:
            return self._ok(True), call
        try:
            result = await handler(params)
        except (_ApiError, StickerApiError) as error:
            call.status = error.status
            return self._error(error.status, error.description), call
        return self._ok(result), call

    @staticmethod
    def _ok(result: Any) -> web.Response:
        return web.Response(text=json.dumps({"ok": True, "result": result}),
                            content_type="application/json")

    @staticmethod
    def _error(status: int, description: str, **extra: Any) -> web.Response:
        return web.Response(status=status, content_type="application/json",
                            text=json.dumps({"ok": False, "error_code": status,
                                             "description": description, **extra}))

    async def _api_getMe(self, params: dict[str, Any]) -> dict[str, Any]:
        return {**self._bot_user(), "can_join_groups": True, "can_read_all_group_messages": False,
                "supports_inline_queries": True}

    async def _api_getWebhookInfo(self, params: dict[str, Any]) -> dict[str, Any]:
        return dict(self.webhook_info)

    async def _api_getUpdates(self, params: dict[str, Any]) -> list[dict[str, Any]]:
        offset = int(params.get("offset") or 0)
        self._updates = [u for u in self._updates if u["update_id"] >= offset]
        timeout = float(params.get("timeout") or 0)
        if not self._updates and timeout > 0:
            self._new_update.clear()
            try:
                await asyncio.wait_for(self._new_update.wait(), timeout)
            except TimeoutError:
                pass
        limit = int(params.get("limit") or 100)
        return self._updates[:limit]

    def _store(self, chat_id: int, params: dict[str, Any]) -> StoredMessage:
        thread = params.get("message_thread_id")
        message = StoredMessage(chat_id, next(self._message_ids), params.get("text", ""),
                                params.get("reply_markup"), params.get("parse_mode"),
                                thread_id=int(thread) if thread is not None else None)
        self.messages[(chat_id, message.message_id)] = message
        self._by_chat.setdefault(chat_id, {})[message.message_id] = message
        return message

    def _message_dict(self, message: StoredMessage) -> dict[str, Any]:
        data: dict[str, Any] = {"message_id": message.message_id, "date": int(time.time()),
                                "chat": _chat_dict(message.chat_id), "from": self._bot_user()}
        if message.photo is not None:
            data["photo"] = self._photo_sizes(message.photo)
            if message.text:
                data["caption"] = message.text
        else:
            data["text"] = message.text
        if message.reply_markup:
            data["reply_markup"] = message.reply_markup
        return data

    def _check_entities(self, params: dict[str, Any], text: str | None = None) -> None:
        text = text if text is not None else params.get("text") or ""
        if not self.date_time_entities and "<tg-time" in text:
            raise _ApiError(400, "Bad Request: can't parse entities: Unsupported start tag \"tg-time\" "
                                 f"at byte offset {text.index('<tg-time')}")

    async def _api_sendMessage(self, params: dict[str, Any]) -> dict[str, Any]:
        if not params.get("text"):
            raise _ApiError(400, "Bad Request: message text is empty")
        self._check_entities(params)
        return self._message_dict(self._store(int(params["chat_id"]), params))

    def _existing(self, params: dict[str, Any]) -> StoredMessage:
        key = (int(params["chat_id"]), int(params["message_id"]))
        if key not in self.messages:
            raise _ApiError(400, "Bad Request: message to edit not found")
        return self.messages[key]

    async def _api_editMessageText(self, params: dict[str, Any]) -> dict[str, Any]:
        message = self._existing(params)
        if message.photo is not None:
            raise _ApiError(400, "Bad Request: there is no text in the message to edit")
        self._check_entities(params)
        markup = params.get("reply_markup")
        if message.text == params.get("text") and message.reply_markup == markup:
            raise _ApiError(400, "Bad Request: message is not modified: specified new message "
                                 "content and reply markup are exactly the same")
        message.text, message.reply_markup = params.get("text", ""), markup
        message.parse_mode = params.get("parse_mode")
        message.edits += 1
        return self._message_dict(message)

    # ---- photos -------------------------------------------------------------------------------

    def _photo_sizes(self, file_id: str) -> list[dict[str, Any]]:
        """PhotoSize objects, smallest first (as Telegram lists them): a thumbnail and the
        picture itself, each with a file id of its own."""
        if file_id not in self._sizes:
            from PIL import Image  # the fake alone needs it: reading the uploaded picture's size

            self._sizes[file_id] = Image.open(io.BytesIO(self.files[file_id])).size
        width, height = self._sizes[file_id]
        small = max(1, 90 * width // max(height, 1))
        return [{"file_id": f"{file_id}-thumb", "file_unique_id": f"u{file_id}-thumb",
                 "width": small, "height": 90, "file_size": 1000},
                {"file_id": file_id, "file_unique_id": f"u{file_id}", "width": width,
                 "height": height, "file_size": len(self.files[file_id])}]

    def _photo_file(self, value: Any, params: dict[str, Any]) -> str:
        """The file id a ``photo``/``media`` value names: an upload (a multipart file, or an
        ``attach://<part>`` URI naming one) gets a new id; a file id must be known."""
        if isinstance(value, str) and value.startswith("attach://"):
            value = params.get(value.removeprefix("attach://"))
        if isinstance(value, FileField):
            data = value.file.read()
            file_id = f"AgACAgPhoto{next(self._file_ids)}"
            self.files[file_id] = self.files[f"{file_id}-thumb"] = data
            self.uploads.append(file_id)
            return file_id
        if not isinstance(value, str) or value not in self.files:
            raise _ApiError(400, "Bad Request: wrong file identifier/HTTP URL specified")
        return value

    def _check_caption(self, caption: str | None, params: dict[str, Any]) -> None:
        self._check_entities(params, caption or "")
        plain = html.unescape(re.sub(r"<[^>]+>", "", caption or ""))
        if len(plain) > CAPTION_LIMIT:
            raise _ApiError(400, "Bad Request: message caption is too long")

    async def _api_sendPhoto(self, params: dict[str, Any]) -> dict[str, Any]:
        caption = params.get("caption")
        self._check_caption(caption, params)
        file_id = self._photo_file(params.get("photo"), params)
        message = self._store(int(params["chat_id"]), {**params, "text": caption or ""})
        message.photo = file_id
        return self._message_dict(message)

    async def _api_editMessageMedia(self, params: dict[str, Any]) -> dict[str, Any]:
        """Replaces a message's media, or adds a photo to a text message (Bot API 7.x+)."""
        message = self._existing(params)
        media = params.get("media")
        if not isinstance(media, dict) or media.get("type") != "photo":
            raise _ApiError(400, "Bad Request: can't parse InputMedia: media not found")
        caption = media.get("caption")
        self._check_caption(caption, params)
        file_id = self._photo_file(media.get("media"), params)
        markup = params.get("reply_markup")
        if message.photo == file_id and message.text == (caption or "") and message.reply_markup == markup:
            raise _ApiError(400, "Bad Request: message is not modified: specified new message "
                                 "content and reply markup are exactly the same")
        message.photo, message.text, message.reply_markup = file_id, caption or "", markup
        message.parse_mode = media.get("parse_mode")
        message.edits += 1
        return self._message_dict(message)

    async def _api_editMessageCaption(self, params: dict[str, Any]) -> dict[str, Any]:
        message = self._existing(params)
        if message.photo is None:
            raise _ApiError(400, "Bad Request: there is no caption in the message to edit")
        caption = params.get("caption") or ""
        self._check_caption(caption, params)
        markup = params.get("reply_markup")
        if message.text == caption and message.reply_markup == markup:
            raise _ApiError(400, "Bad Request: message is not modified: specified new message "
                                 "content and reply markup are exactly the same")
        message.text, message.reply_markup = caption, markup
        message.parse_mode = params.get("parse_mode")
        message.edits += 1
        return self._message_dict(message)

    def picture(self, message: StoredMessage) -> bytes:
        """The bytes of the picture a photo message shows (as uploaded)."""
        assert message.photo is not None, "not a photo message"
        return self.files[message.photo]

    async def _api_editMessageReplyMarkup(self, params: dict[str, Any]) -> dict[str, Any]:
        message = self._existing(params)
        markup = params.get("reply_markup")
        if message.reply_markup == markup:
            raise _ApiError(400, "Bad Request: message is not modified")
        message.reply_markup = markup
        message.edits += 1
        return self._message_dict(message)

    async def _api_deleteMessage(self, params: dict[str, Any]) -> bool:
        message = self._existing(params)
        if message.message_id in self.undeletable:
            raise _ApiError(400, "Bad Request: message can't be deleted for everyone")
        del self.messages[(message.chat_id, message.message_id)]
        del self._by_chat[message.chat_id][message.message_id]
        self.deleted.append(message)
        return True

    async def _api_getChat(self, params: dict[str, Any]) -> dict[str, Any]:
        gifts = {"unlimited_gifts": False, "limited_gifts": False, "unique_gifts": False,
                 "premium_subscription": False, "gifts_from_channels": False}
        return {**_chat_dict(int(params["chat_id"])), "accent_color_id": 0, "max_reaction_count": 11,
                "accepted_gift_types": gifts}

    async def _api_answerCallbackQuery(self, params: dict[str, Any]) -> bool:
        callback_id = str(params.get("callback_query_id"))
        waiter = self._answer_waiters.pop(callback_id, None)
        if waiter is not None and not waiter.done():
            waiter.set_result(self.answers(callback_id)[-1])
        return True

    async def _api_createForumTopic(self, params: dict[str, Any]) -> dict[str, Any]:
        chat_id = int(params["chat_id"])
        if chat_id not in self.forums:
            raise _ApiError(400, "Bad Request: the chat is not a forum")
        thread_id = next(self._thread_ids)
        self.topics.setdefault(chat_id, []).append((thread_id, str(params["name"])))
        return {"message_thread_id": thread_id, "name": params["name"], "icon_color": 7322096}

    def topic_messages(self, chat_id: int, thread_id: int | None) -> list[StoredMessage]:
        return [m for m in self.chat_messages(chat_id) if m.thread_id == thread_id]

    async def _api_getChatMember(self, params: dict[str, Any]) -> dict[str, Any]:
        chat_id, user_id = int(params["chat_id"]), int(params["user_id"])
        status = "administrator" if user_id in self.admins.get(chat_id, set()) else "member"
        member: dict[str, Any] = {"status": status,
                                  "user": {"id": user_id, "is_bot": False, "first_name": str(user_id)}}
        if status == "administrator":
            member.update(can_be_edited=False, is_anonymous=False, can_manage_chat=True,
                          can_delete_messages=True, can_manage_video_chats=True,
                          can_restrict_members=True, can_promote_members=False,
                          can_change_info=True, can_invite_users=True, can_post_stories=False,
                          can_edit_stories=False, can_delete_stories=False)
        return member


class _ApiError(Exception):
    def __init__(self, status: int, description: str) -> None:
        super().__init__(description)
        self.status = status
        self.description = description
