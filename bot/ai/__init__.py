"""AI seats: strategies that choose a legal action from public information and their own hand.

    from bot.ai import get_strategy
    strategy = get_strategy("easy" | "normal" | "hard")
    strategy.choose(state, player, rng) -> Action          # the seat must act
    strategy.react(state, player, rng) -> Action | None    # off-turn: catch "UNO!" or jump in

easy   random legal play, forgets UNO ~30%, never catches
normal greedy by points, always declares, names its most-held colour, catches
hard   keeps wilds, counts cards, attacks a low next player, challenges likely bluffs
"""

from __future__ import annotations

from .base import Strategy
from .easy import EasyStrategy
from .hard import HardStrategy
from .normal import NormalStrategy

STRATEGIES: dict[str, type[Strategy]] = {
    "easy": EasyStrategy,
    "normal": NormalStrategy,
    "hard": HardStrategy,
}
STRATEGY_NAMES = tuple(STRATEGIES)


def get_strategy(name: str) -> Strategy:
    """A strategy by name; unknown names raise ValueError. Strategies keep no state between
    calls (all they need is in the game state), so one instance may serve every seat."""
    try:
        return STRATEGIES[name]()
    except (KeyError, TypeError):
        raise ValueError(f"unknown AI level {name!r}; choose one of {', '.join(STRATEGY_NAMES)}") from None


__all__ = ["STRATEGIES", "STRATEGY_NAMES", "EasyStrategy", "HardStrategy", "NormalStrategy",
           "Strategy", "get_strategy"]
