"""How many players one deck can deal in: ``hand_size`` decides it, not only the seat limit.

The engine deals at most ``DEALT_LIMIT`` cards (the rest make the stock and the first card);
a table is full once the next player's hand would not fit. Checked where seats are taken
(join, a bot added), at the start, and when ``hand_size`` changes under an open lobby, so the
player hears the real reason with the numbers instead of "That move is not possible"."""

from __future__ import annotations

from bot.engine.core import MAX_PLAYERS
from bot.engine.rules import RuleSet

from .refusals import Refusal

DEALT_LIMIT = 100  # the engine's own limit (bot/engine/deal.py), pinned by a test


def seats_for(rules: RuleSet) -> int:
    """The most players a game with these rules can seat."""
    return max(0, min(MAX_PLAYERS, DEALT_LIMIT // rules.hand_size))


def largest_hand_for(players: int) -> int:
    return DEALT_LIMIT // max(players, 1)


def refuse_seat(rules: RuleSet, seated: int) -> None:
    """Refuse one more seat at a table with ``seated`` players when it is full."""
    most = seats_for(rules)
    if seated < most:
        return
    if most < MAX_PLAYERS:
        raise Refusal("full_for_hand_size", {"cards": rules.hand_size, "players": most})
    raise Refusal("game_full")


def refuse_deal(rules: RuleSet, players: int) -> None:
    """Refuse to deal (start, or a hand_size change under an open lobby) when the players'
    hands would not fit in the deck."""
    if players * rules.hand_size <= DEALT_LIMIT:
        return
    raise Refusal("too_many_for_hand_size", {"players": players, "cards": rules.hand_size,
                                             "most": seats_for(rules),
                                             "largest": largest_hand_for(players)})
