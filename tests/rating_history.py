"""Rated hands stored in any GameStore the way the coordinator stores them: a game record
saved once per hand, with that hand's result."""

from __future__ import annotations

import random

from bot.coordinator.ports import ChatKey, GameRecord, GameResult, PlayerResult, Seat

Hand = list[tuple[str, str, bool, int]]  # (user id, name, won, cards left)


def hand_result(chat: ChatKey, game_id: str, number: int, players: Hand, finished_at: float,
                *, ai: frozenset[str] = frozenset()) -> GameResult:
    return GameResult(game_id, chat, "hand", number,
                      [PlayerResult(user, name, points=0 if won else left, won=won,
                                    is_ai=user in ai, cards_left=left)
                       for user, name, won, left in players], finished_at=finished_at)


async def store_hands(store, chat: ChatKey, game_id: str, hands: list[Hand], *,
                      start: float, step: float = 60.0,
                      ai: frozenset[str] = frozenset()) -> float:
    """Save ``hands`` as one game's results, ``step`` seconds apart; returns the last time."""
    people = {user: name for players in hands for user, name, _, _ in players}
    record = GameRecord(game_id=game_id, chat=chat, status="running", creator=next(iter(people)),
                        seats=[Seat(user, name, "en", ai="normal" if user in ai else None)
                               for user, name in people.items()],
                        rules={"preset": "official"})
    record = await store.save(record)
    when = start
    for number, players in enumerate(hands, 1):
        last = number == len(hands)
        record.status = "finished" if last else "running"
        record = await store.save(record, [hand_result(chat, game_id, number, players, when,
                                                       ai=ai)])
        when += step
    return when - step


def random_hands(rng: random.Random, people: list[tuple[str, str]], count: int) -> list[Hand]:
    """Hands of 2-4 of ``people``: one winner, the others with 1-12 cards (ties happen)."""
    hands = []
    for _ in range(count):
        seated = rng.sample(people, rng.randint(2, min(4, len(people))))
        winner = rng.randrange(len(seated))
        hands.append([(user, name, i == winner, 0 if i == winner else rng.randint(1, 12))
                      for i, (user, name) in enumerate(seated)])
    return hands
