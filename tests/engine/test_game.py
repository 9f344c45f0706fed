"""apply / legal_actions details not covered by the scenario files."""

import pytest

from bot.engine import (
    OFFICIAL,
    CatchUno,
    Draw,
    GameState,
    NothingToCatch,
    NotYourTurn,
    Play,
    RuleSet,
    apply,
    legal_actions,
    remove_player,
)
from bot.engine import events as ev
from bot.engine.cards import Color
from bot.engine.state import CARD_BY_NAME


def cards(*names):
    return tuple(CARD_BY_NAME[n] for n in names)


def table(rules=OFFICIAL, turn=0, **hands):
    players = tuple(hands)
    return GameState(rules=rules, players=players, hands=tuple(cards(*h) for h in hands.values()),
                     draw_pile=cards("Y1", "Y2", "Y3", "Y4"), discard=cards("R3"), color=Color.RED,
                     direction=1, turn=turn, dealer=players[-1])


def test_false_call_penalty_is_carried_on_the_refusal():
    state = table(RuleSet(false_uno_penalty=2), ana=["R5", "G1"], bo=["B1"], cy=["G2"])
    with pytest.raises(NothingToCatch) as info:
        apply(state, CatchUno("bo", "ana"))
    assert info.value.code == "nothing_to_catch"
    assert info.value.state.hand("bo") == cards("B1", "Y1", "Y2")
    assert any(isinstance(e, ev.FalseUnoCall) for e in info.value.events)
    assert state.hand("bo") == cards("B1")  # the original is untouched


def test_no_false_call_state_without_penalty():
    state = table(ana=["R5", "G1"], bo=["B1"], cy=["G2"])
    with pytest.raises(NothingToCatch) as info:
        apply(state, CatchUno("bo", "ana"))
    assert info.value.state is None


def test_wild_plays_are_listed_once_per_colour_and_sevens_per_target():
    state = table(RuleSet(seven_zero=True), ana=["W", "R7", "B2"], bo=["B1"], cy=["G2"])
    actions = legal_actions(state, "ana")
    wilds = [a for a in actions if isinstance(a, Play) and str(a.card) == "W"]
    assert {a.color for a in wilds} == set(Color)
    sevens = [a for a in actions if isinstance(a, Play) and str(a.card) == "R7"]
    assert {a.swap for a in sevens} == {"bo", "cy"}
    assert Draw("ana") in actions


def test_uno_variants_and_catches_listed_for_everyone():
    state = table(ana=["R5", "G1"], bo=["B1", "B2"], cy=["G2"])
    assert Play("ana", cards("R5"), uno=True) in legal_actions(state, "ana")
    state, _ = apply(state, Play("ana", cards("R5")))
    assert state.catchable == ("ana",)
    assert CatchUno("cy", "ana") in legal_actions(state, "cy")
    assert CatchUno("bo", "ana") in legal_actions(state, "bo")
    assert CatchUno("ana", "ana") not in legal_actions(state, "ana")


def test_remove_player_on_turn_passes_the_turn_and_puts_cards_under_the_stock():
    state = table(ana=["R5", "G1"], bo=["B1", "B2"], cy=["G2"], turn=1)
    state, events = remove_player(state, "bo")
    assert state.players == ("ana", "cy") and state.current == "cy"
    assert state.draw_pile[-2:] == cards("B1", "B2")
    assert ev.TurnStarted("cy") in events
    with pytest.raises(NotYourTurn):
        apply(state, Draw("ana"))


def test_remove_player_reversed_direction_and_seat_shift():
    state = table(ana=["R5"], bo=["B1"], cy=["G2"], dee=["G3"], turn=1).evolve(direction=-1)
    after, _ = remove_player(state, "bo")
    assert after.current == "ana"
    other, _ = remove_player(state, "cy")  # not their turn: bo still acts
    assert other.current == "bo"


def test_last_player_left_wins_the_hand():
    state = table(ana=["R5", "G1"], bo=["B1"])
    state, events = remove_player(state, "ana")
    assert state.winner == "bo" and state.current is None
    assert any(isinstance(e, ev.HandWon) for e in events)
    assert state.card_total() == 8  # the toy table holds 8 cards


def test_errors_do_not_leak_the_hand():
    state = table(ana=["R5", "G1"], bo=["B1"], cy=["G2"])
    with pytest.raises(Exception) as info:
        apply(state, Play("ana", cards("G1")))
    assert "R5" not in str(info.value)


def test_events_tell_the_story_of_a_draw_two():
    state = table(ana=["R+2", "G1"], bo=["B1"], cy=["G2"])
    state, events = apply(state, Play("ana", cards("R+2")))
    kinds = [type(e).__name__ for e in events]
    assert kinds == ["CardPlayed", "CardsDrawn", "PlayerSkipped", "TurnStarted"]
    drawn = events[1]
    assert (drawn.player, drawn.count, drawn.reason) == ("bo", 2, "penalty")
    assert drawn.cards == cards("Y1", "Y2")
    assert events[-1] == ev.TurnStarted("cy")


def test_challenge_events_and_pending_penalty():
    state = table(ana=["W+4", "R1", "G1"], bo=["B1"], cy=["G2"])
    state, events = apply(state, Play("ana", cards("W+4"), Color.BLUE))
    assert ev.PenaltyPending("bo", 4) in events and ev.ColorChosen("ana", Color.BLUE) in events
    assert state.challengeable and state.pending_draw == 4 and state.current == "bo"
    from bot.engine import Challenge
    after, events = apply(state, Challenge("bo"))
    assert ev.ChallengeWon("bo", "ana", cards("R1", "G1")) in events
    assert after.current == "bo" and after.color is Color.BLUE and after.card_count("ana") == 6


def test_from_position_builds_the_scenario_state():
    state, events = GameState.from_position(
        ["ana", "bo"], {"ana": ["r1", "W"], "bo": ["G2"]}, ["Y3"], discard=["R3"], color="R",
        current="bo", direction=-1)
    assert events == []
    assert state.current == "bo" and state.direction == -1 and state.color is Color.RED
    assert state.hand("ana") == cards("R1", "W") and state.draw_pile_count == 1
    started, events = GameState.from_position(["ana", "bo"], {"ana": [], "bo": []}, ["GS", "Y3"],
                                              dealer="bo")
    assert started.current == "bo" and str(started.top) == "GS"  # bo deals, ana is skipped
    assert any(isinstance(e, ev.PlayerSkipped) for e in events)


def test_jump_ins_are_listed_for_players_out_of_turn():
    rules = RuleSet(jump_in=True, multi_play=True)
    state = table(rules, ana=["R5", "G1"], bo=["B1"], cy=["R3", "R3", "G2"])
    listed = legal_actions(state, "cy")
    assert Play("cy", cards("R3")) in listed and Play("cy", cards("R3", "R3")) in listed
    assert not any(isinstance(a, Play) for a in legal_actions(state, "bo"))
    after, _ = apply(state, Play("cy", cards("R3", "R3")))
    assert after.current == "ana"  # play goes on after the jumper (cy -> ana)


def test_game_state_field_order_is_what_the_hot_paths_build():
    """state.build_state passes the fields positionally (compiled, a keyword call of the
    dataclass costs a fifth of the engine's speed): a moved or added field must show here
    (and find its place in tests/engine/test_state_fields.py)."""
    from dataclasses import fields

    from bot.engine.state import GameState

    assert [f.name for f in fields(GameState)] == [
        "rules", "players", "hands", "draw_pile", "discard", "color", "direction", "turn",
        "dealer", "pending_draw", "drawn_card", "declared", "catchable", "caught", "wd4_by",
        "wd4_bluff", "winner", "hand_points", "team_ids", "seed", "rng_counter", "penalty_play"]
