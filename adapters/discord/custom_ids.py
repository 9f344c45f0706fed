"""Button ids: they carry ids, never state, so old buttons keep working after a restart.

    uno:t:<game>:<action>                              table message (anyone may press)
    uno:h:<game>:<owner>:<page>:<action>[:<arg>[:<press>]]  one player's hand view

A hand button that makes a move carries the move's reference (bot.coordinator.moves) as its
arg ("pR5", "pW+4~G!", "pR7@ai1", "d", "k@123..."), handed back unchanged in ``ChooseMove``;
one that opens a picker carries the reference of the cards alone ("pW+4"), plus "/<n>" for a
picker's page. Discord caps a custom_id at 100 characters; game ids are <= 12 hex chars,
owners are snowflakes (<= 20 digits), which leaves 47 for the arg: the longest reference a
single deck allows (eight 7s and a swap target) is 46. ``press`` is the token of the hand the
buttons were made for (bot.coordinator.presses): a second press of the same button is
refused as stale.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.coordinator import BadMoveRef, parse_ref

MAX_CUSTOM_ID = 100
PATTERN = r"uno:(?P<kind>[th]):(?P<rest>[^\s]{1,94})"

TABLE_ACTIONS = ("join", "start", "hand", "uno", "ai", "notify")
# hand actions that make the move in their arg: play, play with a colour, play with a swap
# target, play several cards, draw (or take), pass, UNO! (declare or call out), challenge,
# name the colour of a first Wild (dealer)
MOVE_ACTIONS = ("p", "c", "x", "a", "d", "n", "u", "g", "o")
# and the ones that only show something: a wild's colours, a 7's swap targets, a card's ways
# to be played, UNO!'s choices (declare, call out whom), another page, back to the hand
PICKER_ACTIONS = ("w", "s", "m", "k")
HAND_ACTIONS = (*MOVE_ACTIONS, *PICKER_ACTIONS, "pg", "b")

_GAME = re.compile(r"[0-9A-Za-z_-]{1,24}")
_PRESS = re.compile(r"[0-9A-Za-z_-]{6}")


@dataclass(frozen=True)
class TableId:
    game: str
    action: str

    def encode(self) -> str:
        return _checked(f"uno:t:{self.game}:{self.action}")


@dataclass(frozen=True)
class HandId:
    game: str
    owner: str  # Discord user id of the player whose hand this is
    page: int
    action: str
    arg: str = ""
    press: str = ""  # token of the hand these buttons were made for ("": unchecked)

    def encode(self) -> str:
        tail = f":{self.arg}" if self.arg else ""
        if self.press:
            tail = f":{self.arg}:{self.press}"
        return _checked(f"uno:h:{self.game}:{self.owner}:{self.page}:{self.action}{tail}")

    def move_ref(self) -> str | None:
        """The reference of the move this button makes (None: it makes none). Buttons sent
        before references were carried name the card their own way; they still work."""
        if self.action not in MOVE_ACTIONS:
            return None
        try:
            parse_ref(self.arg)
            return self.arg
        except BadMoveRef:
            return _older_ref(self.action, self.arg)

    def picker(self) -> tuple[str, int]:
        """A picker button's (cards reference, picker page)."""
        key, _, page = self.arg.partition("/")
        return key, int(page) if page.isdigit() else 0


def _older_ref(action: str, arg: str) -> str | None:
    """The reference an older hand button stands for: "p" + card, "c" card.colour[.u],
    "x" card.target, "o" colour, and the bare controls."""
    card, _, rest = arg.partition(".")
    if action == "p" and arg:
        return "p" + arg
    if action == "c" and rest:
        color, _, uno = rest.partition(".")
        return f"p{card}~{color}" + ("!" if uno == "u" else "")
    if action == "x" and rest:
        return f"p{card}@{rest}"
    if action == "o" and arg:
        return "o~" + arg
    return {"d": "d", "n": "n", "g": "c"}.get(action) if not arg else None


def _checked(custom_id: str) -> str:
    if len(custom_id) > MAX_CUSTOM_ID:
        raise ValueError(f"custom_id too long ({len(custom_id)} chars)")
    return custom_id


def decode(custom_id: str) -> TableId | HandId | None:
    """Parse a custom_id; None for anything malformed (a forged or foreign id)."""
    match = re.fullmatch(PATTERN, custom_id)
    if not match:
        return None
    parts = match["rest"].split(":")
    if match["kind"] == "t":
        if len(parts) != 2 or not _GAME.fullmatch(parts[0]) or parts[1] not in TABLE_ACTIONS:
            return None
        return TableId(parts[0], parts[1])
    if len(parts) not in (4, 5, 6) or not _GAME.fullmatch(parts[0]) or not parts[1].isdigit():
        return None
    if not parts[2].isdigit() or parts[3] not in HAND_ACTIONS:
        return None
    press = parts[5] if len(parts) == 6 else ""
    if len(parts) == 6 and not _PRESS.fullmatch(press):
        return None
    return HandId(parts[0], parts[1], int(parts[2]), parts[3], parts[4] if len(parts) >= 5 else "", press)
