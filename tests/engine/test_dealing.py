"""Dealing, choosing the dealer and the first card's effects."""

import random

import pytest

from bot.engine import OFFICIAL, BadAction, GameState, RuleSet, full_deck, new_hand
from bot.engine import events as ev
from bot.engine.cards import Rank
from bot.engine.game import choose_dealer, turn_first_card
from bot.engine.state import CARD_BY_NAME

P4 = ["ana", "bo", "cy", "dee"]


def test_deal_gives_hand_size_cards_one_at_a_time_from_left_of_dealer():
    rules = RuleSet(hand_size=5)
    state, events = new_hand(P4, rules, seed=7, dealer="bo")
    deck = full_deck()
    random.Random("7:0").shuffle(deck)
    # Cards go round one at a time starting with cy (left of bo): cy, dee, ana, bo, cy, ...
    assert state.hand("cy") == tuple(deck[0:20:4])
    assert state.hand("bo") == tuple(deck[3:20:4])
    assert state.dealer == "bo"
    assert state.card_total() == 108
    assert any(isinstance(e, ev.HandDealt) and e.hand_size == 5 for e in events)
    assert not any(isinstance(e, ev.DealerChosen) for e in events)


def test_same_seed_same_hand_other_seed_other_hand():
    a, _ = new_hand(P4, seed="x")
    b, _ = new_hand(P4, seed="x")
    c, _ = new_hand(P4, seed="y")
    assert a == b and a.to_json() == b.to_json()
    assert a.hands != c.hands


@pytest.mark.parametrize("players,rules", [
    (["solo"], RuleSet()),
    ([f"p{i}" for i in range(11)], RuleSet()),
    (["a", "a"], RuleSet()),
    (["a", "b", "c"], RuleSet(teams=True)),
    (["a", "b"], RuleSet(teams=True)),
    ([f"p{i}" for i in range(10)], RuleSet(hand_size=11)),
])
def test_bad_tables_are_refused(players, rules):
    with pytest.raises(BadAction):
        new_hand(players, rules, seed=1)


def test_dealer_is_the_highest_number_card_and_events_list_the_draws():
    for seed in range(60):
        dealer, draws = choose_dealer(P4, random.Random(f"{seed}:0"))
        last = {}
        for player, card in draws:
            last[player] = card
        assert last[dealer].rank.is_number
        # Every player's final draw is a number card; action cards make them draw again.
        for player, card in draws:
            if not card.rank.is_number:
                later = [c for p, c in draws[draws.index((player, card)) + 1:] if p == player]
                assert later, "an action card is always followed by another draw"
        state, events = new_hand(P4, seed=seed)
        assert state.dealer == dealer
        assert events[0] == ev.DealerChosen(dealer, draws)


def test_tied_players_draw_again():
    for seed in range(500):
        dealer, draws = choose_dealer(P4, random.Random(seed))
        if len(draws) <= len(P4) or any(not c.rank.is_number for _, c in draws):
            continue
        first_round = dict(draws[:4])
        best = max(c.rank.number for c in first_round.values())
        tied = [p for p in P4 if first_round[p].rank.number == best]
        assert len(tied) > 1
        assert {p for p, _ in draws[4:]} <= set(tied)
        assert dealer in tied
        return
    pytest.fail("no seed with a clean tie found")


def _position(first_cards, players=("ana", "bo", "cy"), rules=OFFICIAL):
    pile = tuple(CARD_BY_NAME[c] for c in first_cards)
    hands = tuple((CARD_BY_NAME["B1"],) for _ in players)
    base = GameState(rules=rules, players=tuple(players), hands=hands, draw_pile=pile, discard=(),
                     color=None, direction=1, turn=None, dealer="ana")
    return turn_first_card(base)


def test_first_number_card_first_player_is_left_of_dealer():
    state, events = _position(["G7", "Y2"])
    assert (state.top.rank, state.current, state.direction) == (Rank.SEVEN, "bo", 1)
    assert events[0] == ev.FirstCardTurned(CARD_BY_NAME["G7"], False)


def test_first_wd4_goes_back_under_and_the_next_is_turned():
    state, events = _position(["W+4", "W+4", "R5", "Y2"])
    assert str(state.top) == "R5"
    assert [str(c) for c in state.draw_pile] == ["Y2", "W+4", "W+4"]
    assert events[0].reshuffled


def test_first_skip_skips_the_first_player():
    state, _ = _position(["GS", "Y2"])
    assert state.current == "cy"


def test_first_reverse_dealer_starts_and_direction_turns():
    state, _ = _position(["GR", "Y2"])
    assert (state.current, state.direction) == ("ana", -1)
    two, _ = _position(["GR", "Y2"], players=("ana", "bo"))
    assert two.current == "ana"


def test_first_draw_two_first_player_draws_and_is_skipped():
    state, events = _position(["G+2", "Y2", "Y3", "Y4"])
    assert state.current == "cy"
    assert [str(c) for c in state.hand("bo")] == ["B1", "Y2", "Y3"]
    drawn = [e for e in events if isinstance(e, ev.CardsDrawn)]
    assert drawn[0].player == "bo" and drawn[0].count == 2 and drawn[0].reason == "first_card"


def test_first_draw_two_waits_when_stacking():
    state, _ = _position(["G+2", "Y2"], rules=RuleSet(stacking="same"))
    assert (state.current, state.pending_draw) == ("bo", 2)


def test_first_wild_lets_the_first_player_play_anything_under_any_card():
    state, _ = _position(["W", "Y2"], rules=OFFICIAL.with_(first_wild="any_card"))
    assert state.color is None and state.current == "bo"


def test_first_wild_waits_for_the_dealer_to_name_the_colour():
    state, events = _position(["W", "Y2"])
    assert state.color is None and state.current == "ana"
    assert events[-1] == ev.TurnStarted("ana")


def test_drawn_cards_stay_out_of_event_repr():
    state, events = _position(["G+2", "Y2", "Y3"])
    text = " ".join(map(repr, events))
    assert "Y2" not in text and "Y3" not in text
