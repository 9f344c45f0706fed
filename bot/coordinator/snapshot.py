"""What one seated player may see of a game right now, read from the store without side
effects: the public table (or lobby) and that player's own hand. For live views (the web
hand) that redraw whenever the game changes; chat adapters are told by the ChatPort."""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.match import Match

from . import presenter
from .ports import ChatKey, GameRecord, GameStore
from .recap import RecapCache, of_page
from .views import HandView, LobbyView, Recap, TableView


@dataclass(frozen=True)
class PlayerSnapshot:
    game_id: str
    chat: ChatKey
    status: str  # "lobby" | "running" | "finished" | "stopped"
    version: int  # the stored game's version: an action sent against it is current
    locale: str
    name: str
    lobby: LobbyView | None
    table: TableView | None
    hand: HandView | None
    recap: Recap | None = None  # the match has ended: its recap, in the player's language
    stood_in: bool = False  # a bot plays the seat while its person is away (opening the page ends that)


MatchCache = dict[str, tuple[int, Match]]  # game id -> (stored version, decoded match)


async def player_snapshot(store: GameStore, game_id: str, user_id: str, *,
                          matches: MatchCache | None = None,
                          recaps: RecapCache | None = None) -> PlayerSnapshot | None:
    """None unless ``user_id`` holds a (human) seat in game ``game_id``. ``matches`` keeps
    the decoded match of each game's newest version, for callers that read one game for
    several players at a time (every open page of a game, after each move); ``recaps`` the
    recaps of finished matches, likewise."""
    record = await store.get(game_id)
    if record is None:
        return None
    seat = record.seat_of(user_id)
    stood_in = record.stood_in(user_id)
    if seat is None or (seat.ai is not None and not stood_in):  # only a person has a page
        return None
    locale = seat.language or record.language
    lobby = table = hand = None
    if record.status == "lobby":
        lobby = presenter.lobby_view(record, locale)
    elif record.has_match:
        match = cached_match(record, matches)
        table = presenter.table_view(record, match, locale)
        hand = presenter.hand_view(record, match, user_id, locale)
    shown = await of_page(store, record, locale, cache=recaps) if record.status == "finished" else None
    return PlayerSnapshot(game_id=record.game_id, chat=record.chat, status=record.status,
                          version=record.version, locale=locale, name=seat.name, lobby=lobby,
                          table=table, hand=hand, recap=shown, stood_in=stood_in)


def cached_match(record: GameRecord, matches: MatchCache | None) -> Match:
    """The record's match, from ``matches`` when it holds this version (pages of one game
    share it), else decoded and kept there."""
    cached = matches.get(record.game_id) if matches is not None else None
    if cached is not None and cached[0] == record.version:
        return cached[1]
    match = record.current()
    if matches is not None:
        matches[record.game_id] = (record.version, match)
    return match
