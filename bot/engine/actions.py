"""Actions a player can take: imperative, frozen, and convertible to/from the spec's JSON."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .cards import Card, Color
from .errors import BadAction


@dataclass(frozen=True, init=False)
class Play:
    """Play one card, or several of one rank where ``multi_play`` allows (last one ends on top)."""

    player: str
    cards: tuple[Card, ...]
    color: Color | None = None  # required when a wild ends on top
    uno: bool = False  # declare UNO with this play
    swap: str | None = None  # 7-0: the player to swap hands with when a 7 ends on top

    def __init__(self, player: str, cards: tuple[Card, ...], color: Color | None = None,
                 uno: bool = False, swap: str | None = None) -> None:
        # Written out, the fields' names, order and defaults: compiled, it runs natively (the
        # one @dataclass generates runs interpreted), and legal_actions lists many.
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "color", color)
        object.__setattr__(self, "uno", uno)
        object.__setattr__(self, "swap", swap)

    @property
    def card(self) -> Card:
        return self.cards[-1]


@dataclass(frozen=True)
class Draw:
    """Draw (one card, or until playable), or take the pending +2/+4 penalty."""

    player: str


@dataclass(frozen=True)
class Pass:
    """Keep the card just drawn instead of playing it."""

    player: str


@dataclass(frozen=True)
class DeclareUno:
    player: str


@dataclass(frozen=True)
class CatchUno:
    """``player`` calls "UNO!" on ``target``, who holds one card and did not declare."""

    player: str
    target: str


@dataclass(frozen=True)
class Challenge:
    """Challenge the W+4 just played on ``player``."""

    player: str


@dataclass(frozen=True)
class ChooseColor:
    """The dealer names the colour of a Wild turned as the first card (``first_wild:
    dealer_names``), before play begins."""

    player: str
    color: Color


Action = Play | Draw | Pass | DeclareUno | CatchUno | Challenge | ChooseColor


def action_to_json(action: Action) -> dict[str, Any]:
    """The spec's action object."""
    match action:
        case Play():
            out: dict[str, Any] = {"player": action.player}
            out["play"] = str(action.cards[0]) if len(action.cards) == 1 else [str(c) for c in action.cards]
            if action.color is not None:
                out["color"] = action.color.value
            if action.uno:
                out["uno"] = True
            if action.swap is not None:
                out["swap"] = action.swap
            return out
        case Draw():
            return {"player": action.player, "draw": True}
        case Pass():
            return {"player": action.player, "pass": True}
        case DeclareUno():
            return {"player": action.player, "uno": True}
        case CatchUno():
            return {"player": action.player, "catch": action.target}
        case Challenge():
            return {"player": action.player, "challenge": True}
        case ChooseColor():
            return {"player": action.player, "color": action.color.value}
    raise BadAction(f"not an action: {action!r}", action)


def action_from_json(data: Any) -> Action:
    """Parse the spec's action object; raises BadAction on anything malformed."""
    if not isinstance(data, dict) or not isinstance(data.get("player"), str):
        raise BadAction("an action needs a player", data)
    player = data["player"]
    if "play" in data:
        raw = data["play"]
        items = raw if isinstance(raw, list) else [raw]
        if not items:
            raise BadAction("play needs at least one card", data)
        cards = tuple(Card.parse(c) for c in items)
        color = Color.parse(data["color"]) if data.get("color") is not None else None
        swap = data.get("swap")
        if swap is not None and not isinstance(swap, str):
            raise BadAction("swap names a player", data)
        return Play(player, cards, color, bool(data.get("uno", False)), swap)
    if data.get("draw") is True:
        return Draw(player)
    if data.get("pass") is True:
        return Pass(player)
    if "catch" in data:
        if not isinstance(data["catch"], str):
            raise BadAction("catch names a player", data)
        return CatchUno(player, data["catch"])
    if data.get("challenge") is True:
        return Challenge(player)
    if data.get("uno") is True:
        return DeclareUno(player)
    if "color" in data:
        return ChooseColor(player, Color.parse(data["color"]))
    raise BadAction("unknown action", data)
