"""Ratings updated inside the transaction that stores a hand's result (the hot path's
drivers, like ``game_rows``).

The order matters, on PostgreSQL above all: the rating rows of everyone in the hand are
created if missing and locked (in one sorted order, so two hands never deadlock) BEFORE the
result row takes its id. A hand sharing a person with another waits for it, so result ids
follow the order ratings were applied in, which is the order a rebuild replays them in.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from bot.coordinator import ratings as rt

Ranks = list[tuple[str, int]]


class Db(Protocol):
    """One open transaction on either driver."""

    async def rows(self, sql: str, args: Sequence[Any]) -> list[Sequence[Any]]: ...

    async def run(self, sql: str, args: Sequence[Any]) -> None: ...

    async def many(self, sql: str, args: list[Sequence[Any]]) -> None: ...


class RatingRows:
    def __init__(self, p: Any, *, lock: str) -> None:
        """``p(n)``: the dialect's n-th placeholder; ``lock``: a row-lock clause (or "")."""
        self.season_days = (f"SELECT season_days FROM chat_settings WHERE platform = {p(1)} "
                            f"AND chat_id = {p(2)}")
        self.seasons = (f"SELECT number, started_at, ends_at FROM rating_seasons WHERE "
                        f"platform = {p(1)} AND chat_id = {p(2)} ORDER BY number")
        self.open_season = ("INSERT INTO rating_seasons (platform, chat_id, number, started_at, "
                            f"ends_at) VALUES ({p(1)}, {p(2)}, {p(3)}, {p(4)}, {p(5)}) "
                            "ON CONFLICT DO NOTHING")
        def key(n: int) -> str:  # placeholders from n on ("?" is positional on SQLite)
            return (f"platform = {p(n)} AND chat_id = {p(n + 1)} AND season = {p(n + 2)} "
                    f"AND user_id = {p(n + 3)}")

        self.create = ("INSERT INTO ratings (platform, chat_id, season, user_id, mu, sigma, "
                       f"ordinal, hands) VALUES ({p(1)}, {p(2)}, {p(3)}, {p(4)}, {p(5)}, "
                       f"{p(6)}, {p(7)}, 0) ON CONFLICT DO NOTHING")
        self._p, self._lock = p, lock
        self._reads: dict[int, str] = {}
        self.update = (f"UPDATE ratings SET mu = {p(1)}, sigma = {p(2)}, ordinal = {p(3)}, "
                       f"hands = {p(4)} WHERE {key(5)}")
        self.change = ("INSERT INTO rating_changes (result_id, chat_id, user_id, platform, "
                       f"season, mu, sigma, delta) VALUES ({p(1)}, {p(2)}, {p(3)}, {p(4)}, "
                       f"{p(5)}, {p(6)}, {p(7)}, {p(8)})")

    async def lock(self, db: Db, platform: str, chat_id: str, finished_at: float,
                   ranks: Ranks) -> dict[tuple[str, int, str], rt.Rating]:
        """Open the hand's season if it is new, then create and lock everyone's rating rows:
        their ratings before the hand, by (scope, season, user)."""
        found = await db.rows(self.season_days, (platform, chat_id))
        days = int(found[0][0]) if found else rt.DEFAULT_SEASON_DAYS
        seasons = [rt.Season(int(n), float(s), float(e))
                   for n, s, e in await db.rows(self.seasons, (platform, chat_id))]
        season, new = rt.season_for(seasons, finished_at, days)
        if new:
            await db.run(self.open_season, (platform, chat_id, season.number, season.started_at,
                                            season.ends_at))
        fresh = rt.initial()
        scopes = ((chat_id, season.number), (rt.PLATFORM_WIDE, 0))
        users = sorted({user for user, _ in ranks})
        keys = sorted({(scope, number, user) for user in users for scope, number in scopes})
        # One round trip each (a batch, then one read that locks the rows in one order):
        # on PostgreSQL every statement of a hand's end is a wait on the server.
        await db.many(self.create, [(platform, scope, number, user, fresh.mu, fresh.sigma,
                                     fresh.ordinal) for scope, number, user in keys])
        rows = await db.rows(self._read(len(users)), (platform, *scopes[0], *scopes[1], *users))
        before = {(str(scope), int(number), str(user)): rt.Rating(float(mu), float(sigma), int(hands))
                  for scope, number, user, mu, sigma, hands in rows}
        if len(before) != len(keys):
            raise RuntimeError(f"{len(before)} rating rows read for {len(keys)} created")
        return before

    def _read(self, users: int) -> str:
        """The rating rows of ``users`` people in both scopes, locked in key order."""
        sql = self._reads.get(users)
        if sql is None:
            p = self._p
            marks = ", ".join(p(6 + i) for i in range(users))
            sql = self._reads[users] = (
                "SELECT chat_id, season, user_id, mu, sigma, hands FROM ratings "
                f"WHERE platform = {p(1)} AND ((chat_id = {p(2)} AND season = {p(3)}) OR "
                f"(chat_id = {p(4)} AND season = {p(5)})) AND user_id IN ({marks}) "
                f"ORDER BY chat_id, season, user_id {self._lock}")
        return sql

    async def apply(self, db: Db, platform: str, result_id: int, ranks: Ranks,
                    before: dict[tuple[str, int, str], rt.Rating]) -> None:
        """Rate the hand in each scope from the locked ratings, and log each change."""
        scopes = sorted({(scope, number) for scope, number, _ in before}, reverse=True)
        updates: list[Sequence[Any]] = []
        changes: list[Sequence[Any]] = []
        for scope, number in scopes:  # the chat's season first, then the platform's
            old = [before[(scope, number, user)] for user, _ in ranks]
            new = rt.rate(old, [rank for _, rank in ranks])
            for (user, _), was, rating in zip(ranks, old, new, strict=True):
                updates.append((rating.mu, rating.sigma, rating.ordinal, rating.hands,
                                platform, scope, number, user))
                changes.append((result_id, scope, user, platform, number, rating.mu,
                                rating.sigma, rating.ordinal - was.ordinal))
        await db.many(self.update, updates)
        await db.many(self.change, changes)


class SqliteDb:
    """A sqlite3 connection used on the loop (``sqlite_game_rows``): the methods are
    coroutines for the Db protocol's sake and never suspend, so a transaction never yields."""

    def __init__(self, conn: Any) -> None:
        self._conn = conn

    async def rows(self, sql: str, args: Sequence[Any]) -> list[Sequence[Any]]:
        return list(self._conn.execute(sql, list(args)).fetchall())

    async def run(self, sql: str, args: Sequence[Any]) -> None:
        self._conn.execute(sql, list(args))

    async def many(self, sql: str, args: list[Sequence[Any]]) -> None:
        self._conn.executemany(sql, [list(a) for a in args])


class PostgresDb:
    def __init__(self, conn: Any) -> None:
        self._conn = conn

    async def rows(self, sql: str, args: Sequence[Any]) -> list[Sequence[Any]]:
        return [tuple(row) for row in await self._conn.fetch(sql, *args)]

    async def run(self, sql: str, args: Sequence[Any]) -> None:
        await self._conn.execute(sql, *args)

    async def many(self, sql: str, args: list[Sequence[Any]]) -> None:
        await self._conn.executemany(sql, args)
