"""Callback data for inline buttons: ids only, never state, at most 64 bytes.

    l:<game>:<verb>                 lobby buttons (leave, start, add AI) -- anyone may press
    t:<game>:<verb>                 table buttons (UNO!)                 -- anyone may press
    h:<game>:<owner>:<verb>:<args>  a player's private hand               -- only <owner>
                                    (the last fields: the hand number it was dealt for, and
                                    the token of the hand it was made for: a press on an
                                    earlier hand, e.g. a double tap, is refused as stale)

A move's button (verbs p, d, n, y, c, k, o) is the hand view's move reference
(``bot.coordinator.moves``) spelled in these fields: ``move()`` writes a reference as a
button and ``ButtonAction.ref`` reads it back, unchanged, for ``ChooseMove``. A reference too
long for 64 bytes (eight +2s with a swap target) cannot be a button: ``move()`` refuses it.

Because a button only names a game, an owner and what to do, it keeps working after a
restart (the coordinator reloads the game) and can be checked against whoever pressed it.
The coordinator decides whether the action is legal; this module only parses.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import NamedTuple

from bot.coordinator import BadMoveRef, parse_ref, play_ref
from bot.engine.cards import Card, Color

MAX_BYTES = 64  # Telegram's limit for callback_data

SCOPES = ("l", "t", "h")
LOBBY_VERBS = ("leave", "start", "ai", "notify")
TABLE_VERBS = ("uno",)
# Hand verbs: p = play, w = pick a colour for a wild, s = pick a swap target for a 7,
# m = pick the top card of several of one rank (multi-play), d = draw, n = pass,
# y = declare UNO, k = call out a player, c = challenge, g = go to page,
# o = the dealer names the colour of a Wild turned first, v = a picture of the whole hand,
# q = the choices (colour, swap target) of several cards played at once, x = a card that
# cannot be played now (greyed: plays nothing).
HAND_VERBS = ("p", "w", "s", "m", "d", "n", "y", "k", "c", "g", "o", "v", "q", "x")
# The moves, and the verbs spelling their references.
SIMPLE_MOVES = {"d": "d", "n": "n", "u": "y", "c": "c"}

GAME_ID_RE = re.compile(r"^[0-9A-Za-z_-]{1,16}$")
USER_ID_RE = re.compile(r"^-?[0-9A-Za-z_]{1,20}$")
CARD_RE = re.compile(r"^(?:[RGBY](?:[0-9SR]|\+2)|W|W\+4)$")
# Several cards of one rank played at once: "R5.B5.G5" (the last one ends on top).
CARDS_RE = re.compile(r"^(?:[RGBY](?:[0-9SR]|\+2)|W|W\+4)(?:\.(?:[RGBY](?:[0-9SR]|\+2)|W|W\+4)){0,7}$")
COLOR_RE = re.compile(r"^[RGBY]$")
PRESS_RE = re.compile(r"^[0-9A-Za-z_-]{6}$")  # bot.coordinator.presses tokens
FIELDS = 11


class BadCallback(ValueError):
    """Callback data that is not ours, malformed or forged."""


@dataclass(frozen=True)
class ButtonAction:
    scope: str  # "l" | "t" | "h"
    game_id: str
    verb: str
    owner: str | None = None  # hand buttons only: whose hand it is
    card: str | None = None  # spec notation ("R5", "W+4"); several joined by "." for a multi-play
    color: str | None = None  # R G B Y
    target: str | None = None  # swap target (7-0) or the player called out
    uno: bool = False  # declare UNO with the play
    page: int = 0
    hand: int = 0  # the match's hand number the keyboard was made for (0: unknown)
    press: str | None = None  # token of the hand the keyboard was made for (None: unchecked)

    @property
    def ref(self) -> str | None:
        """The move reference this button stands for (None: a menu, a page, a picture)."""
        if self.verb == "p":
            return play_ref(tuple(Card.parse(c) for c in (self.card or "").split(".")),
                            Color.parse(self.color) if self.color else None, self.target, self.uno)
        if self.verb == "k":
            return f"k@{self.target}"
        if self.verb == "o":
            return f"o~{self.color}"
        return next((ref for ref, verb in SIMPLE_MOVES.items() if verb == self.verb), None)

    def encode(self) -> str:
        if self.scope == "h":
            fields = [self.scope, self.game_id, self.owner or "", self.verb, self.card or "",
                      self.color or "", self.target or "", "u" if self.uno else "",
                      str(self.page) if self.page else "", str(self.hand) if self.hand else "",
                      self.press or ""]
            data = ":".join(fields).rstrip(":")
            if len(data.encode()) > MAX_BYTES and self.press:
                # No room for the token: the button still works, unchecked for staleness.
                return replace(self, press=None).encode()
        else:
            data = f"{self.scope}:{self.game_id}:{self.verb}"
        if len(data.encode()) > MAX_BYTES:
            raise BadCallback(f"callback data over {MAX_BYTES} bytes")
        return data


def lobby(game_id: str, verb: str) -> str:
    return ButtonAction("l", game_id, verb).encode()


def table(game_id: str, verb: str) -> str:
    return ButtonAction("t", game_id, verb).encode()


def hand(game_id: str, owner: str, verb: str, *, card: str | None = None,
         color: str | None = None, target: str | None = None, uno: bool = False,
         page: int = 0, hand_number: int = 0, press: str | None = None) -> str:
    return ButtonAction("h", game_id, verb, owner, card, color, target, uno, page, hand_number,
                        press).encode()


class MoveFields(NamedTuple):
    """A move reference spelled as button fields."""
    verb: str
    card: str | None = None
    color: str | None = None
    target: str | None = None
    uno: bool = False


def move_fields(ref: str) -> MoveFields:
    """The fields spelling a move reference; BadCallback if it is not one."""
    try:
        parts = parse_ref(ref)
    except BadMoveRef:
        raise BadCallback(f"not a move reference: {ref!r}") from None
    if "cards" in parts:
        return MoveFields("p", str(parts["cards"]), parts.get("pcolor"), parts.get("swap"),  # type: ignore[arg-type]
                          "uno" in parts)
    if "catch" in parts:
        return MoveFields("k", target=str(parts["catch"]))
    if "ocolor" in parts:
        return MoveFields("o", color=str(parts["ocolor"]))
    return MoveFields(SIMPLE_MOVES[str(parts["simple"])])


def move(game_id: str, owner: str, ref: str, *, hand_number: int = 0,
         press: str | None = None) -> str:
    """The button data of one move reference; BadCallback if it is not one or cannot fit."""
    verb, card, color, target, uno = move_fields(ref)
    data = hand(game_id, owner, verb, card=card, color=color, target=target, uno=uno,
                hand_number=hand_number, press=press)
    if parse(data).ref != ref:  # more cards or a longer id than a button may carry
        raise BadCallback(f"the move {ref!r} does not fit in a button")
    return data


def parse(data: str | None) -> ButtonAction:
    """Parse and validate callback data; anything unexpected raises BadCallback."""
    if not data or len(data.encode()) > MAX_BYTES:
        raise BadCallback("missing or oversized callback data")
    parts = data.split(":")
    scope = parts[0]
    if scope not in SCOPES or len(parts) < 3 or not GAME_ID_RE.match(parts[1]):
        raise BadCallback("not an unobot button")
    game_id = parts[1]
    if scope in ("l", "t"):
        verbs = LOBBY_VERBS if scope == "l" else TABLE_VERBS
        if len(parts) != 3 or parts[2] not in verbs:
            raise BadCallback("unknown button")
        return ButtonAction(scope, game_id, parts[2])
    parts += [""] * (FIELDS - len(parts))
    if len(parts) != FIELDS:
        raise BadCallback("too many fields")
    _, _, owner, verb, card, color, target, uno, page, hand_number, press = parts
    if not USER_ID_RE.match(owner) or verb not in HAND_VERBS:
        raise BadCallback("unknown hand button")
    if card and not (CARDS_RE if verb in ("p", "q") else CARD_RE).match(card):
        raise BadCallback("bad card")
    if color and not COLOR_RE.match(color):
        raise BadCallback("bad colour")
    if target and not USER_ID_RE.match(target):
        raise BadCallback("bad target")
    if uno not in ("", "u") or any(f and not (f.isdigit() and len(f) <= 4) for f in (page, hand_number)):
        raise BadCallback("bad flags")
    if press and not PRESS_RE.match(press):
        raise BadCallback("bad press token")
    if verb in ("p", "w", "s", "m", "q", "x") and not card:
        raise BadCallback("a play needs a card")
    if verb == "k" and not target:
        raise BadCallback("a call-out needs a target")
    if verb == "o" and not color:
        raise BadCallback("naming a colour needs the colour")
    return ButtonAction("h", game_id, verb, owner, card or None, color or None, target or None,
                        uno == "u", int(page) if page else 0, int(hand_number) if hand_number else 0,
                        press or None)
