"""The coordinator's ports: what it needs from the outside world, as Protocols.

ChatPort  -- public messages to a chat, private hands to one user (adapters implement it)
GameStore -- persistence of games, settings, profiles and results (memory here, SQL in storage/)
Clock     -- time and timers (real one in clock.py, a fake for tests)
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from .record import ChatKey as ChatKey  # the records are part of the ports' vocabulary
from .record import GameRecord as GameRecord
from .record import Seat as Seat
from .views import HandView, Notice, Public, Reply

if TYPE_CHECKING:
    from .commands import Command


@dataclass(frozen=True)
class User:
    """Who sent a command. ``id`` is the platform's user id as a string."""

    id: str
    name: str
    locale: str | None = None  # the platform's hint (Telegram language_code, Discord locale)
    is_admin: bool = False  # chat administrator, as the adapter knows it


MEDIA_KEY_LIMIT = 128  # a store's media file key, at most (media_files.key's width)


class DeliveryFailed(Exception):
    """A private message could not be delivered. ``reason``: "blocked" (user never started the
    bot or blocked it / closed DMs), "rate_limited" (gave up after retries) or "other"."""

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(f"{reason}: {detail}" if detail else reason)
        self.reason = reason


class ChatPort(Protocol):
    async def publish(self, chat: ChatKey, message: Public, *, edit: str | None = None) -> str | None:
        """Send a public message to the chat, or edit message ``edit`` in place when given and
        the platform allows it (else send anew). Returns the message id (None if unknown).
        Raises DeliveryFailed when the platform refused it (5xx, 403): the coordinator tries
        again later, in order."""
        ...

    async def send_hand(self, chat: ChatKey, user_id: str, view: HandView, *,
                        edit: str | None = None) -> str | None:
        """Send or update one player's private hand. Raises DeliveryFailed when the player cannot
        be reached. Returns the private message id, "" when no message shows the hand now (the
        port took it down: ``HandView.turn_ended``), None where the platform has none."""
        ...

    # Optional: ``async def notify_user(chat, user_id, message: Notice) -> None`` tells one
    # person privately (a new game opened where they asked to be told); it raises
    # DeliveryFailed("blocked") when that person cannot be reached privately. A port without
    # it gets those people mentioned in the chat instead.


class TimerHandle(Protocol):
    def cancel(self) -> None: ...


class Clock(Protocol):
    def now(self) -> float:
        """Seconds since the epoch (absolute: deadlines are stored and survive a restart)."""
        ...

    def call_at(self, when: float, callback: Callable[[], Awaitable[None]]) -> TimerHandle:
        """Run ``callback`` at absolute time ``when`` (at once if it has passed)."""
        ...


# ---- persistence -------------------------------------------------------------------------

@dataclass
class MatchHistory:
    """How a game's match went, as stored: where each match began (``bases``: version and the
    match's JSON) and every save's engine steps after (``log``: version, steps, digest)."""

    bases: list[tuple[int, dict[str, Any]]]
    log: list[tuple[int, list[dict[str, Any]], str]]

    def matches(self) -> Iterator[tuple[dict[str, Any], list[dict[str, Any]]]]:
        """Each match in order: the JSON it began from and the steps logged after that, up to
        where the next one began (a later base starts the match again)."""
        bases = sorted(self.bases, key=lambda base: base[0])
        for index, (version, data) in enumerate(bases):
            until = bases[index + 1][0] if index + 1 < len(bases) else None
            yield data, [step for logged, steps, _ in self.log
                         if logged > version and (until is None or logged < until)
                         for step in steps]


@dataclass
class PlayerResult:
    user_id: str
    name: str
    points: int = 0  # points scored this hand/match (winner) or held (losers)
    won: bool = False
    is_ai: bool = False
    uno_calls: int = 0  # successful call-outs made
    caught: int = 0  # times caught without declaring
    challenges_won: int = 0
    cards_left: int = 0  # in their hand when the hand ended (a hand row; 0 in a match row)


@dataclass
class GameResult:
    """One finished hand (kind="hand") or match (kind="match")."""

    game_id: str
    chat: ChatKey
    kind: str
    hand_number: int
    players: list[PlayerResult]
    finished_at: float = 0.0


@dataclass
class ChatSettings:
    preset: str = "official"
    overrides: dict[str, Any] = field(default_factory=dict)  # RuleSet field -> value
    language: str = "en"  # "en" | "zh_CN"
    turn_timer: int = 60  # seconds; 0 = off
    afk_policy: str = "ai"  # after 3 timeouts in a row: "ai" takes the seat, or "leave"
    reaction_window: int = 3  # seconds AI seats leave people to call out a forgotten UNO!
    season_days: int = 30  # the length of the chat's rating seasons, from the next one on
    ai_level: str = "normal"  # a bot added without a level (the lobby's Add AI): easy | normal | hard
    # Not stored: True when the chat has no saved settings yet (it takes the language of whoever
    # opens its first game or first changes a setting). Stores set it; equality ignores it.
    new: bool = field(default=False, compare=False)
    # The stored settings' version as read (0: none stored): update_chat_settings stores a
    # change only over that same version, so no concurrent change is lost.
    version: int = field(default=0, compare=False)


@dataclass
class ChatPreset:
    """House rules a chat saved under a name. ``key`` is the name as compared (case-folded):
    one preset per key and chat. ``values`` is a complete change request (preset_codes.carried)."""

    name: str
    values: dict[str, Any]
    created_by: str = ""  # user id
    updated_at: float = 0.0

    @property
    def key(self) -> str:
        return preset_key(self.name)


def preset_key(name: str) -> str:
    return name.casefold()


@dataclass
class UserProfile:
    language: str | None = None  # override for private messages
    stats_opt_out: bool = False
    card_theme: str | None = None  # "classic" | "high_contrast" for the pictures only they see


@dataclass
class PlayerStats:
    user_id: str
    name: str
    games: int = 0  # matches played
    wins: int = 0  # matches won
    hands: int = 0
    hands_won: int = 0
    points: int = 0
    uno_calls: int = 0
    caught: int = 0
    challenges_won: int = 0

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


@dataclass(frozen=True)
class RatedPlayer:
    user_id: str
    name: str
    mu: float
    sigma: float
    hands: int  # rated hands in this scope

    @property
    def rating(self) -> float:
        """The conservative rating, mu - 3 sigma: what tables rank by."""
        return self.mu - 3 * self.sigma


@dataclass(frozen=True)
class RatingTable:
    """A ranked table: a chat's season (``season`` None: no season at that time) or the
    platform's all-time ratings (``chat`` None). Only people with enough rated hands."""

    chat: ChatKey | None
    season: int | None
    started_at: float | None
    ends_at: float | None
    rows: list[RatedPlayer]


@dataclass(frozen=True)
class PlayerRating:
    """One person's rating in one scope (None: no rated hand there yet), its change over the
    last rated hands, and their place (None until they have enough rated hands)."""

    rated: RatedPlayer | None
    trend: float = 0.0
    trend_hands: int = 0  # how many hands the trend spans
    rank: int | None = None
    season: int | None = None


class VersionConflict(Exception):
    """Another process saved the game first; reload and retry, or refuse."""


class GameStore(Protocol):
    async def load(self, chat: ChatKey) -> GameRecord | None:
        """The chat's active game (status lobby or running), if any."""
        ...

    async def load_held(self, chat: ChatKey) -> tuple[GameRecord | None, bool]:
        """``load``, except that a store holding the chat's game as this process last saved
        or read it may hand that out without reading; then it says so (True). A save of such
        a record checks that it is still current (VersionConflict when not), and what is
        decided without a save must ask ``still_current`` first."""
        ...

    async def still_current(self, record: GameRecord) -> bool:
        """Whether ``record`` (from ``load_held``) is the chat's active game as stored now."""
        ...

    async def get(self, game_id: str) -> GameRecord | None: ...

    async def last_game(self, chat: ChatKey) -> GameRecord | None:
        """The chat's game saved last, whatever its status (with no open game: the one that
        ended last); None when no game was ever played here."""
        ...

    async def save(self, record: GameRecord, results: list[GameResult] = ()) -> GameRecord:  # type: ignore[assignment]
        """Insert (version 0) or update where the stored version equals ``record.version``,
        together with ``results``, in one transaction. Returns the record with version + 1.
        Raises VersionConflict if the stored version differs, or a second active game would
        exist for the chat."""
        ...

    async def active_games(self) -> list[GameRecord]:
        """Every game in lobby or running state, for re-arming after a restart."""
        ...

    async def move_chat(self, old: ChatKey, new: ChatKey) -> bool:
        """The platform gave a chat a new id (a Telegram group upgraded to a supergroup):
        what is stored under ``old`` moves to ``new``, all at once: its games, settings,
        presets, "notify me" requests, results and ratings. Where both have a row of the same
        key, the old chat's wins; an open game stays under ``old`` if ``new`` has one open
        already. A moved game's table message id is dropped (it names a message of the old
        chat). Whether anything moved."""
        ...

    async def active_games_of(self, platform: str, user_id: str) -> list[GameRecord]:
        """The active games this user has a seat in (through the seat index, not a scan)."""
        ...

    async def compact_finished(self, before: float) -> int:
        """Finished or stopped games last saved before ``before`` (and owing no delivery)
        drop their match state and hand message ids: no feature reads them, and results are
        stored apart. Returns how many games were compacted."""
        ...

    async def owing_delivery(self) -> list[GameRecord]:
        """Every game (any status) whose record still holds messages to deliver
        (``record.delivery.outbox``), for ``resume()``."""
        ...

    async def mark_delivered(self, game_id: str, version: int) -> bool:
        """What the save of ``version`` owed is delivered: its outbox is owed no more (read
        back as none). A small write, and only while the game is still at ``version`` (a
        later save carries its own outbox). False when it was not."""
        ...

    async def match_history(self, game_id: str) -> MatchHistory | None:
        """The stored history of a game's match (None: no such game, or compacted)."""
        ...

    async def game_results(self, game_id: str) -> list[GameResult]:
        """Every result row of a game (its hands, then its match), in the order stored."""
        ...

    async def last_match_game(self, chat: ChatKey) -> str | None:
        """The id of the game whose match finished last in ``chat`` (None: none yet)."""
        ...

    async def chat_settings(self, chat: ChatKey) -> ChatSettings: ...

    async def save_chat_settings(self, chat: ChatKey, settings: ChatSettings) -> None:
        """Store the settings whatever is stored (bumps their version)."""
        ...

    async def update_chat_settings(self, chat: ChatKey, settings: ChatSettings) -> ChatSettings:
        """Store ``settings`` only if the stored ones are still at ``settings.version`` (0: none
        stored yet); else VersionConflict (read again, re-apply the change, retry). Returns
        the settings with their new version."""
        ...

    async def chat_presets(self, chat: ChatKey) -> list[ChatPreset]:
        """The chat's saved presets, by key."""
        ...

    async def save_chat_preset(self, chat: ChatKey, preset: ChatPreset) -> bool:
        """Store ``preset`` (``updated_at`` set by the store), replacing the one with the same
        key (its name as typed now). True when it is new."""
        ...

    async def delete_chat_preset(self, chat: ChatKey, name: str) -> bool:
        """Forget the preset called ``name`` (any case); False when there was none."""
        ...

    async def user_profile(self, platform: str, user_id: str) -> UserProfile: ...

    async def save_user_profile(self, platform: str, user_id: str, profile: UserProfile) -> None: ...

    async def media_files(self, platform: str) -> dict[str, str]:
        """Every picture the platform already holds: the adapter's key -> the platform's file id
        (uploaded once, reused by id ever after, across restarts)."""
        ...

    async def save_media_file(self, platform: str, key: str, file_id: str) -> None:
        """Remember (or replace) the platform's file id for ``key`` (at most MEDIA_KEY_LIMIT
        characters: a longer key is the adapter's bug, refused with ValueError)."""
        ...

    async def stats(self, platform: str, user_id: str, chat: ChatKey | None = None) -> PlayerStats:
        """One player's stats in a chat, or across the platform when ``chat`` is None."""
        ...

    async def leaderboard(self, platform: str, chat: ChatKey | None = None,
                          limit: int = 10) -> list[PlayerStats]:
        """Best players by match wins, then points (AI seats and opted-out users excluded)."""
        ...

    async def rating_table(self, platform: str, chat: ChatKey | None, now: float, *,
                           previous: bool = False, limit: int = 10) -> RatingTable:
        """The best rated people (rated hands >= ratings.QUALIFYING_HANDS, opted-out users left
        out) by mu - 3 sigma: of the chat's season running at ``now`` (``previous``: the last
        season ended by then), or across the platform when ``chat`` is None."""
        ...

    async def player_rating(self, platform: str, user_id: str, chat: ChatKey | None,
                            now: float) -> PlayerRating:
        """One person's rating, trend and place in the chat's season running at ``now``, or
        across the platform when ``chat`` is None."""
        ...

    async def rebuild_ratings(self) -> int:
        """Recompute every rating from the stored results (the seasons opened are kept);
        returns how many hands were rated."""
        ...

    async def add_notify_request(self, chat: ChatKey, user_id: str, name: str, language: str) -> bool:
        """Remember that this user wants to hear (in ``language``) when the chat's next game
        opens. False when they had asked already."""
        ...

    async def remove_notify_request(self, chat: ChatKey, user_id: str) -> bool:
        """Forget the request; False when there was none."""
        ...

    async def take_notify_requests(self, chat: ChatKey) -> list[tuple[str, str, str]]:
        """The (user id, name, language) of everyone waiting for the chat's next game, forgetting them
        (each request is answered once, even with two processes)."""
        ...


class Commands(Protocol):
    """What a frontend holds of the coordinator: commands in, a reply out (inbound port)."""

    async def handle(self, cmd: Command) -> Reply:
        """Run one command and answer the person who sent it."""
        ...

    async def resume(self) -> None:
        """After a restart: re-arm timers and deliver what was owed."""
        ...

    async def close(self, delivery_timeout: float = 5.0) -> None: ...

    async def user_reachable(self, platform: str, user_id: str) -> int:
        """A user who could not be reached can now be: resend their hands (how many games)."""
        ...

    async def chat_moved(self, old: ChatKey, new: ChatKey) -> bool:
        """The platform gave a chat a new id: its games and everything stored move there."""
        ...


class Notifier(Protocol):
    """A platform that can message a person privately outside a game (optional ability)."""

    async def notify_user(self, chat: ChatKey, user_id: str, message: Notice) -> None:
        """DeliveryFailed("blocked") when the person cannot be messaged."""
        ...


class Watchers(Protocol):
    """How many people watch a game's live page (optional ability of a web server). Read
    while a table is sent, so it must answer at once from memory."""

    def watching(self, game_id: str) -> int:
        ...


class Ownership(Protocol):
    """Which part of a bot runs which chats, where several processes share the load (Discord
    shards): each game records its owner when it opens, and a process resumes timers, AI
    seats and deliveries only of the games it owns now."""

    def owner_of(self, chat: ChatKey) -> str | None:
        """The owner of ``chat`` (e.g. a Discord guild, "discord:guild:42"); None when it cannot be told."""
        ...

    def owns(self, owner: str) -> bool:
        """Whether this process runs ``owner`` now."""
        ...


class TableOpener(Protocol):
    """A platform that can open a chat for each table of a two-table match (a thread, a
    forum topic); None from ``open_table``: play in a virtual chat of ``chat`` instead."""

    async def open_table(self, chat: ChatKey, number: int, locale: str) -> ChatKey | None: ...
