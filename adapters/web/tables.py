"""What both web pages show of a game's public side, the player's hand page and the
spectators' page: the lobby's players, the public table and the words for them.

Built field by field from the public views (counts of cards, never cards), so a field added
to a player's snapshot cannot reach the spectators through here; each page adds its own
fields to these (the player's page the seats' ids and the turn's lines).
"""

from __future__ import annotations

from typing import Any

from bot.coordinator import N_, LobbyView, TableView
from bot.i18n import card_label, color_label, gettext, separator, translate
from bot.render.text import card_count, color_in_force, score_count, table_notes
from bot.render.turn_words import direction_text, turn_status

from .pages import translated

# The labels both pages show; each page adds its own.
LABELS = {
    "color_in_force": N_("Colour: {color}"),
    "draw_pile": N_("Draw pile: {count}"),
    "lobby": N_("The game has not started yet. Players: {players}"),
    "stopped": N_("This game has ended."),
    "disconnected": N_("Connection lost: reconnecting..."),
}


def labels(own: dict[str, str], locale: str) -> dict[str, str]:
    """The shared labels and a page's ``own``, in ``locale``."""
    return {key: gettext(msgid, locale) for key, msgid in {**LABELS, **own}.items()}


def lobby_json(lobby: LobbyView, locale: str) -> dict[str, Any]:
    """The players waiting, a bot with its level ("Bot Ana · hard"); ``players_text``: the
    list as the reader's language writes one ("Ana、Bot Bo · 困难")."""
    players = [seat.name + (" · " + translate(seat.level, locale) if seat.level else "")
               for seat in lobby.seats]
    return {"players": players, "players_text": separator(locale).join(players)}


def table_json(table: TableView, locale: str, over: bool) -> dict[str, Any]:
    """The public table; ``over``: the hand (or the game) has ended, nobody is to move."""
    names = {seat.user_id: seat.name for seat in table.seats}
    return {
        "hand_number": table.hand_number, "top": str(table.top),
        "top_label": card_label(table.top, locale),
        # No colour yet after a first Wild: named now, or any card may follow, as the rules
        # have it (the text table's words).
        "color": table.color.value if table.color else None,
        "color_label": color_label(table.color, locale) if table.color else translate(
            color_in_force(None, table.color_pending), locale),
        "direction": table.direction, "direction_text": translate(direction_text(table.direction), locale),
        "over": over,
        # The turn's line as the text table words it (a player's page words its own turn).
        "turn_text": translate(turn_status(names.get(table.current or ""), over=over), locale),
        "deadline": None if over else table.deadline, "draw_pile": table.draw_pile,
        # What waits (a penalty and the answers the rules allow, a colour to name, a challenge,
        # who may be called out), as every table words it.
        "notes": [] if over else [translate(note, locale) for note in table_notes(table, names)],
        # Seats by name and place: a page that may know the user ids adds them.
        "seats": [{"name": seat.name, "cards": seat.cards, "score": seat.score,
                   "cards_text": card_count(seat.cards, locale),
                   "score_text": score_count(seat.score, table.scoring, locale),
                   "ai": seat.is_ai, "current": seat.is_current and not over,
                   "uno": seat.declared_uno, "team": seat.team} for seat in table.seats],
        # The hand's sealed deck, as the narrator words it (None: an older, unsealed game).
        "seal": translated(table.seal, locale), "fingerprint": table.fingerprint or None,
        # How the hand before ended: the chat's notice said it, this page did not.
        "previous_hand": None if over else translated(table.previous_hand, locale),
    }


__all__ = ["LABELS", "labels", "lobby_json", "table_json"]
