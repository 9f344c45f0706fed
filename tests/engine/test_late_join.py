"""Late join: a player joins the hand being played, dealt hand_size cards from the stock and
seated to play right after the current player, in either direction; between hands the next
deal includes them. No scenario file: positions are built here."""

from __future__ import annotations

import pytest

from bot.engine import GameState, Match, RuleSet, add_player, events
from bot.engine.actions import Draw, Pass
from bot.engine.errors import BadAction, GameOver

PILE = ["Y1", "Y2", "Y3", "Y4", "G1", "G2", "G3", "G4", "B5", "B6", "B7", "B8"]
HANDS = {"a": ["R1", "R2"], "b": ["G5", "G6"], "c": ["B3", "B4"]}


def position(direction: int = 1, current: str = "b", **rules) -> GameState:
    state, _ = GameState.from_position(["a", "b", "c"], HANDS, PILE, discard=["R9"], color="R",
                                       current=current, direction=direction,
                                       rules=RuleSet(late_join=True, **rules))
    return state


def next_after_b(match: Match) -> str | None:
    """b draws (and passes if the drawn card did not end the turn): who plays then."""
    match, _ = match.apply(Draw("b"))
    if match.game.current == "b":
        match, _ = match.apply(Pass("b"))
    return match.game.current


def test_a_late_joiner_is_dealt_and_plays_after_the_current_player():
    state = position(hand_size=5)
    after, evs = add_player(state, "d")
    assert after.players == ("a", "b", "d", "c")
    assert after.current == "b"
    assert after.hand("d") == tuple(state.draw_pile[:5])
    assert after.draw_pile == state.draw_pile[5:]
    assert after.card_total() == state.card_total()
    joined = next(e for e in evs if isinstance(e, events.PlayerJoined))
    assert (joined.player, joined.after, joined.cards) == ("d", "b", 5)
    drawn = next(e for e in evs if isinstance(e, events.CardsDrawn))
    assert (drawn.player, drawn.count, drawn.reason) == ("d", 5, "deal")
    # b draws and passes: the newcomer plays next
    assert next_after_b(Match(after.players, after.rules, 0, (), 1, after)) == "d"


def test_in_reversed_direction_the_joiner_still_plays_next():
    state = position(direction=-1)
    after, _ = add_player(state, "d")
    assert after.players == ("a", "d", "b", "c")
    assert after.current == "b" and after.direction == -1
    assert next_after_b(Match(after.players, after.rules, 0, (), 1, after)) == "d"


def test_an_empty_stock_is_refilled_from_the_discard_pile():
    state = position(hand_size=7)
    state = state.evolve(draw_pile=state.draw_pile[:2],
                         discard=tuple(state.draw_pile[2:]) + state.discard)
    after, evs = add_player(state, "d")
    assert len(after.hand("d")) == 7
    assert after.top == state.top and after.card_total() == state.card_total()
    assert any(isinstance(e, events.DeckReshuffled) for e in evs)


def test_refusals():
    state = position()
    with pytest.raises(BadAction):
        add_player(state, "a")  # already seated
    with pytest.raises(BadAction):
        add_player(position(teams=True).evolve(team_ids=(0, 1, 0)), "d")
    with pytest.raises(GameOver):
        add_player(state.evolve(winner="a", turn=None), "d")


def test_a_match_takes_the_joiner_now_or_at_the_next_deal():
    match, _ = Match.start(["a", "b", "c"], RuleSet(late_join=True), seed=3)
    current = match.game.current
    joined, evs = match.add_player("d")
    assert "d" in joined.players and "d" in joined.game.players
    assert joined.players == joined.game.players and joined.scores["d"] == 0
    assert joined.game.current == current
    over = Match(match.players, match.rules, 3, match.score_items, 1,
                 match.game.evolve(winner="a", turn=None))
    later, evs = over.add_player("d")
    assert "d" in later.players and "d" not in later.game.players
    assert evs == [events.PlayerJoined("d", None, 0)]
    nxt, _ = later.next_hand()
    assert "d" in nxt.game.players and len(nxt.game.hand("d")) == 7
    with pytest.raises(BadAction):
        joined.add_player("d")


def test_the_state_round_trips_after_a_join():
    after, _ = add_player(position(), "d")
    assert GameState.from_json(after.to_json()) == after


def test_a_late_join_keeps_what_a_by_value_stack_must_answer():
    """Under ``stacking: by_value`` a waiting W+4 is answered by +4 or more; someone joining
    meanwhile changes nothing of that: one +2 is still refused, a pair still covers it."""
    from bot.engine import apply
    from bot.engine.actions import Play
    from bot.engine.cards import Card, Color
    from bot.engine.errors import IllegalPlay

    rules = RuleSet(late_join=True, stacking="by_value", multi_play=True)
    state, _ = GameState.from_position(
        ["ana", "bo", "cy"], {"ana": ["W+4", "R1"], "bo": ["B+2", "Y+2", "G5"], "cy": ["G4", "G6"]},
        PILE, discard=["R3"], color="R", current="ana", rules=rules)
    state, _ = apply(state, Play("ana", (Card.parse("W+4"),), Color.GREEN))
    assert (state.current, state.pending_draw) == ("bo", 4)
    joined, _ = add_player(state, "dee")
    assert joined.players == ("ana", "bo", "dee", "cy")
    assert (joined.current, joined.pending_draw, joined.penalty_play) == ("bo", 4, 4)
    with pytest.raises(IllegalPlay):
        apply(joined, Play("bo", (Card.parse("B+2"),)))
    stacked, _ = apply(joined, Play("bo", (Card.parse("B+2"), Card.parse("Y+2"))))
    assert (stacked.current, stacked.pending_draw, stacked.penalty_play) == ("dee", 8, 4)
