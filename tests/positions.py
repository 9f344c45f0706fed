"""Positions reached by random legal play: what the move-model tests walk through, for every
frontend alike (the engine's property-test strategies pick rules, players and seeds)."""

from __future__ import annotations

import random
from collections.abc import Iterator

from bot.coordinator.moves import parse_ref
from bot.engine import GameState, apply, legal_actions, new_hand
from bot.engine import actions as act
from bot.engine.cards import Card, Color
from tests.engine.test_properties import choose


def positions(players, rules, seed: int, steps: int) -> Iterator[GameState]:
    """The hand dealt with ``seed``, then up to ``steps`` positions of random play."""
    rnd = random.Random(seed)
    state, _ = new_hand(players, rules, seed)
    for _ in range(steps):
        yield state
        if state.winner is not None:
            return
        try:
            state, _ = apply(state, choose(state, rnd))
        except Exception:  # a refused random choice: the first legal move of the player to act
            state, _ = apply(state, legal_actions(state, state.current)[0])


def action_for(ref: str, player: str) -> act.Action:
    """The engine action a reference stands for, read independently of the product (which
    only turns references into commands, ``choose.command_for``): the tests compare these
    with ``legal_actions``. A catch is ``CatchUno``, as the engine lists it."""
    parts = parse_ref(ref)
    if "cards" in parts:
        cards = tuple(Card.parse(c) for c in str(parts["cards"]).split("."))
        color = Color.parse(str(parts["pcolor"])) if "pcolor" in parts else None
        swap = parts.get("swap")
        return act.Play(player, cards, color, "uno" in parts, None if swap is None else str(swap))
    if "catch" in parts:
        return act.CatchUno(player, str(parts["catch"]))
    if "ocolor" in parts:
        return act.ChooseColor(player, Color.parse(str(parts["ocolor"])))
    simple: dict[str, type[act.Draw | act.Pass | act.DeclareUno | act.Challenge]] = {
        "d": act.Draw, "n": act.Pass, "u": act.DeclareUno, "c": act.Challenge}
    return simple[str(parts["simple"])](player)
