"""Property tests: random RuleSets, player counts and seeds, random legal play."""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine import (
    CatchUno,
    Challenge,
    ChooseColor,
    DeclareUno,
    Draw,
    GameState,
    Pass,
    Play,
    RuleSet,
    UnoError,
    apply,
    full_deck,
    is_legal,
    legal_actions,
    new_hand,
)
from bot.engine.cards import Color, Rank
from bot.engine.predicates import uno_hand
from bot.engine.rules import HOUSE, OFFICIAL

STEP_CAP = 2000
DECK = sorted(set(full_deck()), key=str)


@st.composite
def rulesets(draw) -> RuleSet:
    base = draw(st.sampled_from([OFFICIAL, HOUSE]))
    changes = draw(st.fixed_dictionaries({}, optional={
        "hand_size": st.integers(1, 10),
        "stacking": st.sampled_from(["off", "same", "progressive", "by_value"]),
        "jump_in": st.booleans(),
        "multi_play": st.booleans(),
        "seven_zero": st.booleans(),
        "draw_until_playable": st.booleans(),
        "play_after_draw": st.booleans(),
        "force_play": st.booleans(),
        "uno_penalty": st.integers(0, 4),
        "false_uno_penalty": st.integers(0, 3),
        "wd4_challenge": st.booleans(),
        "scoring": st.sampled_from(["winner_takes", "losers_accumulate"]),
        "teams": st.booleans(),
        "team_size": st.sampled_from([2, 2, 3]),
        "first_wild": st.sampled_from(["dealer_names", "first_player_names", "any_card"]),
        "wd4_rule": st.sampled_from(["no_color", "no_match"]),
        "uno_identical": st.booleans(),
    }))
    return base.with_(**changes)


@st.composite
def games(draw):
    rules = draw(rulesets())
    if rules.teams:
        size = rules.team_size
        count = draw(st.sampled_from([n for n in range(2 * size, 11) if n % size == 0]))
    else:
        count = draw(st.integers(2, 10))
    if count * rules.hand_size > 90:
        rules = rules.with_(hand_size=max(1, 90 // count))
    players = [f"p{i}" for i in range(count)]
    seed = draw(st.integers(0, 2**32))
    return players, rules, seed


def choose(state: GameState, rnd: random.Random):
    """Sometimes anyone's catch/declaration/jump-in/challenge; else the current player plays
    if they can (so hands end), otherwise draws, passes or challenges."""
    if rnd.random() < 0.1:
        everyone = [a for p in state.players for a in legal_actions(state, p)
                    if not isinstance(a, Draw | Pass)]
        if everyone:
            return rnd.choice(everyone)
    mine = legal_actions(state, state.current)
    plays = [a for a in mine if isinstance(a, Play)]
    if plays:
        return rnd.choice(plays)
    takes = [a for a in mine if isinstance(a, Draw | Pass | Challenge)]
    return rnd.choice(takes or mine)


def junk_action(state: GameState, rnd: random.Random):
    player = rnd.choice(state.players)
    kind = rnd.randrange(8)
    if kind == 7:
        return ChooseColor(player, rnd.choice(list(Color)))
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
    color = rnd.choice(list(Color)) if card.color is None and rnd.random() < 0.9 else None
    swap = rnd.choice(state.players) if card.rank is Rank.SEVEN else None
    return Play(player, (card,), color, rnd.random() < 0.3, swap)


def canonical(state: GameState, action):
    """The form legal_actions lists (a UNO flag only where one card is left, etc.)."""
    if not isinstance(action, Play):
        return action
    left = len(state.hand(action.player)) - len(action.cards)
    rest = list(state.hand(action.player))
    for card in action.cards:
        if card in rest:
            rest.remove(card)
    uno = action.uno and uno_hand(state.rules, rest)
    swap = action.swap if (state.rules.seven_zero and action.card.rank is Rank.SEVEN and left) else None
    return Play(action.player, action.cards, action.color, uno, swap)


def check_invariants(state: GameState) -> None:
    assert state.card_total() == 108
    assert sorted(map(str, state.draw_pile + state.discard + sum(state.hands, ()))) == \
        sorted(map(str, full_deck()))
    if state.winner is None:
        assert state.turn is not None and 0 <= state.turn < len(state.players)
        assert state.current in state.players
        assert state.points == {}
    else:
        assert state.turn is None and state.current is None
        assert len(state.hand(state.winner)) == 0
        assert state.pending_draw == 0
    for p in state.catchable:
        assert uno_hand(state.rules, state.hand(p)) and p not in state.declared
    assert GameState.from_json(state.to_json()) == state
    assert GameState.from_json(state.to_json()).to_json() == state.to_json()


SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(games())
def test_random_legal_play_keeps_the_invariants_and_ends(game):
    players, rules, seed = game
    state, _ = new_hand(players, rules, seed)
    rnd = random.Random(seed)
    for _ in range(STEP_CAP):
        check_invariants(state)
        if state.winner is not None:
            break
        before = state.to_json()
        new, _ = apply(state, choose(state, rnd))
        assert state.to_json() == before  # a state is a value: apply builds the next one
        state = new
    check_invariants(state)
    assert state.winner is not None, "the hand did not end within the step cap"


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_every_listed_action_applies_and_junk_is_listed_iff_legal(game):
    players, rules, seed = game
    state, _ = new_hand(players, rules, seed)
    rnd = random.Random(seed ^ 0x5EED)
    for _ in range(60):
        if state.winner is not None:
            break
        for p in state.players:
            listed = legal_actions(state, p)
            assert len(set(listed)) == len(listed)
            for action in listed:
                apply(state, action)  # must not raise
        for _ in range(15):
            junk = junk_action(state, rnd)
            before = state.to_json()
            legal = is_legal(state, junk)
            assert legal == (canonical(state, junk) in legal_actions(state, junk.player)), junk
            if not legal:
                try:
                    apply(state, junk)
                except UnoError:
                    pass
                assert state.to_json() == before
        state, _ = apply(state, choose(state, rnd))
