"""Who is asking: Telegram Mini App ``initData`` and the web hand's own signed tokens.

Telegram (core.telegram.org/bots/webapps, "Validating data received via the Mini App"):
the data-check-string is every received field but ``hash``, sorted by key, as ``key=value``
lines joined by "\\n"; the secret key is HMAC-SHA256 of the bot token keyed with
"WebAppData"; ``hash`` must equal the hex HMAC-SHA256 of the data-check-string under that
key, and ``auth_date`` must be recent.

Tokens (the Discord link, the session a page holds after proving itself, and a spectator's
read-only link, which names no user): a compact
``payload.signature``, both base64url, the signature an HMAC-SHA256 of the payload; the
payload names the platform, the user, the game and an expiry. Nothing secret is in it.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from dataclasses import dataclass
from urllib.parse import parse_qsl

INIT_DATA_MAX_AGE = 3600.0  # a Mini App opened more than an hour ago must be opened again
LINK_TTL = 1800.0  # a Discord link button is good for half an hour
SESSION_TTL = 4 * 3600.0  # a proven page may reconnect for a few hours (long matches)
# A spectator's link is posted in the chat for anyone there and shows only the public table:
# it may live as long as a long match.
WATCH_TTL = 12 * 3600.0


class AuthError(Exception):
    """The credential is missing, forged, tampered with or expired. The message says which
    for the log; the client only ever learns "401"."""


@dataclass(frozen=True)
class WebUser:
    platform: str
    user_id: str
    name: str
    language_code: str | None = None


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def telegram_secret(bot_token: str) -> bytes:
    return hmac.new(b"WebAppData", bot_token.encode(), hashlib.sha256).digest()


def sign_init_data(fields: dict[str, str], bot_token: str) -> str:
    """The query string Telegram would hand a Mini App with ``fields`` (for tests and tools)."""
    from urllib.parse import urlencode

    check = "\n".join(f"{key}={value}" for key, value in sorted(fields.items()))
    digest = hmac.new(telegram_secret(bot_token), check.encode(), hashlib.sha256).hexdigest()
    return urlencode({**fields, "hash": digest})


def verify_init_data(init_data: object, bot_token: str, now: float,
                     max_age: float = INIT_DATA_MAX_AGE) -> WebUser:
    """The Telegram user ``init_data`` proves, or AuthError."""
    if not isinstance(init_data, str) or not init_data or len(init_data) > 8192:
        raise AuthError("no initData")
    fields = dict(parse_qsl(init_data, keep_blank_values=True, strict_parsing=False))
    received = fields.pop("hash", "")
    check = "\n".join(f"{key}={value}" for key, value in sorted(fields.items()))
    expected = hmac.new(telegram_secret(bot_token), check.encode(), hashlib.sha256).hexdigest()
    # Compared as bytes: compare_digest refuses str with non-ASCII characters (a TypeError).
    if not hmac.compare_digest(expected.encode(), received.encode("utf-8", "replace")):
        raise AuthError("initData signature does not match")
    try:
        auth_date = float(fields["auth_date"])
        user = json.loads(fields["user"])
        if not isinstance(user, dict):
            raise TypeError("user is not an object")
        user_id = str(int(user["id"]))
    except (KeyError, ValueError, TypeError, RecursionError) as error:
        raise AuthError(f"initData lacks a field ({type(error).__name__})") from None
    if not now - max_age <= auth_date <= now + 60:
        raise AuthError("initData is stale")
    name = " ".join(str(user.get(k) or "") for k in ("first_name", "last_name")).strip()
    return WebUser("telegram", user_id, name or user_id, user.get("language_code"))


def sign_token(secret: bytes, *, platform: str, user_id: str, game_id: str, expires: float,
               kind: str) -> str:
    """A token for ``user_id`` in ``game_id`` until ``expires`` (epoch seconds)."""
    payload = json.dumps({"k": kind, "p": platform, "u": user_id, "g": game_id,
                          "e": int(expires)}, separators=(",", ":"), sort_keys=True).encode()
    signature = hmac.new(secret, payload, hashlib.sha256).digest()
    return f"{_b64(payload)}.{_b64(signature)}"


@dataclass(frozen=True)
class TokenClaims:
    kind: str  # "link" (from a chat button) | "session" (issued to a proven page)
    #            | "watch" (a spectator's read-only link: no user, the public table only)
    platform: str
    user_id: str
    game_id: str
    expires: float


def read_token(secret: bytes, token: object, now: float) -> TokenClaims:
    """The claims of a token this server signed and that has not expired, or AuthError."""
    if not isinstance(token, str) or token.count(".") != 1 or len(token) > 1024:
        raise AuthError("malformed token")
    payload_text, signature_text = token.split(".")
    try:
        payload, signature = _unb64(payload_text), _unb64(signature_text)
    except ValueError:
        raise AuthError("malformed token") from None
    expected = hmac.new(secret, payload, hashlib.sha256).digest()
    if not hmac.compare_digest(expected, signature):
        raise AuthError("token signature does not match")
    try:
        data = json.loads(payload)
        claims = TokenClaims(str(data["k"]), str(data["p"]), str(data["u"]), str(data["g"]),
                             float(data["e"]))
    except (KeyError, ValueError, TypeError, RecursionError):
        raise AuthError("token lacks a field") from None
    if claims.expires < now:
        raise AuthError("token expired")
    return claims
