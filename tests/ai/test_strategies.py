"""AI strategies: always legal, only public information, and each level's character."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.ai import STRATEGY_NAMES, get_strategy
from bot.engine import apply, is_legal, legal_actions
from bot.engine.actions import CatchUno, Challenge, DeclareUno, Draw, Play
from bot.engine.cards import Card, Color, Rank
from bot.engine.rules import OFFICIAL

from .positions import SITUATIONS, hide_differently, position, random_position

positions = st.builds(
    random_position,
    seed=st.integers(0, 10**6),
    players=st.integers(2, 6),
    preset=st.sampled_from(["official", "house"]),
    steps=st.integers(0, 60),
    situation=st.sampled_from(sorted(SITUATIONS)),
)
BOUNDED = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def without_uno(action):
    return replace(action, uno=False) if isinstance(action, Play) else action


def test_unknown_level_is_a_value_error():
    with pytest.raises(ValueError):
        get_strategy("grandmaster")
    assert {get_strategy(n).name for n in STRATEGY_NAMES} == {"easy", "normal", "hard"}


@pytest.mark.parametrize("level", STRATEGY_NAMES)
@BOUNDED
@given(state=positions, rng_seed=st.integers(0, 1000))
def test_choices_are_always_legal(level, state, rng_seed):
    strategy = get_strategy(level)
    player = state.current
    action = strategy.choose(state, player, random.Random(rng_seed))
    legal = [without_uno(a) for a in legal_actions(state, player)]
    assert without_uno(action) in legal
    assert not isinstance(action, CatchUno | DeclareUno)
    assert is_legal(state, action)
    apply(state, action)  # raises if the engine disagrees
    for other in state.players:
        if other == player:
            continue
        reaction = strategy.react(state, other, random.Random(rng_seed))
        if reaction is not None:
            assert isinstance(reaction, CatchUno | Play)
            assert is_legal(state, reaction)


@pytest.mark.parametrize("level", STRATEGY_NAMES)
@BOUNDED
@given(state=positions, rng_seed=st.integers(0, 1000), deal_seed=st.integers(0, 1000))
def test_choices_ignore_other_hands_and_the_draw_pile(level, state, rng_seed, deal_seed):
    strategy = get_strategy(level)
    player = state.current
    other = hide_differently(state, player, deal_seed)
    assert other.hand(player) == state.hand(player)
    assert strategy.choose(state, player, random.Random(rng_seed)) == \
        strategy.choose(other, player, random.Random(rng_seed))
    for seat in state.players:
        if seat != player:
            seen = hide_differently(state, seat, deal_seed)
            assert strategy.react(state, seat, random.Random(rng_seed)) == \
                strategy.react(seen, seat, random.Random(rng_seed))


def two_cards_one_playable():
    return position({"ai": ["R5", "G7"], "bo": ["B1", "B2", "B3"]}, "R3")


def test_easy_forgets_uno_sometimes():
    state = two_cards_one_playable()
    easy = get_strategy("easy")
    plays = [easy.choose(state, "ai", random.Random(i)) for i in range(300)]
    assert all(isinstance(p, Play) and p.cards == (Card.parse("R5"),) for p in plays)
    forgotten = sum(not p.uno for p in plays)
    assert 45 <= forgotten <= 140  # about 30%


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_normal_and_hard_always_declare(level):
    state = two_cards_one_playable()
    strategy = get_strategy(level)
    assert all(strategy.choose(state, "ai", random.Random(i)).uno for i in range(100))


def test_no_declaration_when_more_than_one_card_is_left():
    state = position({"ai": ["R5", "G7", "G8"], "bo": ["B1", "B2"]}, "R3")
    for level in STRATEGY_NAMES:
        action = get_strategy(level).choose(state, "ai", random.Random(1))
        assert isinstance(action, Play) and not action.uno


def caught_position():
    """``bo`` played down to one card without declaring; ``ai`` may call them out."""
    state = position({"bo": ["R5", "G7"], "ai": ["B1", "B2", "B3"], "cy": ["Y1", "Y2"]}, "R3")
    state, _ = apply(state, Play("bo", (Card.parse("R5"),)))
    assert "bo" in state.catchable
    return state


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_normal_and_hard_call_out_a_forgetful_player(level):
    state = caught_position()
    assert get_strategy(level).react(state, "cy", random.Random(0)) == CatchUno("cy", "bo")


def test_easy_never_catches():
    state = caught_position()
    easy = get_strategy("easy")
    assert all(easy.react(state, "cy", random.Random(i)) is None for i in range(50))


def test_hard_keeps_wilds_when_it_has_alternatives():
    state = position({"ai": ["W", "W+4", "G9", "R5", "B2"], "bo": ["B1", "B2", "B3", "Y7", "Y8"]}, "R3")
    hard = get_strategy("hard")
    for i in range(20):
        action = hard.choose(state, "ai", random.Random(i))
        assert isinstance(action, Play) and action.cards == (Card.parse("R5"),)
    # normal is greedy by points and dumps the Wild Draw Four (50 points) first
    assert get_strategy("normal").choose(state, "ai", random.Random(0)).card.rank is Rank.WILD_DRAW_FOUR


def test_hard_draws_rather_than_spend_its_only_wild_early():
    state = position({"ai": ["W", "G9", "G5", "B2", "B7"], "bo": ["B1", "B2", "B3", "Y7", "Y8"]}, "R3")
    assert get_strategy("hard").choose(state, "ai", random.Random(0)) == Draw("ai")


def test_hard_plays_the_wild_when_an_opponent_is_about_to_win():
    state = position({"ai": ["W", "G9", "G5", "B2", "B7"], "bo": ["B1", "B2"]}, "R3")
    action = get_strategy("hard").choose(state, "ai", random.Random(0))
    assert isinstance(action, Play) and action.card.rank is Rank.WILD
    assert action.color in (Color.GREEN, Color.BLUE)  # a colour it holds


def test_hard_names_the_colour_it_holds_most():
    state = position({"ai": ["W", "G9", "G5", "G2", "B7"], "bo": ["B1", "B2"]}, "R3")
    action = get_strategy("hard").choose(state, "ai", random.Random(0))
    assert action.color is Color.GREEN


def test_hard_attacks_a_next_player_about_to_win():
    state = position({"ai": ["R5", "R+2", "RS", "G4"], "bo": ["B1"], "cy": ["Y1", "Y2", "Y3"]}, "R3")
    action = get_strategy("hard").choose(state, "ai", random.Random(0))
    assert action.card.rank in (Rank.DRAW_TWO, Rank.SKIP)
    calm = position({"ai": ["R5", "R+2", "RS", "G4"], "bo": ["B1", "B4", "B5", "B6"],
                     "cy": ["Y1", "Y2", "Y3"]}, "R3")
    assert get_strategy("hard").choose(calm, "ai", random.Random(0)).card == Card.parse("R5")


def test_hard_swaps_with_the_player_holding_fewest_cards():
    rules = OFFICIAL.with_(seven_zero=True)
    state = position({"ai": ["R7", "G4", "G5", "B6"], "bo": ["B1", "B2", "B3"], "cy": ["Y1"],
                      "di": ["Y2", "Y3", "Y4", "Y5", "Y6"]}, "R3", rules=rules)
    action = get_strategy("hard").choose(state, "ai", random.Random(0))
    assert action.card == Card.parse("R7") and action.swap == "cy"


def test_hard_draws_rather_than_swap_into_a_bigger_hand():
    rules = OFFICIAL.with_(seven_zero=True)
    state = position({"ai": ["R7", "G4"], "bo": ["B1", "B2", "B3", "B4", "B5", "B6"],
                      "cy": ["Y1", "Y2", "Y3", "Y4", "Y5"]}, "R3", rules=rules)
    assert get_strategy("hard").choose(state, "ai", random.Random(0)) == Draw("ai")
    forced = position({"ai": ["R7", "G4"], "bo": ["B1", "B2", "B3", "B4", "B5", "B6"],
                       "cy": ["Y1", "Y2", "Y3", "Y4", "Y5"]}, "R3", rules=rules.with_(force_play=True))
    action = get_strategy("hard").choose(forced, "ai", random.Random(0))
    assert action.card == Card.parse("R7") and action.swap == "cy"  # the smaller of two evils


def wild_draw_four_on(victim_cards: list[str], bluffer_cards: list[str], color_before: str = "R3"):
    """``bo`` plays a Wild Draw Four on ``ai``; returns the state where ``ai`` must answer."""
    state = position({"bo": ["W+4", *bluffer_cards], "ai": victim_cards}, color_before)
    state, _ = apply(state, Play("bo", (Card.parse("W+4"),), color=Color.GREEN))
    assert state.current == "ai" and state.challengeable
    return state


def test_hard_challenges_a_likely_bluff():
    # bo keeps 7 cards: very likely one of them is red.
    state = wild_draw_four_on(["B1", "B2", "B3"], ["G1", "G2", "B4", "B5", "Y1", "Y2", "Y3"])
    assert get_strategy("hard").choose(state, "ai", random.Random(0)) == Challenge("ai")


def test_hard_does_not_challenge_an_unlikely_bluff():
    # bo keeps 1 card, and ai holds most reds: a red in bo's hand is unlikely.
    reds = ["R0", "R1", "R2", "R4", "R5", "R6", "R7", "R8", "R9", "RS", "RR", "R+2"]
    state = wild_draw_four_on(reds, ["B9"])
    assert get_strategy("hard").choose(state, "ai", random.Random(0)) == Draw("ai")


def test_normal_never_challenges():
    state = wild_draw_four_on(["B1", "B2", "B3"], ["G1", "G2", "B4", "B5", "Y1", "Y2", "Y3"])
    normal = get_strategy("normal")
    assert all(normal.choose(state, "ai", random.Random(i)) == Draw("ai") for i in range(20))
