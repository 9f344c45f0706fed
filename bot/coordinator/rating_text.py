"""What people read about ratings: a person's rating, trend and place, and a ranked table.
Ratings are shown to one decimal (what a hand moves them by is of that order)."""

from __future__ import annotations

import time

from .ports import PlayerRating, RatingTable
from .ratings import QUALIFYING_HANDS
from .views import N_, Nn_, Text


def _number(value: float) -> str:
    return f"{value:.1f}"


def _signed(value: float) -> str:
    shown = f"{value:+.1f}"
    return "±0.0" if shown in ("+0.0", "-0.0") else shown


def _date(when: float) -> str:
    """A season's boundary as a UTC date (the same for everyone in the chat)."""
    return time.strftime("%Y-%m-%d", time.gmtime(when))


def rating_lines(rating: PlayerRating) -> list[Text]:
    rated = rating.rated
    if rated is None:
        return [Text(N_("Rating: none yet (hands without bots are rated)"))]
    lines = [Text(N_("Rating: {rating} (μ {mu}, σ {sigma}) after {hands}"),
                  {"rating": _number(rated.rating), "mu": _number(rated.mu),
                   "sigma": _number(rated.sigma),
                   "hands": Nn_("{count} rated hand", "{count} rated hands", rated.hands)})]
    if rating.trend_hands:
        lines.append(Text(N_("Trend: {trend} over {hands}"),
                          {"trend": _signed(rating.trend),
                           "hands": Nn_("the last hand", "the last {count} hands",
                                        rating.trend_hands)}))
    if rating.rank is not None:
        lines.append(Text(N_("Rank: {rank}"), {"rank": rating.rank}))
    elif rated.hands < QUALIFYING_HANDS:
        missing = QUALIFYING_HANDS - rated.hands
        lines.append(Text(N_("Ranked after {count} more"),
                          {"count": Nn_("{count} rated hand", "{count} rated hands", missing)}))
    return lines


def table_lines(table: RatingTable, *, previous: bool) -> tuple[Text, tuple[Text, ...]]:
    """The title and the lines of a rating table."""
    if table.chat is None:
        title = Text(N_("Ratings across all chats"))
    elif table.season is None:
        title = Text(N_("Ratings of this chat"))
    elif previous:
        title = Text(N_("Season {season} of this chat, final table ({start} to {end})"),
                     {"season": table.season, "start": _date(table.started_at or 0),
                      "end": _date(table.ends_at or 0)})
    else:
        title = Text(N_("Season {season} of this chat, until {end}"),
                     {"season": table.season, "end": _date(table.ends_at or 0)})
    lines = [Text(N_("{rank}. {player}: {rating} ({hands})"),
                  {"rank": rank, "player": row.name, "rating": _number(row.rating),
                   "hands": Nn_("{count} hand", "{count} hands", row.hands)})
             for rank, row in enumerate(table.rows, 1)]
    if not lines:
        if table.chat is not None and table.season is None:
            lines.append(Text(N_("No season of this chat has ended yet.") if previous else
                              N_("No season is running: the next hand without bots starts one.")))
        else:
            lines.append(Text(N_("Nobody has {count} yet."),
                              {"count": Nn_("{count} rated hand", "{count} rated hands",
                                            QUALIFYING_HANDS)}))
    lines.append(Text(N_("Ranked by rating, μ − 3σ (OpenSkill), from {count} without bots on."),
                      {"count": Nn_("{count} rated hand", "{count} rated hands",
                                    QUALIFYING_HANDS)}))
    return title, tuple(lines)


_GLOBAL_WORDS = {"global", "all", "everywhere", "全部", "所有", "全局", "全球"}
_PREVIOUS_WORDS = {"previous", "prev", "last", "上赛季", "上季", "上个赛季", "上一赛季", "上一季"}
_CURRENT_WORDS = {"current", "now", "本赛季", "本季", "当前", "这个赛季", "这赛季"}


def top_request(words: list[str] | tuple[str, ...]) -> tuple[str, str]:
    """(scope, season) of a typed ``top`` (``previous``, ``season:previous``, ``global``, in
    either language); a word it does not know is passed on as the season, which the
    coordinator refuses naming what it accepts."""
    scope, season = "chat", "current"
    for word in words:
        key, _, value = word.strip().lower().replace("=", ":").rpartition(":")
        value = value or key
        if value in _GLOBAL_WORDS:
            scope = "global"
        elif value in _PREVIOUS_WORDS:
            season = "previous"
        elif value not in _CURRENT_WORDS and value not in ("season", "赛季"):
            season = value[:20]
    return scope, season
