"""Settings: one typed object for every variable, the environment then `.env`, and each bad
value named in one line."""

from __future__ import annotations

from pathlib import Path

import pytest

from adapters.discord.app import config_from_env as discord_config
from adapters.telegram.app import config_from_env as telegram_config
from bot import cli
from bot.config import DEFAULT_DATABASE_URL, ConfigError, Settings, load_settings

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def clean_env(monkeypatch, tmp_path):
    """A working directory of its own and none of the bot's variables in the environment."""
    for name in Settings.model_fields:
        monkeypatch.delenv(name.upper(), raising=False)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_dot_env_is_read_and_the_environment_wins(clean_env, monkeypatch):
    (clean_env / ".env").write_text(
        "# comment\nTELEGRAM_BOT_TOKEN=111:from-dotenv\nDISCORD_TOKEN=\n"
        "DATABASE_URL=sqlite+aiosqlite:///from-dotenv.db\nDISCORD_SHARD_COUNT=2\n"
        "DISCORD_SHARD_IDS=0,1\nUNOBOT_LOG_LEVEL=debug\n")
    settings = load_settings()
    assert telegram_config().token == "111:from-dotenv"
    assert settings.database_url.get_secret_value() == "sqlite+aiosqlite:///from-dotenv.db"
    assert settings.discord_token is None  # empty means unset
    assert (settings.discord_shard_count, settings.discord_shard_ids) == (2, (0, 1))
    assert settings.unobot_log_level == "DEBUG"
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", "222:from-env")
    assert telegram_config().token == "222:from-env"


def test_defaults_without_env_or_dot_env(clean_env):
    settings = load_settings()
    assert settings.database_url.get_secret_value() == DEFAULT_DATABASE_URL
    assert settings.telegram_webhook_listen == "127.0.0.1" and settings.telegram_webhook_port == 8443
    with pytest.raises(ConfigError, match="TELEGRAM_BOT_TOKEN is not set"):
        telegram_config()
    with pytest.raises(ConfigError, match="DISCORD_TOKEN is not set"):
        discord_config()


def test_every_bad_value_is_named_in_one_line(clean_env):
    (clean_env / ".env").write_text("TELEGRAM_WEBHOOK_PORT=http\nDISCORD_SHARD_COUNT=x\n"
                                    "UNOBOT_LOG_LEVEL=loud\nTELEGRAM_WEBHOOK_SECRET=not secret!\n")
    with pytest.raises(ConfigError) as info:
        load_settings()
    message = str(info.value)
    assert "\n" not in message
    for name in ("TELEGRAM_WEBHOOK_PORT", "DISCORD_SHARD_COUNT", "UNOBOT_LOG_LEVEL", "TELEGRAM_WEBHOOK_SECRET"):
        assert name in message
    assert "'http'" in message and "not secret!" not in message  # a secret is never echoed


def test_the_cli_reports_a_bad_dot_env_value_in_one_line_exit_2(clean_env, capsys):
    (clean_env / ".env").write_text("TELEGRAM_WEBHOOK_PORT=99999\n")
    assert cli.main(["db", "upgrade"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("unobot: TELEGRAM_WEBHOOK_PORT") and err.count("\n") == 1
    assert not (clean_env / "unobot.db").exists()  # stopped before touching the database


def test_the_cli_uses_the_dot_env_database(clean_env):
    (clean_env / ".env").write_text(f"DATABASE_URL=sqlite+aiosqlite:///{clean_env / 'dotenv.db'}\n")
    assert cli.main(["db", "upgrade"]) == 0
    assert (clean_env / "dotenv.db").exists() and not (clean_env / "unobot.db").exists()


def test_secrets_lists_tokens_webhook_secret_and_database_password():
    settings = load_settings({"TELEGRAM_BOT_TOKEN": "1:tok-abcdef", "DISCORD_TOKEN": "disc-token",
                              "TELEGRAM_WEBHOOK_SECRET": "hook_secret",
                              "DATABASE_URL": "postgresql://u:p%40ss-word@h/d"})
    assert set(settings.secrets()) == {"1:tok-abcdef", "disc-token", "hook_secret", "p@ss-word", "p%40ss-word"}
    assert "tok-abcdef" not in repr(settings) and "ss-word" not in repr(settings)


def test_env_example_lists_exactly_the_settings():
    """`.env.example` is the operator's reference: every variable the bot reads, no other."""
    names = set()
    for line in (ROOT / ".env.example").read_text().splitlines():
        line = line.lstrip("# ").strip()
        if "=" in line and line.split("=", 1)[0].isupper():
            names.add(line.split("=", 1)[0])
    assert names == {name.upper() for name in Settings.model_fields}
