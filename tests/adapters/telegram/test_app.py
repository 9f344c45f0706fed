"""Configuration, a rejected token (one line, exit 2), webhook mode, and a restart on the SQL store."""

from __future__ import annotations

import asyncio
import socket
import threading
from pathlib import Path

import aiohttp
import pytest

from adapters.telegram.app import OFFICIAL_API, TelegramBot, config_from_env, serve
from bot import cli
from bot.config import ConfigError
from bot.coordinator import Coordinator
from bot.coordinator.clock import FakeClock
from bot.coordinator.memory_store import MemoryStore

from .conftest import ANA, BO, CY, GROUP, Harness, make_config
from .fake_bot_api import FakeBotApi
from .helpers import next_actor, take_turn


def test_config_defaults_and_normalisation():
    config = config_from_env({"TELEGRAM_BOT_TOKEN": " 1:abc "})
    assert config.token == "1:abc" and config.api_base_url == OFFICIAL_API
    assert config.bot_url == "https://api.telegram.org/bot" and config.webhook_url is None
    local = config_from_env({"TELEGRAM_BOT_TOKEN": "1:a", "TELEGRAM_API_BASE_URL": "http://127.0.0.1:8081/bot/"})
    assert local.bot_url == "http://127.0.0.1:8081/bot" and local.file_url == "http://127.0.0.1:8081/file/bot"
    hook = config_from_env({"TELEGRAM_BOT_TOKEN": "1:a", "TELEGRAM_WEBHOOK_URL": "https://uno.example/tg",
                            "TELEGRAM_WEBHOOK_SECRET": "s3cret_-", "TELEGRAM_WEBHOOK_PORT": "8088"})
    assert (hook.webhook_url, hook.webhook_secret, hook.webhook_port) == ("https://uno.example/tg", "s3cret_-", 8088)


@pytest.mark.parametrize("env, words", [
    ({}, "TELEGRAM_BOT_TOKEN"),
    ({"TELEGRAM_BOT_TOKEN": "  "}, "TELEGRAM_BOT_TOKEN"),
    ({"TELEGRAM_BOT_TOKEN": "1:a", "TELEGRAM_API_BASE_URL": "ftp://x"}, "TELEGRAM_API_BASE_URL"),
    ({"TELEGRAM_BOT_TOKEN": "1:a", "TELEGRAM_WEBHOOK_URL": "http://x/y"}, "https"),
    ({"TELEGRAM_BOT_TOKEN": "1:a", "TELEGRAM_WEBHOOK_SECRET": "no spaces"}, "TELEGRAM_WEBHOOK_SECRET"),
    ({"TELEGRAM_BOT_TOKEN": "1:a", "TELEGRAM_WEBHOOK_PORT": "http"}, "TELEGRAM_WEBHOOK_PORT"),
])
def test_bad_configuration_is_one_clear_line(env, words):
    with pytest.raises(ConfigError) as info:
        config_from_env(env)
    assert words in str(info.value) and "\n" not in str(info.value)


async def test_a_rejected_token_is_a_config_error(api):
    config = config_from_env({"TELEGRAM_BOT_TOKEN": "999:WRONG",
                              "TELEGRAM_API_BASE_URL": f"http://127.0.0.1:{api.port}"})
    made = []
    with pytest.raises(ConfigError, match="rejected"):
        await serve(config, lambda port: made.append(port), MemoryStore())
    assert not made  # nothing was started


def test_cli_exits_2_with_one_line_for_a_missing_or_rejected_token(monkeypatch, capsys, tmp_path):
    monkeypatch.setenv("DATABASE_URL", f"sqlite+aiosqlite:///{tmp_path / 'uno.db'}")
    monkeypatch.delenv("TELEGRAM_BOT_TOKEN", raising=False)
    assert cli.main(["run", "telegram"]) == 2
    assert capsys.readouterr().err.strip().count("\n") == 0
    # A token the (fake) Bot API rejects, served from its own thread and loop.
    loop = asyncio.new_event_loop()
    server = FakeBotApi()
    loop.run_until_complete(server.start())
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    try:
        monkeypatch.setenv("TELEGRAM_BOT_TOKEN", "999:WRONG")
        monkeypatch.setenv("TELEGRAM_API_BASE_URL", f"http://127.0.0.1:{server.port}")
        assert cli.main(["run", "telegram"]) == 2
        err = capsys.readouterr().err.strip()
        assert "rejected" in err and "Traceback" not in err and err.count("\n") == 0
    finally:
        asyncio.run_coroutine_threadsafe(server.stop(), loop).result(5)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(5)
        loop.close()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


async def test_webhook_mode_receives_updates_with_the_secret(api):
    port = free_port()
    config = make_config(api)
    config = type(config)(**{**config.__dict__, "webhook_url": "https://uno.example/hook/tg",
                             "webhook_secret": "sekret", "webhook_port": port, "webhook_listen": "127.0.0.1"})
    store = MemoryStore()
    bot = TelegramBot(config, lambda p: Coordinator(p, store, FakeClock(), ai_delay=0), store)
    await bot.start()
    try:
        hook = api.calls_to("setWebhook")[0].params
        assert hook["url"] == "https://uno.example/hook/tg" and hook["secret_token"] == "sekret"
        update = {"update_id": 1, "message": {
            "message_id": 5, "date": 1, "chat": {"id": GROUP, "type": "supergroup", "title": "g"},
            "from": ANA.to_dict(), "text": "/new", "entities": [{"type": "bot_command", "offset": 0, "length": 4}]}}
        async with aiohttp.ClientSession() as http:
            url = f"http://127.0.0.1:{port}/hook/tg"
            async with http.post(url, json=update) as refused:
                assert refused.status == 403  # no secret, no update
            async with http.post(url, json=update, headers={"X-Telegram-Bot-Api-Secret-Token": "sekret"}) as ok:
                assert ok.status == 200
        await api.wait_for(lambda: api.calls_to("sendMessage", GROUP), what="the lobby")
        assert "Ana" in api.calls_to("sendMessage", GROUP)[0].params["text"]
    finally:
        await bot.stop()


async def test_restart_on_the_sql_store_keeps_the_game_and_its_keyboards(api, tmp_path):
    from storage import open_store

    store = await open_store(f"sqlite+aiosqlite:///{tmp_path / 'uno.db'}")
    harness = Harness(api, store, FakeClock())
    try:
        await harness.start()
        await harness.open_game(ANA, BO, CY)
        await harness.start_game(ANA, [ANA, BO, CY])
        await take_turn(harness, await next_actor(harness, [ANA, BO, CY]))
        mover = await next_actor(harness, [ANA, BO, CY])
        await harness.settle()  # the table edit is queued, not awaited by the move
        table = harness.table().message_id
        await harness.restart()
        await take_turn(harness, mover)  # the keyboard sent before the restart
        after = await next_actor(harness, [ANA, BO, CY])
        assert after is not mover
        await harness.settle()
        assert harness.table().message_id == table
    finally:
        await harness.stop()
        await store.close()


@pytest.mark.slow
async def test_unobot_run_telegram_serves_until_sigint(api, tmp_path):
    """The composition root end to end: `unobot run telegram` in its own process, against
    the fake Bot API, with a SQLite database; SIGINT stops it cleanly (exit 0)."""
    import os
    import signal
    import sys

    root = Path(__file__).resolve().parents[3]
    env = {**os.environ, "PYTHONPATH": str(root), "TELEGRAM_BOT_TOKEN": api.token,
           "TELEGRAM_API_BASE_URL": f"http://127.0.0.1:{api.port}",
           "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'uno.db'}"}
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.cli", "run", "telegram", env=env, cwd=tmp_path,  # no developer's .env
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    try:
        await api.wait_for(lambda: api.calls_to("deleteWebhook"), timeout=30, what="polling to start")
        api.send_text(ANA, GROUP, "/new")
        lobby = await api.wait_for(lambda: api.calls_to("sendMessage", GROUP), what="the lobby")
        assert "Ana" in lobby[0].params["text"]
    finally:
        process.send_signal(signal.SIGINT)
        _, err = await asyncio.wait_for(process.communicate(), 30)
    assert process.returncode == 0, err.decode()[-2000:]
