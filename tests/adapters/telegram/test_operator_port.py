"""The operator port of a Telegram bot: the real `unobot run telegram` process with
METRICS_PORT on the fake Bot API (counters move with game commands and 429s, /healthz says
503 with the reason when the SQLite file goes away and when the Bot API does), and an
in-process bot on PostgreSQL whose database is dropped under it."""

from __future__ import annotations

import asyncio

import aiohttp
import pytest

from adapters.ops.metrics import OpsMetrics
from adapters.ops.server import OpsServer
from bot.coordinator.clock import FakeClock
from storage import open_store
from tests.adapters.ops.test_ops_server import samples
from tests.storage.conftest import _admin_execute, pg_database  # noqa: F401  (a fixture)

from .conftest import ANA, BO, GROUP, Harness
from .test_secrets import BotProcess, assert_no_secret, free_port


async def fetch(http: aiohttp.ClientSession, url: str) -> tuple[int, str]:
    async with http.get(url) as answer:
        return answer.status, await answer.text()


async def until(http: aiohttp.ClientSession, url: str, check, timeout: float = 20.0) -> str:
    """Ask ``url`` until ``check(status, text)`` holds; its last text."""
    status, text = -1, ""
    for _ in range(int(timeout / 0.1)):
        try:
            status, text = await fetch(http, url)
        except aiohttp.ClientConnectionError:
            status, text = -1, ""
        if check(status, text):
            return text
        await asyncio.sleep(0.1)
    raise AssertionError(f"{url} never passed the check; last answer {status}: {text[:2000]}")


@pytest.mark.slow
async def test_a_running_bot_serves_health_and_metrics(api, tmp_path):
    port = free_port()
    database = tmp_path / "uno.db"
    env = {"TELEGRAM_BOT_TOKEN": api.token, "TELEGRAM_API_BASE_URL": f"http://127.0.0.1:{api.port}",
           "DATABASE_URL": f"sqlite+aiosqlite:///{database}", "METRICS_PORT": str(port)}
    base = f"http://127.0.0.1:{port}"
    async with BotProcess(env, tmp_path) as bot, aiohttp.ClientSession() as http:
        await until(http, f"{base}/healthz", lambda status, text: status == 200 and text == "ok\n")
        api.rate_limit_once(method="sendMessage", chat_id=GROUP, retry_after=1)
        api.send_text(ANA, GROUP, "/new")
        await api.wait_for(lambda: [c for c in api.calls_to("sendMessage", GROUP)
                                    if c.status == 200], what="the lobby, after a 429")
        api.send_text(BO, GROUP, "/join")
        await api.wait_for(lambda: "Bo" in str(api.calls[-1].params), what="Bo joined")
        api.send_text(ANA, GROUP, "/start")
        found = samples(await until(http, f"{base}/metrics",
                                    lambda status, text: 'kind="StartGame"' in text))
        moves = {dict(labels)["kind"]: value for (name, labels), value in found.items()
                 if name == "unobot_moves_total" and dict(labels)["outcome"] == "ok"}
        assert moves["NewGame"] == 1 and moves["Join"] == 1 and moves["StartGame"] == 1
        calls = {(dict(labels)["method"], dict(labels)["outcome"]): value
                 for (name, labels), value in found.items() if name == "unobot_platform_calls_total"}
        assert calls[("getUpdates", "ok")] >= 3 and calls[("sendMessage", "ok")] >= 1
        assert calls[("sendMessage", "429")] == 1
        assert found[("unobot_rate_limit_wait_seconds_sum", (("platform", "telegram"),))] == 1
        assert found[("unobot_games_open", (("platform", "telegram"),))] == 1
        assert ("unobot_deliveries_waiting", ()) in found
        assert ("unobot_timer_lag_seconds_count", ()) in found

        for path in (database, tmp_path / "uno.db-wal", tmp_path / "uno.db-shm"):
            path.unlink(missing_ok=True)  # the database goes away under the running bot
        text = await until(http, f"{base}/healthz", lambda status, text: status == 503)
        assert text == "database: OperationalError\n"

        await api.stop()  # and so does Telegram
        text = await until(http, f"{base}/healthz", lambda status, text: "telegram" in text)
        assert text.startswith("telegram: not connected (NetworkError)\n")
        scraped = (await fetch(http, f"{base}/metrics"))[1]
        output = await bot.output()
    assert bot.process.returncode == 0, output[-2000:]
    assert_no_secret(scraped + output, api.token)


async def test_healthz_says_when_the_postgresql_database_is_dropped(api, pg_database):  # noqa: F811
    store = await open_store(pg_database)
    metrics = OpsMetrics("telegram")
    harness = Harness(api, store, FakeClock())
    harness.config_changes["report"] = report = metrics.platform_report()
    server = OpsServer(metrics, store.open_games_by_platform, report, port=free_port())
    await harness.start()
    await server.start()
    healthz = f"http://127.0.0.1:{server.port}/healthz"
    try:
        async with aiohttp.ClientSession() as http:
            await until(http, healthz, lambda status, text: status == 200)
            name = pg_database.rsplit("/", 1)[1]
            await _admin_execute(f'DROP DATABASE "{name}" WITH (FORCE)')
            text = await until(http, healthz, lambda status, text: status == 503)
            assert text.startswith("database: ") and "\n" == text[-1] and "telegram" not in text
    finally:
        await server.stop()
        await harness.stop()
        await store.close()


def test_a_call_is_named_by_its_method_never_by_its_url():
    from adapters.telegram.request import method_of, retry_after_of

    assert method_of("https://api.telegram.org/bot123:SECRET/sendMessage", "POST") == "sendMessage"
    assert method_of("https://api.telegram.org/file/bot123:SECRET/photos/f.jpg", "GET") == "file download"
    assert retry_after_of(b'{"ok":false,"parameters":{"retry_after":3}}') == 3
    assert retry_after_of(b"<html>") is None
