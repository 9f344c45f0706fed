"""Stats and leaderboards as SQL aggregates over ``result_players``.

What counts (the same definitions as the coordinator's MemoryStore):
- games / wins: rows of kind "match" (a finished match), and those the player won;
- hands / hands_won: rows of kind "hand";
- points: the sum of the hand rows' points, i.e. of the score changes the coordinator
  records per hand (the winner's points under winner_takes; under losers_accumulate the
  points each loser took on);
- AI rows count in an id's own stats (a seat taken over by the AI after timeouts keeps its
  user id) but never on a leaderboard;
- UNO calls made, times caught, challenges won: summed over "hand" rows only, so a match
  row (a summary of its hands) never counts them twice.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.coordinator.ports import ChatKey, PlayerStats

from .models import result_players as rp
from .models import user_profiles as up

_ZERO = sa.literal(0)


def _hand_sum(column: Any) -> Any:
    return sa.func.coalesce(sa.func.sum(sa.case((rp.c.kind == "hand", column), else_=_ZERO)), 0)


def _count(condition: Any) -> Any:
    return sa.func.coalesce(sa.func.sum(sa.case((condition, 1), else_=_ZERO)), 0)


_AGGREGATES = (
    _count(rp.c.kind == "match").label("games"),
    _count(sa.and_(rp.c.kind == "match", rp.c.won)).label("wins"),
    _count(rp.c.kind == "hand").label("hands"),
    _count(sa.and_(rp.c.kind == "hand", rp.c.won)).label("hands_won"),
    _hand_sum(rp.c.points).label("points"),
    _hand_sum(rp.c.uno_calls).label("uno_calls"),
    _hand_sum(rp.c.caught).label("caught"),
    _hand_sum(rp.c.challenges_won).label("challenges_won"),
)
_FIELDS = ("games", "wins", "hands", "hands_won", "points", "uno_calls", "caught",
           "challenges_won")


def _scope(platform: str, chat: ChatKey | None) -> list[Any]:
    conditions = [rp.c.platform == platform]
    if chat is not None:
        conditions.append(rp.c.chat_id == chat.chat_id)
    return conditions


async def _latest_names(conn: AsyncConnection, platform: str,
                        user_ids: list[str]) -> dict[str, str]:
    """The name each user had in their most recent result (names change; ids do not)."""
    if not user_ids:
        return {}
    rows = await conn.execute(
        sa.select(rp.c.user_id, rp.c.name)
        .where(rp.c.platform == platform, rp.c.user_id.in_(user_ids))
        .order_by(rp.c.finished_at, rp.c.id))
    return {user_id: name for user_id, name in rows}


async def player_stats(conn: AsyncConnection, platform: str, user_id: str,
                       chat: ChatKey | None) -> PlayerStats:
    row = (await conn.execute(
        sa.select(*_AGGREGATES).where(*_scope(platform, chat), rp.c.user_id == user_id)
    )).mappings().one()
    names = await _latest_names(conn, platform, [user_id])
    return PlayerStats(user_id=user_id, name=names.get(user_id, ""),
                       **{name: int(row[name]) for name in _FIELDS})


async def leaderboard(conn: AsyncConnection, platform: str, chat: ChatKey | None,
                      limit: int) -> list[PlayerStats]:
    opted_out = sa.exists().where(up.c.platform == rp.c.platform, up.c.user_id == rp.c.user_id,
                                  up.c.stats_opt_out)
    aggregates = {column.name: column for column in _AGGREGATES}
    query = (sa.select(rp.c.user_id, *_AGGREGATES)
             .where(*_scope(platform, chat), sa.not_(rp.c.is_ai), sa.not_(opted_out))
             .group_by(rp.c.user_id)
             .order_by(aggregates["wins"].desc(), aggregates["points"].desc(), rp.c.user_id)
             .limit(limit))
    rows = (await conn.execute(query)).mappings().all()
    names = await _latest_names(conn, platform, [row["user_id"] for row in rows])
    return [PlayerStats(user_id=row["user_id"], name=names.get(row["user_id"], row["user_id"]),
                        **{name: int(row[name]) for name in _FIELDS})
            for row in rows]
