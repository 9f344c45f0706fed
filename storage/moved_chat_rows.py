"""A chat's rows moved to its new id, in one transaction: every table keyed by a chat
(``platform``, ``chat_id``), as ``GameStore.move_chat`` describes. A Telegram group upgraded to
a supergroup keeps its games, settings, presets, results and ratings."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from bot.coordinator.ports import ChatKey

from .game_rows import ACTIVE
from .models import games, metadata


def chat_tables() -> list[sa.Table]:
    """The tables with a chat's key, in the metadata's order."""
    return [table for table in metadata.sorted_tables
            if "platform" in table.columns and "chat_id" in table.columns]


def _of(table: Any, chat: ChatKey) -> Any:
    return sa.and_(table.c.platform == chat.platform, table.c.chat_id == chat.chat_id)


async def move_chat_rows(conn: Any, old: ChatKey, new: ChatKey) -> int:
    """Move ``old``'s rows to ``new`` on ``conn`` (inside a transaction); how many moved.
    Rows of ``new`` with the key of one of ``old``'s give way to it; an open game of ``old``
    stays where it is if ``new`` has one open."""
    moved = 0
    for table in chat_tables():
        rest = [c for c in table.primary_key.columns if c.name not in ("platform", "chat_id")]
        if table is games:
            keep: Any = sa.true()
            if (await conn.execute(sa.select(games.c.game_id).where(
                    _of(games, new), sa.text(ACTIVE)).limit(1))).first():
                keep = sa.text(f"NOT ({ACTIVE})")
            # A message id names a message of the old chat: the table is posted anew.
            result = await conn.execute(sa.update(games).where(_of(games, old), keep)
                                        .values(chat_id=new.chat_id, table_message_id=None))
            moved += result.rowcount or 0
            continue
        if "chat_id" not in table.primary_key.columns:
            pass  # rows of their own (results): nothing of the new chat's to give way
        elif rest:
            twin = table.alias("twin")
            await conn.execute(sa.delete(table).where(_of(table, new), sa.exists().where(
                _of(twin, old), *[twin.c[c.name] == table.c[c.name] for c in rest])))
        elif (await conn.execute(sa.select(sa.func.count()).select_from(table)
                                 .where(_of(table, old)))).scalar():
            await conn.execute(sa.delete(table).where(_of(table, new)))
        result = await conn.execute(sa.update(table).where(_of(table, old))
                                    .values(chat_id=new.chat_id))
        moved += result.rowcount or 0
    return moved
