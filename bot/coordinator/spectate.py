"""What anyone may see of a game: the public table (or lobby) and the UNO! race, read from
the store without side effects. For read-only live pages that spectators keep open; it holds
nothing of any hand but how many cards each seat has."""

from __future__ import annotations

from dataclasses import dataclass

from . import presenter, race
from .locales import chat_locale
from .ports import ChatKey, GameStore
from .recap import RecapCache, of_page
from .snapshot import MatchCache, cached_match
from .views import N_, LobbyView, Recap, TableView, Text, WatchLink


@dataclass(frozen=True)
class SpectatorSnapshot:
    game_id: str
    chat: ChatKey
    status: str  # "lobby" | "running" | "finished" | "stopped"
    version: int
    locale: str  # the chat's language: spectators are not known people
    lobby: LobbyView | None
    table: TableView | None
    race: tuple[Text, ...]  # the last events of the UNO! race, oldest first
    two_tables: tuple[str, ...] = ()  # a two-table match's hub: its tables' game ids
    recap: Recap | None = None  # the match has ended: its recap (names and counts only)


async def spectator_snapshot(store: GameStore, game_id: str, *,
                             matches: MatchCache | None = None,
                             recaps: RecapCache | None = None) -> SpectatorSnapshot | None:
    """None when there is no such game. ``matches`` and ``recaps`` as for
    ``player_snapshot``."""
    record = await store.get(game_id)
    if record is None:
        return None
    locale = chat_locale(record)
    lobby = table = None
    if record.status == "lobby":
        lobby = presenter.lobby_view(record, locale)
    elif record.has_match:
        match = cached_match(record, matches)
        table = presenter.table_view(record, match, locale)
    hub = tuple(record.two_tables.games) if record.two_tables is not None else ()
    shown = await of_page(store, record, locale, cache=recaps) if record.status == "finished" else None
    return SpectatorSnapshot(game_id=record.game_id, chat=record.chat, status=record.status,
                             version=record.version, locale=locale, lobby=lobby, table=table,
                             race=race.log_lines(record.book.race), two_tables=hub, recap=shown)


def watch_links(game_id: str, tables: list[str]) -> tuple[WatchLink, ...]:
    """The links a watch command answers with: one per table of a two-table match."""
    if not tables:
        return (WatchLink(game_id, Text(N_("Watch the table"))),)
    return tuple(WatchLink(table, Text(N_("Watch table {table}"), {"table": number}))
                 for number, table in enumerate(tables, 1))
