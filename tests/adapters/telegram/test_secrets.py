"""No secret in any log line, and no update without Telegram's secret header.

The scans run the real `unobot run telegram` process against the fake Bot API, at every log
level the CLI sets (INFO by default, DEBUG with UNOBOT_LOG_LEVEL), and read all it printed.
The forgery tests post to the real python-telegram-bot webhook server on 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import sys
from dataclasses import replace
from pathlib import Path

import aiohttp
import pytest

from adapters.telegram.app import TelegramBot
from bot.coordinator import Coordinator
from bot.coordinator.clock import FakeClock
from bot.coordinator.memory_store import MemoryStore
from tests.storage.conftest import pg_database  # noqa: F401  (a fixture)

from .conftest import ANA, BO, GROUP, make_config
from .fake_bot_api import FakeBotApi

ROOT = Path(__file__).resolve().parents[3]
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
DB_PASSWORD = "pw-Very-Secret-4711"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def new_command(update_id: int, user, text: str = "/new", chat: int = GROUP) -> dict:
    chat_data = ({"id": chat, "type": "supergroup", "title": "g"} if chat < 0
                 else {"id": chat, "type": "private", "first_name": "u"})
    return {"update_id": update_id, "message": {
        "message_id": 100 + update_id, "date": 1, "chat": chat_data, "from": user.to_dict(),
        "text": text, "entities": [{"type": "bot_command", "offset": 0, "length": len(text.split()[0])}]}}


class BotProcess:
    """`python -m bot.cli run telegram` with the test's environment (a fresh working
    directory: no .env of the developer's is read)."""

    def __init__(self, env: dict[str, str], cwd: Path) -> None:
        self.env = {**os.environ, "PYTHONPATH": str(ROOT), **env}
        self.cwd = cwd
        self.process: asyncio.subprocess.Process | None = None

    async def __aenter__(self) -> BotProcess:
        self.process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot.cli", "run", "telegram", env=self.env, cwd=self.cwd,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        return self

    async def output(self, *, interrupt: bool = True) -> str:
        assert self.process is not None
        if interrupt and self.process.returncode is None:
            self.process.send_signal(signal.SIGINT)
        out, err = await asyncio.wait_for(self.process.communicate(), 30)
        return out.decode() + err.decode()

    async def __aexit__(self, *exc) -> None:
        if self.process is not None and self.process.returncode is None:
            self.process.kill()
            await self.process.wait()


def assert_no_secret(output: str, *secrets: str) -> None:
    for secret in secrets:
        assert secret not in output, f"a secret reached the log: ...{output[output.index(secret) - 200:][:400]}"
    # The token's hash alone is a secret too (a log could cut the "id:" off).
    for secret in secrets:
        if ":" in secret:
            assert secret.split(":", 1)[1] not in output


@pytest.mark.parametrize("level", [None, "DEBUG"])
@pytest.mark.slow
async def test_no_secret_in_the_logs_of_a_polling_bot_on_postgresql(api, tmp_path, level, pg_database):  # noqa: F811
    """The token (in every Bot API URL), and the password of DATABASE_URL, at INFO and DEBUG."""
    url = pg_database.replace("postgres@", f"postgres:{DB_PASSWORD}@")  # trust auth ignores it
    env = {"TELEGRAM_BOT_TOKEN": api.token, "TELEGRAM_API_BASE_URL": f"http://127.0.0.1:{api.port}",
           "DATABASE_URL": url, **({"UNOBOT_LOG_LEVEL": level} if level else {})}
    async with BotProcess(env, tmp_path) as bot:
        await api.wait_for(lambda: api.calls_to("deleteWebhook"), timeout=30, what="polling to start")
        api.send_text(ANA, GROUP, "/new")
        await api.wait_for(lambda: api.calls_to("sendMessage", GROUP), what="the lobby")
        mark = len(api.calls)
        api.send_text(BO, GROUP, "/join")
        await api.wait_for(lambda: len(api.calls) > mark, what="an answer to /join")
        output = await bot.output()
    assert bot.process.returncode == 0, output[-2000:]
    assert "telegram bot @unotest_bot is running" in output  # the log was captured at all
    if level == "DEBUG":
        # DEBUG is for our code: PTB's debug lines carry every request, private hands too.
        assert "Calling Bot API endpoint" not in output
    assert_no_secret(output, api.token, DB_PASSWORD)


@pytest.mark.slow
async def test_no_token_in_the_logs_when_the_token_is_rejected(api, tmp_path):
    wrong = "987654:WRONG-but-still-a-secret-0123456789abcdef"
    env = {"TELEGRAM_BOT_TOKEN": wrong, "TELEGRAM_API_BASE_URL": f"http://127.0.0.1:{api.port}",
           "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'uno.db'}", "UNOBOT_LOG_LEVEL": "DEBUG"}
    async with BotProcess(env, tmp_path) as bot:
        output = await bot.output(interrupt=False)
    assert bot.process.returncode == 2 and "rejected" in output
    assert_no_secret(output, wrong)


@pytest.mark.slow
async def test_no_token_or_secret_in_the_logs_of_a_webhook_bot(api, tmp_path):
    """Webhook mode without TELEGRAM_WEBHOOK_SECRET: the secret the bot makes up and the token
    stay out of the log; a forged update is refused, Telegram's (with the header) served."""
    port = free_port()
    env = {"TELEGRAM_BOT_TOKEN": api.token, "TELEGRAM_API_BASE_URL": f"http://127.0.0.1:{api.port}",
           "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'uno.db'}",
           "TELEGRAM_WEBHOOK_URL": "https://uno.example/hook", "TELEGRAM_WEBHOOK_PORT": str(port),
           "UNOBOT_LOG_LEVEL": "DEBUG"}
    async with BotProcess(env, tmp_path) as bot:
        hook = (await api.wait_for(lambda: api.calls_to("setWebhook"), timeout=30, what="setWebhook"))[0]
        secret = hook.params["secret_token"]
        url = f"http://127.0.0.1:{port}/hook"
        async with aiohttp.ClientSession() as http:
            for _ in range(300):  # the server starts listening right after setWebhook
                try:
                    async with http.post(url, json=new_command(1, ANA)) as forged:
                        assert forged.status == 403
                    break
                except aiohttp.ClientConnectionError:
                    await asyncio.sleep(0.1)  # a polling step: not listening yet
            else:
                raise AssertionError("the webhook server never started listening")
            async with http.post(url, json=new_command(2, BO), headers={SECRET_HEADER: secret}) as ok:
                assert ok.status == 200
        lobby = await api.wait_for(lambda: api.calls_to("sendMessage", GROUP), what="the lobby")
        assert "Bo" in lobby[0].params["text"] and "Ana" not in lobby[0].params["text"]
        output = await bot.output()
    assert bot.process.returncode == 0, output[-2000:]
    assert_no_secret(output, api.token, secret)


async def start_webhook_bot(api: FakeBotApi, port: int, secret: str | None) -> TelegramBot:
    config = replace(make_config(api), webhook_url="https://uno.example/hook/tg", webhook_secret=secret,
                     webhook_port=port, webhook_listen="127.0.0.1")
    store = MemoryStore()
    bot = TelegramBot(config, lambda p: Coordinator(p, store, FakeClock(), ai_delay=0), store)
    await bot.start()
    return bot


async def test_webhook_without_a_configured_secret_refuses_forged_updates(api):
    """The real PTB webhook server: a forged /new (no header, a wrong one, an empty one) is
    answered 403 and never handled; a fresh secret was registered with setWebhook."""
    port = free_port()
    bot = await start_webhook_bot(api, port, secret=None)
    try:
        registered = api.calls_to("setWebhook")[0].params
        secret = registered["secret_token"]
        assert len(secret) >= 32 and set(secret) <= set(
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
        url = f"http://127.0.0.1:{port}/hook/tg"
        async with aiohttp.ClientSession() as http:
            for n, headers in enumerate([{}, {SECRET_HEADER: "guess"}, {SECRET_HEADER: ""},
                                         {SECRET_HEADER: secret[:-1]}], start=1):
                async with http.post(url, json=new_command(n, ANA), headers=headers) as forged:
                    assert forged.status == 403, headers
            async with http.post(url, json=new_command(9, ANA), headers={SECRET_HEADER: secret}) as ok:
                assert ok.status == 200
        await api.wait_for(lambda: api.calls_to("sendMessage", GROUP), what="the lobby")
        await asyncio.wait_for(bot.app.update_queue.join(), 10)  # every accepted update handled
        # Only the update with the secret was handled: one lobby, no "a game is already open".
        assert len(api.calls_to("sendMessage")) == 1
    finally:
        await bot.stop()
    # Each start makes a new secret: nothing guessable, nothing to keep.
    bot = await start_webhook_bot(api, free_port(), secret=None)
    try:
        assert api.calls_to("setWebhook")[-1].params["secret_token"] != secret
    finally:
        await bot.stop()


async def test_a_webhook_port_in_use_is_one_line(api):
    from adapters.telegram.app import serve
    from bot.config import ConfigError

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        config = replace(make_config(api), webhook_url="https://uno.example/hook", webhook_listen="127.0.0.1",
                         webhook_port=taken.getsockname()[1])
        store = MemoryStore()
        with pytest.raises(ConfigError) as info:
            await serve(config, lambda p: Coordinator(p, store, FakeClock(), ai_delay=0), store)
    assert "cannot listen for the webhook on 127.0.0.1" in str(info.value) and "\n" not in str(info.value)


def test_webhook_listens_on_loopback_unless_told_otherwise():
    from adapters.telegram.app import config_from_env

    config = config_from_env({"TELEGRAM_BOT_TOKEN": "1:a", "TELEGRAM_WEBHOOK_URL": "https://uno.example/h"})
    assert config.webhook_listen == "127.0.0.1" and config.webhook_secret is None
    assert config_from_env({"TELEGRAM_BOT_TOKEN": "1:a",
                            "TELEGRAM_WEBHOOK_LISTEN": "0.0.0.0"}).webhook_listen == "0.0.0.0"
