"""A player's private hand as plain text, in the view's language: the cards (numbered, the
playable ones marked), and what the player may do now. Each frontend shows these same
lines (the web hand and Discord take single lines from here too)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.coordinator.typed_moves import MOVE_NAMES, take_penalty
from bot.coordinator.views import Nn_, Text
from bot.engine.cards import Rank
from bot.i18n import N_, card_label
from bot.i18n.formatting import Escape

from .text import (
    Writer,
    card_emoji,
    color_in_force,
    color_mark,
    fit,
    short_name,
)
from .turn_words import HAND_OVER, WAITING_FOR_TURN, YOUR_TURN, turn_status

if TYPE_CHECKING:
    from bot.coordinator.views import HandView


def render_hand(view: HandView, *, escape: Escape = str) -> str:
    """One player's hand (private): cards in the view's order (numbered, so "3" can mean the
    third card), playable ones marked ✅, and what the player may do now."""
    t = Writer(view.locale, escape, None)
    if view.set_aside and view.note is not None:  # why this hand is closed: nothing else to say
        return fit([t.text(view.note)])
    header = t(N_("🃏 Your hand: {count}"), count=t.cards(len(view.cards)))
    if view.is_turn and not view.hand_over:
        header += escape(" · ") + t(YOUR_TURN)
    lines = [header,
             t(N_("On the table: {card} · colour: {mark} {color}"),
               card=f"{card_emoji(view.top)} {card_label(view.top, t.locale)}",
               mark=color_mark(view.color), color=color_in_force(view.color, view.color_pending))]
    for number, option in enumerate(view.cards, 1):
        mark = "✅" if option.playable and view.is_turn and not view.hand_over else "▫️"
        if option.jump_in and not view.is_turn and not view.hand_over:
            mark = "⚡"  # playable out of turn: an identical card
        lines.append(escape(f"{mark} {number}. ") + t.card(option.card))
    if view.hand_over:
        lines.append(t(HAND_OVER))
    else:
        lines += _hand_options(view, t)
    if view.note is not None:
        lines.append(t.text(view.note))
    return fit(lines)


def penalty_text(view: HandView) -> Text | None:
    """What a penalty waiting on this player asks of them: stacking is named only where a
    card of theirs may be stacked on it, a challenge only where the rules allow one now
    (every frontend shows this same line)."""
    if not (view.is_turn and view.pending_draw):
        return None
    count = view.pending_draw
    stack = any(option.playable for option in view.cards)  # a card that may be stacked on it
    if stack and view.can_challenge:
        return Nn_("⚠️ You must draw {count} card unless you stack a ✅ card on it or challenge.",
                   "⚠️ You must draw {count} cards unless you stack a ✅ card on it or challenge.",
                   count)
    if view.can_challenge:
        return Nn_("⚠️ You must draw {count} card unless you challenge the Wild Draw Four.",
                   "⚠️ You must draw {count} cards unless you challenge the Wild Draw Four.", count)
    if stack:
        return Nn_("⚠️ You must draw {count} card unless you stack a ✅ card on it.",
                   "⚠️ You must draw {count} cards unless you stack a ✅ card on it.", count)
    return Nn_("⚠️ You must draw {count} card.", "⚠️ You must draw {count} cards.", count)


def jump_in_text(view: HandView) -> Text | None:
    """Out of turn, the cards this player may jump in with now (None: none)."""
    cards = tuple(dict.fromkeys(o.card for o in view.cards if o.jump_in))
    if not cards or view.is_turn:
        return None
    return Text(N_("⚡ You may jump in with {cards}."), {"cards": cards})


def hand_notes(view: HandView) -> list[Text]:
    """What waits on this hand now, as every frontend shows it beside the hand's buttons: a
    first Wild's colour to name (then nothing else), a penalty and the answers this hand has,
    what a challenge risks, the cards it may jump in with."""
    if view.name_color:
        return [Text(N_("🌈 The first card is a Wild and you name its colour (red, green, blue or "
                        "yellow) before play begins."))]
    return [note for note in (penalty_text(view), _challenge_text(view), jump_in_text(view))
            if note is not None]


def turn_line(view: HandView) -> Text | None:
    """Where the turn stands, for a hand shown with its own buttons: over, the reader's, or
    still to come (None where the hand may jump in: its note says so)."""
    if view.hand_over or view.is_turn:
        return turn_status(None, yours=view.is_turn, over=view.hand_over)
    return None if jump_in_text(view) is not None else Text(WAITING_FOR_TURN)


def notes_beside_buttons(view: HandView) -> list[Text]:
    """``hand_notes`` and the 7-0 ``swap_reminder``: what a hand shown with its own buttons
    (Discord's, the web hand) says, where there is no "You can" line between them."""
    swap = swap_reminder(view)
    return hand_notes(view) + ([swap] if swap is not None else [])


def _challenge_text(view: HandView) -> Text | None:
    if not view.can_challenge:
        return None
    return Text(N_("⚔️ You may challenge the Wild Draw Four: if it was a bluff the player draws 4, "
                   "otherwise you draw 6."))


def swap_reminder(view: HandView) -> Text | None:
    """Under 7-0, for whoever holds a 7: whom it may swap hands with (noise in a hand without one)."""
    if view.swap_targets and any(option.card.rank is Rank.SEVEN for option in view.cards):
        return Text(N_("A 7 swaps hands with one of: {players}"),
                    {"players": [short_name(name) for _uid, name in view.swap_targets]})
    return None


def _hand_options(view: HandView, t: Writer) -> list[str]:
    lines = [t.text(note) for note in hand_notes(view)]
    if view.name_color:
        return lines
    options = []
    if view.is_turn and any(option.playable for option in view.cards):
        options.append(Text(N_("play a ✅ card")))
        if view.multi_plays:  # offered by this hand now, not merely allowed by the rules
            options.append(Text(N_("play several cards of one rank at once")))
    if view.can_draw and view.pending_draw:
        options.append(take_penalty(view.pending_draw))
    options += [Text(MOVE_NAMES[move]) for offered, move in (
        (view.can_draw and not view.pending_draw, "draw"), (view.can_pass, "pass"),
        (view.can_declare_uno, "uno"), (view.can_challenge, "challenge"),
        (bool(view.catchable), "catch")) if offered]
    if options:
        lines.append(t(N_("You can: {options}"), options=options))
    elif not view.is_turn and jump_in_text(view) is None:
        lines.append(t(WAITING_FOR_TURN))
    swap = swap_reminder(view)
    if swap is not None:
        lines.append(t.text(swap))
    return lines
