"""The operator port: ``/healthz`` and ``/metrics`` on aiohttp, for a process supervisor,
a load balancer or Prometheus. It listens on loopback unless told otherwise: what it shows
is for the operator (no token, no chat content, only counts)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping

from aiohttp import web

from bot.config import ConfigError

from .metrics import CONTENT_TYPE, OpsMetrics
from .report import PlatformReport

log = logging.getLogger(__name__)

DatabaseProbe = Callable[[], Awaitable[Mapping[str, int]]]  # open games per platform
DATABASE_TIMEOUT = 2.0  # seconds: a health check that hangs is itself a failure


class OpsServer:
    """``report`` is the chat adapter's (its calls counted into ``metrics``, its connection
    checked by ``/healthz``); ``database`` counts the open games, or raises."""

    def __init__(self, metrics: OpsMetrics, database: DatabaseProbe, report: PlatformReport, *,
                 listen: str = "127.0.0.1", port: int = 9100,
                 database_timeout: float = DATABASE_TIMEOUT) -> None:
        self.metrics = metrics
        self.database = database
        self.report = report
        self.listen = listen
        self.port = port
        self.database_timeout = database_timeout
        self.app = web.Application()
        self.app.router.add_get("/healthz", self._healthz)
        self.app.router.add_get("/metrics", self._metrics)
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        self._runner = web.AppRunner(self.app, access_log=None)  # scrapes would flood the log
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.listen, self.port)
        try:
            await site.start()
        except OSError as error:  # the port is taken, or no such local address
            await self.stop()
            raise ConfigError(f"cannot listen for health and metrics on {self.listen}:{self.port} "
                              f"(METRICS_LISTEN/PORT): {error.strerror or error}") from None
        log.info("health and metrics on http://%s:%d/healthz and /metrics", self.listen, self.port)

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def database_problem(self) -> str | None:
        """None when the database answered in time (the open games counted on the way)."""
        try:
            counts = await asyncio.wait_for(self.database(), self.database_timeout)
        except TimeoutError:
            self.metrics.set_games_open(None)
            return f"database: no answer within {self.database_timeout:g} s"
        except Exception as error:  # the driver's own errors: only the type is shown
            self.metrics.set_games_open(None)
            return f"database: {type(error).__name__}"
        self.metrics.set_games_open(counts)
        return None

    async def problems(self) -> list[str]:
        found = []
        platform = self.report.problem()
        if platform is not None:
            found.append(f"{self.metrics.platform}: {platform}")
        database = await self.database_problem()
        if database is not None:
            found.append(database)
        return found

    async def _healthz(self, request: web.Request) -> web.Response:
        problems = await self.problems()
        if problems:
            return web.Response(status=503, text="\n".join(problems) + "\n")
        return web.Response(text="ok\n")

    async def _metrics(self, request: web.Request) -> web.Response:
        await self.database_problem()  # refreshes the open games
        response = web.Response(body=self.metrics.render())
        response.headers["Content-Type"] = CONTENT_TYPE
        return response
