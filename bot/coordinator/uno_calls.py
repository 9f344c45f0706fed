"""Settled UNO! calls: a second press for a call already made changes nothing.

A double click, or two people pressing the table's UNO! together, reaches the coordinator
twice; the second press meets the state the first one made and would be judged a wrong call
(under house rules: cards for the presser). So the game remembers, until the next move, who
was caught or declared and who made those calls; a call on one of them, or a caller pressing
again, is answered "already called" and changes nothing. The memory lives in the record
(``record.book.uno_calls``: it survives a restart and is shared by processes) and is forgotten at the next move
that is not part of an UNO call."""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine import events as ev

from .hand_book import HandBook, UnoCalls
from .refusals import Refusal
from .views import N_, Text

# Events an UNO call itself produces: they keep the memory; any other event is a move.
_CALL_EVENTS = (ev.UnoCaught, ev.UnoDeclared, ev.FalseUnoCall, ev.DeckReshuffled)
_CALL_DRAWS = ("uno_penalty", "false_uno")


def note(book: HandBook, events: list[ev.Event]) -> None:
    """Update the memory with what one transaction applied, in order. A declaration made with
    the play itself is not remembered: nobody could have pressed for it at the same time, so a
    call on that player stays a wrong call."""
    moved = False
    for event in events:
        if isinstance(event, ev.UnoCaught):
            _add(book, event.target, event.caller)
        elif isinstance(event, ev.UnoDeclared):
            if not moved:
                _add(book, event.player, event.player)
        elif isinstance(event, _CALL_EVENTS):
            continue
        elif isinstance(event, ev.CardsDrawn) and event.reason in _CALL_DRAWS:
            continue
        else:
            moved = True
            book.uno_calls = None


def _add(book: HandBook, target: str, caller: str) -> None:
    if book.uno_calls is None:
        book.uno_calls = UnoCalls()
    for seen, who in ((book.uno_calls.targets, target), (book.uno_calls.callers, caller)):
        if who not in seen:
            seen.append(who)


def already_called(book: HandBook, caller: str, target: str | None) -> str | None:
    """The player a repeated call is about (it must change nothing), or None when the call is
    new and judged as usual."""
    if book.uno_calls is None or not book.uno_calls.targets:
        return None
    targets = book.uno_calls.targets
    if target is not None:
        return target if target in targets else None
    if caller in targets:  # pressing UNO! again after one's own declaration (or being caught)
        return caller
    return targets[-1]  # the caller's own call again, or a press racing someone else's


def refusal(name: str) -> Refusal:
    return Refusal("already_called", text=Text(
        N_("UNO! was already called for {player}. Nothing changes."), {"player": name}))


@dataclass(frozen=True)
class TooLate:
    """A press after the call was settled, logged in the UNO! race (so the transaction is
    saved) and answered as the refusal it still is."""

    refusal: Refusal
