"""The lean ways the engine takes (legal_plays, the deal's shuffle, single Card instances, the
multi-card listing) give exactly what the longer ways give, on random games under random rules."""

import copy
import dataclasses
import pickle
import random

import pytest
from hypothesis import HealthCheck, given, settings

from bot.engine import (
    Card,
    Color,
    Draw,
    Pass,
    Play,
    Rank,
    UnoError,
    apply,
    full_deck,
    legal_actions,
    legal_plays,
    new_hand,
)
from bot.engine.rng import randbelow, shuffle

from .test_properties import choose, games, junk_action


def positions(game_spec, steps: int = 150):
    """States along one random game, with every player's listed actions and some junk."""
    players, rules, seed = game_spec
    state, _ = new_hand(players, rules, seed)
    rnd = random.Random(seed)
    for _ in range(steps):
        if state.winner is not None:
            break
        listed = {p: legal_actions(state, p) for p in state.players}
        tried = [a for p in state.players for a in listed[p]]
        tried += [junk_action(state, rnd) for _ in range(4)]
        yield state, listed, tried
        state, _ = apply(state, choose(state, rnd))
    yield state, {p: legal_actions(state, p) for p in state.players}, []


SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(games())
def test_legal_plays_are_the_plays_of_legal_actions(game_spec):
    for state, listed, _ in positions(game_spec):
        for player in state.players:
            assert legal_plays(state, player) == [a for a in listed[player] if type(a) is Play]


@pytest.mark.parametrize("preset", ["official", "house"])
def test_the_benchmark_policy_only_plays_or_draws(preset):
    """Greedy self-play as in bench/engine.py: with no play listed, Draw is the one other move."""
    from bot.engine import PRESETS
    rnd = random.Random(4)
    for seed in range(30):
        state, _ = new_hand(["a", "b", "c", "d"], PRESETS[preset], seed)
        while state.winner is None:
            player = state.current
            plays = legal_plays(state, player)
            if not plays:
                others = [a for a in legal_actions(state, player) if type(a) in (Draw, Pass)]
                assert others == [Draw(player)]
            state, _ = apply(state, rnd.choice(plays) if plays else Draw(player))


def test_shuffle_and_randbelow_draw_what_the_stdlib_draws():
    for size in (0, 1, 2, 7, 108, 200, 201, 260):
        for seed in range(20):
            ours, theirs = list(range(size)), list(range(size))
            a, b = random.Random(f"{seed}:1"), random.Random(f"{seed}:1")
            shuffle(a, ours)
            b.shuffle(theirs)
            assert ours == theirs and a.random() == b.random()
    a, b = random.Random(9), random.Random(9)
    assert [randbelow(a.getrandbits, n) for n in range(1, 500)] == [b.randrange(n) for n in range(1, 500)]


def test_there_is_one_card_instance_per_colour_and_rank():
    card = Card(Color.RED, Rank.FIVE)
    assert card is Card.of(Color.RED, Rank.FIVE) is Card.parse("r5")
    assert copy.copy(card) is card and copy.deepcopy(card) is card
    assert pickle.loads(pickle.dumps(card)) is card
    assert dataclasses.replace(card, color=Color.BLUE) is Card.parse("B5")
    assert len(set(full_deck())) == 54 and card == Card(color=Color.RED, rank=Rank.FIVE)
    assert card != Card.parse("R6") and card != "R5"
    for color, rank in [(None, Rank.FIVE), (Color.RED, Rank.WILD), ("R", Rank.FIVE), ([], Rank.ONE)]:
        with pytest.raises(UnoError):
            Card(color, rank)  # type: ignore[arg-type]


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_multi_card_plays_are_listed_iff_legal(game_spec):
    """An independent check of the multi-play listing: every ordered pick of 2-3 same-rank
    coloured cards (no 7, not leaving one card) is listed exactly when apply accepts it."""
    import itertools

    from bot.engine import is_legal

    players, rules, seed = game_spec
    rules = rules.with_(multi_play=True)
    for state, listed, _ in positions((players, rules, seed), steps=60):
        if state.winner is not None:
            continue
        for player in state.players:
            hand = state.hand(player)
            for size in (2, 3):
                for picks in set(itertools.permutations(range(len(hand)), size)):
                    cards = tuple(hand[i] for i in picks)
                    if (len(hand) - size == 1 or cards[0].color is None or cards[-1].rank is Rank.SEVEN
                            or any(c.rank is not cards[0].rank for c in cards)):
                        continue
                    play = Play(player, cards)
                    assert is_legal(state, play) == (play in listed[player]), play
