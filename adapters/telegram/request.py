"""The Bot API's HTTP layer, reporting each call to the operator port (``adapters.ops``).

Every Bot API call (a message, an edit, a callback answer, each long poll) passes through
``do_request`` once per attempt, AIORateLimiter's retries included, so a 429 shows as a 429
and its retry as another call. Only the method name is reported: the URL holds the token.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
from telegram.error import TelegramError
from telegram.request import HTTPXRequest

from adapters.ops import PlatformReport


def method_of(url: str, http_method: str) -> str:
    # Bot API calls are POSTs to .../bot<token>/<method>; a GET is a file download, whose
    # path names the file (unbounded, so never a label).
    return url.rsplit("/", 1)[-1] if http_method == "POST" else "file download"


def retry_after_of(payload: bytes) -> float | None:
    try:
        answer = json.loads(payload)
        return float(answer["parameters"]["retry_after"])
    except (ValueError, KeyError, TypeError):
        return None


class ReportingRequest(HTTPXRequest):
    def __init__(self, report: PlatformReport, **options: Any) -> None:
        super().__init__(**options)
        self.report = report

    async def do_request(self, url: str, method: str, *args: Any, **kwargs: Any) -> tuple[int, bytes]:
        name = method_of(url, method)
        try:
            status, payload = await super().do_request(url, method, *args, **kwargs)
        except TelegramError as error:
            # A pool timeout is our own queue (the call was never sent), not the connection.
            unsent = isinstance(error.__cause__, httpx.PoolTimeout)
            self.report.call(name, None, None if unsent else type(error).__name__)
            raise
        self.report.call(name, status)
        if status == 429:
            wait = retry_after_of(payload)
            if wait is not None:
                self.report.rate_limited(wait)
        return status, payload
