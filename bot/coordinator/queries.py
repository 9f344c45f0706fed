"""Questions a frontend asks about a stored game, answered from the store: it never reads a
record's match itself."""

from __future__ import annotations

from .ports import ChatKey, GameRecord, GameStore
from .presenter import hand_view, names_of, standings, summed_scores, table_view
from .views import HandView, TableView, Text


async def tables_of(store: GameStore, record: GameRecord) -> list[GameRecord]:
    """The records of a two-table match's tables (none for any other game)."""
    if record.two_tables is None:
        return []
    found = [await store.get(game_id) for game_id in record.two_tables.games]
    return [r for r in found if r is not None]


async def match_standings(store: GameStore, game_id: str) -> tuple[Text, ...] | None:
    """The standings of a stored game as the narrator words them ("Ana: 71 points", "Bo: -3
    chips"): best first for its scoring mode, fixed teams once; a two-table match adds up
    its tables. None: no such game; empty before a match is dealt."""
    record = await store.get(game_id)
    if record is None:
        return None
    tables = await tables_of(store, record)
    matches = [r.current() for r in ([record] if record.has_match else tables) if r.has_match]
    if not matches:
        return ()
    # A two-table match's lobby: its tables together.
    totals = None if record.has_match else summed_scores(matches)
    return standings(matches[0], names_of(record), totals)


async def table_at(store: GameStore, record: GameRecord, user_id: str,
                   locale: str) -> tuple[ChatKey, TableView] | None:
    """The table ``user_id`` plays at as it is now (a two-table match's hub holds no cards:
    theirs is one of its tables), and its chat; None when they play at none."""
    for candidate in (record, *await tables_of(store, record)):
        if candidate.has_match and candidate.active and any(s.user_id == user_id for s in candidate.seats):
            return candidate.chat, table_view(candidate, candidate.current(), locale)
    return None


def hand_now(record: GameRecord | None, user_id: str, locale: str) -> HandView | None:
    """``user_id``'s hand in the stored game ``record`` as it is now: what they may play, and
    whom they may call out, this moment (a hand message last sent may be older). None when the
    game is not being played or they hold no seat in it."""
    if record is None or record.status != "running" or not record.has_match \
            or record.seat_of(user_id) is None:
        return None
    return hand_view(record, record.current(), user_id, locale)
