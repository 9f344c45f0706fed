"""The chat-side rows of the SQL store: chat settings, user profiles, saved presets, the
pictures a platform holds and "notify me" requests. Rare and small: one SQLAlchemy statement
each (the games' hot path is in ``game_rows``); reads go through ``_read``, which on SQLite
runs them on the loop's own thread (``loop_reads``). The three reads every game's opening
makes (the chat's settings, the creator's profile, whether anyone waits to be told) go on the
hot path's driver instead: on PostgreSQL one round trip each, where SQLAlchemy's async engine
took a turn of the busy loop per step."""

from __future__ import annotations

import copy
from collections.abc import Callable, Coroutine
from dataclasses import replace
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker

from bot.coordinator.ports import (
    MEDIA_KEY_LIMIT,
    ChatKey,
    ChatPreset,
    ChatSettings,
    UserProfile,
    VersionConflict,
    preset_key,
)

from .game_rows import GameRows
from .loop_reads import LoopReads
from .models import (
    chat_presets,
    chat_settings,
    media_files,
    notify_requests,
    user_profiles,
)

T = TypeVar("T")


async def _all_rows(conn: Any, statement: Any) -> list[Any]:
    return list((await conn.execute(statement)).all())


class ChatRows:
    """What ``SqlStore`` keeps per chat and per user besides games (a base of it)."""

    engine: AsyncEngine
    _session: async_sessionmaker[Any]
    _insert: Any  # the dialect's INSERT (with ON CONFLICT)
    _now: Callable[[], float]
    _loop_reads: LoopReads | None  # SQLite: reads on the loop's own thread (loop_reads)
    _rows: GameRows  # the hot path's driver: the reads a game's opening makes

    async def _read(self, query: Callable[..., Coroutine[Any, Any, T]], *args: Any) -> T:
        """``query(conn, *args)``, a query that only reads: on SQLite on the loop's thread,
        on PostgreSQL on a connection of the engine, outside a transaction."""
        if self._loop_reads is not None:
            return await self._loop_reads.run(query, *args)
        async with self.engine.connect() as conn:
            # No BEGIN and ROLLBACK around a read, two round trips fewer: in READ COMMITTED
            # each statement sees what is committed either way.
            await conn.execution_options(isolation_level="AUTOCOMMIT")
            return await query(conn, *args)

    # ---- chat settings and user profiles ---------------------------------------------------
    # Rare and small; writes are one upsert, so two processes saving the same chat's settings
    # at once cannot collide on the insert.

    async def chat_settings(self, chat: ChatKey) -> ChatSettings:
        # Read at every game's opening: on the hot path's driver, one round trip (game_rows).
        row = await self._rows.fetch_settings(chat.platform, chat.chat_id)
        if row is None:
            return ChatSettings(new=True)
        return ChatSettings(preset=row["preset"], overrides=row["overrides"],
                            language=row["language"], turn_timer=row["turn_timer"],
                            afk_policy=row["afk_policy"], reaction_window=row["reaction_window"],
                            season_days=row["season_days"], ai_level=row["ai_level"],
                            version=row["version"])

    def _settings_values(self, settings: ChatSettings) -> dict[str, Any]:
        return {"preset": settings.preset, "overrides": copy.deepcopy(settings.overrides),
                "language": settings.language, "turn_timer": settings.turn_timer,
                "afk_policy": settings.afk_policy, "reaction_window": settings.reaction_window,
                "season_days": settings.season_days, "ai_level": settings.ai_level,
                "updated_at": float(self._now())}

    async def save_chat_settings(self, chat: ChatKey, settings: ChatSettings) -> None:
        values = self._settings_values(settings)
        statement = self._insert(chat_settings).values(
            platform=chat.platform, chat_id=chat.chat_id, version=1, **values)
        statement = statement.on_conflict_do_update(
            index_elements=["platform", "chat_id"],
            set_={**values, "version": chat_settings.c.version + 1})
        async with self.engine.begin() as conn:
            await conn.execute(statement)

    async def update_chat_settings(self, chat: ChatKey, settings: ChatSettings) -> ChatSettings:
        values = self._settings_values(settings)
        statement: Any
        if settings.version == 0:  # none stored when read: insert, unless someone did meanwhile
            statement = self._insert(chat_settings).values(
                platform=chat.platform, chat_id=chat.chat_id, version=1, **values)
            statement = statement.on_conflict_do_nothing(index_elements=["platform", "chat_id"])
        else:
            statement = sa.update(chat_settings).where(
                chat_settings.c.platform == chat.platform, chat_settings.c.chat_id == chat.chat_id,
                chat_settings.c.version == settings.version).values(
                version=settings.version + 1, **values)
        async with self.engine.begin() as conn:
            written = (await conn.execute(statement)).rowcount
        if written != 1:
            raise VersionConflict(f"settings of {chat} changed since version {settings.version}")
        return replace(settings, version=settings.version + 1, new=False)

    async def user_profile(self, platform: str, user_id: str) -> UserProfile:
        row = await self._rows.fetch_profile(platform, user_id)  # as chat_settings
        if row is None:
            return UserProfile()
        return UserProfile(language=row["language"], stats_opt_out=bool(row["stats_opt_out"]),
                           card_theme=row["card_theme"])

    async def save_user_profile(self, platform: str, user_id: str, profile: UserProfile) -> None:
        await self._upsert(user_profiles, {"platform": platform, "user_id": user_id},
                           {"language": profile.language, "stats_opt_out": profile.stats_opt_out,
                            "card_theme": profile.card_theme, "updated_at": float(self._now())})

    # ---- saved presets ----------------------------------------------------------------------

    async def chat_presets(self, chat: ChatKey) -> list[ChatPreset]:
        table = chat_presets
        statement = sa.select(table).where(table.c.platform == chat.platform,
                                           table.c.chat_id == chat.chat_id)
        rows = await self._read(_all_rows, statement)
        # Sorted here: the two databases collate non-ASCII names differently.
        return [ChatPreset(row.name, row.settings, row.created_by, row.updated_at)
                for row in sorted(rows, key=lambda r: r.key)]

    async def save_chat_preset(self, chat: ChatKey, preset: ChatPreset) -> bool:
        table = chat_presets
        values = {"name": preset.name, "settings": copy.deepcopy(preset.values),
                  "created_by": preset.created_by, "updated_at": float(self._now())}
        where = (table.c.platform == chat.platform, table.c.chat_id == chat.chat_id,
                 table.c.key == preset.key)
        async with self.engine.begin() as conn:
            if (await conn.execute(sa.update(table).where(*where).values(**values))).rowcount:
                return False
            inserted = self._insert(table).values(
                platform=chat.platform, chat_id=chat.chat_id, key=preset.key, **values)
            # Saved by someone else between the two statements: theirs is replaced by ours.
            inserted = inserted.on_conflict_do_update(
                index_elements=["platform", "chat_id", "key"], set_=values)
            await conn.execute(inserted)
        return True

    async def delete_chat_preset(self, chat: ChatKey, name: str) -> bool:
        table = chat_presets
        statement = table.delete().where(table.c.platform == chat.platform,
                                         table.c.chat_id == chat.chat_id,
                                         table.c.key == preset_key(name))
        async with self.engine.begin() as conn:
            return (await conn.execute(statement)).rowcount == 1

    # ---- pictures the platform holds --------------------------------------------------------

    async def media_files(self, platform: str) -> dict[str, str]:
        statement = sa.select(media_files.c.key, media_files.c.file_id).where(
            media_files.c.platform == platform)
        return {row.key: row.file_id for row in await self._read(_all_rows, statement)}

    async def save_media_file(self, platform: str, key: str, file_id: str) -> None:
        if len(key) > MEDIA_KEY_LIMIT:
            raise ValueError(f"media key longer than {MEDIA_KEY_LIMIT} characters")
        await self._upsert(media_files, {"platform": platform, "key": key},
                           {"file_id": file_id, "created_at": float(self._now())})

    # ---- "notify me" ------------------------------------------------------------------------

    async def add_notify_request(self, chat: ChatKey, user_id: str, name: str, language: str) -> bool:
        statement = self._insert(notify_requests).values(
            platform=chat.platform, chat_id=chat.chat_id, user_id=user_id, name=name[:128],
            language=language[:16], created_at=float(self._now())).on_conflict_do_nothing()
        async with self.engine.begin() as conn:
            return (await conn.execute(statement)).rowcount == 1

    async def remove_notify_request(self, chat: ChatKey, user_id: str) -> bool:
        table = notify_requests
        statement = table.delete().where(table.c.platform == chat.platform,
                                         table.c.chat_id == chat.chat_id, table.c.user_id == user_id)
        async with self.engine.begin() as conn:
            return (await conn.execute(statement)).rowcount == 1

    async def take_notify_requests(self, chat: ChatKey) -> list[tuple[str, str, str]]:
        table = notify_requests
        mine = (table.c.platform == chat.platform, table.c.chat_id == chat.chat_id)
        # Most games begin with nobody waiting: a read (it never holds the write lock that
        # every game's save needs) tells, and only then does the DELETE run.
        if not await self._rows.anyone_waiting(chat.platform, chat.chat_id):
            return []
        # One DELETE ... RETURNING: two processes opening games at once never tell anyone twice.
        statement = table.delete().where(*mine).returning(
            table.c.user_id, table.c.name, table.c.language, table.c.created_at)
        async with self.engine.begin() as conn:
            rows = (await conn.execute(statement)).all()
        return [(row.user_id, row.name, row.language) for row in sorted(rows, key=lambda r: r.created_at)]

    async def _upsert(self, table: sa.Table, key: dict[str, Any], values: dict[str, Any]) -> None:
        statement = self._insert(table).values(**key, **values)
        statement = statement.on_conflict_do_update(index_elements=list(key), set_=values)
        async with self._session() as session:
            await session.exec(statement)
            await session.commit()
