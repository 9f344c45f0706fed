"""Spectators: a read-only live page of a game's public table, for anyone its chat gave the
link to.

    GET  /watch             the page (static; the link's token follows '#')
    GET  /api/watch/state   Authorization: Bearer <watch token> -> the public table
    GET  /api/watch/live    WebSocket; first message {"token": <watch token>}; then the
                            server pushes the public table whenever the game changes
    GET  /api/watch/recap.png  Authorization: Bearer <watch token> -> the finished match's
                            recap picture (403 page: no valid token; 404 page: no recap yet)

A watch token names a game and no user, so no endpoint of a player's hand accepts it (they
want a "link" or "session" token) and these accept nothing else. The JSON is built field by
field from the public table view (counts of cards, never cards; ``tables``, shared with the
player's page, and here), so a field added to a player's snapshot cannot leak into it. The open pages are counted per game: the coordinator
reads the count (``watching``) when it sends a table.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import weakref
from collections.abc import Callable
from typing import Any

from aiohttp import WSCloseCode, web

from bot.coordinator import (
    N_,
    GameStore,
    MatchCache,
    RecapCache,
    SpectatorSnapshot,
    spectator_snapshot,
)
from bot.i18n import translate
from bot.render.text import watchers_text

from . import auth, tables
from .live import opened, push_states, push_until_closed
from .pages import bearer, html_page, unauthorized
from .recaps import NO_RECAP, RecapPictures, reader_locale, recap_json, recap_labels, refusal_page

log = logging.getLogger(__name__)
# Each open page costs a read and a push on every move: past this many on one game, a new one
# is turned away (the page says so) rather than slowing the game's other pages.
MAX_PAGES_PER_GAME = 50
FULL = 4429

LABELS = {
    "title": N_("UNO: watching the table"),
    "hand": N_("Hand {number}"),
    "race": N_("UNO! race"),
    "no_race": N_("No UNO! calls in this game yet."),
    "unauthorized": N_("This link is not valid any more: ask for a new one with the watch "
                       "command in the chat."),
    "full": N_("Too many people are watching this game right now: try again later."),
}


def spectator_json(snapshot: SpectatorSnapshot, watchers: int) -> dict[str, Any]:
    """The page's whole state: the public table, the race and how many watch. ``version``
    changes with what the page shows, so an unchanged state is not pushed again."""
    locale = snapshot.locale
    data: dict[str, Any] = {
        "game": snapshot.game_id, "status": snapshot.status, "locale": locale,
        "labels": {**tables.labels(LABELS, locale), **recap_labels(locale)},
        "watchers": watchers, "watching": translate(watchers_text(watchers), locale),
        "race": [translate(line, locale) for line in snapshot.race],
        "lobby": None, "table": None,
        # The match has ended: names, scores and counts (the picture: /api/watch/recap.png).
        "recap": recap_json(snapshot.recap, "/api/watch/recap.png"),
    }
    if snapshot.lobby is not None:
        data["lobby"] = tables.lobby_json(snapshot.lobby, locale)
    table = snapshot.table
    if table is not None:
        over = snapshot.status != "running" or table.current is None
        data["table"] = tables.table_json(table, locale, over) | {
            "pending_draw": 0 if over else table.pending_draw}
    digest = hashlib.blake2b(json.dumps(data, sort_keys=True).encode(), digest_size=9)
    data["version"] = digest.hexdigest()
    return data


class Spectators:
    """The spectators' routes, and how many pages watch each game."""

    def __init__(self, *, secret: bytes, store: GameStore, now: Callable[[], float],
                 wake: Callable[[str], asyncio.Event], done: Callable[[str, asyncio.Event], None],
                 changed: Callable[[str], None], matches: MatchCache,
                 recaps: RecapCache | None = None, pictures: RecapPictures | None = None) -> None:
        self._secret = secret
        self._store = store
        self._now = now
        # The live hub: a page is woken on each change of its game; a page opening or closing
        # is one (the pages show how many watch).
        self._wake, self._done, self._changed = wake, done, changed
        self._matches = matches
        self._recaps: RecapCache = {} if recaps is None else recaps
        self._pictures = pictures or RecapPictures()
        self._pages: dict[str, int] = {}  # game id -> open pages
        self._sockets: weakref.WeakSet[web.WebSocketResponse] = weakref.WeakSet()

    def watching(self, game_id: str) -> int:
        return self._pages.get(game_id, 0)

    def routes(self, app: web.Application) -> None:
        app.router.add_get("/watch", self._page)
        app.router.add_get("/api/watch/state", self._state)
        app.router.add_get("/api/watch/live", self._live)
        app.router.add_get("/api/watch/recap.png", self._recap)
        app.on_shutdown.append(self._close_pages)

    async def _close_pages(self, _app: web.Application) -> None:
        for socket in list(self._sockets):
            await socket.close(code=WSCloseCode.GOING_AWAY, message=b"server shutdown")

    def _claims(self, token: Any) -> auth.TokenClaims | None:
        try:
            claims = auth.read_token(self._secret, token, self._now())
        except auth.AuthError as error:
            log.info("watch page: a request was refused (%s)", error)
            return None
        if claims.kind != "watch":
            log.info("watch page: a request was refused (not a watch token)")
            return None
        return claims

    async def _snapshot(self, claims: auth.TokenClaims) -> SpectatorSnapshot | None:
        snapshot = await spectator_snapshot(self._store, claims.game_id, matches=self._matches,
                                            recaps=self._recaps)
        if snapshot is None or snapshot.chat.platform != claims.platform:
            return None
        return snapshot

    async def _page(self, request: web.Request) -> web.Response:
        return html_page("watch.html")

    async def _state(self, request: web.Request) -> web.Response:
        claims = self._claims(bearer(request))
        snapshot = await self._snapshot(claims) if claims else None
        if claims is None or snapshot is None:
            return unauthorized()
        return web.json_response(spectator_json(snapshot, self.watching(claims.game_id)))

    async def _recap(self, request: web.Request) -> web.Response:
        claims = self._claims(bearer(request))
        snapshot = await self._snapshot(claims) if claims else None
        if snapshot is None:
            return refusal_page(403, LABELS["unauthorized"], reader_locale(request))
        if snapshot.recap is None:
            return refusal_page(404, NO_RECAP, snapshot.locale)
        return await self._pictures.response(snapshot.recap)

    async def _live(self, request: web.Request) -> web.StreamResponse:
        socket = web.WebSocketResponse(heartbeat=30)
        await socket.prepare(request)
        self._sockets.add(socket)
        found = await opened(socket, "token", self._claims, self._snapshot)
        if found is None:
            return socket
        claims, snapshot = found
        game_id = claims.game_id
        if self.watching(game_id) >= MAX_PAGES_PER_GAME:
            await socket.close(code=FULL, message=b"too many watchers")
            return socket
        self._pages[game_id] = self.watching(game_id) + 1
        self._changed(game_id)
        wake = self._wake(game_id)
        try:
            await push_until_closed(socket, self._push(socket, claims, wake, snapshot))
        finally:
            self._done(game_id, wake)
            left = self.watching(game_id) - 1
            if left > 0:
                self._pages[game_id] = left
                self._changed(game_id)
            else:
                self._pages.pop(game_id, None)
                self._matches.pop(game_id, None)
        return socket

    async def _push(self, socket: web.WebSocketResponse, claims: auth.TokenClaims,
                    wake: asyncio.Event, snapshot: SpectatorSnapshot | None) -> None:
        await push_states(socket, wake, snapshot, lambda: self._snapshot(claims),
                          lambda state: spectator_json(state, self.watching(claims.game_id)),
                          lambda data: data["version"], page="watch page", game_id=claims.game_id)


__all__ = ["LABELS", "Spectators", "spectator_json"]
