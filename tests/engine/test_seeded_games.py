"""Seeded games replay exactly: a digest of every listing, state, event and refusal along fixed
games under several rule sets, recorded from the engine. Any change of behaviour shows here,
intended or not; after an intended one, record the new digests:

    python -m tests.engine.test_seeded_games
"""

import dataclasses
import hashlib
import random

import pytest

from bot.engine import (
    HOUSE,
    OFFICIAL,
    CatchUno,
    Challenge,
    DeclareUno,
    Draw,
    Pass,
    Play,
    RuleSet,
    UnoError,
    apply,
    full_deck,
    legal_actions,
    legal_plays,
    new_hand,
)
from bot.engine.cards import Color

DECK = sorted(set(full_deck()), key=str)
RULES = {
    "official": OFFICIAL,
    "house": HOUSE,
    "stack-by-value": RuleSet(stacking="by_value", by_value_same_color=True, multi_play=True,
                              jump_in=True, wd4_challenge=False, wd4_rule="no_match"),
    "draw-until-playable": RuleSet(draw_until_playable=True, force_play=True, uno_penalty=4,
                                   false_uno_penalty=1, first_wild="first_player_names"),
    "teams-identical": HOUSE.with_(teams=True, play_after_draw=False, hand_size=3,
                                   scoring="losers_accumulate", first_wild="any_card"),
}
PLAYERS = {"official": 4, "house": 5, "stack-by-value": 3, "draw-until-playable": 2,
           "teams-identical": 4}
GAMES = 12
DIGESTS = {
    "official": "9a7706e7ce504dc6afd0ef8dbf562f23a69f7f4b2e7b213ca240c5bfb18735be",
    "house": "f54ac34449e6bdb5a8113b98c98715d9b31229187b085c66c21599c56fcf6c6d",
    "stack-by-value": "3f2b7cec1d538f8c529c3e8248d446979801bd04f0cfd78a9071916dd1c8ff83",
    "draw-until-playable": "e2619b0327fbb750e470580e4c38f2a9dd3aa9d53c4d8f34f8d4934c294993cc",
    "teams-identical": "6eaa5786ffef8ac2b7ce76e903d855e81e668901e010a4b6fc3ea1b1c559254c",
}


def fields(value) -> str:
    """Every field, the hidden ones too (``CardsDrawn.cards`` is left out of its repr)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return type(value).__name__ + repr(dataclasses.astuple(value))
    return repr(value)


def junk(state, rnd: random.Random):
    player = rnd.choice(state.players)
    kind = rnd.randrange(6)
    if kind == 0:
        return Draw(player)
    if kind == 1:
        return Pass(player)
    if kind == 2:
        return DeclareUno(player)
    if kind == 3:
        return CatchUno(player, rnd.choice(state.players))
    if kind == 4:
        return Challenge(player)
    hand = state.hand(player)
    card = rnd.choice(hand) if hand and rnd.random() < 0.8 else rnd.choice(DECK)
    color = rnd.choice(list(Color)) if card.color is None else None
    return Play(player, (card,), color, rnd.random() < 0.3, rnd.choice(state.players))


def digest(name: str) -> str:
    rules, count = RULES[name], PLAYERS[name]
    players = [f"p{i}" for i in range(count)]
    h = hashlib.sha256()
    for seed in range(GAMES):
        rnd = random.Random(seed)
        state, events = new_hand(players, rules, seed)
        h.update(repr(state.to_json()).encode() + repr([fields(e) for e in events]).encode())
        for _ in range(400):
            if state.winner is not None:
                break
            listed = {p: legal_actions(state, p) for p in state.players}
            h.update(repr(listed).encode() + repr(legal_plays(state, state.current)).encode())
            for action in [junk(state, rnd)] + [None]:
                if action is None:
                    mine = listed[state.current]
                    plays = [a for a in mine if type(a) is Play]
                    others = [a for p in state.players for a in listed[p] if p != state.current]
                    pool = others if others and rnd.random() < 0.15 else plays or mine
                    action = rnd.choice(pool)
                try:
                    after, events = apply(state, action)
                except UnoError as exc:
                    h.update(f"{type(exc).__name__} {exc.code} {exc}".encode())
                    penalised = getattr(exc, "state", None)
                    if penalised is not None:
                        h.update(repr(penalised.to_json()).encode())
                        h.update(repr([fields(e) for e in exc.events]).encode())
                    continue
                h.update(repr(action).encode() + repr(after.to_json()).encode())
                h.update(repr([fields(e) for e in events]).encode())
            state = after
    return h.hexdigest()


@pytest.mark.parametrize("name", sorted(RULES))
def test_seeded_games_replay_exactly(name):
    assert digest(name) == DIGESTS[name]


if __name__ == "__main__":
    for name in RULES:
        print(f"    {name!r}: {digest(name)!r},")
