"""The game of a chat's last finished match (SQLAlchemy Core): the match ``/recap`` shows.

A game's results themselves are read on the hot path's driver (``game_rows``)."""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.coordinator.ports import ChatKey

from .models import results


async def last_match_game(conn: AsyncConnection, chat: ChatKey) -> str | None:
    res = results.c
    row = (await conn.execute(
        sa.select(res.game_id)
        .where(res.platform == chat.platform, res.chat_id == chat.chat_id, res.kind == "match")
        .order_by(res.finished_at.desc(), res.id.desc()).limit(1))).first()
    return None if row is None else str(row.game_id)
