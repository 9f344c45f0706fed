"""The web hand's JSON: one player's snapshot, localised, with nothing of anyone else's hand.

Card codes are the spec notation (``R5``, ``W+4``); the page shows them as pictures from
``/cards/<code>.png``. Every label the page shows comes from here, in the player's language.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from bot.coordinator import (
    DEFAULT_CARD_THEME,
    MOVE_LABELS,
    N_,
    Move,
    PlayerSnapshot,
    PlayOption,
    move_label,
)
from bot.engine.cards import Color
from bot.i18n import card_label, color_label, translate
from bot.render.hand_text import notes_beside_buttons
from bot.render.turn_words import YOUR_TURN

from . import tables
from .pages import translated
from .recaps import recap_json, recap_labels

LABELS = {
    "title": N_("UNO: your hand"),
    # The controls, shown greyed where not offered: named as every frontend names them.
    **{kind: MOVE_LABELS[kind] for kind in ("draw", "pass", "uno", "challenge", "name_color")},
    "choose_color": N_("Choose a colour"),
    "swap_with": N_("Swap hands with"),
    "play_selected": N_("Play selected"),
    "cancel": N_("Cancel"),
    "your_turn": YOUR_TURN,  # the table's words (its own turn line is the same for every page)
    "own_seat": N_("{name} (you)"),
    "seconds_left": N_("{seconds} s left"),
    "say_uno": N_("Say UNO! with it"),
    "replaced": N_("Your hand is open in another page now: this one has stopped. Reload it "
                   "to use it here."),
    # The player was away too long and a bot plays their seat, while this page stayed open.
    "stood_in": N_("You were away too long: a bot plays for you."),
    "back": N_("I'm back: let me play"),
    # A page that was showing a hand when its seat went (the player left or was removed,
    # or the finished game was cleared away).
    "seat_gone": N_("You have no seat in this game any more."),
}


def labels(locale: str) -> dict[str, str]:
    return {**tables.labels(LABELS, locale), **recap_labels(locale)}


def colors(locale: str) -> dict[str, str]:
    return {color.value: color_label(color, locale) for color in Color}


def snapshot_json(snapshot: PlayerSnapshot, now: float) -> dict[str, Any]:
    """The page's whole state for one player (their own hand only). ``version`` names what
    the player sees: a move sent with an older one was chosen on a view that has changed
    (a double tap), while a save that changes nothing they see (message ids) leaves it.
    ``seq`` only grows: the page keeps the newest of the states it receives."""
    data = _content(snapshot)
    digest = hashlib.blake2b(json.dumps(data, sort_keys=True).encode(), digest_size=9)
    data.update(version=digest.hexdigest(), seq=snapshot.version, now=now)
    return data


def _content(snapshot: PlayerSnapshot) -> dict[str, Any]:
    locale = snapshot.locale
    data: dict[str, Any] = {
        "game": snapshot.game_id, "status": snapshot.status, "stood_in": snapshot.stood_in,
        "locale": locale, "me": snapshot.hand.user_id if snapshot.hand else None,
        "labels": labels(locale), "colors": colors(locale), "table": None, "hand": None,
        "lobby": None,
        # The page is this player's alone: every card on it, top card too, in their palette.
        "theme": snapshot.hand.theme if snapshot.hand else DEFAULT_CARD_THEME,
        # The match has ended: its recap (the picture comes from /api/recap.png).
        "recap": recap_json(snapshot.recap, "/api/recap.png"),
    }
    if snapshot.lobby is not None:
        data["lobby"] = tables.lobby_json(snapshot.lobby, locale)
    table = snapshot.table
    if table is not None:
        over = snapshot.status != "running" or (snapshot.hand is not None
                                               and snapshot.hand.hand_over)
        data["table"] = tables.table_json(table, locale, over) | {
            "current": None if over else table.current, "pending_draw": table.pending_draw,
            "last": [translate(text, locale) for text in table.last]}
        for seat, shown in zip(table.seats, data["table"]["seats"], strict=True):
            shown["id"] = seat.user_id  # the player's page names the seats it may call out
    hand = snapshot.hand
    if hand is not None:
        names = {seat["id"]: seat["name"] for seat in (data["table"] or {}).get("seats", [])}
        data["hand"] = {
            "cards": [{"code": str(option.card), "label": card_label(option.card, locale),
                       "playable": option.playable and not hand.hand_over,
                       "jump_in": option.jump_in and not hand.hand_over}
                      for option in hand.cards],
            # What may be done comes only from "plays" and "moves" below: no rank, wild or
            # "can ..." flags, so the page has nothing to work a rule out from.
            "is_turn": hand.is_turn, "pending_draw": hand.pending_draw,
            # What waits on this hand (a penalty and its answers, what a challenge risks,
            # the cards to jump in with), as every frontend words it.
            "notes": [] if hand.hand_over else [
                translate(note, locale) for note in notes_beside_buttons(hand)],
            "over": hand.hand_over,
            # The dealer names the colour of a Wild turned first (and may do nothing else).
            "name_color": hand.name_color and not hand.hand_over,
            "note": translated(hand.note, locale),
            # The legal moves themselves (the coordinator's move model): the page draws these
            # and sends back the reference of the one chosen; it decides no rule.
            "plays": [_play_json(option, names, locale) for option in hand.plays],
            "moves": [_move_json(move, names, locale) for move in hand.moves if move.kind != "play"],
        }
    return data


def _play_json(option: PlayOption, names: dict[str, str], locale: str) -> dict[str, Any]:
    return {"cards": [str(card) for card in option.cards],
            "label": " + ".join(card_label(card, locale) for card in option.cards),
            "colors": [color.value for color in option.colors],
            "targets": [[user, names.get(user, user)] for user in option.targets],
            "uno": option.uno, "plain": option.plain, "jump_in": option.jump_in,
            "stack": option.stack,
            "choices": [{"ref": m.ref, "color": m.color.value if m.color else None,
                         "target": m.target, "uno": m.uno} for m in option.choices]}


def _move_json(move: Move, names: dict[str, str], locale: str) -> dict[str, Any]:
    return {"kind": move.kind, "ref": move.ref, "label": translate(move_label(move, names), locale),
            "amount": move.amount, "target": move.target,
            "target_name": names.get(move.target, move.target) if move.target else None,
            "color": move.color.value if move.color else None,
            "color_label": color_label(move.color, locale) if move.color else None}
