"""Rating tables, one person's rating, and the rebuild from stored results (SQLAlchemy Core;
the live update is ``rating_rows``, in the result's own transaction).

The definitions are ``bot.coordinator.ratings``'s, shared with the MemoryStore: the same
ordering (mu - 3 sigma as stored, then user id), the same trend (the deltas of the last
rated hands summed oldest first), and a rebuild replays the hands in the order their
results were stored, reusing the seasons already opened."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.coordinator import ratings as rt
from bot.coordinator.ports import (
    ChatKey,
    GameResult,
    PlayerRating,
    PlayerResult,
    RatedPlayer,
    RatingTable,
)

from .models import chat_settings, rating_changes, rating_seasons, result_players, results
from .models import ratings as rating_rows
from .models import user_profiles as up
from .stats_queries import _latest_names

r = rating_rows


def _visible() -> Any:
    opted_out = sa.exists().where(up.c.platform == r.c.platform, up.c.user_id == r.c.user_id,
                                  up.c.stats_opt_out)
    return sa.and_(r.c.hands >= rt.QUALIFYING_HANDS, sa.not_(opted_out))


async def _seasons(conn: AsyncConnection, platform: str, chat_id: str) -> list[rt.Season]:
    s = rating_seasons.c
    rows = await conn.execute(sa.select(s.number, s.started_at, s.ends_at)
                              .where(s.platform == platform, s.chat_id == chat_id)
                              .order_by(s.number))
    return [rt.Season(int(n), float(a), float(b)) for n, a, b in rows]


async def _scope(conn: AsyncConnection, platform: str, chat: ChatKey | None, now: float,
                 previous: bool) -> tuple[str, rt.Season | None]:
    if chat is None:
        return rt.PLATFORM_WIDE, None
    seasons = await _seasons(conn, platform, chat.chat_id)
    pick = rt.previous_season if previous else rt.current_season
    return chat.chat_id, pick(seasons, now)


async def table(conn: AsyncConnection, platform: str, chat: ChatKey | None, now: float,
                previous: bool, limit: int) -> RatingTable:
    scope, season = await _scope(conn, platform, chat, now, previous)
    if chat is not None and season is None:
        return RatingTable(chat, None, None, None, [])
    found = (await conn.execute(
        sa.select(r.c.user_id, r.c.mu, r.c.sigma, r.c.hands)
        .where(r.c.platform == platform, r.c.chat_id == scope,
               r.c.season == (season.number if season else 0), _visible())
        .order_by(r.c.ordinal.desc(), r.c.user_id).limit(limit))).all()
    names = await _latest_names(conn, platform, [row.user_id for row in found])
    rows = [RatedPlayer(row.user_id, names.get(row.user_id, row.user_id), float(row.mu),
                        float(row.sigma), int(row.hands)) for row in found]
    return RatingTable(chat, season.number if season else None,
                       season.started_at if season else None, season.ends_at if season else None,
                       rows)


async def player(conn: AsyncConnection, platform: str, user_id: str, chat: ChatKey | None,
                 now: float) -> PlayerRating:
    scope, season = await _scope(conn, platform, chat, now, False)
    if chat is not None and season is None:
        return PlayerRating(None)
    number = season.number if season else 0
    shown = season.number if season else None
    where = (r.c.platform == platform, r.c.chat_id == scope, r.c.season == number)
    mine = (await conn.execute(sa.select(r.c.mu, r.c.sigma, r.c.ordinal, r.c.hands)
                               .where(*where, r.c.user_id == user_id))).first()
    if mine is None:
        return PlayerRating(None, season=shown)
    c = rating_changes.c
    deltas = [float(d) for (d,) in await conn.execute(
        sa.select(c.delta).where(c.platform == platform, c.chat_id == scope, c.season == number,
                                 c.user_id == user_id)
        .order_by(c.result_id.desc()).limit(rt.TREND_HANDS))]
    deltas.reverse()  # summed oldest first, as everywhere
    me = (await conn.execute(sa.select(sa.func.count()).select_from(r)
                             .where(*where, r.c.user_id == user_id, _visible()))).scalar_one()
    rank = None
    if me:
        ahead = sa.or_(r.c.ordinal > mine.ordinal,
                       sa.and_(r.c.ordinal == mine.ordinal, r.c.user_id < user_id))
        rank = 1 + (await conn.execute(sa.select(sa.func.count()).select_from(r)
                                       .where(*where, _visible(), ahead))).scalar_one()
    names = await _latest_names(conn, platform, [user_id])
    return PlayerRating(
        RatedPlayer(user_id, names.get(user_id, user_id), float(mine.mu), float(mine.sigma),
                    int(mine.hands)),
        trend=rt.trend(deltas), trend_hands=len(deltas), rank=rank, season=shown)


async def _stored_hands(conn: AsyncConnection) -> list[tuple[int, GameResult]]:
    """Every hand result with its players, in the order they were stored."""
    res, rp = results.c, result_players.c
    heads = {row.id: GameResult(row.game_id, ChatKey(row.platform, row.chat_id), row.kind,
                                row.hand_number, [], finished_at=float(row.finished_at))
             for row in await conn.execute(sa.select(results).where(res.kind == "hand"))}
    players = await conn.execute(
        sa.select(rp.result_id, rp.user_id, rp.name, rp.points, rp.won, rp.is_ai, rp.cards_left)
        .where(rp.kind == "hand").order_by(rp.id))
    for row in players:
        head = heads.get(row.result_id)
        if head is not None:
            head.players.append(PlayerResult(row.user_id, row.name, points=row.points,
                                             won=bool(row.won), is_ai=bool(row.is_ai),
                                             cards_left=row.cards_left))
    return sorted(heads.items())


async def rebuild(conn: AsyncConnection) -> int:
    """Recompute every rating (inside the caller's transaction); returns the hands rated."""
    if conn.dialect.name == "postgresql":
        # Live updates lock rating rows before their result takes an id: they wait here, and
        # are applied after the rebuild, on its numbers.
        await conn.execute(sa.text("LOCK TABLE ratings IN EXCLUSIVE MODE"))
    # A write first: on SQLite this takes the writer's lock before anything is read.
    await conn.execute(rating_changes.delete())
    await conn.execute(rating_rows.delete())
    known: dict[str, dict[str, list[rt.Season]]] = defaultdict(dict)
    s = rating_seasons.c
    for row in await conn.execute(sa.select(rating_seasons).order_by(s.platform, s.chat_id,
                                                                      s.number)):
        known[row.platform].setdefault(row.chat_id, []).append(
            rt.Season(int(row.number), float(row.started_at), float(row.ends_at)))
    cs = chat_settings.c
    days = {(p, chat): int(d) for p, chat, d in
            await conn.execute(sa.select(cs.platform, cs.chat_id, cs.season_days))}
    hands = await _stored_hands(conn)
    rated = 0
    for platform in sorted({result.chat.platform for _, result in hands}):
        def season_days(chat_id: str, platform: str = platform) -> int:
            return days.get((platform, chat_id), rt.DEFAULT_SEASON_DAYS)

        book = rt.rebuild(platform, hands, known[platform], season_days)
        new_seasons = [{"platform": platform, "chat_id": chat_id, "number": season.number,
                        "started_at": season.started_at, "ends_at": season.ends_at}
                       for chat_id, seasons in book.seasons.items() for season in seasons
                       if season not in known[platform].get(chat_id, [])]
        if new_seasons:
            await conn.execute(rating_seasons.insert(), new_seasons)
        if book.ratings:
            await conn.execute(rating_rows.insert(), [
                {"platform": platform, "chat_id": chat_id, "season": season, "user_id": user,
                 "mu": rating.mu, "sigma": rating.sigma, "ordinal": rating.ordinal,
                 "hands": rating.hands}
                for (chat_id, season, user), rating in book.ratings.items()])
        if book.changes:
            await conn.execute(rating_changes.insert(), [
                {"result_id": change.result, "chat_id": change.chat_id, "user_id": change.user_id,
                 "platform": platform, "season": change.season, "mu": change.mu,
                 "sigma": change.sigma, "delta": change.delta} for change in book.changes])
        rated += len({change.result for change in book.changes})
    return rated
