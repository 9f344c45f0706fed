"""Who partners whom, round by round: partner rotation at one table and two tables at once.

The round-robin "circle method" splits an even number of players into ``n - 1`` rounds of
pairs so that every two players are partners exactly once (a 1-factorisation of K_n): the
first player stays put, the others turn one place each round.

A seating lists a table's players in seat order with partners opposite each other: the
engine's teams are ``seat mod (n / 2)``, so pairs ``(a, b), (c, d)`` sit ``a, c, b, d``.
"""

from __future__ import annotations

from collections.abc import Sequence

from .errors import BadAction

Pair = tuple[str, str]
Seating = tuple[str, ...]


def round_robin_pairs(players: Sequence[str]) -> tuple[tuple[Pair, ...], ...]:
    """``n - 1`` rounds of ``n / 2`` pairs; every two players are paired exactly once."""
    n = len(players)
    if n < 2 or n % 2:
        raise BadAction("partner rotation needs an even number of players", list(players))
    fixed, ring = players[0], list(players[1:])
    rounds: list[tuple[Pair, ...]] = []
    for _ in range(n - 1):
        line = [fixed, *ring]
        rounds.append(tuple((line[i], line[n - 1 - i]) for i in range(n // 2)))
        ring = ring[-1:] + ring[:-1]
    return tuple(rounds)


def seat_pairs(pairs: Sequence[Pair]) -> Seating:
    """Seat order with partners opposite: first members, then second members."""
    return tuple(a for a, _ in pairs) + tuple(b for _, b in pairs)


def rotation_seatings(players: Sequence[str]) -> tuple[Seating, ...]:
    """One table: a seating per round (``n - 1`` rounds), needs 4 or more players."""
    if len(players) < 4:
        raise BadAction("partner rotation needs at least 4 players", list(players))
    return tuple(seat_pairs(pairs) for pairs in round_robin_pairs(players))


def table_seatings(players: Sequence[str], tables: int) -> tuple[tuple[Seating, ...], ...]:
    """Per round, one seating per table: the round's pairs dealt over the tables in turn
    (pair i to table i mod tables), so opponents change from round to round too.

    Every table must get at least two pairs: ``len(players)`` is a multiple of ``2 * tables``
    and at least ``4 * tables``."""
    if tables < 1 or len(players) < 4 * tables or len(players) % (2 * tables):
        raise BadAction(f"{tables} tables need a multiple of {2 * tables} players, "
                        f"at least {4 * tables}", list(players))
    out = []
    for pairs in round_robin_pairs(players):
        out.append(tuple(seat_pairs(pairs[t::tables]) for t in range(tables)))
    return tuple(out)
