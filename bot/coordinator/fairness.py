"""A fair "UNO!" and a fair clock: people get the time to call out a player who forgot, before AI seats close
the window (the next player's action ends it), and AI seats do not out-click people.

- While someone is catchable, AI seats make no move that would close the window (their turn,
  a jump-in) until the chat's reaction window (default 3 s) has passed since that play.
- An AI calls a player out no sooner than ``CATCH_DELAY`` after the forgetful play.
- A person's wrong calls (where they cost nothing) start a short cool-down during which
  further call-outs are refused privately (declaring one's own UNO! is never refused).

Times are absolute (``record.book.exposed_at``: player -> when they became catchable), so a
restarted coordinator keeps holding the same window."""

from __future__ import annotations

from .ports import GameRecord

REACTION_WINDOW_RANGE = (0, 10)
CATCH_DELAY = 2.0  # seconds after a forgetful play before an AI calls it out
FALSE_CALL_COOLDOWN = 5.0  # seconds after a wrong call in which call-outs are refused


def exposed_at(record: GameRecord, player: str) -> float:
    """When ``player`` became catchable (the last save's time when it was not recorded)."""
    return record.book.exposed_at.get(player, record.updated_at)


def window_closes_at(record: GameRecord, catchable: tuple[str, ...]) -> float | None:
    """Until when AI seats must not close the UNO! window (None: nobody is catchable)."""
    if not catchable:
        return None
    window = float(record.options.reaction_window)
    return max(exposed_at(record, p) for p in catchable) + window


def catch_allowed_at(record: GameRecord, target: str) -> float:
    return exposed_at(record, target) + CATCH_DELAY


def next_wake(record: GameRecord, catchable: tuple[str, ...], now: float) -> float | None:
    """The next moment a held AI action becomes allowed (None: nothing is held)."""
    times = [catch_allowed_at(record, p) for p in catchable]
    closes = window_closes_at(record, catchable)
    if closes is not None:
        times.append(closes)
    future = [t for t in times if t > now]
    return min(future) if future else None


def note_exposed(record: GameRecord, before: tuple[str, ...], after: tuple[str, ...],
                 now: float) -> None:
    """When each catchable player became catchable (``after``; ``before``: who was catchable
    before the move). Kept in the record so the times survive a restart."""
    exposed = record.book.exposed_at
    if not after and not exposed:
        return
    was = set(before)
    record.book.exposed_at = {p: (exposed.get(p, now) if p in was else now) for p in after}


def rearm_turn(record: GameRecord, before: str | None, after: str | None, actor: str | None,
               now: float) -> None:
    """The turn timer (``turn_timer`` seconds, 0: none) starts again when the turn passes, or
    when the player to act did something and still acts (a draw before playing)."""
    timer = record.options.turn_timer
    deadlines = record.deadlines
    if after is None or timer <= 0:
        deadlines.pop("turn", None)
    elif before != after or actor == before or "turn" not in deadlines:
        deadlines["turn"] = now + timer
