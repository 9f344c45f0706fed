"""The operator port on its own: /healthz's answers, /metrics in the Prometheus text format,
the moves counted around the coordinator, and what a platform report calls trouble."""

from __future__ import annotations

import asyncio
import socket

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from adapters.ops import PlatformReport, outcome_of
from adapters.ops.metrics import OpsMetrics
from adapters.ops.server import OpsServer
from bot.config import ConfigError
from bot.coordinator import ChatKey, Coordinator, FakeClock, MemoryStore, User
from bot.coordinator import commands as cmds
from tests.fakes import FakeChat


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of a scrape, by name and sorted labels."""
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_outcomes_are_ok_429_403_5xx_or_other() -> None:
    assert [outcome_of(s) for s in (200, 204, 429, 403, 500, 502, 400, 404, None)] == \
        ["ok", "ok", "429", "403", "5xx", "5xx", "other", "other", "other"]


def test_trouble_lasts_until_the_platform_answers_again() -> None:
    clock = Clock()
    report = PlatformReport(clock=clock)
    report.call("getMe", 200)
    assert report.trouble() is None
    clock.now += 1
    report.call("getUpdates", None, "NetworkError")
    assert report.trouble() == "NetworkError"
    clock.now += 1
    report.call("sendMessage", 403)  # refused, but answered: the connection works
    assert report.trouble() is None
    clock.now += 1
    report.call("sendMessage", 502)
    assert report.trouble() == "HTTP 502"
    report.call("sendMessage", None)  # failed on our side (never sent): not the connection
    assert report.trouble() == "HTTP 502"
    clock.now += 5
    assert report.silent_for() == 6  # since the 403


async def test_healthz_and_metrics() -> None:
    metrics = OpsMetrics("telegram")
    report = metrics.platform_report()
    database_error: list[BaseException] = []
    counts = {"telegram": 2, "discord": 1}

    async def database() -> dict[str, int]:
        if database_error:
            raise database_error[0]
        return counts

    server = OpsServer(metrics, database, report, port=free_port())
    await server.start()
    base = f"http://127.0.0.1:{server.port}"
    try:
        async with aiohttp.ClientSession() as http:
            async def get(path: str) -> tuple[int, str]:
                async with http.get(base + path) as answer:
                    return answer.status, await answer.text()

            assert await get("/healthz") == (503, "telegram: not started\n")
            report.connection_check = lambda: None
            assert await get("/healthz") == (200, "ok\n")

            report.call("sendMessage", 200)
            report.call("sendMessage", 429)
            report.rate_limited(3)
            metrics.timer_fired_late(0.2)
            metrics.unhandled_error(KeyError("x"))
            metrics.count_deliveries(lambda: 4)
            status, text = await get("/metrics")
            found = samples(text)
            assert status == 200
            assert found[("unobot_games_open", (("platform", "telegram"),))] == 2
            assert found[("unobot_games_open", (("platform", "discord"),))] == 1
            call = ("unobot_platform_calls_total", (("method", "sendMessage"), ("outcome", "429"),
                                                    ("platform", "telegram")))
            assert found[call] == 1
            assert found[("unobot_rate_limit_wait_seconds_sum", (("platform", "telegram"),))] == 3
            assert found[("unobot_timer_lag_seconds_count", ())] == 1
            assert found[("unobot_unhandled_errors_total", (("error", "KeyError"),))] == 1
            assert found[("unobot_deliveries_waiting", ())] == 4

            database_error.append(OSError("connection refused"))
            report.connection_check = lambda: "not connected"
            status, text = await get("/healthz")
            assert status == 503
            assert text.splitlines() == ["telegram: not connected", "database: OSError"]
            status, text = await get("/metrics")  # still answers, without a stale game count
            assert status == 200 and "unobot_games_open{" not in text

            async def hangs() -> dict[str, int]:
                await asyncio.sleep(10)
                return {}

            server.database, server.database_timeout = hangs, 0.05
            assert "database: no answer within 0.05 s" in (await get("/healthz"))[1]
    finally:
        await server.stop()


async def test_each_operator_port_has_its_own_registry() -> None:
    first, second = OpsMetrics("telegram"), OpsMetrics("telegram")
    first.platform_call("getMe", "ok")
    assert b'method="getMe"' in first.render() and b'method="getMe"' not in second.render()


async def test_a_taken_port_is_one_line() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        metrics = OpsMetrics("discord")
        server = OpsServer(metrics, lambda: asyncio.sleep(0, {}), metrics.platform_report(),
                           port=taken.getsockname()[1])
        with pytest.raises(ConfigError, match="METRICS_LISTEN/PORT"):
            await server.start()


async def test_moves_are_counted_by_kind_and_outcome() -> None:
    metrics = OpsMetrics("telegram")
    chat = FakeChat()
    coordinator = Coordinator(chat, MemoryStore(), FakeClock(), ai_delay=0, seed=1)
    commands = metrics.metered(coordinator)
    key, ana = ChatKey("telegram", "-1"), User("u1", "Ana")
    assert (await commands.handle(cmds.NewGame(key, ana))).ok
    assert not (await commands.handle(cmds.Draw(key, ana))).ok  # no game running yet
    found = samples(metrics.render().decode())
    assert found[("unobot_moves_total", (("kind", "NewGame"), ("outcome", "ok")))] == 1
    assert found[("unobot_moves_total", (("kind", "Draw"), ("outcome", "refused")))] == 1
    await commands.close()
