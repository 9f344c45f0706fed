"""What a move's button says, the same on every frontend and in both languages.

A hand's controls (Draw / Take +N, Pass, UNO!, Challenge, Call out <player>, naming a first
Wild's colour) are named here once, and the lobby's (Join, Leave, Start, Add AI, Notify me). A player may also type a button's words back where moves
are typed (``typed_moves``): "Take +4", "接受+4" and "Call out Bo" do what pressing does.
"""

from __future__ import annotations

from collections.abc import Mapping

from .moves import Move
from .views import N_, Text

# A move's button, by ``Move.kind`` (cards are shown as cards: "play" has no label).
MOVE_LABELS = {
    "draw": N_("Draw"),
    "take": N_("Take +{count}"),  # a Draw that takes the waiting +2/+4 penalty
    "pass": N_("Pass"),
    "uno": N_("UNO!"),
    "challenge": N_("Challenge"),
    "catch": N_("Call out {player}"),
    "name_color": N_("Name the colour of the first card"),
}
# The lobby's and the table's own buttons (a seat's, not a hand's), on every chat frontend.
TABLE_LABELS = {
    "join": N_("Join"),
    "leave": N_("Leave"),
    "start": N_("Start"),
    "ai": N_("Add AI"),
    "notify": N_("Notify me"),  # can't play this one: be told when the next game opens here
    "hand": N_("My hand"),  # on a table whose hands open from it (Discord): the presser's cards
}
# What a card of the hand is, where a frontend says it in words (a list entry, the answer to
# a press on a greyed card).
CARD_STATES = {
    "playable": N_("Playable"),
    "unplayable": N_("Not playable now"),
}
# What a button's longer description says where a frontend has room for one (a list entry).
MOVE_HINTS = {
    "uno": N_("Declare UNO"),
    "challenge": N_("Challenge the Wild Draw Four"),
}


def move_label(move: Move, names: Mapping[str, str] | None = None) -> Text:
    """The button of ``move``; a call-out names the player by ``names`` (user id -> name)."""
    if move.kind == "take":
        return Text(MOVE_LABELS["take"], {"count": move.amount})
    if move.kind == "catch":
        target = move.target or ""
        return Text(MOVE_LABELS["catch"], {"player": (names or {}).get(target, target or "?")})
    return Text(MOVE_LABELS[move.kind])


def move_hint(move: Move) -> Text | None:
    """The longer description of ``move``'s button, where it has one."""
    hint = MOVE_HINTS.get(move.kind)
    return None if hint is None else Text(hint)
