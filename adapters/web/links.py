"""The addresses of the web hand that chat adapters put on their buttons.

Telegram: the Mini App's address with the game in the query; Telegram adds the proof of
the user (``initData``) itself. Discord: a signed, short-lived token after '#', so it never
reaches a server log or a Referer header; the page trades it for a session.
"""

from __future__ import annotations

import hashlib
import hmac
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import quote

from . import auth


def derive_secret(configured: str | None, platform_token: str) -> bytes:
    """WEBAPP_SECRET when set; else a key derived from the bot's token, so links keep
    working across restarts without another secret to manage."""
    if configured:
        return configured.encode()
    return hmac.new(b"unobot web hand links", platform_token.encode(), hashlib.sha256).digest()


@dataclass(frozen=True)
class WebLinks:
    base_url: str
    secret: bytes = field(repr=False)
    now: Callable[[], float] = time.time

    def telegram(self, game_id: str) -> str:
        return f"{self.base_url.rstrip('/')}/?game={quote(game_id)}"

    def signed(self, platform: str, user_id: str, game_id: str) -> str:
        token = auth.sign_token(self.secret, platform=platform, user_id=user_id,
                                game_id=game_id, expires=self.now() + auth.LINK_TTL,
                                kind="link")
        return f"{self.base_url.rstrip('/')}/#token={token}"

    def watch(self, platform: str, game_id: str) -> str:
        token = auth.sign_token(self.secret, platform=platform, user_id="", game_id=game_id,
                                expires=self.now() + auth.WATCH_TTL, kind="watch")
        return f"{self.base_url.rstrip('/')}/watch#token={token}"


def links_from_settings(settings, platform_token: str) -> WebLinks | None:
    """The web hand's links when WEBAPP_URL is set, else None (no web hand)."""
    if not settings.webapp_url:
        return None
    secret = settings.webapp_secret.get_secret_value() if settings.webapp_secret else None
    return WebLinks(settings.webapp_url, derive_secret(secret, platform_token))
