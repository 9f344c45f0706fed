"""Every legal move can be typed at the console, and what is typed is that very move: the
console's reading of a line equals the command the move's reference stands for."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adapters.console.parse import Context, parse_line
from bot.coordinator.choose import command_for
from bot.coordinator.moves import Move, moves_of
from bot.coordinator.ports import ChatKey, User
from bot.engine import apply, legal_actions, new_hand
from bot.engine.cards import display_order
from tests.engine.test_properties import choose, games

CHAT = ChatKey("console", "local")


def typed(move: Move, seats: tuple[tuple[str, str], ...]) -> str:
    """A line a player would type for ``move``, from what the console shows (codes, seat
    numbers as listed at the table)."""
    number = {user: str(i) for i, (user, _name) in enumerate(seats, start=1)}
    if move.kind == "play":
        words = ["play", *(str(card) for card in move.cards)]
        if move.color is not None:
            words.append(move.color.name.lower())
        if move.target is not None:
            words.append(number[move.target])
        if move.uno:
            words.append("uno")
        return " ".join(words)
    if move.kind == "catch":
        return "catch " + number[str(move.target)]
    if move.kind == "name_color":
        return "color " + move.color.name.lower()  # type: ignore[union-attr]
    return {"draw": "draw", "take": "draw", "pass": "pass", "uno": "uno",
            "challenge": "challenge"}[move.kind]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games(), st.integers(5, 40))
def test_every_legal_move_can_be_typed_at_the_console(game, steps):
    players, rules, seed = game
    rnd = random.Random(seed)
    state, _ = new_hand(players, rules, seed)
    seats = tuple((p, f"Name {p}") for p in players)
    for _ in range(steps):
        if state.winner is not None:
            break
        for player in state.players:
            user = User(player, f"Name {player}")
            hand = tuple(sorted(state.hand(player), key=display_order))
            ctx = Context(CHAT, user, hand=hand, seats=seats)
            for move in moves_of(legal_actions(state, player), state):
                line = typed(move, seats)
                assert parse_line(line, ctx) == command_for(move.ref, chat=CHAT, user=user), line
        try:
            state, _ = apply(state, choose(state, rnd))
        except Exception:
            state, _ = apply(state, legal_actions(state, state.current)[0])
