"""The log redactor: registered secrets and token- or password-shaped text never reach a line."""

from __future__ import annotations

import io
import logging

from bot.logs import MASK, RedactingFilter, redact, scrub


def test_scrub_masks_registered_secrets_and_secret_shapes():
    redact("discord.token-abc.def", "webhook_secret_1", None, "")
    assert scrub("token discord.token-abc.def and webhook_secret_1") == f"token {MASK} and {MASK}"
    # Unregistered, but shaped like a Bot API token or a URL password.
    assert scrub("POST https://api.telegram.org/bot123456:AAE-abcdefghijklmnopqrstuvwxyz_0123/getMe") == \
        f"POST https://api.telegram.org/bot{MASK}/getMe"
    assert scrub("connect postgresql://uno:hunter2@db:5432/uno failed") == \
        f"connect postgresql://uno:{MASK}@db:5432/uno failed"
    assert scrub("https://api.telegram.org:443/file") == "https://api.telegram.org:443/file"
    # A Discord interaction's token: in its URLs and in the gateway payload.
    assert scrub("PATCH https://discord.com/api/v10/webhooks/700/aW50ZXJhY3Rpb24.x-y_z/messages/@original") == \
        f"PATCH https://discord.com/api/v10/webhooks/700/{MASK}/messages/@original"
    assert scrub("POST /api/v10/interactions/123/aW50.ZX_J-h/callback?with_response=1") == \
        f"POST /api/v10/interactions/123/{MASK}/callback?with_response=1"
    assert scrub("{'id': '5', 'token': 'aW50.ZX_J-h', \"token\": \"abc\"}") == \
        f"{{'id': '5', 'token': '{MASK}', \"token\": \"{MASK}\"}}"


def test_the_filter_cleans_messages_arguments_and_tracebacks():
    redact("sk-live-0123456789")
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(RedactingFilter())
    logger = logging.getLogger("tests.logs.redaction")
    logger.addHandler(handler)
    logger.propagate = False
    try:
        logger.warning("calling %s", "https://x/botsk-live-0123456789/getMe")
        try:
            raise RuntimeError("failed with key sk-live-0123456789")
        except RuntimeError:
            logger.exception("boom")
        logger.warning("stack", stack_info=True, extra={"k": "sk-live-0123456789"})
    finally:
        logger.removeHandler(handler)
    text = stream.getvalue()
    assert "sk-live-0123456789" not in text
    assert f"calling https://x/bot{MASK}/getMe" in text
    assert f"RuntimeError: failed with key {MASK}" in text and "Stack (most recent call last)" in text
