"""Match: hands to the target score, the winner deals next, both scoring modes, leavers."""

import random

import pytest

from bot.engine import BadAction, Draw, GameOver, Match, Pass, Play, RuleSet, legal_actions
from bot.engine import events as ev


def play_hand(match: Match, rnd: random.Random) -> tuple[Match, list]:
    """Greedy play of the current hand to its end; returns the match and all events."""
    seen = []
    for _ in range(3000):
        if match.hand_over:
            return match, seen
        actions = legal_actions(match.game, match.game.current)
        plays = [a for a in actions if isinstance(a, Play)]
        takes = [a for a in actions if isinstance(a, Draw | Pass)]
        match, events = match.apply(rnd.choice(plays or takes or actions))
        seen += events
    raise AssertionError("hand did not end")


@pytest.mark.parametrize("scoring", ["winner_takes", "losers_accumulate"])
def test_match_runs_to_the_target(scoring):
    rules = RuleSet(scoring=scoring, target_score=150)
    match, _ = Match.start(["ana", "bo", "cy"], rules, seed=3)
    rnd = random.Random(3)
    totals = {p: 0 for p in match.players}
    for _ in range(60):
        match, events = play_hand(match, rnd)
        won = [e for e in events if isinstance(e, ev.HandWon)]
        assert len(won) == 1
        for p, change in won[0].scores:
            totals[p] += change
        assert match.scores == totals
        if match.winner:
            break
        previous_winner, number = match.game.winner, match.hand_number
        match, events = match.next_hand()
        assert match.game.dealer == previous_winner
        assert match.hand_number == number + 1
        assert not match.hand_over
    assert match.winner is not None
    assert any(isinstance(e, ev.MatchWon) and e.winner == match.winner for e in events)
    assert max(match.scores.values()) >= 150
    if scoring == "winner_takes":
        assert match.scores[match.winner] >= 150
    else:
        assert match.scores[match.winner] == min(match.scores.values())
    with pytest.raises(GameOver):
        match.next_hand()


def test_team_match_partners_share_the_score():
    match, _ = Match.start(["ana", "bo", "cy", "dee"], RuleSet(teams=True, target_score=100), seed=5)
    rnd = random.Random(5)
    while not match.winner:
        match, _ = play_hand(match, rnd)
        assert match.scores["ana"] == match.scores["cy"]
        assert match.scores["bo"] == match.scores["dee"]
        if not match.winner:
            match, _ = match.next_hand()


def test_next_hand_refused_while_playing_and_json_round_trip():
    match, _ = Match.start(["ana", "bo"], seed=11)
    with pytest.raises(BadAction):
        match.next_hand()
    assert Match.from_json(match.to_json()) == match
    match, _ = play_hand(match, random.Random(1))
    assert Match.from_json(match.to_json()) == match


def test_leaving_down_to_one_player_wins_the_match():
    match, _ = Match.start(["ana", "bo", "cy"], seed=2)
    match, _ = match.remove_player("bo")
    assert match.players == ("ana", "cy") and match.winner is None
    assert match.game.card_total() == 108
    match, events = match.remove_player("ana")
    assert match.winner == "cy" and match.game.winner == "cy"
    assert any(isinstance(e, ev.MatchWon) for e in events)


def test_a_move_keeps_every_field_of_the_match_but_its_hand():
    """A plain move copies the match's fields rather than re-running the constructor: every
    field other than the hand must come through, and the old match stays as it was."""
    from dataclasses import fields

    rules = RuleSet(rotation=True, rotation_hands=2, match_end="hands")
    match, _ = Match.start(["ana", "bo", "cy", "dee"], rules, seed="s7")
    player = match.game.current
    action = next(a for a in legal_actions(match.game, player) if isinstance(a, (Play, Draw)))
    after, _ = match.apply(action)
    assert after.game is not match.game and after.game.current != match.game.current or \
        after.game.hand(player) != match.game.hand(player)
    for f in fields(Match):
        if f.name != "game":
            assert getattr(after, f.name) == getattr(match, f.name), f.name
    assert after.seatings and after.last_hand == match.last_hand != 0
    assert Match.from_json(after.to_json()) == after
