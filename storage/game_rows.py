"""The per-action hot path (games, their seat rows and results) straight on the drivers, and
the chat-side reads a game's opening makes (a chat's settings, a profile, whether anyone
waits to be told).

Why not through SQLAlchemy like the rest of the store: every coordinator action is one read
and one write of a game row, and SQLAlchemy's async layer (greenlet hand-offs, cursor set-up
and teardown, pool reset) costs 0.5-1 ms per statement here against 0.05 ms for the same
statement on the bare driver. That difference is most of the time of an action. So these
few statements are written out once, on the table definitions of ``models.py`` (column
lists come from there, so they cannot drift), in each dialect's placeholders, and run on:

- SQLite: one sqlite3 connection on the event loop's own thread (``sqlite_game_rows``);
- PostgreSQL: an asyncpg pool (``postgres_game_rows``).

JSON columns hold text of the one codec SQLAlchemy's JSON type uses too (``json_text``), so
both paths read each other's rows.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Sequence
from dataclasses import fields
from typing import Any

from bot.coordinator.ports import ChatKey, GameResult, PlayerResult

from . import json_text
from .models import (
    chat_settings,
    game_seats,
    games,
    notify_requests,
    result_players,
    results,
    user_profiles,
)
from .rating_rows import RatingRows

GAME_COLUMNS = tuple(column.name for column in games.columns)
# What a load reads: the games row (the save's own steps are in game_log once written) and
# the match snapshot from its own row (game_snapshots).
LOADED_COLUMNS = (*(c for c in GAME_COLUMNS if c not in ("last_steps", "last_digest")), "match")
JSON_COLUMNS = frozenset(c.name for c in games.columns if c.type.__class__.__name__ == "JSON")
# A save writes the columns that changed among these, and always its version, time, owed
# flag and steps (the log trigger appends them); with a snapshot (a hand ended, a new
# match) the rules and the snapshot's version too, and the match into its own row.
SMALL_COLUMNS = ("status", "creator", "seats", "table_message_id", "hand_message_ids",
                 "deadlines", "meta", "book", "outbox", "created_at")
SEAT_COLUMNS = tuple(c.name for c in game_seats.columns)
RESULT_COLUMNS = tuple(c.name for c in results.columns if c.name != "id")
RESULT_PLAYER_COLUMNS = tuple(c.name for c in result_players.columns if c.name != "id")
SETTINGS_COLUMNS = tuple(c.name for c in chat_settings.columns)
PROFILE_COLUMNS = tuple(c.name for c in user_profiles.columns)
# A player's part of a result as it is read back: the PlayerResult fields, columns of the same
# names.
RESULT_READ_PLAYER_COLUMNS = tuple(f.name for f in fields(PlayerResult))
ACTIVE = "status IN ('lobby', 'running')"
HEAD = "game_id, version, owed"
Head = tuple[str, int, bool]


Update = tuple[dict[str, Any], str, int, bool | None]  # row, game, version, owed
Snapshot = tuple[str, str | None]  # game, its match as JSON text (None: no match)
# A result to store: its row, its players' rows, and the finishing ranks when it is rated.
Result = tuple[dict[str, Any], list[dict[str, Any]], list[tuple[str, int]] | None]


class UniqueViolation(Exception):
    """A uniqueness rule refused the write (game id, one active game per chat, a result)."""


def encode(row: dict[str, Any]) -> dict[str, Any]:
    """JSON columns as text; an absent match or log entry as SQL NULL (the log trigger and
    the compaction look for NULL)."""
    return {k: json_text.dumps(v) if k in JSON_COLUMNS and v is not None else v for k, v in row.items()}


def decode(names: Sequence[str], values: Sequence[Any]) -> dict[str, Any]:
    """A row with its JSON columns decoded, except the match snapshot: left as text, decoded
    only when no newer match is at hand (``SqlStore``)."""
    return {name: json_text.loads(value) if name in JSON_COLUMNS and name != "match" and value is not None
            else value for name, value in zip(names, values, strict=True)}


class GameRows:
    """Statements shared by both dialects; ``_p(n)`` is the dialect's n-th placeholder."""

    rating_rows: RatingRows

    def _p(self, n: int) -> str:
        raise NotImplementedError

    def _sql(self) -> None:
        # The games row and its snapshot row (none for a row written without one: no match).
        cols = (", ".join(f"g.{c}" for c in LOADED_COLUMNS[:-1]) + ", s.match FROM games AS g "
                "LEFT JOIN game_snapshots AS s ON s.game_id = g.game_id")
        self.select_active = (f"SELECT {cols} WHERE g.platform = {self._p(1)} "
                              f"AND g.chat_id = {self._p(2)} AND {ACTIVE}")
        self.select_one = f"SELECT {cols} WHERE g.game_id = {self._p(1)}"
        # What says whether a record this process holds is still the stored one: a game's
        # version changes with every save, and ``owed`` is the one column written without it.
        self.select_active_head = (f"SELECT {HEAD} FROM games WHERE platform = {self._p(1)} "
                                   f"AND chat_id = {self._p(2)} AND {ACTIVE}")
        self.select_head = f"SELECT {HEAD} FROM games WHERE game_id = {self._p(1)}"
        self.select_last = (f"SELECT {cols} WHERE g.platform = {self._p(1)} "
                            f"AND g.chat_id = {self._p(2)} "
                            "ORDER BY g.created_at DESC, g.game_id DESC LIMIT 1")
        self.select_all_active = (f"SELECT {cols} WHERE {ACTIVE} "
                                  "ORDER BY g.created_at, g.game_id")
        self.select_owing = f"SELECT {cols} WHERE g.owed ORDER BY g.updated_at, g.game_id"
        self.count_active = f"SELECT platform, COUNT(*) FROM games WHERE {ACTIVE} GROUP BY platform"
        # The user's games through the seat index (ix_game_seats_user), never a scan of games.
        self.select_user_active = (
            f"SELECT {cols} WHERE g.game_id IN (SELECT game_id FROM game_seats WHERE "
            f"platform = {self._p(1)} AND user_id = {self._p(2)}) AND {ACTIVE} "
            "ORDER BY g.created_at, g.game_id")
        # The one write of a snapshot row: a new game's, or a snapshot taken.
        self.upsert_snapshot = (f"INSERT INTO game_snapshots (game_id, match) VALUES ({self._p(1)}, "
                                f"{self._p(2)}) ON CONFLICT (game_id) DO UPDATE SET match = "
                                "excluded.match")
        self.insert_game = self._insert("games", GAME_COLUMNS)
        self._updates: dict[tuple[tuple[str, ...], bool], str] = {}  # by columns, owed checked
        self.select_log = ("SELECT version, steps, digest FROM game_log WHERE game_id = "
                           f"{self._p(1)} AND version > {self._p(2)} AND version <= {self._p(3)} "
                           "ORDER BY version")
        # A game's results with their players, in the order they were stored (a recap's rows).
        self.select_results = (
            "SELECT r.id, r.game_id, r.platform, r.chat_id, r.kind, r.hand_number, r.finished_at, "
            f"{', '.join(f'p.{c}' for c in RESULT_READ_PLAYER_COLUMNS)} FROM results AS r "
            "LEFT JOIN result_players AS p ON p.result_id = r.id "
            f"WHERE r.game_id = {self._p(1)} ORDER BY r.id, p.id")
        # A game's opening: one statement each, by primary key (notify: does a row exist).
        self.select_settings = (f"SELECT {', '.join(SETTINGS_COLUMNS)} FROM {chat_settings.name} "
                                f"WHERE platform = {self._p(1)} AND chat_id = {self._p(2)}")
        self.select_profile = (f"SELECT {', '.join(PROFILE_COLUMNS)} FROM {user_profiles.name} "
                               f"WHERE platform = {self._p(1)} AND user_id = {self._p(2)}")
        self.select_waiting = (f"SELECT user_id FROM {notify_requests.name} WHERE platform = "
                               f"{self._p(1)} AND chat_id = {self._p(2)} LIMIT 1")
        self.insert_base = self._insert("game_bases", ("game_id", "version", "match"))
        self.select_bases = (f"SELECT version, match FROM game_bases WHERE game_id = {self._p(1)} "
                             "ORDER BY version")
        finished = (f"SELECT game_id FROM games WHERE NOT ({ACTIVE}) AND NOT owed "
                    f"AND updated_at < {self._p(1)}")
        self.compact_log = f"DELETE FROM game_log WHERE game_id IN ({finished})"
        self.compact_bases = f"DELETE FROM game_bases WHERE game_id IN ({finished})"
        # A finished game still holding its cards: its hand messages go, then its match (the
        # count of games compacted), in that order (the first finds them by their match).
        holding = f"SELECT game_id FROM game_snapshots WHERE match IS NOT NULL AND game_id IN ({finished})"
        self.compact_hands = f"UPDATE games SET hand_message_ids = '{{}}' WHERE game_id IN ({holding})"
        self.compact = (f"UPDATE game_snapshots SET match = NULL WHERE match IS NOT NULL "
                        f"AND game_id IN ({finished})")
        self.delete_seats = f"DELETE FROM game_seats WHERE game_id = {self._p(1)}"
        self.insert_seat = self._insert("game_seats", SEAT_COLUMNS)
        self.insert_result = self._insert("results", RESULT_COLUMNS) + " RETURNING id"
        self.insert_result_player = self._insert("result_players", RESULT_PLAYER_COLUMNS)

    def _insert(self, table: str, columns: Sequence[str]) -> str:
        marks = ", ".join(self._p(i + 1) for i in range(len(columns)))
        return f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})"

    # Whether the version-checked UPDATE names the row it wrote (RETURNING): a driver that
    # counts the rows a statement changed does without.
    update_returns = True

    def _update(self, columns: tuple[str, ...], owed_checked: bool) -> str:
        sets = ", ".join(f"{c} = {self._p(i + 1)}" for i, c in enumerate(columns))
        n = len(columns)
        owed = f" AND owed = {self._p(n + 3)}" if owed_checked else ""
        returning = " RETURNING version" if self.update_returns else ""
        return (f"UPDATE games SET {sets} WHERE game_id = {self._p(n + 1)} "
                f"AND version = {self._p(n + 2)}{owed}{returning}")

    def update_of(self, update: Update) -> tuple[str, list[Any]]:
        """The version-checked UPDATE of the row's given columns (a few shapes, each built
        once: the drivers prepare a statement once per text)."""
        row, game_id, old_version, owed = update
        columns = tuple(row)
        key = (columns, owed is not None)
        sql = self._updates.get(key)
        if sql is None:
            sql = self._updates[key] = self._update(columns, owed is not None)
        return sql, [*row.values(), game_id, old_version, *(() if owed is None else (owed,))]

    # The interface SqlStore uses --------------------------------------------------------------
    async def fetch_active(self, platform: str, chat_id: str) -> dict[str, Any] | None:
        rows = await self._fetch(self.select_active, (platform, chat_id))
        return rows[0] if rows else None

    async def fetch_active_head(self, platform: str, chat_id: str) -> Head | None:
        """(game id, version, owed) of the chat's active game."""
        return self._head(await self._rows(self.select_active_head, (platform, chat_id)))

    async def fetch_head(self, game_id: str) -> Head | None:
        return self._head(await self._rows(self.select_head, (game_id,)))

    @staticmethod
    def _head(rows: Sequence[Sequence[Any]]) -> Head | None:
        if not rows:
            return None
        game_id, version, owed = rows[0]
        return str(game_id), int(version), bool(owed)

    async def fetch_one(self, game_id: str) -> dict[str, Any] | None:
        rows = await self._fetch(self.select_one, (game_id,))
        return rows[0] if rows else None

    async def fetch_last(self, platform: str, chat_id: str) -> dict[str, Any] | None:
        rows = await self._fetch(self.select_last, (platform, chat_id))
        return rows[0] if rows else None

    async def fetch_all_active(self) -> list[dict[str, Any]]:
        return await self._fetch(self.select_all_active, ())

    async def fetch_user_active(self, platform: str, user_id: str) -> list[dict[str, Any]]:
        return await self._fetch(self.select_user_active, (platform, user_id))

    async def compact_finished(self, before: float) -> int:
        """The hot path's connection runs it: one UPDATE, atomic on its own."""
        raise NotImplementedError

    async def fetch_owing(self) -> list[dict[str, Any]]:
        return await self._fetch(self.select_owing, ())

    def delivered(self, game_id: str, version: int) -> asyncio.Future[bool]:
        """Clear the owed flag where the version is still ``version`` and the flag still set:
        a version-checked UPDATE like a save's, so it joins the same group."""
        return self.update_grouped(({"owed": False}, game_id, version, True))

    def update_grouped(self, update: Update, snapshot: Snapshot | None = None) -> asyncio.Future[bool]:
        """A version-checked UPDATE written with the others of this turn of the loop, and
        the snapshot row when one is given, only if the UPDATE wrote its row (the
        driver-specific part). Its future says whether its row was written: handed back
        as it is, so that a move's save waits on it without a coroutine of its own."""
        raise NotImplementedError

    async def fetch_log(self, game_id: str, after: int, upto: int) -> list[tuple[int, Any, str]]:
        """The logged saves of a game with ``after < version <= upto``, in order."""
        rows = await self._rows(self.select_log, (game_id, after, upto))
        # One decode for the whole log (a match's recap reads a few hundred rows), not one a row.
        every_steps = json_text.loads_steps(f"[{','.join([steps for _, steps, _ in rows])}]")
        return [(int(v), steps, str(digest))
                for (v, _, digest), steps in zip(rows, every_steps, strict=True)]

    async def fetch_results(self, game_id: str) -> list[GameResult]:
        """A game's hand and match results with their players, in the order they were stored."""
        heads: dict[int, GameResult] = {}
        for result_id, game, platform, chat_id, kind, hand, finished, *player in \
                await self._rows(self.select_results, (game_id,)):
            head = heads.get(result_id)
            if head is None:
                head = heads[result_id] = GameResult(str(game), ChatKey(platform, chat_id), kind,
                                                     int(hand), [], finished_at=float(finished))
            if player[0] is not None:  # a result stored without players has none to add
                values = dict(zip(RESULT_READ_PLAYER_COLUMNS, player, strict=True))
                values["won"], values["is_ai"] = bool(values["won"]), bool(values["is_ai"])
                head.players.append(PlayerResult(**values))
        return list(heads.values())

    async def fetch_settings(self, platform: str, chat_id: str) -> dict[str, Any] | None:
        """A chat's stored settings row, its overrides decoded (None: none stored)."""
        rows = await self._rows(self.select_settings, (platform, chat_id))
        if not rows:
            return None
        row = dict(zip(SETTINGS_COLUMNS, rows[0], strict=True))
        overrides = row["overrides"]
        row["overrides"] = json_text.loads(overrides) if isinstance(overrides, str) else overrides
        return row

    async def fetch_profile(self, platform: str, user_id: str) -> dict[str, Any] | None:
        rows = await self._rows(self.select_profile, (platform, user_id))
        return dict(zip(PROFILE_COLUMNS, rows[0], strict=True)) if rows else None

    async def anyone_waiting(self, platform: str, chat_id: str) -> bool:
        """Whether anyone asked to be told when a game opens in the chat."""
        return bool(await self._rows(self.select_waiting, (platform, chat_id)))

    async def fetch_bases(self, game_id: str) -> list[tuple[int, Any]]:
        """Where each match of a game began, in order."""
        return [(int(v), json_text.loads(match))
                for v, match in await self._rows(self.select_bases, (game_id,))]

    async def _rows(self, sql: str, args: Sequence[Any]) -> list[Sequence[Any]]:
        """Raw rows of a SELECT (the driver-specific part)."""
        raise NotImplementedError

    async def _fetch(self, sql: str, args: Sequence[Any]) -> list[dict[str, Any]]:
        """Game rows for a SELECT of GAME_COLUMNS, decoded (the driver-specific part)."""
        raise NotImplementedError

    async def open_games_by_platform(self) -> dict[str, int]:
        """Active games per platform, read afresh from the database (the health check)."""
        raise NotImplementedError

    def write(self, *, insert: dict[str, Any] | None = None, update: Update | None = None,
              seats: tuple[str, list[dict[str, Any]]] | None = None,
              results: Sequence[Result] = (),
              base: tuple[str, int, str | None] | None = None,
              snapshot: Snapshot | None = None) -> Awaitable[bool]:
        """Insert or version-checked update of a game row (``update``: the row, game id, the
        version it must still have, the owed flag it must still have when checked),
        optionally with its match snapshot (``snapshot``: game id, match as JSON text), seat
        rows, results (rated ones updating the ratings) and the match it begins (``base``),
        atomically. False when the update matched no row (stale version). An update with
        nothing but its snapshot, a move's save, goes with the others of this turn of the
        loop (``update_grouped``)."""
        if insert is None and seats is None and not results and base is None:
            assert update is not None
            return self.update_grouped(update, snapshot)
        return self._transaction(insert, update, seats, results, base, snapshot)

    async def _transaction(self, insert: dict[str, Any] | None, update: Update | None,
                           seats: tuple[str, list[dict[str, Any]]] | None,
                           results: Sequence[Result], base: tuple[str, int, str | None] | None,
                           snapshot: Snapshot | None) -> bool:
        """``write``'s statements in one transaction of their own (the driver-specific part)."""
        raise NotImplementedError

    async def _store_result(self, db: Any, result: Result, insert_result: Any) -> None:
        """One result and its players, the ratings locked before it takes its id."""
        head, players, ranks = result
        before = None
        if ranks is not None:
            before = await self.rating_rows.lock(db, head["platform"], head["chat_id"],
                                                 head["finished_at"], ranks)
        result_id = await insert_result([head[c] for c in RESULT_COLUMNS])
        await db.many(self.insert_result_player, [
            [result_id if c == "result_id" else p[c] for c in RESULT_PLAYER_COLUMNS]
            for p in players])
        if ranks is not None and before is not None:
            await self.rating_rows.apply(db, head["platform"], result_id, ranks, before)

    async def close(self) -> None: ...
