"""Button ids: they carry ids, never state, so old buttons keep working after a restart.

    uno:t:<game>:<action>                              table message (anyone may press)
    uno:h:<game>:<owner>:<page>:<action>[:<arg>[:<press>]]  one player's hand view

Discord caps a custom_id at 100 characters; game ids are <= 12 hex chars, owners are
snowflakes (<= 20 digits), args are a card ("W+4"), a card and a colour ("W+4.R") or a card and
a swap target ("R7.ai1"), so the longest id stays well under the cap. ``press`` is the token of the hand the buttons were
made for (bot.coordinator.presses): a second press of the same button is refused as stale.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_CUSTOM_ID = 100
PATTERN = r"uno:(?P<kind>[th]):(?P<rest>[^\s]{1,94})"

TABLE_ACTIONS = ("join", "start", "hand", "uno", "ai", "notify")
# hand actions: play, wild (ask colour), colour chosen, seven (ask swap target), swap chosen,
# several of a rank (ask which), all of that rank with the arg card on top, draw, pass,
# declare UNO, challenge, go to page, back to the hand, name the colour of a first Wild (dealer)
HAND_ACTIONS = ("p", "w", "c", "s", "x", "m", "a", "d", "n", "u", "g", "pg", "b", "o")

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
