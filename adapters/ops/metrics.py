"""The counters behind ``/metrics``, on a registry of their own (one per ``OpsMetrics``), so
two bots in one test process, or a library's metrics, never mix with ours."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from prometheus_client import CONTENT_TYPE_LATEST as CONTENT_TYPE
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

from bot.coordinator import Command, Commands, Reply

from .report import PlatformReport

__all__ = ["CONTENT_TYPE", "MeteredCommands", "OpsMetrics"]

# Seconds: a 429 asks for well under a second up to minutes (a group's flood control).
WAIT_BUCKETS = (0.1, 0.5, 1, 2, 5, 10, 30, 60, 300)
# Seconds a deadline timer fires late: a busy event loop shows here first.
LAG_BUCKETS = (0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30)


class OpsMetrics:
    def __init__(self, platform: str) -> None:
        self.platform = platform
        self.registry = CollectorRegistry()
        r = self.registry
        self.games_open = Gauge("unobot_games_open", "Games in a lobby or running, by platform "
                                "(read from the database at each scrape)", ["platform"], registry=r)
        self.moves = Counter("unobot_moves", "Commands handled, by kind and outcome "
                             "(ok, refused, internal)", ["kind", "outcome"], registry=r)
        self.platform_calls = Counter("unobot_platform_calls", "HTTP calls to the chat platform, "
                                      "by method and outcome (ok, 429, 403, 5xx, other)",
                                      ["platform", "method", "outcome"], registry=r)
        self.rate_limit_waits = Histogram("unobot_rate_limit_wait_seconds", "Seconds a 429 "
                                          "answer asked to wait before trying again",
                                          ["platform"], buckets=WAIT_BUCKETS, registry=r)
        self.deliveries_waiting = Gauge("unobot_deliveries_waiting", "Deliveries (table edits, "
                                        "hands, notices) queued behind the platform", registry=r)
        self.timer_lag = Histogram("unobot_timer_lag_seconds", "How late a deadline timer "
                                   "(turn, lobby, next hand) fired", buckets=LAG_BUCKETS, registry=r)
        self.unhandled_errors = Counter("unobot_unhandled_errors", "Unexpected errors the "
                                        "coordinator logged, by exception type", ["error"], registry=r)

    # ---- hooks handed to the parts -------------------------------------------------------------
    def platform_report(self) -> PlatformReport:
        return PlatformReport(on_call=self.platform_call, on_wait=self.rate_limit_wait)

    def platform_call(self, method: str, outcome: str) -> None:
        self.platform_calls.labels(self.platform, method, outcome).inc()

    def rate_limit_wait(self, seconds: float) -> None:
        self.rate_limit_waits.labels(self.platform).observe(seconds)

    def timer_fired_late(self, seconds: float) -> None:
        self.timer_lag.observe(seconds)

    def unhandled_error(self, error: BaseException) -> None:
        self.unhandled_errors.labels(type(error).__name__).inc()

    def count_deliveries(self, waiting: Callable[[], int]) -> None:
        """Read the number of queued deliveries at each scrape."""
        self.deliveries_waiting.set_function(lambda: float(waiting()))

    def metered(self, commands: Commands) -> MeteredCommands:
        return MeteredCommands(commands, self.moves)

    # ---- a scrape ---------------------------------------------------------------------------
    def set_games_open(self, counts: Mapping[str, int] | None) -> None:
        """The open games per platform; None (the database did not answer): no value, rather
        than a stale one."""
        self.games_open.clear()
        for platform, count in (counts or {}).items():
            self.games_open.labels(platform).set(count)

    def render(self) -> bytes:
        return generate_latest(self.registry)


class MeteredCommands:
    """The coordinator as the frontends see it, counting each command's outcome: the one place
    moves are counted, whichever frontend (chat, buttons, web hand) sent them."""

    def __init__(self, inner: Commands, moves: Counter) -> None:
        self.inner = inner
        self._moves = moves

    async def handle(self, cmd: Command) -> Reply:
        reply = await self.inner.handle(cmd)
        outcome = "ok" if reply.ok else "internal" if reply.error == "internal" else "refused"
        self._moves.labels(type(cmd).__name__, outcome).inc()
        return reply

    async def resume(self) -> None:
        await self.inner.resume()

    async def close(self, delivery_timeout: float = 5.0) -> None:
        await self.inner.close(delivery_timeout)

    async def user_reachable(self, platform: str, user_id: str) -> int:
        return await self.inner.user_reachable(platform, user_id)
