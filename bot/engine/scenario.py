"""The rule-scenario format (docs/development/scenario-format.md): build a position, replay
actions, and give the outcome exactly as that document shows it (``pending_draw`` and
``seed`` included)."""

from __future__ import annotations

from typing import Any

from .actions import action_from_json
from .errors import BadAction, NothingToCatch, UnoError
from .game import apply, position
from .rules import RuleSet
from .state import GameState


class MalformedScenario(ValueError):
    """The file itself is unusable (the replay CLI exits 2); refused actions are not this."""


def load_position(data: Any) -> GameState:
    """The starting state of a scenario. Raises MalformedScenario."""
    if not isinstance(data, dict):
        raise MalformedScenario("a scenario is a JSON object")
    # Keys beyond the spec's (a description, the expected output, ...) are ignored.
    try:
        rules = data.get("rules")
        if rules is not None and not isinstance(rules, dict):
            raise MalformedScenario("rules is an object: a preset and overrides")
        ruleset = RuleSet.from_dict(rules)
        players = data.get("players")
        if not isinstance(players, list):
            raise MalformedScenario("players is a list of ids")
        start = data.get("start")
        dealer = None
        if start is not None:
            if not isinstance(start, dict) or not isinstance(start.get("dealer"), str):
                raise MalformedScenario('start is {"dealer": PLAYER}')
            if "discard" in data:
                raise MalformedScenario("give either start or discard, not both")
            dealer = start["dealer"]
        elif "discard" not in data:
            raise MalformedScenario("a scenario needs discard (and color/current) or start")
        else:
            dealer = data.get("dealer")
            if dealer is not None and not isinstance(dealer, str):
                raise MalformedScenario("dealer is a player")
        direction = data.get("direction", 1)
        seed = data.get("seed", 0)
        if not isinstance(seed, int | str) or isinstance(seed, bool):
            raise MalformedScenario("seed is an integer or a string")
        shuffles = data.get("rng_counter", 0)
        if not isinstance(shuffles, int) or isinstance(shuffles, bool) or shuffles < 0:
            raise MalformedScenario("rng_counter is a count of shuffles")
        state, _ = position(players, data.get("hands"), data.get("draw_pile", []), rules=ruleset,
                            discard=data.get("discard"), color=data.get("color"),
                            current=data.get("current"), direction=direction, dealer=dealer,
                            pending_draw=data.get("pending_draw", 0), seed=seed,
                            rng_counter=shuffles)
        return state
    except BadAction as exc:
        raise MalformedScenario(str(exc)) from None
    except TypeError as exc:  # unhashable ids and the like
        raise MalformedScenario(f"malformed scenario: {exc}") from None


def _current_for_output(state: GameState) -> str | None:
    """While the hand runs, the player to act. Once it is won, the seat after the winner in
    play direction, as the spec's example output shows (``"winner": "cy", "current": "ana"``)."""
    if state.winner is None:
        return state.current
    seat = state.players.index(state.winner)
    return state.players[(seat + state.direction) % len(state.players)]


def state_to_spec(state: GameState) -> dict[str, Any]:
    """The spec's output ``state`` object."""
    return {
        "hands": {p: [str(c) for c in h] for p, h in zip(state.players, state.hands, strict=True)},
        "top": str(state.discard[-1]),
        "color": None if state.color is None else state.color.value,
        "current": _current_for_output(state),
        "direction": state.direction,
        "pending_draw": state.pending_draw,
        "draw_pile": len(state.draw_pile),
        "winner": state.winner,
        "points": state.points,
    }


def step(state: GameState, raw_action: Any) -> tuple[GameState, dict[str, Any]]:
    """Apply one spec action object; returns the next state and the spec result."""
    try:
        action = action_from_json(raw_action)
        state, _ = apply(state, action)
        return state, {"ok": True}
    except NothingToCatch as exc:
        penalised = getattr(exc, "state", None)  # the false-call penalty changes the state
        return (penalised if penalised is not None else state), {"ok": False, "error": exc.code}
    except UnoError as exc:
        return state, {"ok": False, "error": exc.code}
    except (AttributeError, TypeError, ValueError):  # odd JSON types in an action object
        return state, {"ok": False, "error": "bad_action"}


def run(data: Any) -> dict[str, Any]:
    """Replay a scenario: ``{"results": [...], "state": {...}}``. Raises MalformedScenario."""
    state = load_position(data)
    actions = data.get("actions", [])
    if not isinstance(actions, list):
        raise MalformedScenario("actions is a list")
    results = []
    for raw in actions:
        state, result = step(state, raw)
        results.append(result)
    return {"results": results, "state": state_to_spec(state)}
