"""Persistence: the GameStore port on SQLite/PostgreSQL (sqlmodel tables, async SQLAlchemy),
with Alembic migrations in ``storage/migrations``.

    store = await open_store("sqlite+aiosqlite:///unobot.db")   # upgrades the schema first
    ...
    await store.close()
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from .store import SqlStore

__all__ = ["SqlStore", "open_store"]


async def open_store(url: str, *, now: Callable[[], float] = time.time,
                     **engine_options: Any) -> SqlStore:
    """Upgrade the schema to head (in a worker thread: Alembic is synchronous and must not
    block the event loop), then return a store on the async engine. ``now`` stamps saves and
    results (a test clock may stand in, as for MemoryStore)."""
    from .migrate import upgrade

    await asyncio.to_thread(upgrade, url)
    return SqlStore.from_url(url, now=now, **engine_options)
