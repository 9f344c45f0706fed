"""Configuration from the environment, read only by the composition root and adapters."""

from __future__ import annotations

import os
from collections.abc import Mapping

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///unobot.db"


class ConfigError(Exception):
    """A missing or rejected setting: the CLI prints it as one line and exits with code 2."""


def database_url(env: Mapping[str, str] = os.environ) -> str:
    return env.get("DATABASE_URL") or DEFAULT_DATABASE_URL
