"""Questions a frontend asks about a stored game, answered from the store: it never reads a
record's match itself."""

from __future__ import annotations

from bot.engine.match import ranking

from .ports import ChatKey, GameRecord, GameStore
from .presenter import table_view
from .views import TableView


def standings(record: GameRecord, tables: list[GameRecord] | None = None) -> list[tuple[str, int]]:
    """(name, score) best first for the scoring mode; a two-table match adds up its tables."""
    names = {seat.user_id: seat.name for seat in record.seats}
    matches = [r.current() for r in ([record] if record.has_match else tables or []) if r.has_match]
    if not matches:
        return [(name, 0) for name in names.values()]
    totals: dict[str, int] = {}
    for match in matches:
        for uid, points in match.scores.items():
            totals[uid] = totals.get(uid, 0) + points
    order = ranking(matches[0].rules.scoring, totals, list(totals))
    return [(names.get(uid, uid), totals[uid]) for uid in order]


async def tables_of(store: GameStore, record: GameRecord) -> list[GameRecord]:
    """The records of a two-table match's tables (none for any other game)."""
    if record.two_tables is None:
        return []
    found = [await store.get(game_id) for game_id in record.two_tables.games]
    return [r for r in found if r is not None]


async def match_standings(store: GameStore, game_id: str) -> list[tuple[str, int]] | None:
    """The standings of a stored game (None: no such game)."""
    record = await store.get(game_id)
    if record is None:
        return None
    return standings(record, await tables_of(store, record))


async def table_at(store: GameStore, record: GameRecord, user_id: str,
                   locale: str) -> tuple[ChatKey, TableView] | None:
    """The table ``user_id`` plays at as it is now (a two-table match's hub holds no cards:
    theirs is one of its tables), and its chat; None when they play at none."""
    for candidate in (record, *await tables_of(store, record)):
        if candidate.has_match and candidate.active and any(s.user_id == user_id for s in candidate.seats):
            return candidate.chat, table_view(candidate, candidate.current(), locale)
    return None
