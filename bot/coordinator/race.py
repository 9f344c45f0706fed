"""The UNO! race as anyone can check it: who pressed, and when.

A window opens when a player is left with one card without declaring (``book.exposed_at``:
the bot's clock when it received that play). It closes when the player declares, is
caught, or the next move goes by (missed). Each closing, and each press that came after the
call was settled (until the next move), is kept in ``book.race`` (the last ``RACE_KEPT``
events, with the names as they were) and told on the table with its time in milliseconds
after the play, and the reaction window in force. Times are the injected clock's: the
presses and the play are timed at the same point (the start of their transaction)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.engine import events as ev

from . import fairness
from .hand_book import RaceEvent
from .ports import GameRecord
from .views import N_, Text

RACE_KEPT = 50  # events kept in the record
SHOWN = 20  # events the log command shows
CLOSING = ("caught", "declared", "missed")
EVENTS = (ev.UnoCaught, ev.UnoDeclared, ev.FalseUnoCall)  # what may be logged with no window open


def seconds(ms: int | None) -> str:
    return f"{(ms or 0) / 1000:.2f}"


def note(record: GameRecord, before: Any, after: Any, events: list[ev.Event], *,
         actor: str | None, names: Mapping[str, str], hand: int, now: float) -> list[Text]:
    """Log what ``events`` did to the UNO! windows open ``before`` the move (called before
    ``fairness.note_exposed`` forgets when they opened). Returns the table lines."""
    book = record.book
    window = record.options.reaction_window
    open_before = set(before.catchable)
    settled: set[str] = set()
    lines: list[Text] = []

    def log(kind: str, who: str | None, target: str, opened: float | None) -> RaceEvent:
        ms = None if opened is None else max(0, round((now - opened) * 1000))
        event = RaceEvent(kind, names.get(who, who) if who else "", names.get(target, target),
                          ms, window, hand, now if opened is None else opened)
        book.race.append(event)
        return event

    for event in events:
        if isinstance(event, ev.UnoCaught) and event.target in open_before:
            settled.add(event.target)
            opened = fairness.exposed_at(record, event.target)
            lines.append(window_line([log("caught", event.caller, event.target, opened)]))
        elif isinstance(event, ev.UnoDeclared):
            if event.player in open_before and event.player not in settled:
                settled.add(event.player)
                opened = fairness.exposed_at(record, event.player)
                lines.append(window_line([log("declared", event.player, event.player, opened)]))
            elif event.player not in open_before:
                log("in_time", event.player, event.player, None)
        elif isinstance(event, ev.FalseUnoCall):
            log("false_call", event.caller, event.target, None)
    gone = open_before - settled - set(after.catchable)
    for target in sorted(gone, key=before.catchable.index):
        if target in after.players:  # a player who left has no window to tell about
            opened = fairness.exposed_at(record, target)
            lines.append(window_line([log("missed", actor, target, opened)]))
    del book.race[:-RACE_KEPT]
    return lines


def late_press(record: GameRecord, name: str, target_name: str, hand: int,
               now: float) -> Text | None:
    """A press for a call already settled: logged once per person and window, and the
    window's line told again with it. None when there is nothing new to log (a double
    press): then nothing changes."""
    book = record.book
    closing = next((e for e in reversed(book.race) if e.kind in ("caught", "declared")
                    and e.target == target_name and e.hand == hand), None)
    if closing is None:
        return None
    entries = window_of(book.race, closing)
    if any(e.who == name for e in entries):
        return None
    book.race.append(RaceEvent("late", name, target_name, max(0, round((now - closing.opened) * 1000)),
                               closing.window, hand, closing.opened))
    del book.race[:-RACE_KEPT]
    return window_line(window_of(book.race, closing))


def window_of(race: list[RaceEvent], closing: RaceEvent) -> list[RaceEvent]:
    """The closing event of one window and the late presses after it."""
    return [e for e in race if e.opened == closing.opened and e.hand == closing.hand
            and e.target == closing.target and (e is closing or e.kind == "late")]


# ---- words ----------------------------------------------------------------------------------

def event_text(event: RaceEvent) -> Text:
    """One event as a clause (no full stop): the table joins a window's clauses."""
    params = {"player": event.who, "target": event.target, "seconds": seconds(event.ms)}
    if event.kind == "caught":
        return Text(N_("{player} caught {target} {seconds} s after the play"), params)
    if event.kind == "declared":
        return Text(N_("{target} declared UNO! {seconds} s after the play"), params)
    if event.kind == "missed":
        if event.who:
            return Text(N_("nobody called UNO! on {target}: {player} moved on {seconds} s after "
                           "the play"), params)
        return Text(N_("nobody called UNO! on {target}: the window closed {seconds} s after the "
                       "play"), params)
    if event.kind == "late":
        if event.who == event.target:
            return Text(N_("{player} declared at {seconds} s, too late"), params)
        return Text(N_("{player} called at {seconds} s, too late"), params)
    if event.kind == "in_time":
        return Text(N_("{player} declared UNO! with the play"), params)
    return Text(N_("{player} called UNO! with nobody to catch"), params)


def window_line(entries: list[RaceEvent]) -> Text:
    """The table's line for one window: its closing, the late presses, the window in force."""
    closing, late = entries[0], entries[1:]
    params: dict[str, Any] = {"close": event_text(closing), "window": closing.window}
    if not late:
        return Text(N_("UNO! race: {close}. Reaction window: {window} s."), params)
    params["late"] = tuple(event_text(e) for e in late)
    return Text(N_("UNO! race: {close}; {late}. Reaction window: {window} s."), params)


def tables_log_lines(tables: list[tuple[int, list[RaceEvent]]]) -> tuple[Text, ...]:
    """Each table's last ``SHOWN`` events under its number (a two-table match)."""
    lines: list[Text] = []
    for number, events in tables:
        if events:
            lines += [Text(N_("Table {table}:"), {"table": number}), *log_lines(events)]
    return tuple(lines)


def log_lines(race: list[RaceEvent]) -> tuple[Text, ...]:
    """The last ``SHOWN`` events, oldest first, one line each."""
    lines = []
    for event in race[-SHOWN:]:
        if event.kind in CLOSING or event.kind == "late":
            lines.append(Text(N_("Hand {hand}: {event} (window {window} s)."),
                              {"hand": event.hand, "event": event_text(event), "window": event.window}))
        else:
            lines.append(Text(N_("Hand {hand}: {event}."), {"hand": event.hand, "event": event_text(event)}))
    return tuple(lines)
