"""Configuration: every variable the bot reads, in one typed settings object.

Values come from the environment, then from a ``.env`` file in the working directory (the
environment wins); an empty value counts as unset. ``load_settings`` checks every value at
once and a ConfigError names each bad one, in one line. Read only by the composition root
(``bot/cli.py``) and the adapters' ``config_from_settings``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Literal
from urllib.parse import unquote, urlparse

from pydantic import Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///unobot.db"
OFFICIAL_TELEGRAM_API = "https://api.telegram.org"
ENV_FILE = ".env"
_WEBHOOK_SECRET = re.compile(r"^[A-Za-z0-9_-]{1,256}$")  # what Telegram's secret_token allows


class ConfigError(Exception):
    """A missing or rejected setting: the CLI prints it as one line and exits with code 2."""


class Settings(BaseSettings):
    """One field per environment variable (the field name upper-cased); see .env.example."""

    model_config = SettingsConfigDict(env_file=ENV_FILE, env_file_encoding="utf-8",
                                      env_ignore_empty=True, extra="ignore",
                                      case_sensitive=False, enable_decoding=False)

    # --- storage and logs ---
    database_url: SecretStr = SecretStr(DEFAULT_DATABASE_URL)  # may hold a password
    unobot_log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] | None = None
    # Finished games keep their final cards this many days (results and stats forever).
    unobot_retention_days: float = Field(default=30.0, ge=0)
    # --- Telegram ---
    telegram_bot_token: SecretStr | None = None
    telegram_api_base_url: str = OFFICIAL_TELEGRAM_API
    telegram_webhook_url: str | None = None
    telegram_webhook_secret: SecretStr | None = None
    telegram_webhook_port: int = Field(default=8443, ge=1, le=65535)
    telegram_webhook_listen: str = "127.0.0.1"
    # Owner of the bot's card sticker sets (a user id who started the bot); unset: no stickers.
    telegram_owner_id: int | None = Field(default=None, ge=1)
    # --- Discord ---
    discord_token: SecretStr | None = None
    discord_shard_count: int | None = Field(default=None, ge=1)
    discord_shard_ids: tuple[int, ...] | None = None
    discord_sync_commands: bool = True
    # --- the web hand (a Telegram Mini App / a signed link on Discord); unset: none ---
    webapp_url: str | None = None  # the public https address players open
    webapp_port: int = Field(default=8080, ge=1, le=65535)
    webapp_listen: str = "127.0.0.1"  # the TLS proxy in front of it forwards here
    webapp_secret: SecretStr | None = None  # signs Discord links; unset: derived from the token
    # --- the operator port (/healthz, /metrics); unset: none ---
    metrics_port: int | None = Field(default=None, ge=1, le=65535)
    metrics_listen: str = "127.0.0.1"  # loopback: the scraper runs here or reaches it through a proxy

    @classmethod
    def settings_customise_sources(cls, settings_cls: type[BaseSettings],
                                   init_settings: PydanticBaseSettingsSource,
                                   env_settings: PydanticBaseSettingsSource,
                                   dotenv_settings: PydanticBaseSettingsSource,
                                   file_secret_settings: PydanticBaseSettingsSource,
                                   ) -> tuple[PydanticBaseSettingsSource, ...]:
        return init_settings, env_settings, dotenv_settings

    @field_validator("unobot_log_level", mode="before")
    @classmethod
    def _upper(cls, value: Any) -> Any:
        return value.strip().upper() if isinstance(value, str) else value

    @field_validator("telegram_api_base_url")
    @classmethod
    def _api_base(cls, value: str) -> str:
        base = value.strip().rstrip("/").removesuffix("/bot")  # PTB's ".../bot" form too
        if urlparse(base).scheme not in ("http", "https") or not urlparse(base).netloc:
            raise ValueError(f"must be an http(s) URL, not {value!r}")
        return base

    @field_validator("telegram_webhook_url")
    @classmethod
    def _webhook_url(cls, value: str | None) -> str | None:
        if value is not None and urlparse(value.strip()).scheme != "https":
            raise ValueError("must be an https URL (Telegram only posts to https)")
        return value.strip() if value else None

    @field_validator("webapp_url")
    @classmethod
    def _webapp_url(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        parsed = urlparse(value.strip())
        local = parsed.hostname in ("127.0.0.1", "localhost", "::1")
        if parsed.scheme != "https" and not (parsed.scheme == "http" and local):
            raise ValueError("must be an https URL (Telegram opens Mini Apps over https only)")
        if not parsed.netloc or parsed.query or parsed.fragment:
            raise ValueError(f"must be a plain address like https://uno.example.org, not {value!r}")
        return value.strip().rstrip("/")

    @field_validator("telegram_webhook_secret")
    @classmethod
    def _webhook_secret(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and not _WEBHOOK_SECRET.match(value.get_secret_value().strip()):
            raise ValueError("may hold 1-256 of A-Z a-z 0-9 _ -")
        return SecretStr(value.get_secret_value().strip()) if value is not None else None

    @field_validator("telegram_bot_token", "discord_token")
    @classmethod
    def _token(cls, value: SecretStr | None) -> SecretStr | None:
        token = value.get_secret_value().strip() if value is not None else ""
        return SecretStr(token) if token else None

    @field_validator("discord_shard_ids", mode="before")
    @classmethod
    def _shard_list(cls, value: Any) -> Any:
        if isinstance(value, str):
            parts = [part.strip() for part in value.split(",") if part.strip()]
            if not parts or not all(part.isdigit() for part in parts):
                raise ValueError(f"must be a list of shard numbers like 0,1, not {value!r}")
            return tuple(int(part) for part in parts)
        return value

    @model_validator(mode="after")
    def _shards(self) -> Settings:
        if self.discord_shard_ids is not None:
            if self.discord_shard_count is None:
                raise ValueError("DISCORD_SHARD_IDS needs DISCORD_SHARD_COUNT too")
            if any(not 0 <= i < self.discord_shard_count for i in self.discord_shard_ids):
                raise ValueError(f"DISCORD_SHARD_IDS must be between 0 and {self.discord_shard_count - 1}")
        return self

    def secrets(self) -> list[str]:
        """Every configured secret, for the log redactor."""
        found = [s.get_secret_value() for s in (self.telegram_bot_token, self.discord_token,
                                                self.telegram_webhook_secret, self.webapp_secret)
                 if s is not None]
        return found + url_secrets(self.database_url.get_secret_value())


class _GivenSettings(Settings):
    """Settings from an explicit mapping only (tests, callers with their own environment)."""

    model_config = SettingsConfigDict(env_file=None)

    @classmethod
    def settings_customise_sources(cls, settings_cls: type[BaseSettings],
                                   init_settings: PydanticBaseSettingsSource,
                                   env_settings: PydanticBaseSettingsSource,
                                   dotenv_settings: PydanticBaseSettingsSource,
                                   file_secret_settings: PydanticBaseSettingsSource,
                                   ) -> tuple[PydanticBaseSettingsSource, ...]:
        return (init_settings,)


# Values never repeated in an error message (they are secrets or may hold one).
_SECRET_FIELDS = {"database_url", "telegram_bot_token", "discord_token", "telegram_webhook_secret",
                  "webapp_secret"}


def _describe(error: Any) -> str:
    name = ".".join(str(part) for part in error["loc"] if isinstance(part, str)).upper()
    message = str(error["msg"]).removeprefix("Value error, ")
    if not name:  # a rule across fields: its message names them
        return message
    given = error.get("input")
    shown = "" if name.lower() in _SECRET_FIELDS or not isinstance(given, str | int) \
        or message.endswith(repr(given)) else f" (got {given!r})"
    return f"{name}: {message[:1].lower()}{message[1:]}{shown}"


def load_settings(env: Mapping[str, str] | None = None) -> Settings:
    """The settings from the environment and ``.env`` (or from ``env`` alone). Raises
    ConfigError naming every bad value, in one line."""
    try:
        if env is None:
            return Settings()
        fields = Settings.model_fields
        given: dict[str, Any] = {key.lower(): value for key, value in env.items()
                 if key.lower() in fields and value is not None and value.strip()}
        return _GivenSettings(**given)
    except ValidationError as error:
        problems = "; ".join(_describe(e) for e in error.errors())
        raise ConfigError(" ".join(problems.split())) from None


def url_secrets(url: str) -> list[str]:
    """The password in a database URL, as written and decoded (for the log redactor)."""
    try:
        password = urlparse(url).password
    except ValueError:
        return []
    return sorted({password, unquote(password)}) if password else []


def database_url(env: Mapping[str, str] | None = None) -> str:
    """DATABASE_URL (or the SQLite default), from the environment and ``.env``."""
    return load_settings(env).database_url.get_secret_value()
