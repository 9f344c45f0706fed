"""A game's result rows read back (SQLAlchemy Core): what a match's recap is drawn from."""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.coordinator.ports import ChatKey, GameResult, PlayerResult

from .models import result_players, results


async def game_results(conn: AsyncConnection, game_id: str) -> list[GameResult]:
    res, rp = results.c, result_players.c
    heads = {row.id: GameResult(row.game_id, ChatKey(row.platform, row.chat_id), row.kind,
                                row.hand_number, [], finished_at=float(row.finished_at))
             for row in await conn.execute(sa.select(results).where(res.game_id == game_id))}
    if not heads:
        return []
    players = await conn.execute(sa.select(result_players)
                                 .where(rp.result_id.in_(list(heads))).order_by(rp.id))
    for row in players:
        heads[row.result_id].players.append(PlayerResult(
            row.user_id, row.name, points=row.points, won=bool(row.won), is_ai=bool(row.is_ai),
            uno_calls=row.uno_calls, caught=row.caught, challenges_won=row.challenges_won,
            cards_left=row.cards_left))
    return [head for _, head in sorted(heads.items())]


async def last_match_game(conn: AsyncConnection, chat: ChatKey) -> str | None:
    res = results.c
    row = (await conn.execute(
        sa.select(res.game_id)
        .where(res.platform == chat.platform, res.chat_id == chat.chat_id, res.kind == "match")
        .order_by(res.finished_at.desc(), res.id.desc()).limit(1))).first()
    return None if row is None else str(row.game_id)
