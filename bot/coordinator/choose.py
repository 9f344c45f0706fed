"""A move reference (``moves.py``) back into the command it stands for: the one way a button,
a web tap or an inline result becomes a move."""

from __future__ import annotations

from bot.engine.cards import Card
from bot.engine.errors import BadAction

from . import commands as cmds
from .moves import BadMoveRef, parse_ref
from .ports import ChatKey, User
from .refusals import Refusal


def command_for(ref: object, *, chat: ChatKey, user: User, press: str | None = None,
                names: tuple[tuple[str, str], ...] = ()) -> cmds.Command:
    """The command a move reference stands for, carrying the press token. A malformed or
    forged reference is refused here (``bad_move``); a well-formed one that is not legal now
    is refused by the rules like any other move, and a stale press by its token."""
    try:
        parts = parse_ref(ref)
    except BadMoveRef:
        raise Refusal("bad_move") from None
    common = {"chat": chat, "user": user, "press": press, "names": names}
    try:
        if "cards" in parts:
            cards = tuple(str(Card.parse(c)) for c in str(parts["cards"]).split("."))
            return cmds.PlayCards(**common, cards=cards, color=parts.get("pcolor"),  # type: ignore[arg-type]
                                  declare_uno="uno" in parts,
                                  swap_with=str(parts["swap"]) if "swap" in parts else None)
    except BadAction:
        raise Refusal("bad_move") from None
    if "catch" in parts:
        return cmds.CallUno(**common, target=str(parts["catch"]))  # type: ignore[arg-type]
    if "ocolor" in parts:
        return cmds.NameColor(**common, color=str(parts["ocolor"]))  # type: ignore[arg-type]
    simple = {"d": cmds.Draw, "n": cmds.Pass, "u": cmds.DeclareUno, "c": cmds.Challenge}
    return simple[str(parts["simple"])](**common)  # type: ignore[arg-type]
