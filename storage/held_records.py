"""The games a store holds as this process last saved or read them: by game id, the most
recently saved kept (an LRU bound), and by chat for its active game.

A move looks its game up by chat, at its load and at its save, and its save then holds the new
copy: the lookups by chat are a plain dict, and the save's hold is the move's one touch of the
LRU order (cachetools keeps that order in Python, about a microsecond a call). A game the LRU
lets go leaves the chat index with it (``popitem``, cachetools' place for eviction hooks), so
both hold the same games.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from cachetools import LRUCache

from bot.coordinator.ports import ChatKey, GameRecord


class _Evicting(LRUCache[str, GameRecord]):
    """An LRU cache that says which record it let go."""

    def __init__(self, maxsize: int, evicted: Callable[[GameRecord], None]) -> None:
        super().__init__(maxsize)
        self._evicted = evicted

    def popitem(self) -> tuple[str, GameRecord]:
        game_id, record = super().popitem()
        self._evicted(record)
        return game_id, record


class HeldRecords:
    """The held games, by id and by chat (see the module)."""

    def __init__(self, size: int) -> None:
        self._by_game = _Evicting(size, self._drop_from_chat)
        self._active_in: dict[ChatKey, GameRecord] = {}  # chat -> its active game, held

    def get(self, game_id: str) -> GameRecord | None:
        return self._by_game.get(game_id)

    def find(self, game_id: str, chat: ChatKey) -> GameRecord | None:
        """Game ``game_id`` of ``chat``: through the chat's active game when it is that one
        (a move's save), else by id."""
        held = self._active_in.get(chat)
        if held is not None and held.game_id == game_id:
            return held
        return self._by_game.get(game_id)

    def active_in(self, chat: ChatKey) -> GameRecord | None:
        """The chat's active game as held here (None: none held, or it is not active)."""
        return self._active_in.get(chat)

    def hold(self, record: GameRecord) -> None:
        """Hold ``record`` itself (the caller hands over a copy of its own)."""
        self._by_game[record.game_id] = record
        if record.active:
            self._active_in[record.chat] = record
        else:
            self._drop_from_chat(record)

    def forget(self, game_id: str) -> None:
        record = self._by_game.pop(game_id, None)
        if record is not None:
            self._drop_from_chat(record)

    def forget_chat(self, chat: ChatKey) -> None:
        """The chat has no active game held here any more (its game is read anew)."""
        self._active_in.pop(chat, None)

    def games(self) -> Iterator[tuple[str, GameRecord]]:
        """Every held game, as a list taken now (the caller may forget some meanwhile)."""
        return iter(list(self._by_game.items()))

    def _drop_from_chat(self, record: GameRecord) -> None:
        held = self._active_in.get(record.chat)
        if held is not None and held.game_id == record.game_id:
            del self._active_in[record.chat]
