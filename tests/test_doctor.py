"""`unobot doctor` against the fake platforms: one line per check, exit 0 only when all pass,
and never a token in what it prints or logs."""

from __future__ import annotations

import asyncio
import threading

import discord
import pytest

from bot import cli
from bot.config import Settings
from storage.migrate import upgrade
from tests.adapters.discord.fake_discord import MEMBER_PERMISSIONS, FakeDiscord
from tests.adapters.telegram.fake_bot_api import FakeBotApi

TG_TOKEN = "123456:TEST-TOKEN"
DISCORD_TOKEN = "fake-token-of-the-doctor-test"


class Serving:
    """A fake platform on an event loop of its own thread: the CLI runs its own asyncio.run."""

    def __init__(self, fake) -> None:
        self.fake = fake
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        asyncio.run_coroutine_threadsafe(self.fake.start(), self.loop).result(10)
        return self.fake

    def __exit__(self, *exc) -> None:
        stop = self.fake.stop() if hasattr(self.fake, "stop") else self.fake.close()
        asyncio.run_coroutine_threadsafe(stop, self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.loop.close()


@pytest.fixture
def env(tmp_path, monkeypatch):
    """An empty environment in an empty folder holding a database at head; returns a setter."""
    for name in Settings.model_fields:
        monkeypatch.delenv(name.upper(), raising=False)
    monkeypatch.chdir(tmp_path)
    url = f"sqlite+aiosqlite:///{tmp_path / 'unobot.db'}"
    upgrade(url)
    monkeypatch.setenv("DATABASE_URL", url)
    return monkeypatch.setenv


def doctor(capsys, caplog, *args: str) -> tuple[int, list[str]]:
    code = cli.main(["doctor", *args])
    out = capsys.readouterr()
    text = out.out + out.err + caplog.text
    assert TG_TOKEN not in text and DISCORD_TOKEN not in text and "TEST-TOKEN" not in text
    return code, out.out.splitlines()


def line(lines: list[str], name: str) -> str:
    (found,) = [x for x in lines if x.split(":", 1)[0].split(None, 1)[1] == name]
    return found


def test_telegram_with_a_good_token_passes_every_check(env, capsys, caplog):
    with Serving(FakeBotApi(token=TG_TOKEN)) as api:
        env("TELEGRAM_BOT_TOKEN", TG_TOKEN)
        env("TELEGRAM_API_BASE_URL", api.base_url)
        code, lines = doctor(capsys, caplog)
    assert code == 0, lines
    assert all(x.startswith("ok ") for x in lines)
    assert "@unotest_bot" in line(lines, "telegram token")
    assert "polls" in line(lines, "telegram webhook")
    assert [x.split(":")[0].split(None, 1)[1] for x in lines] == [
        "configuration", "telegram token", "telegram webhook", "database", "schema", "database write"]


def test_telegram_with_a_bad_token_fails_without_showing_it(env, capsys, caplog):
    with Serving(FakeBotApi(token="999:another")) as api:
        env("TELEGRAM_BOT_TOKEN", TG_TOKEN)
        env("TELEGRAM_API_BASE_URL", api.base_url)
        env("UNOBOT_LOG_LEVEL", "DEBUG")  # httpx logs request URLs, which hold the token
        code, lines = doctor(capsys, caplog, "telegram")
    assert code == 1
    assert line(lines, "telegram token").startswith("FAIL") and "rejected" in line(lines, "telegram token")
    assert line(lines, "database write").startswith("ok")


def test_a_webhook_telegram_cannot_deliver_to_fails(env, capsys, caplog):
    with Serving(FakeBotApi(token=TG_TOKEN)) as api:
        api.webhook_info = {"url": "https://uno.example.org/tg", "has_custom_certificate": False,
                            "pending_update_count": 3, "last_error_date": 1,
                            "last_error_message": "Connection refused"}
        env("TELEGRAM_BOT_TOKEN", TG_TOKEN)
        env("TELEGRAM_API_BASE_URL", api.base_url)
        env("TELEGRAM_WEBHOOK_URL", "https://uno.example.org/tg")
        code, lines = doctor(capsys, caplog)
        assert code == 1 and "Connection refused" in line(lines, "telegram webhook")
        env("TELEGRAM_WEBHOOK_URL", "https://uno.example.org:9000/tg")
        code, lines = doctor(capsys, caplog)
        assert code == 1 and "port 9000" in line(lines, "telegram webhook")
        api.webhook_info = {"url": "", "has_custom_certificate": False, "pending_update_count": 0}
        env("TELEGRAM_WEBHOOK_URL", "https://uno.example.org/tg")
        code, lines = doctor(capsys, caplog)
    assert code == 0 and "127.0.0.1:8443" in line(lines, "telegram webhook")


@pytest.fixture
def discord_fake(monkeypatch):
    fake = FakeDiscord(token=DISCORD_TOKEN)
    with Serving(fake):
        monkeypatch.setattr(discord.http.Route, "BASE", fake.api_base)  # as the bot's tests do
        yield fake


def test_discord_with_a_good_token_checks_each_server(env, discord_fake, capsys, caplog):
    env("DISCORD_TOKEN", DISCORD_TOKEN)
    code, lines = doctor(capsys, caplog)
    assert code == 0, lines
    assert "unobot" in line(lines, "discord token")
    assert "Send Messages in Threads" in line(lines, "discord server UNO Club (900)")


def test_discord_server_missing_permissions_is_named(env, discord_fake, capsys, caplog):
    discord_fake.bot_guild_permissions = MEMBER_PERMISSIONS  # no thread permissions
    env("DISCORD_TOKEN", DISCORD_TOKEN)
    code, lines = doctor(capsys, caplog, "discord")
    server = line(lines, "discord server UNO Club (900)")
    assert code == 1 and server.startswith("FAIL")
    assert "Create Public Threads" in server and "Send Messages in Threads" in server
    assert "Attach Files" not in server


def test_discord_with_a_bad_token_fails(env, discord_fake, capsys, caplog):
    env("DISCORD_TOKEN", "not-" + DISCORD_TOKEN)
    code, lines = doctor(capsys, caplog)
    assert code == 1 and "rejected" in line(lines, "discord token")
    assert "not-" not in "\n".join(lines)


def test_no_token_a_bad_setting_and_a_missing_database_each_fail(env, tmp_path, capsys, caplog):
    code, lines = doctor(capsys, caplog)
    assert code == 1 and line(lines, "configuration").startswith("FAIL")
    env("TELEGRAM_WEBHOOK_PORT", "eighty")
    code, lines = doctor(capsys, caplog)
    assert code == 1 and lines == [line(lines, "configuration")] and "TELEGRAM_WEBHOOK_PORT" in lines[0]
    env("TELEGRAM_WEBHOOK_PORT", "8443")
    env("DATABASE_URL", f"sqlite:///{tmp_path / 'none.db'}")
    code, lines = doctor(capsys, caplog, "telegram")  # no token: the platform's own line says so
    assert code == 1 and "TELEGRAM_BOT_TOKEN is not set" in line(lines, "telegram configuration")
    assert "does not exist yet" in line(lines, "database")
    assert not (tmp_path / "none.db").exists()  # the doctor creates nothing
