"""What a chat adapter reports about its platform: every HTTP call's outcome, the seconds a
429 asked it to wait, and whether its connection is up (for ``/healthz``).

Adapters call it at their HTTP request layer, so every call is seen once however it was made
(a message, an edit, a callback answer, the long poll). Method names are API method names or
route templates, never a URL: a URL can hold the token.
"""

from __future__ import annotations

import time
from collections.abc import Callable

CallObserver = Callable[[str, str], None]  # (method, outcome)
WaitObserver = Callable[[float], None]  # seconds a 429 asked to wait
ConnectionCheck = Callable[[], str | None]  # None when connected, else what is wrong


def outcome_of(status: int | None) -> str:
    """The outcome label of an HTTP status (None: no answer at all, e.g. a network error)."""
    if status is not None and 200 <= status < 300:
        return "ok"
    if status in (429, 403):
        return str(status)
    if status is not None and status >= 500:
        return "5xx"
    return "other"


class PlatformReport:
    def __init__(self, on_call: CallObserver | None = None, on_wait: WaitObserver | None = None,
                 *, clock: Callable[[], float] = time.monotonic) -> None:
        self._on_call = on_call
        self._on_wait = on_wait
        self._clock = clock
        self.last_answer: float | None = None  # when the platform last answered (any status < 500)
        self._trouble: tuple[float, str] | None = None  # the last call it did not answer, and why
        self.connection_check: ConnectionCheck = lambda: "not started"  # the adapter sets its own

    def call(self, method: str, status: int | None, problem: str | None = None) -> None:
        """One HTTP call ended: ``status`` is the HTTP status, or None when no answer came;
        ``problem`` (the error's type name) says the connection failed it, and None with no
        status means it failed on our side (never sent)."""
        if self._on_call is not None:
            self._on_call(method, outcome_of(status))
        if status is not None and status < 500:
            self.last_answer = self._clock()
        elif status is not None or problem is not None:
            self._trouble = (self._clock(), problem or f"HTTP {status}")

    def rate_limited(self, seconds: float) -> None:
        if self._on_wait is not None:
            self._on_wait(max(0.0, seconds))

    def trouble(self) -> str | None:
        """Why the last call failed, when no call has been answered since."""
        if self._trouble is None:
            return None
        failed_at, problem = self._trouble
        if self.last_answer is not None and self.last_answer >= failed_at:
            return None
        return problem

    def silent_for(self) -> float | None:
        """Seconds since the platform last answered (None: it never has)."""
        return None if self.last_answer is None else self._clock() - self.last_answer

    def problem(self) -> str | None:
        """What ``/healthz`` says of the platform: None when it is connected."""
        return self.connection_check()
