"""The engine's one small error tree. Each error carries the spec's error code and its input."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


class UnoError(ValueError):
    code = "bad_action"

    def __init__(self, message: str, subject: Any = None) -> None:
        super().__init__(message)
        self.subject = subject


class BadAction(UnoError):
    code = "bad_action"


class NotYourTurn(UnoError):
    code = "not_your_turn"


class NotInHand(UnoError):
    code = "not_in_hand"


class IllegalPlay(UnoError):
    code = "illegal_play"


class ColorRequired(UnoError):
    code = "color_required"


class NothingToCatch(UnoError):
    """A wrong UNO call. Where ``false_uno_penalty > 0`` the refusal still changes the game:
    ``state`` (and ``match`` from ``Match.apply``) hold it with the caller's penalty drawn and
    ``events`` says what happened; otherwise they stay None / empty."""

    code = "nothing_to_catch"
    state: Any = None
    match: Any = None
    events: Sequence[Any] = ()


class CannotChallenge(UnoError):
    code = "cannot_challenge"


class CannotPass(UnoError):
    code = "cannot_pass"


class GameOver(UnoError):
    code = "game_over"


ERROR_CODES = {cls.code: cls for cls in (BadAction, NotYourTurn, NotInHand, IllegalPlay, ColorRequired,
                                          NothingToCatch, CannotChallenge, CannotPass, GameOver)}
