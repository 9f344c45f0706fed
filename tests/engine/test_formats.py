"""Match formats: chips, fixed-length matches, partner rotation, two tables."""

import itertools
import random

import pytest

from bot.engine import BadAction, Card, GameState, Match, RuleSet
from bot.engine import events as ev
from bot.engine.match import champion, ranking
from bot.engine.schedule import rotation_seatings, round_robin_pairs, table_seatings
from bot.engine.scoring import score_changes
from tests.engine.test_match import play_hand

cards = lambda *names: [Card.parse(n) for n in names]  # noqa: E731


def hand_won(events) -> ev.HandWon:
    return next(e for e in events if isinstance(e, ev.HandWon))


# ---- chips ---------------------------------------------------------------------------------

def test_chips_every_loser_pays_the_winner_what_they_hold():
    hands = [[], cards("R5", "W"), cards("GS")]  # 55 and 20 left
    changes = score_changes(["ana", "bo", "cy"], hands, (), "ana", "chips")
    assert changes == {"ana": 75, "bo": -55, "cy": -20}


def test_chips_team_wise_each_losing_team_pays_its_total():
    # seats ana, bo, cy, dee: teams (ana, cy) and (bo, dee)
    hands = [[], cards("R5"), cards("B9"), cards("W+4")]
    changes = score_changes(["ana", "bo", "cy", "dee"], hands, (0, 1, 0, 1), "ana", "chips")
    assert changes == {"ana": 55, "cy": 55, "bo": -55, "dee": -55}


def test_chips_balances_sum_to_zero_and_may_go_negative():
    match, _ = Match.start(["ana", "bo", "cy"], RuleSet(scoring="chips", match_end="hands",
                                                      match_hands=4), seed=7)
    rnd = random.Random(7)
    for _ in range(4):
        match, events = play_hand(match, rnd)
        won = hand_won(events)
        assert dict(won.scores)[won.winner] == won.points
        assert sum(match.scores.values()) == 0
        if match.winner:
            break
        match, _ = match.next_hand()
    assert match.winner is not None and match.hand_number == 4
    assert min(match.scores.values()) < 0
    assert match.scores[match.winner] == max(match.scores.values())


def test_chips_under_target_end_when_a_balance_reaches_plus_or_minus_target():
    rules = RuleSet(scoring="chips", target_score=120)
    match, _ = Match.start(["ana", "bo", "cy", "dee"], rules, seed=11)
    rnd = random.Random(11)
    while True:
        match, events = play_hand(match, rnd)
        if match.winner:
            break
        assert all(abs(v) < 120 for v in match.scores.values())
        match, _ = match.next_hand()
    assert any(abs(v) >= 120 for v in match.scores.values())
    assert match.scores[match.winner] == max(match.scores.values())
    assert any(isinstance(e, ev.MatchWon) for e in events)


# ---- fixed-length matches ------------------------------------------------------------------

@pytest.mark.parametrize("scoring", ["winner_takes", "losers_accumulate", "chips"])
def test_a_hands_match_ends_after_match_hands_whatever_the_scores(scoring):
    rules = RuleSet(scoring=scoring, match_end="hands", match_hands=3, target_score=1)
    match, _ = Match.start(["ana", "bo", "cy"], rules, seed=2)
    rnd = random.Random(2)
    for number in (1, 2, 3):
        assert match.hand_number == number
        match, events = play_hand(match, rnd)
        if number < 3:  # a target of 1 point does not end a hands match
            assert match.winner is None
            match, _ = match.next_hand()
    assert match.winner == ranking(scoring, match.scores, match.players)[0] or \
        match.scores[match.winner] == match.scores[ranking(scoring, match.scores, match.players)[0]]
    won = [e for e in events if isinstance(e, ev.MatchWon)]
    assert won and won[0].winner == match.winner


def test_ranking_and_champion_follow_the_scoring_mode():
    scores = {"ana": 10, "bo": 30, "cy": 30}
    assert ranking("winner_takes", scores, ["ana", "bo", "cy"]) == ["bo", "cy", "ana"]
    assert ranking("chips", scores, ["ana", "bo", "cy"]) == ["bo", "cy", "ana"]
    assert ranking("losers_accumulate", scores, ["ana", "bo", "cy"]) == ["ana", "bo", "cy"]
    assert champion("winner_takes", scores, ["ana", "bo", "cy"]) == "bo"
    assert champion("winner_takes", scores, ["ana", "bo", "cy"], hand_winner="cy") == "cy"
    assert champion("winner_takes", scores, ["ana", "bo", "cy"], hand_winner="ana") == "bo"


def test_new_fields_are_validated_with_the_allowed_values():
    for bad in ({"match_end": "never"}, {"match_hands": 0}, {"rotation_hands": 51},
                {"tables": 3}, {"tables": 0}, {"scoring": "money"}):
        with pytest.raises(BadAction):
            RuleSet().with_(**bad)
    RuleSet(tables=2)  # two tables rotate partners by themselves


# ---- schedules -----------------------------------------------------------------------------

@pytest.mark.parametrize("n", [4, 6, 8, 12])
def test_round_robin_partners_every_two_players_exactly_once(n):
    players = [f"p{i}" for i in range(n)]
    rounds = round_robin_pairs(players)
    assert len(rounds) == n - 1
    seen = []
    for pairs in rounds:
        assert sorted(p for pair in pairs for p in pair) == sorted(players)  # everybody, once
        seen += [frozenset(pair) for pair in pairs]
    assert sorted(seen, key=sorted) == sorted({frozenset(c) for c in itertools.combinations(players, 2)},
                                              key=sorted)


def test_two_table_seatings_split_four_pairs_over_two_tables():
    players = [f"p{i}" for i in range(8)]
    rounds = table_seatings(players, 2)
    assert len(rounds) == 7
    for first, second in rounds:
        assert len(first) == len(second) == 4
        assert sorted(first + second) == sorted(players)
    with pytest.raises(BadAction):
        table_seatings(players[:6], 2)
    with pytest.raises(BadAction):
        rotation_seatings(["a", "b"])


# ---- partner rotation (4 players, 12 hands) ------------------------------------------------

def partners(state: GameState) -> set[frozenset]:
    return {frozenset(state.teammates(p)) for p in state.players}


def test_rotation_four_players_twelve_hands_every_pair_partnered_once():
    players = ["ana", "bo", "cy", "dee"]
    rules = RuleSet(rotation=True, target_score=1)  # the target does not end a rotation
    match, _ = Match.start(players, rules, seed=21)
    rnd = random.Random(21)
    per_round: dict[int, set[frozenset]] = {}
    totals = dict.fromkeys(players, 0)
    while True:
        assert match.game.team_ids  # teams of two every hand
        per_round.setdefault(match.round_number, set()).update(partners(match.game))
        match, events = play_hand(match, rnd)
        won = hand_won(events)
        winners = set(match.game.teammates(won.winner))
        for p, change in won.scores:  # each player's own total: partners both take the hand
            totals[p] += change
            assert change == (won.points if p in winners else 0)
        assert match.scores == totals
        assert match.round_over == (match.hand_number % 4 == 0)
        if match.winner:
            break
        match, _ = match.next_hand()
    assert match.hand_number == 12
    assert sorted(per_round) == [1, 2, 3]
    everyone = [pair for pairs in per_round.values() for pair in pairs]
    assert len(everyone) == 6 == len(set(everyone))  # every two players partnered exactly once
    assert match.winner == champion("winner_takes", match.scores, players, won.winner)
    assert any(isinstance(e, ev.MatchWon) for e in events)
    assert Match.from_json(match.to_json()) == match


def test_rotation_leaver_breaks_the_schedule_and_the_rest_play_on_individually():
    match, _ = Match.start(["ana", "bo", "cy", "dee"], RuleSet(rotation=True), seed=3)
    match, _ = play_hand(match, random.Random(3))
    match, _ = match.remove_player("dee")
    assert match.seatings == () and match.last_hand == 12
    match, _ = match.next_hand()
    assert match.game.players == ("ana", "bo", "cy") and not match.game.team_ids


# ---- two tables (8 players, 7 rounds, 28 hands each) ---------------------------------------

def test_two_tables_28_hands_each_every_pair_once_standings_add_up():
    players = [f"p{i}" for i in range(8)]
    rules = RuleSet(rotation=True, tables=2)
    tables = [Match.start(players, rules, seed=5, table=t)[0] for t in (1, 2)]
    rnd = random.Random(5)
    pairs: list[frozenset] = []
    standings = dict.fromkeys(players, 0)
    for round_number in range(1, 8):
        seated = tables[0].game.players + tables[1].game.players
        assert sorted(seated) == players  # everyone plays, at one table
        for i, table in enumerate(tables):
            pairs += partners(table.game)
            while True:  # the round's hands at this table
                assert table.round_number == round_number
                table, events = play_hand(table, rnd)
                for p, change in hand_won(events).scores:
                    standings[p] += change
                if table.round_over:
                    break
                table, _ = table.next_hand()
            assert table.hand_number == 4 * round_number
            tables[i] = table
        if round_number < 7:
            tables = [t.next_hand()[0] for t in tables]  # both tables go on together
    assert [t.hand_number for t in tables] == [28, 28]
    assert all(t.winner is not None for t in tables)
    assert len(pairs) == 28 == len(set(pairs))  # every two of the 8 partnered exactly once
    total = {p: tables[0].scores[p] + tables[1].scores[p] for p in players}
    assert total == standings
    assert tables[0].game.players != tables[1].game.players


def test_table_out_of_range_is_refused():
    with pytest.raises(BadAction):
        Match.start([f"p{i}" for i in range(8)], RuleSet(rotation=True, tables=2), table=0)


def test_rotation_over_two_cycles_partners_every_pair_twice_in_the_same_order():
    players = ["ana", "bo", "cy", "dee"]
    rules = RuleSet(rotation=True, rotation_hands=1, rotation_cycles=2, target_score=1)
    match, _ = Match.start(players, rules, seed=5)
    assert match.last_hand == 6
    assert match.seatings == rotation_seatings(players) * 2
    rnd = random.Random(5)
    per_hand = []
    while True:
        per_hand.append(frozenset(partners(match.game)))
        match, _ = play_hand(match, rnd)
        if match.winner:
            break
        match, _ = match.next_hand()
    assert match.hand_number == 6
    assert per_hand[:3] == per_hand[3:] and len(set(per_hand)) == 3
    assert Match.from_json(match.to_json()) == match


def test_rotation_cycles_are_one_to_five():
    assert RuleSet().rotation_cycles == 1
    RuleSet(rotation_cycles=5)
    for bad in (0, 6):
        with pytest.raises(BadAction):
            RuleSet(rotation_cycles=bad)
