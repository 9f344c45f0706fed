"""``MemoryStore``: the whole ``GameStore`` protocol in process memory.

Used by tests, the benchmarks and as the reference behaviour the SQL store is checked
against. Everything is copied on the way in and out, so a caller can never mutate stored
state by holding on to an object; a match is the engine's immutable value and is shared.

Stats are computed from results, the same way the SQL store does it:
- ``games`` / ``wins``: rows of ``kind="match"`` results (one per finished match);
- ``hands`` / ``hands_won`` / ``points`` / ``uno_calls`` / ``caught`` / ``challenges_won``:
  sums over ``kind="hand"`` results (match rows repeat totals and are not summed again);
- ``name``: the most recent name seen for the user.
The leaderboard ranks by wins, then points, then user id; it leaves out AI seats and users
whose profile opts out of stats.
"""

from __future__ import annotations

import pickle
import time
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any

from . import match_log, ratings
from .ports import (
    MEDIA_KEY_LIMIT,
    ChatKey,
    ChatPreset,
    ChatSettings,
    GameRecord,
    GameResult,
    MatchHistory,
    PlayerRating,
    PlayerStats,
    RatedPlayer,
    RatingTable,
    UserProfile,
    VersionConflict,
    preset_key,
)


def _copy(value: Any) -> Any:
    # pickle round trip: a deep copy, and faster than copy.deepcopy on nested JSON. Off the
    # hot path: settings, profiles, results, and a match stored only as JSON.
    return pickle.loads(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))


class _Stored:
    """One game: a private copy of the record's small parts, and its match as the immutable
    engine value (shared, never copied: nothing can change it)."""

    __slots__ = ("version", "chat", "active", "owed", "record_copy", "seated")

    def __init__(self, record: GameRecord) -> None:
        self.version = record.version
        self.chat = record.chat
        self.active = record.active
        # who the seat index lists this game under: re-indexed only when it changes
        self.seated = tuple(seat.user_id for seat in record.seats) if record.active else ()
        self.owed = record.delivery.outbox is not None
        self.record_copy = record.detached()

    def record(self) -> GameRecord:
        return self.record_copy.detached()


class MemoryStore:
    def __init__(self, now: Callable[[], float] = time.time) -> None:
        self._now = now
        self._games: dict[str, _Stored] = {}
        # The match's history, for replays: where each match began, and each save's steps.
        self._bases: dict[str, list[tuple[int, Any]]] = {}
        # Each save's steps are kept pickled: a game's log is read back only for a replay or
        # a recap, and bytes are not objects the cycle collector walks (as lists of dicts
        # were, every logged step of every game, on each of its oldest passes).
        self._logs: dict[str, list[tuple[int, bytes, str]]] = {}
        self._active: dict[ChatKey, str] = {}  # chat -> game id of its lobby/running game
        self._last: dict[ChatKey, str] = {}  # chat -> game id of the game created last there
        # (platform, user id) -> ids of the active games they sit in, and the reverse
        self._seated: dict[tuple[str, str], set[str]] = {}
        self._seats_of: dict[str, set[tuple[str, str]]] = {}
        self._results: list[GameResult] = []
        self._settings: dict[ChatKey, ChatSettings] = {}
        self._notify: dict[ChatKey, dict[str, tuple[str, str]]] = {}  # chat -> user -> (name, language)
        self._profiles: dict[tuple[str, str], UserProfile] = {}
        self._presets: dict[ChatKey, dict[str, ChatPreset]] = {}  # chat -> key -> preset
        self._media: dict[str, dict[str, str]] = {}  # platform -> key -> file id
        self._ratings: dict[str, ratings.RatingBook] = {}  # platform -> its ratings
        self.saves = 0  # successful saves, for tests and benchmarks

    # ---- games ---------------------------------------------------------------------------
    async def load(self, chat: ChatKey) -> GameRecord | None:
        game_id = self._active.get(chat)
        return self._games[game_id].record() if game_id else None

    async def load_held(self, chat: ChatKey) -> tuple[GameRecord | None, bool]:
        return await self.load(chat), False  # a load here is as cheap as holding it

    async def still_current(self, record: GameRecord) -> bool:
        stored = self._games.get(record.game_id)
        return stored is not None and stored.version == record.version and stored.active \
            and self._active.get(record.chat) == record.game_id \
            and stored.owed == (record.delivery.outbox is not None)

    async def get(self, game_id: str) -> GameRecord | None:
        stored = self._games.get(game_id)
        return stored.record() if stored else None

    async def last_game(self, chat: ChatKey) -> GameRecord | None:
        return await self.get(self._last.get(chat, ""))

    async def save(self, record: GameRecord, results: Iterable[GameResult] = ()) -> GameRecord:
        stored = self._games.get(record.game_id)
        if record.version == 0:
            if stored is not None:
                raise VersionConflict(f"game {record.game_id} exists already")
        elif stored is None or stored.version != record.version:
            raise VersionConflict(f"game {record.game_id} changed since version {record.version}")
        holder = self._active.get(record.chat)
        if record.active and holder not in (None, record.game_id):
            raise VersionConflict(f"chat {record.chat} already has an active game")
        now = self._now()
        version = record.version + 1
        if record.has_match and (record.replaced or record.version == 0):
            base = record.state if record.state is not None else _copy(record.snapshot)
            self._bases.setdefault(record.game_id, []).append((version, base))
        steps = match_log.logged_steps(record)
        if steps:
            self._logs.setdefault(record.game_id, []).append(
                (version, pickle.dumps(steps, pickle.HIGHEST_PROTOCOL), match_log.digest(record.state)))
        snapshot = match_log.takes_snapshot(record)
        saved = record.saved_as(version, updated_at=now, created_at=record.created_at or now,
                                snapshot_version=version if snapshot else record.snapshot_version)
        new = _Stored(saved)  # copied here: later changes by the caller don't leak in
        self._games[record.game_id] = new
        if stored is None:
            self._last[new.chat] = record.game_id
        if stored is None or stored.seated != new.seated:
            self._index_seats(saved)
        if new.active:
            self._active[new.chat] = record.game_id
        elif holder == record.game_id:
            del self._active[new.chat]
        for result in _copy(list(results)) if results else ():
            self._results.append(result)
            self._book(result.chat.platform).apply(len(self._results), result,
                                                   self._season_days(result.chat))
        self.saves += 1
        # A shallow copy is returned: the stored state lives in the blob, not in these objects.
        return saved

    async def active_games(self) -> list[GameRecord]:
        return [self._games[game_id].record() for game_id in self._active.values()]

    async def active_games_of(self, platform: str, user_id: str) -> list[GameRecord]:
        return [self._games[game_id].record()
                for game_id in sorted(self._seated.get((platform, user_id), ()))]

    def _index_seats(self, record: GameRecord) -> None:
        keys = {(record.chat.platform, seat.user_id) for seat in record.seats} if record.active else set()
        old = self._seats_of.pop(record.game_id, set())
        for key in old - keys:
            games = self._seated[key]
            games.discard(record.game_id)
            if not games:
                del self._seated[key]
        for key in keys - old:
            self._seated.setdefault(key, set()).add(record.game_id)
        if keys:
            self._seats_of[record.game_id] = keys

    async def compact_finished(self, before: float) -> int:
        count = 0
        for game_id, stored in list(self._games.items()):
            if stored.active or stored.owed:
                continue
            record = stored.record()
            if record.updated_at >= before or (not record.has_match and not record.hand_message_ids):
                continue
            record.match, record.hand_message_ids = None, {}
            self._games[game_id] = _Stored(record)
            self._bases.pop(game_id, None)
            self._logs.pop(game_id, None)
            count += 1
        return count

    async def mark_delivered(self, game_id: str, version: int) -> bool:
        stored = self._games.get(game_id)
        if stored is None or stored.version != version or not stored.owed:
            return False
        stored.owed = False
        stored.record_copy.delivery.outbox = None
        return True

    async def match_history(self, game_id: str) -> MatchHistory | None:
        bases = self._bases.get(game_id)
        if game_id not in self._games or not bases:
            return None
        return MatchHistory([(v, base.to_json() if hasattr(base, "to_json") else _copy(base))
                             for v, base in bases],
                            [(v, pickle.loads(steps), d) for v, steps, d in self._logs.get(game_id, ())])

    async def game_results(self, game_id: str) -> list[GameResult]:
        return _copy([r for r in self._results if r.game_id == game_id])

    async def last_match_game(self, chat: ChatKey) -> str | None:
        return next((r.game_id for r in reversed(self._results)
                     if r.kind == "match" and r.chat == chat), None)

    async def owing_delivery(self) -> list[GameRecord]:
        return [stored.record() for stored in self._games.values() if stored.owed]

    # ---- settings and profiles -----------------------------------------------------------
    async def chat_settings(self, chat: ChatKey) -> ChatSettings:
        return _copy(self._settings.get(chat) or ChatSettings(new=True))

    async def save_chat_settings(self, chat: ChatKey, settings: ChatSettings) -> None:
        stored = self._settings.get(chat)
        self._settings[chat] = replace(_copy(settings), new=False,  # saved: no longer a new chat
                                       version=(stored.version if stored else 0) + 1)

    async def update_chat_settings(self, chat: ChatKey, settings: ChatSettings) -> ChatSettings:
        stored = self._settings.get(chat)
        if (stored.version if stored else 0) != settings.version:
            raise VersionConflict(f"settings of {chat} changed since version {settings.version}")
        self._settings[chat] = replace(_copy(settings), new=False, version=settings.version + 1)
        return _copy(self._settings[chat])

    async def chat_presets(self, chat: ChatKey) -> list[ChatPreset]:
        saved = self._presets.get(chat, {})
        return [_copy(saved[key]) for key in sorted(saved)]

    async def save_chat_preset(self, chat: ChatKey, preset: ChatPreset) -> bool:
        saved = self._presets.setdefault(chat, {})
        new = preset.key not in saved
        saved[preset.key] = replace(_copy(preset), updated_at=self._now())
        return new

    async def delete_chat_preset(self, chat: ChatKey, name: str) -> bool:
        return self._presets.get(chat, {}).pop(preset_key(name), None) is not None

    async def user_profile(self, platform: str, user_id: str) -> UserProfile:
        return _copy(self._profiles.get((platform, user_id)) or UserProfile())

    async def save_user_profile(self, platform: str, user_id: str, profile: UserProfile) -> None:
        self._profiles[(platform, user_id)] = _copy(profile)

    # ---- pictures the platform holds --------------------------------------------------------
    async def media_files(self, platform: str) -> dict[str, str]:
        return dict(self._media.get(platform, {}))

    async def save_media_file(self, platform: str, key: str, file_id: str) -> None:
        if len(key) > MEDIA_KEY_LIMIT:
            raise ValueError(f"media key longer than {MEDIA_KEY_LIMIT} characters")
        self._media.setdefault(platform, {})[key] = file_id

    # ---- "notify me" ------------------------------------------------------------------------
    async def add_notify_request(self, chat: ChatKey, user_id: str, name: str, language: str) -> bool:
        waiting = self._notify.setdefault(chat, {})
        if user_id in waiting:
            return False
        waiting[user_id] = (name, language)
        return True

    async def remove_notify_request(self, chat: ChatKey, user_id: str) -> bool:
        return self._notify.get(chat, {}).pop(user_id, None) is not None

    async def take_notify_requests(self, chat: ChatKey) -> list[tuple[str, str, str]]:
        return [(uid, name, language) for uid, (name, language) in self._notify.pop(chat, {}).items()]

    # ---- a chat's new id -----------------------------------------------------------------
    async def move_chat(self, old: ChatKey, new: ChatKey) -> bool:
        moved = False
        for stored in self._games.values():
            if stored.chat != old or (stored.active and new in self._active):
                continue  # an open game where one is open already stays (GameStore.move_chat)
            stored.chat = stored.record_copy.chat = new
            stored.record_copy.table_message_id = None  # a message of the old chat
            moved = True
            if stored.active:
                self._active[new] = self._active.pop(old)
        if old in self._last:
            self._last.setdefault(new, self._last.pop(old))
        if old in self._settings:
            self._settings[new] = self._settings.pop(old)
            moved = True
        if old in self._presets:  # by name: the old chat's win
            self._presets[new] = {**self._presets.get(new, {}), **self._presets.pop(old)}
            moved = True
        if old in self._notify:
            self._notify[new] = {**self._notify.get(new, {}), **self._notify.pop(old)}
            moved = True
        for i, result in enumerate(self._results):
            if result.chat == old:
                self._results[i] = replace(result, chat=new)
                moved = True
        book = self._ratings.get(old.platform)
        if book is not None and old.chat_id in book.seasons:
            book.seasons[new.chat_id] = book.seasons.pop(old.chat_id)
            book.ratings = {(new.chat_id if chat_id == old.chat_id else chat_id, season, user): r
                            for (chat_id, season, user), r in book.ratings.items()}
            book.changes = [replace(c, chat_id=new.chat_id) if c.chat_id == old.chat_id else c
                            for c in book.changes]
        return moved

    # ---- results -------------------------------------------------------------------------
    @property
    def results(self) -> list[GameResult]:
        return _copy(self._results)

    def _tally(self, platform: str, chat: ChatKey | None) -> dict[str, PlayerStats]:
        table: dict[str, PlayerStats] = {}
        for result in self._results:
            if result.chat.platform != platform or (chat is not None and result.chat != chat):
                continue
            for row in result.players:
                stats = table.setdefault(row.user_id, PlayerStats(row.user_id, row.name))
                stats.name = row.name
                if result.kind == "match":
                    stats.games += 1
                    stats.wins += int(row.won)
                elif result.kind == "hand":
                    stats.hands += 1
                    stats.hands_won += int(row.won)
                    stats.points += row.points
                    stats.uno_calls += row.uno_calls
                    stats.caught += row.caught
                    stats.challenges_won += row.challenges_won
        return table

    def _ai_ids(self, platform: str) -> set[str]:
        return {row.user_id for result in self._results if result.chat.platform == platform
                for row in result.players if row.is_ai}

    async def stats(self, platform: str, user_id: str, chat: ChatKey | None = None) -> PlayerStats:
        return self._tally(platform, chat).get(user_id) or PlayerStats(user_id, "")

    async def leaderboard(self, platform: str, chat: ChatKey | None = None,
                          limit: int = 10) -> list[PlayerStats]:
        ai = self._ai_ids(platform)
        rows = [s for s in self._tally(platform, chat).values()
                if s.user_id not in ai
                and not (self._profiles.get((platform, s.user_id)) or UserProfile()).stats_opt_out]
        rows.sort(key=lambda s: (-s.wins, -s.points, s.user_id))
        return rows[:limit]

    # ---- ratings -----------------------------------------------------------------------------
    def _book(self, platform: str) -> ratings.RatingBook:
        return self._ratings.setdefault(platform, ratings.RatingBook(platform))

    def _season_days(self, chat: ChatKey) -> int:
        stored = self._settings.get(chat)
        return stored.season_days if stored else ratings.DEFAULT_SEASON_DAYS

    def _latest_name(self, platform: str, user_id: str) -> str:
        return next((row.name for result in reversed(self._results)
                     if result.chat.platform == platform
                     for row in result.players if row.user_id == user_id), user_id)

    def _scope(self, platform: str, chat: ChatKey | None, now: float,
               previous: bool) -> tuple[str, ratings.Season | None]:
        if chat is None:
            return ratings.PLATFORM_WIDE, None
        seasons = self._book(platform).seasons.get(chat.chat_id, [])
        pick = ratings.previous_season if previous else ratings.current_season
        return chat.chat_id, pick(seasons, now)

    def _ranked(self, platform: str, scope: str, season: int) -> list[RatedPlayer]:
        rows = [RatedPlayer(user, self._latest_name(platform, user), r.mu, r.sigma, r.hands)
                for (chat_id, number, user), r in self._book(platform).ratings.items()
                if chat_id == scope and number == season and r.hands >= ratings.QUALIFYING_HANDS
                and not (self._profiles.get((platform, user)) or UserProfile()).stats_opt_out]
        rows.sort(key=lambda row: (-row.rating, row.user_id))
        return rows

    async def rating_table(self, platform: str, chat: ChatKey | None, now: float, *,
                           previous: bool = False, limit: int = 10) -> RatingTable:
        scope, season = self._scope(platform, chat, now, previous)
        if chat is not None and season is None:
            return RatingTable(chat, None, None, None, [])
        rows = self._ranked(platform, scope, season.number if season else 0)[:limit]
        return RatingTable(chat, season.number if season else None,
                           season.started_at if season else None,
                           season.ends_at if season else None, rows)

    async def player_rating(self, platform: str, user_id: str, chat: ChatKey | None,
                            now: float) -> PlayerRating:
        scope, season = self._scope(platform, chat, now, False)
        if chat is not None and season is None:
            return PlayerRating(None)
        number = season.number if season else 0
        rating = self._book(platform).ratings.get((scope, number, user_id))
        if rating is None:
            return PlayerRating(None, season=season.number if season else None)
        deltas = [c.delta for c in self._book(platform).changes
                  if (c.chat_id, c.season, c.user_id) == (scope, number, user_id)]
        ranked = [row.user_id for row in self._ranked(platform, scope, number)]
        return PlayerRating(
            RatedPlayer(user_id, self._latest_name(platform, user_id), rating.mu, rating.sigma,
                        rating.hands),
            trend=ratings.trend(deltas), trend_hands=min(len(deltas), ratings.TREND_HANDS),
            rank=ranked.index(user_id) + 1 if user_id in ranked else None,
            season=season.number if season else None)

    async def rebuild_ratings(self) -> int:
        positioned = list(enumerate(self._results, 1))
        for platform in {result.chat.platform for result in self._results}:
            def days(chat_id: str, platform: str = platform) -> int:
                return self._season_days(ChatKey(platform, chat_id))

            self._ratings[platform] = ratings.rebuild(platform, positioned,
                                                      self._book(platform).seasons, days)
        return sum(1 for result in self._results if ratings.finishing_ranks(result) is not None)

    def rating_changes(self, platform: str) -> list[ratings.Change]:
        """Every rating change, in order (for tests comparing a rebuild with the live path)."""
        return list(self._book(platform).changes)
