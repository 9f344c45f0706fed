"""Stale presses: a button of a player's hand carries a short token of the hand it was made
for, and a press whose token no longer matches is refused.

The token is a digest of the hand number and the player's cards in the order they entered
the hand: it changes exactly when the hand changes (a card played or drawn, a penalty, a
swap, a new deal). So a double tap (the second press of "play R5" while the player holds
another R5) is refused instead of playing both copies, while a button whose hand is
unchanged keeps working after any amount of other players' moves or a restart: the token
is derived from the stored game, nothing is kept in memory. A web page's move carries the
token of the hand the page was showing: two taps racing in are judged one after the other
under the game's lock, and the second meets a changed hand. Typed commands carry no token
and are judged as usual; the UNO! buttons carry none either (their repeats are settled by
``uno_calls``)."""

from __future__ import annotations

import base64
import hashlib
from functools import lru_cache

from .refusals import Refusal

LENGTH = 6  # characters of the token in a button: 36 bits, [A-Za-z0-9_-]


def token(match, user_id: str) -> str:
    """The token of ``user_id``'s hand now ("" when they hold no seat in this hand)."""
    state = match.game
    if user_id not in state.players:
        return ""
    return _token(match.hand_number, state.hand(user_id))


@lru_cache(maxsize=8192)  # every hand shown is tokened again at each delivery and press
def _token(hand_number: int, hand: tuple) -> str:
    cards = ",".join(str(card) for card in hand)
    digest = hashlib.blake2b(f"{hand_number}|{cards}".encode(), digest_size=5).digest()
    return base64.urlsafe_b64encode(digest).decode()[:LENGTH]


def check(match, user_id: str, press: str | None) -> None:
    """Refuse a press made on an earlier version of the player's hand."""
    if press is None or press == "":
        return
    if press != token(match, user_id):
        raise Refusal("stale_press")
