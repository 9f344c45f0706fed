"""Logging for the CLI: one format, the noisy HTTP client loggers quieted, and a filter on the
root handlers that takes every secret out of every line.

httpx logs each request URL at INFO, and a Bot API URL holds the bot token
(``/bot<TOKEN>/sendMessage``); a driver error may hold a database URL with its password.
So, at any level: the tokens, the webhook secret and the database password registered with
``redact`` are replaced by ``[redacted]``, and so is anything shaped like a Bot API token or
a URL's password, registered or not.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Iterable

FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
MASK = "[redacted]"
# Request logs of the HTTP clients under python-telegram-bot: a line per Bot API call, with
# the token in the URL. Warnings and errors still come through.
QUIET_LOGGERS = ("httpx", "httpcore")
# Alembic announces each of its plugins at INFO on every start: seven lines of no use.
CHATTY_LOGGERS = ("alembic.runtime.plugins",)
# Our own packages: the only ones that log at DEBUG. The platform libraries' debug output
# dumps every request and update, private hands included, so they stay at INFO at most.
OWN_LOGGERS = ("bot", "adapters", "storage")
_SHORTEST_SECRET = 6  # shorter values would mask common words, and are no secret anyway
_PATTERNS = (
    re.compile(r"(?<![0-9])[0-9]{5,}:[A-Za-z0-9_-]{30,}"),  # a Telegram bot token (id:hash)
    # A Discord interaction's token, in its webhook and callback URLs and in gateway payloads:
    # for 15 minutes it lets whoever holds it answer as the bot.
    re.compile(r"(?<=/webhooks/)(\d+/)[^/\s?'\"]+"),
    re.compile(r"(?<=/interactions/)(\d+/)[^/\s?'\"]+"),
    re.compile(r"""(?<=['"]token['"]: ['"])()[^'"]+"""),
)
_PASSWORD = re.compile(r"(?<=://)([^/@\s:]*):([^/@\s]+)(?=@)")  # user:password@ in a URL

_secrets: set[str] = set()
_lock = threading.Lock()


def redact(*secrets: str | None) -> None:
    """Never show these values in a log line from now on."""
    with _lock:
        _secrets.update(s for s in secrets if s and len(s) >= _SHORTEST_SECRET)


def scrub(text: str) -> str:
    """``text`` with every registered secret and every token- or password-shaped part masked."""
    for secret in sorted(_secrets, key=len, reverse=True):  # longest first: no partial leak
        if secret in text:
            text = text.replace(secret, MASK)
    text = _PATTERNS[0].sub(MASK, text)
    for pattern in _PATTERNS[1:]:
        text = pattern.sub(lambda m: f"{m.group(1)}{MASK}", text)
    return _PASSWORD.sub(lambda m: f"{m.group(1)}:{MASK}", text)


class RedactingFilter(logging.Filter):
    """Rewrites a record before any handler formats it: message, exception and stack."""

    _formatter = logging.Formatter()

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        clean = scrub(message)
        if clean != message or record.args:
            record.msg, record.args = clean, None
        if record.exc_info and not record.exc_text:
            record.exc_text = self._formatter.formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = scrub(record.exc_text)
        if record.stack_info:
            record.stack_info = scrub(record.stack_info)
        return True


def configure_logging(level: int | str, secrets: Iterable[str] = ()) -> None:
    """Log to stderr at ``level`` (DEBUG for our packages only) with every line scrubbed (see
    the module docstring)."""
    redact(*secrets)
    level = logging.getLevelName(level) if isinstance(level, str) else level
    logging.basicConfig(level=max(level, logging.INFO), format=FORMAT)
    for name in OWN_LOGGERS:
        logging.getLogger(name).setLevel(level)
    for name in QUIET_LOGGERS + CHATTY_LOGGERS:
        logging.getLogger(name).setLevel(max(level, logging.WARNING))
    for handler in logging.getLogger().handlers:
        if not any(isinstance(f, RedactingFilter) for f in handler.filters):
            handler.addFilter(RedactingFilter())
