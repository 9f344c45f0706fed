"""The engine steps a transaction played, as the store logs them, and their replay.

A step is one of: an action (``{"a": ...}``, a wrong UNO! call included: the engine refuses
it and hands back the penalised match), the next hand dealt (``{"next": 1}``), a player
removed or added (``{"remove": id}``, ``{"add": id}``). The engine is deterministic, so the
match a log ends at is the snapshot it starts from plus its steps; each log row carries a
digest of the match it reached, checked when it is replayed."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import Any

from bot.engine import Match
from bot.engine.actions import Action, action_from_json, action_to_json
from bot.engine.errors import NothingToCatch

from .record import GameRecord

Step = dict[str, Any]
SNAPSHOT_EVERY = 64  # saves between snapshots within one hand: a bound on a cold load's replay


class LogMismatch(Exception):
    """A replayed log did not reach the match its digest names (a log that is not this game's)."""


def takes_snapshot(record: GameRecord) -> bool:
    """Whether the save of ``record`` stores its match in full: the first save, a match set
    anew, a hand's end, a game that ended, or ``SNAPSHOT_EVERY`` saves since the last."""
    return (record.version == 0 or record.replaced or record.snapshot_due or not record.active
            or record.version + 1 - record.snapshot_version >= SNAPSHOT_EVERY)


def logged_steps(record: GameRecord) -> list[Step] | None:
    """The steps the save of ``record`` appends to the log (None: it played none)."""
    return record.ops if record.ops and not record.replaced and record.state is not None else None


def action_step(action: Action) -> Step:
    return {"a": action_to_json(action)}


NEXT_HAND: Step = {"next": 1}


def remove_step(player: str) -> Step:
    return {"remove": player}


def add_step(player: str) -> Step:
    return {"add": player}


def replay_step(match: Match, step: Step) -> Match:
    if "a" in step:
        try:
            return match.apply(action_from_json(step["a"]))[0]
        except NothingToCatch as wrong_call:
            if wrong_call.match is None:
                raise
            return wrong_call.match  # type: ignore[no-any-return]
    if "next" in step:
        return match.next_hand()[0]
    if "remove" in step:
        return match.remove_player(step["remove"])[0]
    if "add" in step:
        return match.add_player(step["add"])[0]
    raise ValueError(f"unknown step {sorted(step)}")


def replay(match: Match, rows: Iterable[tuple[int, list[Step], str]]) -> Match:
    """``match`` after every row's steps, in order; each row's digest is checked."""
    for version, steps, expected in rows:
        for step in steps:
            match = replay_step(match, step)
        if digest(match) != expected:
            raise LogMismatch(f"the log at version {version} does not replay to its digest")
    return match


def digest(match: Match) -> str:
    """A short fingerprint of where the match stands (not of the hidden cards' order)."""
    game = match.game
    sizes = ",".join([str(game.card_count(p)) for p in game.players])
    color = _COLOR_TEXT.get(game.color)
    if color is None:  # never stored before: formatted as it always was
        color = _COLOR_TEXT[game.color] = f"{game.color}"
    text = (f"{match.hand_number}|{game.current}|{game.top}|{color}|{game.draw_pile_count}|"
            f"{sizes}|{game.winner}|{match.winner}")
    return hashlib.blake2b(text.encode(), digest_size=6).hexdigest()


_COLOR_TEXT: dict[Any, str] = {}  # a colour as the digest writes it (formatting an Enum is slow)
