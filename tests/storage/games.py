"""Helpers shared by the storage tests and their child-process scripts: a deterministic
move for whoever must act, the 108-card check, a chat port that stores no message ids, and
a store that reports every successful save."""

from __future__ import annotations

import json
import sys
from collections import Counter
from typing import Any

from bot.coordinator import commands as cmds
from bot.coordinator.ports import ChatKey, GameRecord, User
from bot.engine import Match, legal_actions
from bot.engine.actions import CatchUno, Challenge, ChooseColor, DeclareUno, Draw, Pass, Play
from bot.engine.cards import full_deck
from storage import SqlStore

FULL_DECK = Counter(str(card) for card in full_deck())


def all_cards(match_json: dict[str, Any]) -> Counter:
    state = Match.from_json(match_json).game
    cards = [*state.draw_pile, *state.discard, *(card for hand in state.hands for card in hand)]
    return Counter(str(card) for card in cards)


def deck_is_whole(match_json: dict[str, Any]) -> bool:
    return all_cards(match_json) == FULL_DECK


def next_command(record: GameRecord, users: dict[str, User]) -> cmds.Command | None:
    """The move a simple human makes for the player to act: the first playable card (saying
    UNO when it leaves one), else pass after a draw, else draw. None when nobody human must
    act. Deterministic, so two processes looking at one state send the same command."""
    if record.status != "running" or record.match is None:
        return None
    state = Match.from_json(record.match).game
    who = state.current
    if who is None or who not in users:
        return None
    actions = [a for a in legal_actions(state, who) if not isinstance(a, CatchUno | DeclareUno)]
    user = users[who]
    named = next((a for a in actions if isinstance(a, ChooseColor)), None)
    if named is not None:  # the dealer names the colour of a Wild turned first
        return cmds.NameColor(record.chat, user, color=named.color.value)
    play = next((a for a in actions if isinstance(a, Play)), None)
    if play is not None:
        return cmds.PlayCards(record.chat, user, cards=tuple(str(c) for c in play.cards),
                              color=play.color.value if play.color else None,
                              declare_uno=state.card_count(who) - len(play.cards) == 1,
                              swap_with=play.swap)
    if any(isinstance(a, Pass) for a in actions):
        return cmds.Pass(record.chat, user)
    if any(isinstance(a, Challenge) for a in actions):
        return cmds.Challenge(record.chat, user)
    if any(isinstance(a, Draw) for a in actions):
        return cmds.Draw(record.chat, user)
    return None


def humans(count: int) -> dict[str, User]:
    return {f"u{n}": User(f"u{n}", f"P{n}", is_admin=n == 1) for n in range(1, count + 1)}


class NullChat:
    """A ChatPort that accepts everything and returns no message ids, so each accepted action
    is exactly one save (no follow-up save of new message ids)."""

    async def publish(self, chat: ChatKey, message: Any, *, edit: str | None = None) -> None:
        return None

    async def send_hand(self, chat: ChatKey, user_id: str, view: Any, *,
                        edit: str | None = None) -> None:
        return None


class ReportingStore(SqlStore):
    """A SqlStore that writes one JSON line to stdout after every successful save: the child
    processes' log of what is durably stored."""

    async def save(self, record, results=()):  # type: ignore[override]
        saved = await super().save(record, results)
        line = {"game_id": saved.game_id, "version": saved.version, "status": saved.status,
                "match": saved.match, "table_message_id": saved.table_message_id,
                "hand_message_ids": saved.hand_message_ids, "deadlines": saved.deadlines}
        sys.stdout.write("SAVED " + json.dumps(line) + "\n")
        sys.stdout.flush()
        return saved
