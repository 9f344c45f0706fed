"""The tables, as sqlmodel classes on one MetaData (``SQLModel.metadata``).

Design choices (why):
- ``games.seats`` is JSON and the source of truth when a game is loaded: a record is read
  back in one row, exactly as it was saved. ``game_seats`` mirrors it as rows so we can
  query "which games is this user in" with an index; it is rewritten only when the seats
  change (see ``SqlStore.save``), so the per-action hot path stays one UPDATE.
- JSON columns are plain ``JSON`` (not JSONB on PostgreSQL): the match state comes back
  byte-for-byte as the engine wrote it, key order included.
- Times are epoch seconds (float), like ``GameRecord``: deadlines must survive a restart
  as absolute times and need no timezone handling.
- ``result_players`` repeats platform/chat/kind/finished_at of its ``results`` row so that
  stats and leaderboards are one indexed aggregate over one table, no join.
- At most one active game per chat is a partial unique index, which both SQLite and
  PostgreSQL enforce.
- A move is stored, not the match: ``game_snapshots.match`` is a snapshot (taken when a hand
  ends or the match is dealt anew, at ``games.snapshot_version``), in its own row so that a
  move's UPDATE does not carry it; each save that played on writes its engine steps into
  ``last_steps``; a trigger appends them to ``game_log`` in the same statement, so the hot
  path stays one UPDATE and the log is exactly the saves that won. ``game_bases`` keeps
  where each match began, so a hand can be replayed from the log.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

_ACTIVE_WHERE = sa.text("status IN ('lobby', 'running')")
_OWED_WHERE = sa.text("owed")


def _json(nullable: bool = False) -> Any:
    return Field(sa_column=sa.Column(sa.JSON(), nullable=nullable))


class GameRow(SQLModel, table=True):
    __tablename__ = "games"
    __table_args__ = (
        sa.Index("uq_games_one_active_per_chat", "platform", "chat_id", unique=True,
                 sqlite_where=_ACTIVE_WHERE, postgresql_where=_ACTIVE_WHERE),
        sa.Index("ix_games_status", "status"),
        # A chat's last game, whatever its status (the log after a game): no scan of games.
        # By when it was created, a column no move writes: a move's UPDATE leaves it alone.
        sa.Index("ix_games_chat_created", "platform", "chat_id", "created_at"),
        sa.Index("ix_games_owed", "owed", sqlite_where=_OWED_WHERE, postgresql_where=_OWED_WHERE),
    )

    game_id: str = Field(primary_key=True, max_length=32)
    platform: str = Field(max_length=16)
    chat_id: str = Field(max_length=64)
    status: str = Field(max_length=16)
    creator: str = Field(max_length=64)
    seats: list[dict[str, Any]] = _json()
    rules: dict[str, Any] = _json()
    version: int = Field(sa_column=sa.Column(sa.Integer(), nullable=False))
    table_message_id: str | None = Field(default=None, max_length=64)
    hand_message_ids: dict[str, str] = _json()
    deadlines: dict[str, float] = _json()
    # The record's typed parts (GameRecord.parts_json) in three columns, so that a save writes
    # only the ones that changed: the outbox (new with nearly every save, a few bytes), the
    # hand book (counters, the UNO! race: changes with a few moves) and the rest (``meta``:
    # options, delivery's other state, the links of a two-table match: changes rarely).
    meta: dict[str, Any] = _json()
    created_at: float = Field(sa_column=sa.Column(sa.Double(), nullable=False))
    updated_at: float = Field(sa_column=sa.Column(sa.Double(), nullable=False))
    # The game's record holds messages not yet delivered (its outbox): resume() finds
    # them through this flag's partial index, whatever the game's status.
    owed: bool = Field(default=False, sa_column=sa.Column(sa.Boolean(), nullable=False,
                                                          server_default=sa.false()))
    snapshot_version: int = Field(default=0, sa_column=sa.Column(
        sa.Integer(), nullable=False, server_default="0"))
    last_steps: list[dict[str, Any]] | None = _json(nullable=True)
    last_digest: str | None = Field(default=None, max_length=16)
    book: dict[str, Any] = Field(default_factory=dict, sa_column=sa.Column(
        sa.JSON(), nullable=False, server_default=sa.text("'{}'")))
    outbox: dict[str, Any] | None = _json(nullable=True)


class GameSnapshotRow(SQLModel, table=True):
    """A game's match as last stored in full (its version: ``games.snapshot_version``), in a
    row of its own: written only with a snapshot, so a move's UPDATE of the games row does
    not carry the match along (SQLite rewrites a whole row, PostgreSQL writes a new one)."""

    __tablename__ = "game_snapshots"

    game_id: str = Field(sa_column=sa.Column(
        sa.String(32), sa.ForeignKey("games.game_id", ondelete="CASCADE"), primary_key=True))
    match: dict[str, Any] | None = _json(nullable=True)


class GameLogRow(SQLModel, table=True):
    """One save's engine steps and the digest of the match they reached."""

    __tablename__ = "game_log"

    game_id: str = Field(sa_column=sa.Column(
        sa.String(32), sa.ForeignKey("games.game_id", ondelete="CASCADE"), primary_key=True))
    version: int = Field(sa_column=sa.Column(sa.Integer(), primary_key=True, autoincrement=False))
    steps: list[dict[str, Any]] = _json()
    digest: str = Field(max_length=16)


class GameBaseRow(SQLModel, table=True):
    """A match as it was dealt (or set up): the start of its log."""

    __tablename__ = "game_bases"

    game_id: str = Field(sa_column=sa.Column(
        sa.String(32), sa.ForeignKey("games.game_id", ondelete="CASCADE"), primary_key=True))
    version: int = Field(sa_column=sa.Column(sa.Integer(), primary_key=True, autoincrement=False))
    match: dict[str, Any] = _json()


class GameSeatRow(SQLModel, table=True):
    __tablename__ = "game_seats"
    __table_args__ = (sa.Index("ix_game_seats_user", "platform", "user_id"),)

    game_id: str = Field(sa_column=sa.Column(
        sa.String(32), sa.ForeignKey("games.game_id", ondelete="CASCADE"), primary_key=True))
    position: int = Field(sa_column=sa.Column(sa.Integer(), primary_key=True, autoincrement=False))
    platform: str = Field(max_length=16)
    user_id: str = Field(max_length=64)
    name: str = Field(max_length=128)
    language: str | None = Field(default=None, max_length=16)
    ai: str | None = Field(default=None, max_length=16)


class ChatSettingsRow(SQLModel, table=True):
    __tablename__ = "chat_settings"

    platform: str = Field(primary_key=True, max_length=16)
    chat_id: str = Field(primary_key=True, max_length=64)
    preset: str = Field(max_length=32)
    overrides: dict[str, Any] = _json()
    language: str = Field(max_length=16)
    turn_timer: int
    afk_policy: str = Field(max_length=16)
    reaction_window: int = Field(sa_column=sa.Column(sa.Integer(), nullable=False,
                                                     server_default="3"))
    season_days: int = Field(default=30, sa_column=sa.Column(sa.Integer(), nullable=False,
                                                             server_default="30"))
    ai_level: str = Field(default="normal", sa_column=sa.Column(sa.String(16), nullable=False,
                                                                server_default="normal"))
    updated_at: float = Field(sa_column=sa.Column(sa.Double(), nullable=False))
    # Bumped by every save: a change is a compare-and-set on it, so two admins changing
    # settings at once cannot lose one change.
    version: int = Field(default=0, sa_column=sa.Column(sa.Integer(), nullable=False,
                                                        server_default="0"))


class UserProfileRow(SQLModel, table=True):
    __tablename__ = "user_profiles"

    platform: str = Field(primary_key=True, max_length=16)
    user_id: str = Field(primary_key=True, max_length=64)
    language: str | None = Field(default=None, max_length=16)
    stats_opt_out: bool = False
    card_theme: str | None = Field(default=None, max_length=16)
    updated_at: float = Field(sa_column=sa.Column(sa.Double(), nullable=False))


class MediaFileRow(SQLModel, table=True):
    """A picture the platform holds (a sticker, a table photo): uploaded once, then sent by id."""

    __tablename__ = "media_files"

    platform: str = Field(primary_key=True, max_length=16)
    key: str = Field(primary_key=True, max_length=128)
    file_id: str = Field(max_length=256)
    created_at: float = Field(sa_column=sa.Column(sa.Double(), nullable=False))


class NotifyRequestRow(SQLModel, table=True):
    """ "Notify me": who wants a private message when the chat's next game opens."""

    __tablename__ = "notify_requests"

    platform: str = Field(primary_key=True, max_length=16)
    chat_id: str = Field(primary_key=True, max_length=64)
    user_id: str = Field(primary_key=True, max_length=64)
    name: str = Field(max_length=128)
    language: str = Field(max_length=16)
    created_at: float = Field(sa_column=sa.Column(sa.Double(), nullable=False))


class ChatPresetRow(SQLModel, table=True):
    """House rules a chat saved under a name; ``key`` is the case-folded name (one per chat),
    ``name`` as last typed, ``settings`` the complete change request that uses it."""

    __tablename__ = "chat_presets"

    platform: str = Field(primary_key=True, max_length=16)
    chat_id: str = Field(primary_key=True, max_length=64)
    key: str = Field(primary_key=True, max_length=64)
    name: str = Field(max_length=64)
    settings: dict[str, Any] = _json()
    created_by: str = Field(max_length=64)
    updated_at: float = Field(sa_column=sa.Column(sa.Double(), nullable=False))


class ResultRow(SQLModel, table=True):
    """One finished hand (kind "hand") or match (kind "match")."""

    __tablename__ = "results"
    __table_args__ = (
        # A hand or match is recorded once, even if a buggy caller sends it twice.
        sa.UniqueConstraint("game_id", "kind", "hand_number", name="uq_results_once"),
        sa.Index("ix_results_chat", "platform", "chat_id"),
    )

    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(max_length=32)
    platform: str = Field(max_length=16)
    chat_id: str = Field(max_length=64)
    kind: str = Field(max_length=8)
    hand_number: int
    finished_at: float = Field(sa_column=sa.Column(sa.Double(), nullable=False))


class ResultPlayerRow(SQLModel, table=True):
    __tablename__ = "result_players"
    __table_args__ = (
        sa.Index("ix_result_players_user", "platform", "user_id"),
        sa.Index("ix_result_players_chat_user", "platform", "chat_id", "user_id"),
        # A result's players, read with it (a recap) and deleted with it (the cascade).
        sa.Index("ix_result_players_result", "result_id"),
    )

    id: int | None = Field(default=None, primary_key=True)
    result_id: int = Field(sa_column=sa.Column(
        sa.Integer(), sa.ForeignKey("results.id", ondelete="CASCADE"), nullable=False))
    platform: str = Field(max_length=16)
    chat_id: str = Field(max_length=64)
    kind: str = Field(max_length=8)
    finished_at: float = Field(sa_column=sa.Column(sa.Double(), nullable=False))
    user_id: str = Field(max_length=64)
    name: str = Field(max_length=128)
    is_ai: bool = False
    won: bool = False
    points: int = 0
    uno_calls: int = 0
    caught: int = 0
    challenges_won: int = 0
    # Cards in their hand when the hand ended: the rating's tie-break after the winner.
    cards_left: int = Field(default=0, sa_column=sa.Column(sa.Integer(), nullable=False,
                                                           server_default="0"))


class RatingSeasonRow(SQLModel, table=True):
    """A chat's rating season, kept once opened so a rebuild gives the live numbers."""

    __tablename__ = "rating_seasons"

    platform: str = Field(primary_key=True, max_length=16)
    chat_id: str = Field(primary_key=True, max_length=64)
    number: int = Field(sa_column=sa.Column(sa.Integer(), primary_key=True, autoincrement=False))
    started_at: float = Field(sa_column=sa.Column(sa.Double(), nullable=False))
    ends_at: float = Field(sa_column=sa.Column(sa.Double(), nullable=False))


class RatingRow(SQLModel, table=True):
    """One person's rating in a chat's season, or across the platform (chat_id '', season 0).
    ``ordinal`` (mu - 3 sigma) is stored as computed, so tables rank by the exact value."""

    __tablename__ = "ratings"
    __table_args__ = (sa.Index("ix_ratings_rank", "platform", "chat_id", "season", "ordinal"),)

    platform: str = Field(primary_key=True, max_length=16)
    chat_id: str = Field(primary_key=True, max_length=64)
    season: int = Field(sa_column=sa.Column(sa.Integer(), primary_key=True, autoincrement=False))
    user_id: str = Field(primary_key=True, max_length=64)
    mu: float = Field(sa_column=sa.Column(sa.Double(), nullable=False))
    sigma: float = Field(sa_column=sa.Column(sa.Double(), nullable=False))
    ordinal: float = Field(sa_column=sa.Column(sa.Double(), nullable=False))
    hands: int = 0


class RatingChangeRow(SQLModel, table=True):
    """A rating after one rated hand, in one scope: the trend is the sum of the last deltas."""

    __tablename__ = "rating_changes"
    __table_args__ = (sa.Index("ix_rating_changes_user", "platform", "chat_id", "season",
                               "user_id", "result_id"),)

    result_id: int = Field(sa_column=sa.Column(
        sa.Integer(), sa.ForeignKey("results.id", ondelete="CASCADE"), primary_key=True,
        autoincrement=False))
    chat_id: str = Field(primary_key=True, max_length=64)
    user_id: str = Field(primary_key=True, max_length=64)
    platform: str = Field(max_length=16)
    season: int
    mu: float = Field(sa_column=sa.Column(sa.Double(), nullable=False))
    sigma: float = Field(sa_column=sa.Column(sa.Double(), nullable=False))
    delta: float = Field(sa_column=sa.Column(sa.Double(), nullable=False))


metadata = SQLModel.metadata
# The Core tables behind the classes, for statements (sqlmodel sets __table__ at class creation).
games: sa.Table = metadata.tables["games"]
game_log: sa.Table = metadata.tables["game_log"]
game_snapshots: sa.Table = metadata.tables["game_snapshots"]
game_bases: sa.Table = metadata.tables["game_bases"]
game_seats: sa.Table = metadata.tables["game_seats"]
chat_settings: sa.Table = metadata.tables["chat_settings"]
user_profiles: sa.Table = metadata.tables["user_profiles"]
notify_requests: sa.Table = metadata.tables["notify_requests"]
media_files: sa.Table = metadata.tables["media_files"]
chat_presets: sa.Table = metadata.tables["chat_presets"]
results: sa.Table = metadata.tables["results"]
result_players: sa.Table = metadata.tables["result_players"]
rating_seasons: sa.Table = metadata.tables["rating_seasons"]
ratings: sa.Table = metadata.tables["ratings"]
rating_changes: sa.Table = metadata.tables["rating_changes"]
