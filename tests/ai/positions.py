"""Game positions for AI tests: random ones reached by play, and hand-built ones."""

from __future__ import annotations

import random
from collections.abc import Callable

from bot.engine import GameState, apply, legal_actions, new_hand
from bot.engine.actions import CatchUno, DeclareUno
from bot.engine.rules import PRESETS, RuleSet

SITUATIONS: dict[str, Callable[[GameState], bool]] = {
    "any": lambda s: True,
    "challenge": lambda s: s.challengeable,
    "catch": lambda s: bool(s.catchable),
    "penalty": lambda s: s.pending_draw > 0,
    "drawn": lambda s: s.drawn_card is not None,
}


def random_position(seed: int, players: int, preset: str, steps: int, situation: str = "any",
                    max_steps: int = 400) -> GameState:
    """A position reached by random legal actions from a fresh deal: the first one after
    ``steps`` actions that is in ``situation`` (a W+4 to challenge, someone to catch, ...),
    else the last position before the hand ended."""
    rng = random.Random(seed)
    wanted = SITUATIONS[situation]
    names = tuple(f"p{i}" for i in range(players))
    state, _ = new_hand(names, PRESETS[preset], seed)
    for step in range(max_steps):
        if step >= steps and wanted(state):
            break
        actor = state.current
        if actor is None:
            break
        actions = [a for a in legal_actions(state, actor) if not isinstance(a, CatchUno | DeclareUno)]
        nxt, _ = apply(state, rng.choice(actions))
        if nxt.winner is not None:
            break
        state = nxt
    return state


def position(hands: dict[str, list[str]], top: str, *, color: str | None = None,
             current: str | None = None, rules: RuleSet | None = None,
             draw_pile: list[str] | None = None) -> GameState:
    """A hand-built position: ``hands`` in seat order, ``top`` on the discard pile."""
    players = list(hands)
    pile = draw_pile or ["G1", "G2", "B3", "Y4", "R6", "B8", "Y9", "G5", "B5", "Y5"]
    state, _ = GameState.from_position(players, hands, pile, rules=rules or PRESETS["official"],
                                       discard=[top], color=color, current=current or players[0])
    return state


def hide_differently(state: GameState, player: str, seed: int) -> GameState:
    """The same public position with the hidden cards dealt differently: every card not in
    ``player``'s hand and not on the discard pile is shuffled between the other hands (same
    counts) and the draw pile. Who bluffed a W+4 is hidden too, so it is redrawn."""
    rng = random.Random(seed)
    me = state.players.index(player)
    hidden = [c for i, hand in enumerate(state.hands) if i != me for c in hand] + list(state.draw_pile)
    rng.shuffle(hidden)
    hands, taken = [], 0
    for i, hand in enumerate(state.hands):
        if i == me:
            hands.append(hand)
        else:
            hands.append(tuple(hidden[taken:taken + len(hand)]))
            taken += len(hand)
    return state.evolve(hands=tuple(hands), draw_pile=tuple(hidden[taken:]),
                        wd4_bluff=rng.random() < 0.5)
