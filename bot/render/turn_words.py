"""The words of a table that every frontend shows alike: whose turn it is, and which way
play goes. The text table and hand say them in their lines, Discord in its fields and the
web pages in their status bars, so a player reads the same words wherever they look."""

from __future__ import annotations

from bot.coordinator.views import Text
from bot.i18n import N_

HAND_OVER = N_("The hand is over.")
YOUR_TURN = N_("▶ your turn!")
WAITING_FOR_TURN = N_("Waiting for your turn.")


def turn_status(current_name: str | None, *, yours: bool = False, over: bool = False) -> Text:
    """The one line of a page or of a hand shown with its own buttons on the turn: the hand
    is over, it is the reader's turn, or whose turn it is."""
    if over:
        return Text(HAND_OVER)
    if yours:
        return Text(YOUR_TURN)
    return Text(N_("⏳ {player} is to move."), {"player": current_name or "?"})


def direction_text(direction: int) -> Text:
    """Which way play goes: down the list of seats as every table lists them, or up it."""
    return Text(N_("⬇️ in seat order") if direction >= 0 else N_("⬆️ reversed seat order"))
