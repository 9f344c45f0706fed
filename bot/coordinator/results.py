"""Results and stats: what each hand and match leaves in the results tables.

Per player and hand, the counters (UNO! call-outs made, times caught, challenges won) are
kept in the record while the hand runs, added to the match's totals when it ends, and
written with each result row."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from bot.engine import events as ev

from .ports import ChatKey, GameResult, PlayerResult, Seat

COUNTERS = ("uno_calls", "caught", "challenges_won")
Counters = dict[str, dict[str, int]]  # player -> counter -> count


def count(counters: Counters, events: Iterable[ev.Event]) -> None:
    """Add what ``events`` did to the hand's counters."""
    def bump(player: str, key: str) -> None:
        row = counters.setdefault(player, dict.fromkeys(COUNTERS, 0))
        row[key] = row.get(key, 0) + 1

    for event in events:
        if isinstance(event, ev.UnoCaught):
            bump(event.caller, "uno_calls")
            bump(event.target, "caught")
        elif isinstance(event, ev.ChallengeWon):
            bump(event.challenger, "challenges_won")


def add_up(totals: Counters, rows: Iterable[Mapping[str, Mapping[str, int]]]) -> Counters:
    """``totals`` plus each of ``rows`` (a hand's counters into the match's, or both tables')."""
    for row in rows:
        for player, mine in row.items():
            total = totals.setdefault(player, dict.fromkeys(COUNTERS, 0))
            for key in COUNTERS:
                total[key] = total.get(key, 0) + mine.get(key, 0)
    return totals


def player_row(player: str, name: str, seat: Seat | None, *, points: int, won: bool,
               counters: Mapping[str, int], cards_left: int = 0) -> PlayerResult:
    return PlayerResult(player, name, points=points, won=won, is_ai=bool(seat and seat.ai),
                        cards_left=cards_left, **{key: counters.get(key, 0) for key in COUNTERS})


def result(game_id: str, chat: ChatKey, kind: str, hand_number: int, rows: list[PlayerResult],
           finished_at: float) -> GameResult:
    """One hand's or match's result (``kind``: "hand" or "match")."""
    return GameResult(game_id, chat, kind, hand_number, rows, finished_at=finished_at)
