"""Scoring a finished hand: card values, teams, and the three scoring modes."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from .cards import Card, full_deck

_POINTS: Final = {c: c.rank.points for c in full_deck()}  # every hand ends with a count: keep it cheap


def cards_value(cards: Iterable[Card]) -> int:
    """Official values: number cards face value, Skip/Reverse/+2 20, W and W+4 50."""
    points = _POINTS
    return sum([points[c] for c in cards])


def team_ids_for(player_count: int, team_size: int = 2) -> tuple[int, ...]:
    """Partners sit apart, seats alternating between teams: with ``n / team_size`` teams, seat
    i plays for team ``i mod (n / team_size)`` (two teams of three: 0 1 0 1 0 1)."""
    teams = player_count // team_size
    return tuple(i % teams for i in range(player_count))


def hand_winner_points(players: Sequence[str], hands: Sequence[Sequence[Card]],
                       team_ids: Sequence[int], winner: str) -> int:
    """What the winner (or their team) scores: the cards of every opponent; partners don't count."""
    w = players.index(winner)
    total = 0
    for seat, hand in enumerate(hands):
        if seat == w or (team_ids and team_ids[seat] == team_ids[w]):
            continue
        total += cards_value(hand)
    return total


def score_changes(players: Sequence[str], hands: Sequence[Sequence[Card]], team_ids: Sequence[int],
                  winner: str, scoring: str) -> dict[str, int]:
    """Per-player score change for the hand under ``scoring``. With teams both partners carry
    the team's change, so every member's running score is the team score."""
    if scoring == "winner_takes":
        points = hand_winner_points(players, hands, team_ids, winner)
        w = players.index(winner)
        return {p: (points if (p == winner or (team_ids and team_ids[i] == team_ids[w])) else 0)
                for i, p in enumerate(players)}
    own = [cards_value(h) for h in hands]
    if scoring == "chips":
        return _chip_changes(players, own, team_ids, winner)
    # losers_accumulate: everyone is charged what they (or their team) still hold.
    if not team_ids:
        return {p: own[i] for i, p in enumerate(players)}
    team_total: dict[int, int] = {}
    for i, t in enumerate(team_ids):
        team_total[t] = team_total.get(t, 0) + own[i]
    return {p: team_total[team_ids[i]] for i, p in enumerate(players)}


def _chip_changes(players: Sequence[str], own: Sequence[int], team_ids: Sequence[int],
                  winner: str) -> dict[str, int]:
    """Chips (筹码制): every loser pays the winner what they still hold. With teams each losing
    team pays its cards' total to the winning team, and every member carries its team's
    balance change (as with the other modes)."""
    w = players.index(winner)
    if not team_ids:
        paid = sum(own) - own[w]
        return {p: (paid if i == w else -own[i]) for i, p in enumerate(players)}
    team_total: dict[int, int] = {}
    for i, t in enumerate(team_ids):
        team_total[t] = team_total.get(t, 0) + own[i]
    won = team_ids[w]
    paid = sum(v for t, v in team_total.items() if t != won)
    return {p: (paid if team_ids[i] == won else -team_total[team_ids[i]]) for i, p in enumerate(players)}
