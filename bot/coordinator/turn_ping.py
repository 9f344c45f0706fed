"""The line that tells a player, by mention, that the turn is theirs: posted in the chat when
their hand cannot reach them privately, and on Discord with every turn's table (a new message
notifies; an edit does not). Said once here so that every platform pings alike."""

from __future__ import annotations

from .views import N_, Text

TURN_PING = N_("🔔 {player}, it is your turn!")
# The same, to a player whose hand is not open yet: the button that opens it ({button}).
TURN_PING_OPEN_HAND = N_("🔔 {player}, it is your turn: press {button} to play.")


def turn_ping(player: str) -> Text:
    return Text(TURN_PING, {"player": player})
