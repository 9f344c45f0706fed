"""The moves a player has now, computed once from the engine's ``legal_actions``.

Every frontend draws these and nothing else: a card button, a colour picker, a swap picker,
"play and say UNO!", Draw / Take +N, Pass, Challenge, call-outs, naming a first Wild's colour.
Each move has a short reference (``Move.ref``) that a frontend puts in a button id or a
command and hands back in a ``ChooseMove`` command; ``command_for`` is the one function that
(in ``choose.py``) turns a reference back into a command. References name cards and user ids, never state, so
a button keeps working after a restart; the press token that travels with them refuses one
made on an earlier hand.

Reference grammar (ASCII, no ``:``, at most ~40 bytes for a play of four cards)::

    p<card>[.<card>...][~<colour>][@<user>][!]   play cards in order (last on top), a wild's
                                                 colour, a 7's swap target, declare UNO
    d                                            draw, or take the pending penalty
    n                                            pass (keep the card just drawn)
    u                                            declare UNO
    c                                            challenge the Wild Draw Four
    k@<user>                                     call out <user> ("UNO!")
    o~<colour>                                   name the colour of a Wild turned first
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import field

from bot.engine import actions as act
from bot.engine.cards import Card, Color

from .values import value

# What a frontend shows a move as. "take" is a Draw that takes a waiting +2/+4 penalty.
KINDS = ("play", "draw", "take", "pass", "uno", "challenge", "catch", "name_color")

_CARD = r"(?:[RGBY](?:[0-9SR]|\+2)|W|W\+4)"
_USER = r"-?[0-9A-Za-z_-]{1,40}"
_REF_RE = re.compile(
    rf"^(?:p(?P<cards>{_CARD}(?:\.{_CARD}){{0,15}})(?:~(?P<pcolor>[RGBY]))?(?:@(?P<swap>{_USER}))?"
    rf"(?P<uno>!)?|(?P<simple>[dnuc])|k@(?P<catch>{_USER})|o~(?P<ocolor>[RGBY]))$")
MAX_REF = 120  # characters: a reference longer than this is refused unread


class BadMoveRef(ValueError):
    """Not a move reference (malformed or forged)."""


@value
class Move:
    """One complete legal move (one of the engine's legal actions)."""

    kind: str  # one of KINDS
    ref: str
    cards: tuple[Card, ...] = ()  # play: in order, the last ends on top
    color: Color | None = None  # play of a wild: the colour named; name_color: the colour
    target: str | None = None  # play of a 7 under 7-0: swap with; catch: who is called out
    uno: bool = False  # play: declare UNO with it
    jump_in: bool = False  # play: out of turn, an identical card
    stack: bool = False  # play: answers the waiting penalty
    amount: int = 0  # take: how many cards


@value
class PlayOption:
    """One way to play cards, with the choices still open: the moves sharing these cards.

    A frontend shows the cards as one button; where ``colors`` or ``targets`` are not empty
    it then asks for one of them; where ``uno`` is set it may offer "and say UNO!" (and where
    ``plain`` is set, also without it). ``ref(...)`` gives the reference of the choice made."""

    cards: tuple[Card, ...]
    colors: tuple[Color, ...] = ()
    targets: tuple[str, ...] = ()
    uno: bool = False  # a variant declaring UNO exists
    plain: bool = True  # a variant without declaring exists
    jump_in: bool = False
    stack: bool = False
    choices: tuple[Move, ...] = field(default=(), repr=False)  # the complete moves, in order

    @property
    def refs(self) -> frozenset[str]:
        return frozenset(m.ref for m in self.choices)

    @property
    def key(self) -> str:
        """The reference of the cards alone: a frontend's id for "this option" (sub-menus)."""
        return play_ref(self.cards)

    @property
    def card(self) -> Card:
        return self.cards[-1]

    def ref(self, color: Color | None = None, target: str | None = None, uno: bool = False) -> str:
        """The reference of this option with the choices made; ValueError if not offered."""
        ref = play_ref(self.cards, color, target, uno)
        if ref not in self.refs:
            raise ValueError(f"not a legal choice of {self.key}: {ref}")
        return ref


def play_ref(cards: Sequence[Card], color: Color | None = None, target: str | None = None,
             uno: bool = False) -> str:
    ref = "p" + ".".join(str(c) for c in cards)
    if color is not None:
        ref += "~" + color.value
    if target is not None:
        ref += "@" + target
    return ref + ("!" if uno else "")


def move_of(action: act.Action, state) -> Move:
    """The Move of one engine action (``state``: the position it is legal in)."""
    match action:
        case act.Play(cards=cards, color=color, uno=uno, swap=swap):
            jump_in = state.current != action.player
            return Move("play", play_ref(cards, color, swap, uno), cards=tuple(cards), color=color,
                        target=swap, uno=uno, jump_in=jump_in,
                        stack=bool(state.pending_draw) and not jump_in)
        case act.Draw():
            if state.pending_draw:
                return Move("take", "d", amount=state.pending_draw)
            return Move("draw", "d")
        case act.Pass():
            return Move("pass", "n")
        case act.DeclareUno():
            return Move("uno", "u")
        case act.Challenge():
            return Move("challenge", "c")
        case act.CatchUno(target=target):
            return Move("catch", "k@" + target, target=target)
        case act.ChooseColor(color=color):
            return Move("name_color", "o~" + color.value, color=color)
    raise TypeError(f"not an action: {action!r}")


def moves_of(actions: Iterable[act.Action], state) -> tuple[Move, ...]:
    """Every legal action as a Move, once each, in the engine's order."""
    out: dict[str, Move] = {}
    for action in actions:
        move = move_of(action, state)
        out.setdefault(move.ref, move)
    return tuple(out.values())


def play_options(moves: Iterable[Move]) -> tuple[PlayOption, ...]:
    """The play moves grouped by their cards (first seen first)."""
    groups: dict[tuple[Card, ...], list[Move]] = {}
    for move in moves:
        if move.kind == "play":
            groups.setdefault(move.cards, []).append(move)
    out = []
    for cards, group in groups.items():
        colors = tuple(c for c in Color if any(m.color is c for m in group))
        targets = tuple(dict.fromkeys(m.target for m in group if m.target is not None))
        out.append(PlayOption(
            cards=cards, colors=colors, targets=targets, uno=any(m.uno for m in group),
            plain=any(not m.uno for m in group), jump_in=group[0].jump_in, stack=group[0].stack,
            choices=tuple(group)))
    return tuple(out)


def parse_ref(ref: object) -> dict[str, object]:
    """The parts of a reference; BadMoveRef when it is not one."""
    if not isinstance(ref, str) or len(ref) > MAX_REF:
        raise BadMoveRef(ref)
    found = _REF_RE.match(ref)
    if found is None:
        raise BadMoveRef(ref)
    return {k: v for k, v in found.groupdict().items() if v is not None}
