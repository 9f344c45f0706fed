"""Ratings: OpenSkill (Plackett-Luce) hand by hand, per chat and season and across a platform.

What is rated and how (the one definition every store and the rebuild use):
- a hand result with two or more people and no AI seat; a match result never (its hands
  were rated already);
- the finishing order: whoever won the hand (a winning side's partners too) shares first
  place, then the others by fewest cards left, equal counts tying;
- each person is rated on their own (a team mode's partners are two ratings);
- the conservative rating, mu - 3 sigma (``ordinal``), ranks people once they have
  ``QUALIFYING_HANDS`` rated hands in that scope;
- scopes: the chat's current season, and the platform across all chats (all time, key
  ``PLATFORM_WIDE``/season 0).

Seasons belong to a chat: the first rated hand opens season 1 for ``season_days`` days;
the first hand after a season's end opens the next, which starts where the last one ended
(or whole seasons later after a quiet spell: no empty season is kept) and lasts the
``season_days`` set then, so a new length counts from the next season on. Seasons once
opened are kept: a rebuild reuses them, so it gives the live numbers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from openskill.models import PlackettLuce

from .ports import GameResult

QUALIFYING_HANDS = 10  # rated hands before a person appears in a table
TREND_HANDS = 10  # the trend: the rating's change over this many last rated hands
DEFAULT_SEASON_DAYS = 30
SEASON_DAYS_RANGE = (1, 366)
PLATFORM_WIDE = ""  # the chat id of the platform-wide scope
DAY = 86400.0

MODEL = PlackettLuce()  # the library's defaults: mu 25, sigma 25/3


@dataclass(frozen=True)
class Season:
    number: int
    started_at: float
    ends_at: float

    def holds(self, when: float) -> bool:
        return self.started_at <= when < self.ends_at


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float
    hands: int = 0

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


def initial() -> Rating:
    fresh = MODEL.rating()
    return Rating(fresh.mu, fresh.sigma, 0)


def finishing_ranks(result: GameResult) -> list[tuple[str, int]] | None:
    """(person, rank: lower is better) of a rated hand, or None when the hand is not rated."""
    if result.kind != "hand" or len(result.players) < 2:
        return None
    if any(row.is_ai for row in result.players):
        return None
    if len({row.user_id for row in result.players}) != len(result.players):
        return None  # one person in two seats: no order to learn from
    return [(row.user_id, 0 if row.won else max(row.cards_left, 1)) for row in result.players]


def rate(current: Sequence[Rating], ranks: Sequence[int]) -> list[Rating]:
    """The ratings after one hand: ``current[i]`` finished at ``ranks[i]``."""
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in current]
    rated = MODEL.rate(teams, ranks=list(ranks))
    return [Rating(team[0].mu, team[0].sigma, before.hands + 1)
            for team, before in zip(rated, current, strict=True)]


def season_for(seasons: Sequence[Season], when: float, days: int) -> tuple[Season, bool]:
    """The season of a chat a hand finished at ``when`` belongs to: (season, newly opened).
    ``seasons`` are the chat's, oldest first."""
    for season in reversed(seasons):
        if season.holds(when):
            return season, False
    length = max(days, 1) * DAY
    if not seasons:
        return Season(1, when, when + length), True
    last = seasons[-1]
    if when < last.ends_at:  # before the first season or in a skipped stretch: the one before
        earlier = [s for s in seasons if s.started_at <= when]
        return (earlier[-1] if earlier else seasons[0]), False
    steps = int((when - last.ends_at) // length)
    start = last.ends_at + steps * length
    return Season(last.number + 1, start, start + length), True


def current_season(seasons: Sequence[Season], now: float) -> Season | None:
    return next((s for s in reversed(seasons) if s.holds(now)), None)


def previous_season(seasons: Sequence[Season], now: float) -> Season | None:
    return next((s for s in reversed(seasons) if s.ends_at <= now), None)


@dataclass(frozen=True)
class Change:
    """One person's rating after one rated hand, in one scope (``delta``: of the ordinal)."""

    result: int  # the result's position in the order results were stored
    chat_id: str
    season: int
    user_id: str
    mu: float
    sigma: float
    delta: float


Key = tuple[str, int, str]  # (chat id or PLATFORM_WIDE, season, user id) within a platform


@dataclass
class RatingBook:
    """Every rating of one platform, built by applying rated hands in the order they were
    stored: the MemoryStore's live state, and what a rebuild recomputes."""

    platform: str
    ratings: dict[Key, Rating] = field(default_factory=dict)
    seasons: dict[str, list[Season]] = field(default_factory=dict)  # chat id -> seasons
    changes: list[Change] = field(default_factory=list)

    def apply(self, position: int, result: GameResult, season_days: int) -> bool:
        """Rate one stored result (``position``: its place in the storing order). False when
        the hand is not rated."""
        ranks = finishing_ranks(result)
        if ranks is None:
            return False
        chat_id = result.chat.chat_id
        known = self.seasons.setdefault(chat_id, [])
        season, new = season_for(known, result.finished_at, season_days)
        if new:
            known.append(season)
        for scope, number in ((chat_id, season.number), (PLATFORM_WIDE, 0)):
            keys = [(scope, number, user) for user, _ in ranks]
            before = [self.ratings.get(key) or initial() for key in keys]
            after = rate(before, [rank for _, rank in ranks])
            for key, old, rating in zip(keys, before, after, strict=True):
                self.ratings[key] = rating
                self.changes.append(Change(position, scope, number, key[2], rating.mu,
                                           rating.sigma, rating.ordinal - old.ordinal))
        return True


def rebuild(platform: str, results: Iterable[tuple[int, GameResult]],
            seasons: dict[str, list[Season]], season_days: Callable[[str], int]) -> RatingBook:
    """The ratings recomputed from ``results`` (position, result), in that order, reusing the
    seasons already opened (``seasons``: chat id -> seasons, oldest first)."""
    book = RatingBook(platform, seasons={chat: list(s) for chat, s in seasons.items()})
    for position, result in results:
        if result.chat.platform == platform:
            book.apply(position, result, season_days(result.chat.chat_id))
    return book


def trend(changes: Iterable[float]) -> float:
    """The rating's change over the last rated hands (their deltas, newest last)."""
    return sum(list(changes)[-TREND_HANDS:])
