"""Schema migrations with Alembic, configured in code so they work from an installed package.

    python -m storage.migrate URL        upgrade the database at URL
    storage.migrate.upgrade(url)         the same from Python (``unobot db upgrade``)

``upgrade`` is synchronous and runs the async driver on its own event loop, so call it from a
thread when a loop is already running (``open_store`` does).
"""

from __future__ import annotations

import sys
from pathlib import Path

from alembic import command
from alembic.config import Config

from .db import normalise_url

MIGRATIONS = Path(__file__).resolve().parent / "migrations"


def alembic_config(url: str) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    # Passed as an attribute, not a main option: configparser would choke on '%' in passwords.
    config.attributes["url"] = normalise_url(url)
    return config


def upgrade(url: str, revision: str = "head") -> None:
    command.upgrade(alembic_config(url), revision)


def current(url: str) -> str | None:
    """The schema revision the database is at (None for an empty database)."""
    import asyncio

    from alembic.runtime.migration import MigrationContext

    from .db import make_engine

    async def read() -> str | None:
        engine = make_engine(url)
        try:
            async with engine.connect() as conn:
                return await conn.run_sync(
                    lambda sync_conn: MigrationContext.configure(sync_conn).get_current_revision())
        finally:
            await engine.dispose()

    return asyncio.run(read())


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m storage.migrate DATABASE_URL  (or: unobot db upgrade)",
              file=sys.stderr)
        return 2
    url = args[0]
    upgrade(url)
    print(f"schema at {current(url)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
