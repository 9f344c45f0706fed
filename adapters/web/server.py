"""The web hand: a page served by the bot itself that shows one player the table and their
own hand, live, and sends their moves through the same coordinator commands as chat buttons.

    GET  /                  the page (static; it proves itself with the calls below)
    GET  /cards/<code>.png  a card picture (card faces are public; ``?t=high_contrast``)
    POST /api/session       {"init_data": ..., "game": id} (Telegram) or {"token": link}
                            (Discord) -> {"session": token}; 401 otherwise
    GET  /api/state         Authorization: Bearer <session> -> the player's snapshot
    POST /api/action        Authorization: Bearer <session>, {"action": "move", "ref": ...,
                            "version": ...}: one of the moves the snapshot offered
    GET  /api/live          WebSocket; first message {"session": token}; then the server
                            pushes the snapshot whenever the game changes
    GET  /api/recap.png     Authorization: Bearer <session> -> the finished match's recap
                            picture (403 page: no valid session; 404 page: no recap yet)
    GET  /watch, /api/watch/...  the spectators' read-only page of the public table (watch.py)

Every refusal of a credential is a bare 401 (the client learns nothing); the reason is
logged without the credential. A move that is not one (not JSON, nested too deep, wrong
types) is a 400 with the localised "reload" answer, a body over MAX_BODY a 413: malformed
input is the client's fault, never an error of ours in the log. Live updates: the coordinator's ChatPort is wrapped
(``tee``) so that every public message or private hand for a game wakes the pages open on
that game; each page then reads its own player's snapshot from the store.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import WSCloseCode, web

from bot.coordinator import (
    N_,
    BadMoveRef,
    ChatKey,
    ChatPort,
    GameStore,
    HandView,
    MatchCache,
    PlayerSnapshot,
    Public,
    Recap,
    RecapCache,
    Reply,
    Text,
    User,
    parse_ref,
    player_snapshot,
)
from bot.coordinator import commands as cmds
from bot.engine.cards import Card
from bot.engine.errors import UnoError
from bot.i18n import translate
from bot.render import images

from . import auth
from .links import WebLinks
from .live import opened, push_states, push_until_closed
from .pages import MALFORMED, bearer, html_page, unauthorized
from .recaps import NO_RECAP, RecapPictures, reader_locale, refusal_page
from .recaps import script as recap_script
from .views import snapshot_json
from .watch import Spectators

log = logging.getLogger(__name__)
MAX_BODY = 16 * 1024
# Live pages one player may keep open: each costs a read and a push on every move, so
# opening another closes the oldest (with REPLACED; the page says so and does not reconnect).
MAX_PAGES_PER_PLAYER = 3
REPLACED = 4409
# "move" sends one of the moves the page was given, by its reference (the move model).
ACTIONS = ("move", "back")  # a move by its reference; a player a bot stands in for comes back
_BAD_ACTION = Text(N_("The page sent something I do not understand. Reload it."))
_STALE = Text(N_("The game moved on before your tap arrived: look again and choose."))
_SIGNED_OUT = Text(N_("This page's link is not valid any more: open your hand again from the "
                      "chat."))


async def _json_body(request: web.Request) -> Any:
    """The request's JSON, or None when it is not JSON (a body over MAX_BODY is answered
    413 by aiohttp before it is read)."""
    try:
        return await request.json()
    except MALFORMED:
        return None


class LiveHub:
    """Which pages are open on which game, and waking them when it changes."""

    def __init__(self) -> None:
        self._pages: dict[str, set[asyncio.Event]] = {}

    def open(self, game_id: str) -> asyncio.Event:
        wake = asyncio.Event()
        self._pages.setdefault(game_id, set()).add(wake)
        return wake

    def close(self, game_id: str, wake: asyncio.Event) -> None:
        pages = self._pages.get(game_id)
        if pages is not None:
            pages.discard(wake)
            if not pages:
                del self._pages[game_id]

    def changed(self, game_id: str | None) -> None:
        for wake in self._pages.get(game_id or "", ()):
            wake.set()

    def watched(self, game_id: str) -> bool:
        return game_id in self._pages

    def open_pages(self) -> int:
        return sum(len(pages) for pages in self._pages.values())


class LiveChatPort:
    """A ChatPort that tells the hub about every message before passing it on unchanged."""

    def __init__(self, inner: ChatPort, hub: LiveHub) -> None:
        self._inner = inner
        self._hub = hub

    def __getattr__(self, name: str) -> Any:  # adapters' own extras on their port
        return getattr(self._inner, name)

    async def publish(self, chat: ChatKey, message: Public, *, edit: str | None = None) -> str | None:
        # A two-table match's recap is shown at both its tables too.
        for game_id in message.games if isinstance(message, Recap) else (message.game_id,):
            self._hub.changed(game_id)
        return await self._inner.publish(chat, message, edit=edit)

    async def send_hand(self, chat: ChatKey, user_id: str, view: HandView, *,
                        edit: str | None = None) -> str | None:
        self._hub.changed(view.game_id)
        return await self._inner.send_hand(chat, user_id, view, edit=edit)


class WebHand:
    """The web hand's server and the links chat adapters put on their buttons."""

    def __init__(self, *, links: WebLinks, store: GameStore,
                 handle: Callable[[cmds.Command], Awaitable[Reply]] | None = None,
                 telegram_token: str | None = None) -> None:
        self.links = links
        self._secret = links.secret
        self._store = store
        self._handle = handle  # Coordinator.handle; given later when the platform builds it
        self._telegram_token = telegram_token
        self._now = links.now
        self.hub = LiveHub()
        self._matches: MatchCache = {}  # decoded once per game version, for all its pages
        self._recaps: RecapCache = {}  # a finished match's recap, read once for all its pages
        self._pictures = RecapPictures()
        self._runner: web.AppRunner | None = None
        # Open live pages: closed at shutdown, else the server would wait on each of them
        # (aiohttp waits for running handlers, and a live page's handler runs until it goes).
        self._sockets: weakref.WeakSet[web.WebSocketResponse] = weakref.WeakSet()
        # Each player's live pages, oldest first: (platform, user id) -> sockets.
        self._player_pages: dict[tuple[str, str], list[web.WebSocketResponse]] = {}
        self.spectators = Spectators(secret=self._secret, store=store, now=self._now,
                                     wake=self.hub.open, done=self.hub.close,
                                     changed=self.hub.changed, matches=self._matches,
                                     recaps=self._recaps, pictures=self._pictures)

    # ---- links -------------------------------------------------------------------------
    def telegram_url(self, game_id: str) -> str:
        """The Mini App's address for a game (Telegram adds the proof after '#')."""
        return self.links.telegram(game_id)

    def link(self, platform: str, user_id: str, game_id: str) -> str:
        """A signed, short-lived address of one player's page (the Discord link)."""
        return self.links.signed(platform, user_id, game_id)

    def watching(self, game_id: str) -> int:
        """Spectator pages open on a game (the coordinator's Watchers port)."""
        return self.spectators.watching(game_id)

    def serve_commands(self, handle: Callable[[cmds.Command], Awaitable[Reply]]) -> None:
        """The coordinator's ``handle``: moves from pages go where chat buttons go."""
        self._handle = handle

    def tee(self, port: ChatPort) -> ChatPort:
        return LiveChatPort(port, self.hub)  # type: ignore[return-value]

    # ---- the app -----------------------------------------------------------------------
    def app(self) -> web.Application:
        app = web.Application(client_max_size=MAX_BODY)
        app.router.add_get("/", self._page)
        app.router.add_get("/cards/{code}.png", self._card)
        app.router.add_post("/api/session", self._session)
        app.router.add_get("/api/state", self._state)
        app.router.add_post("/api/action", self._action)
        app.router.add_get("/api/live", self._live)
        app.router.add_get("/api/recap.png", self._recap)
        app.router.add_get("/recap.js", recap_script)
        self.spectators.routes(app)
        app.on_shutdown.append(self._close_live_pages)
        return app

    async def _close_live_pages(self, _app: web.Application) -> None:
        for socket in list(self._sockets):  # the page reconnects once the bot is back
            await socket.close(code=WSCloseCode.GOING_AWAY, message=b"server shutdown")

    async def start(self, host: str, port: int) -> int:
        """Serve on ``host:port`` (port 0: any free one); returns the port."""
        self._runner = web.AppRunner(self.app(), access_log=None)  # no URLs in the logs
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        await site.start()
        log.info("web hand listening on %s:%s for %s", host, port, self.links.base_url)
        server = site._server
        sockets = getattr(server, "sockets", None) or ()
        return int(sockets[0].getsockname()[1]) if sockets else port

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    # ---- handlers ----------------------------------------------------------------------
    async def _page(self, request: web.Request) -> web.Response:
        return html_page("page.html")

    async def _card(self, request: web.Request) -> web.Response:
        try:
            card = Card.parse(request.match_info["code"])
        except (UnoError, ValueError):
            raise web.HTTPNotFound() from None
        theme = (images.Theme.HIGH_CONTRAST if request.query.get("t") == "high_contrast"
                 else images.Theme.CLASSIC)
        data = images.card_image(card, 180, theme=theme)
        return web.Response(body=data, content_type="image/png",
                            headers={"Cache-Control": "public, max-age=86400"})

    async def _session(self, request: web.Request) -> web.Response:
        body = await _json_body(request)
        if not isinstance(body, dict):
            return unauthorized()
        try:
            if "init_data" in body:
                if not self._telegram_token:
                    raise auth.AuthError("no Telegram bot here")
                user = auth.verify_init_data(body.get("init_data"), self._telegram_token,
                                             self._now())
                platform, user_id, game_id = "telegram", user.user_id, str(body.get("game", ""))
            else:
                claims = auth.read_token(self._secret, body.get("token"), self._now())
                if claims.kind != "link":
                    raise auth.AuthError("not a link token")
                platform, user_id, game_id = claims.platform, claims.user_id, claims.game_id
        except auth.AuthError as error:
            log.info("web hand: a session was refused (%s)", error)
            return unauthorized()
        snapshot = await player_snapshot(self._store, game_id, user_id)
        if snapshot is None or snapshot.chat.platform != platform:
            log.info("web hand: a session was refused (not seated in that game)")
            return unauthorized()
        if snapshot.stood_in and self._handle is not None:
            # Away too long, back through the page: opening one's hand takes the seat back.
            await self._handle(cmds.ShowHand(snapshot.chat, User(user_id, snapshot.name)))
        session = auth.sign_token(self._secret, platform=platform, user_id=user_id,
                                  game_id=game_id, expires=self._now() + auth.SESSION_TTL,
                                  kind="session")
        return web.json_response({"session": session})

    def _claims(self, token: Any) -> auth.TokenClaims | None:
        try:
            claims = auth.read_token(self._secret, token, self._now())
        except auth.AuthError as error:
            log.info("web hand: a request was refused (%s)", error)
            return None
        return claims if claims.kind == "session" else None

    def _bearer(self, request: web.Request) -> auth.TokenClaims | None:
        return self._claims(bearer(request))

    async def _snapshot(self, claims: auth.TokenClaims) -> PlayerSnapshot | None:
        return await player_snapshot(self._store, claims.game_id, claims.user_id,
                                     matches=self._matches, recaps=self._recaps)

    async def _state(self, request: web.Request) -> web.Response:
        claims = self._bearer(request)
        snapshot = await self._snapshot(claims) if claims else None
        if snapshot is None:
            return unauthorized()
        return web.json_response(snapshot_json(snapshot, self._now()))

    async def _recap(self, request: web.Request) -> web.Response:
        claims = self._bearer(request)
        snapshot = await self._snapshot(claims) if claims else None
        if snapshot is None:
            return refusal_page(403, _SIGNED_OUT, reader_locale(request))
        if snapshot.recap is None:
            return refusal_page(404, NO_RECAP, snapshot.locale)
        return await self._pictures.response(snapshot.recap)

    async def _action(self, request: web.Request) -> web.Response:
        claims = self._bearer(request)
        snapshot = await self._snapshot(claims) if claims else None
        if claims is None or snapshot is None:
            return unauthorized()
        body = await _json_body(request)
        command = self._command(body, claims, snapshot,
                                snapshot_json(snapshot, self._now())["version"])
        if command is None:
            return web.json_response({"ok": False, "error": "bad_action",
                                      "text": translate(_BAD_ACTION, snapshot.locale)},
                                     status=400)
        if isinstance(command, str):  # stale: the page acted on an older state
            return web.json_response({"ok": False, "error": command,
                                      "text": translate(_STALE, snapshot.locale),
                                      "state": snapshot_json(snapshot, self._now())})
        if self._handle is None:  # the platform is still starting
            return web.json_response({"ok": False, "error": "busy"}, status=503)
        reply = await self._handle(command)
        fresh = await self._snapshot(claims)
        if reply.error == "stale_press":  # the twin of a tap the coordinator has just played
            return web.json_response({"ok": False, "error": "stale",
                                      "text": translate(_STALE, snapshot.locale),
                                      "state": snapshot_json(fresh, self._now()) if fresh else None})
        return web.json_response({
            "ok": reply.ok, "error": reply.error,
            "text": translate(reply.text, reply.locale) if reply.text else None,
            "state": snapshot_json(fresh, self._now()) if fresh else None})

    def _command(self, body: Any, claims: auth.TokenClaims, snapshot: PlayerSnapshot,
                 seen: str) -> cmds.Command | str | None:
        """The coordinator command a page's action stands for; "stale" when it was sent
        against an older state (a double tap); None when it is malformed."""
        if not isinstance(body, dict) or body.get("action") not in ACTIONS:
            return None
        if body["action"] == "back":  # as opening the hand anew: the seat is theirs again
            return cmds.ShowHand(snapshot.chat, User(claims.user_id, snapshot.name)) \
                if snapshot.stood_in else "stale"
        version = body.get("version")
        ref = body.get("ref")
        try:
            parts = parse_ref(ref)
        except BadMoveRef:
            return None
        # Saying or calling "UNO!" is a race that must not be lost to a move in between.
        racing = "catch" in parts or parts.get("simple") == "u"
        if not racing and version != seen:
            return "stale"
        chat = snapshot.chat
        user = User(claims.user_id, snapshot.name)
        # The hand the page saw (its version matched): the coordinator refuses the move under
        # its lock if that hand has changed since, so two taps racing in play one card.
        press = snapshot.hand.press if snapshot.hand is not None else None
        return cmds.ChooseMove(chat, user, ref=str(ref), press=None if racing else press)

    async def _live(self, request: web.Request) -> web.StreamResponse:
        socket = web.WebSocketResponse(heartbeat=30)
        await socket.prepare(request)
        self._sockets.add(socket)
        found = await opened(socket, "session", self._claims, self._snapshot)
        if found is None:
            return socket
        claims, snapshot = found
        player = (claims.platform, claims.user_id)
        pages = self._player_pages.setdefault(player, [])
        pages.append(socket)
        while len(pages) > MAX_PAGES_PER_PLAYER:
            oldest = pages.pop(0)
            await oldest.close(code=REPLACED, message=b"opened in another page")
        wake = self.hub.open(claims.game_id)
        try:
            await push_until_closed(socket, self._push(socket, claims, wake, snapshot))
        finally:
            self.hub.close(claims.game_id, wake)
            pages = self._player_pages.get(player, [])
            if socket in pages:
                pages.remove(socket)
            if not pages:
                self._player_pages.pop(player, None)
            if not self.hub.watched(claims.game_id):
                self._matches.pop(claims.game_id, None)
        return socket

    async def _push(self, socket: web.WebSocketResponse, claims: auth.TokenClaims,
                    wake: asyncio.Event, snapshot: PlayerSnapshot | None) -> None:
        await push_states(socket, wake, snapshot, lambda: self._snapshot(claims),
                          lambda state: snapshot_json(state, self._now()),
                          lambda data: {**data, "now": None, "seq": None},  # times aside
                          page="web hand", game_id=claims.game_id)

