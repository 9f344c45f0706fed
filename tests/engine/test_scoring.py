"""Scoring: every card kind, teams, both modes."""

from bot.engine import Play, RuleSet, apply, cards_value
from bot.engine import events as ev
from bot.engine.scoring import hand_winner_points, score_changes, team_ids_for
from bot.engine.state import CARD_BY_NAME, GameState


def cards(*names):
    return tuple(CARD_BY_NAME[n] for n in names)


def test_card_values():
    assert cards_value(cards("R0")) == 0
    assert cards_value(cards("G7")) == 7
    assert cards_value(cards("B9")) == 9
    for name in ("YS", "YR", "Y+2"):
        assert cards_value(cards(name)) == 20
    assert cards_value(cards("W")) == 50
    assert cards_value(cards("W+4")) == 50
    assert cards_value(cards("R1", "GS", "W+4")) == 71


def test_partners_sit_opposite():
    assert team_ids_for(4) == (0, 1, 0, 1)
    assert team_ids_for(6) == (0, 1, 2, 0, 1, 2)


PLAYERS = ("ana", "bo", "cy", "dee")
HANDS = (cards(), cards("R5"), cards("W", "G2"), cards("B9"))


def test_winner_takes_everyone_elses_cards():
    assert hand_winner_points(PLAYERS, HANDS, (), "ana") == 5 + 52 + 9
    assert score_changes(PLAYERS, HANDS, (), "ana", "winner_takes") == \
        {"ana": 66, "bo": 0, "cy": 0, "dee": 0}


def test_team_winner_takes_only_opponents_cards_both_partners_score():
    teams = team_ids_for(4)  # ana+cy vs bo+dee
    assert hand_winner_points(PLAYERS, HANDS, teams, "ana") == 5 + 9
    assert score_changes(PLAYERS, HANDS, teams, "ana", "winner_takes") == \
        {"ana": 14, "bo": 0, "cy": 14, "dee": 0}


def test_losers_accumulate_their_own_cards():
    assert score_changes(PLAYERS, HANDS, (), "ana", "losers_accumulate") == \
        {"ana": 0, "bo": 5, "cy": 52, "dee": 9}
    teams = team_ids_for(4)
    assert score_changes(PLAYERS, HANDS, teams, "ana", "losers_accumulate") == \
        {"ana": 52, "bo": 14, "cy": 52, "dee": 14}


def test_hand_won_event_carries_points_and_changes():
    state = GameState(rules=RuleSet(scoring="losers_accumulate"), players=("ana", "bo"),
                      hands=(cards("R5"), cards("GS", "B3")), draw_pile=cards("Y1"),
                      discard=cards("R3"), color=CARD_BY_NAME["R3"].color, direction=1, turn=0,
                      dealer="bo")
    state, events = apply(state, Play("ana", cards("R5")))
    won = next(e for e in events if isinstance(e, ev.HandWon))
    assert (won.winner, won.points) == ("ana", 23)
    assert dict(won.scores) == {"ana": 0, "bo": 23}
    assert state.points == {"ana": 23}
