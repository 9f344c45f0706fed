"""Ratings from hands played through the coordinator: each hand result carries the cards
left, the store rates it as it is saved, /stats and /top read it back; the pure rules of
who is rated and of seasons."""

from __future__ import annotations

from openskill.models import PlackettLuce

from bot.coordinator import commands as cmds
from bot.coordinator import ratings, top_request
from bot.coordinator.ports import ChatKey, GameResult, PlayerResult
from bot.i18n import format_text

from .conftest import Harness
from .test_full_games import await_state, play_match


async def test_hands_played_here_are_rated_as_openskill_rates_them() -> None:
    h = Harness(seed=3)
    people = await h.start(3, 0, settings={"target_score": 200, "turn_timer": 0})
    h.game_id = (await h.record()).game_id
    await play_match(h, people)
    hands = [r for r in h.store.results if r.kind == "hand"]
    assert len(hands) >= 1
    model, expected = PlackettLuce(), {}
    for hand in hands:
        (winner,) = [row for row in hand.players if row.won]
        assert winner.cards_left == 0 and all(row.cards_left >= 1 for row in hand.players
                                              if not row.won)
        teams = [[expected.get(row.user_id) or model.rating()] for row in hand.players]
        ranks = [0 if row.won else row.cards_left for row in hand.players]
        for row, (new,) in zip(hand.players, model.rate(teams, ranks=ranks), strict=True):
            expected[row.user_id] = new
    # The last hand's losers held what the final position shows.
    final = await_state(await h.store.get(h.game_id))
    assert {row.user_id: row.cards_left for row in hands[-1].players} == {
        p: final.card_count(p) for p in final.players}
    now = h.clock.now()
    for person in people:
        got = (await h.store.player_rating("telegram", person.id, h.key, now)).rated
        assert (got.mu, got.sigma, got.hands) == (expected[person.id].mu,
                                                  expected[person.id].sigma, len(hands))
    reply = await h.do(cmds.ShowStats, people[0])
    shown = [format_text(line, "en") for line in reply.lines]
    rating = expected[people[0].id]
    assert f"Rating: {rating.ordinal():.1f} (μ {rating.mu:.1f}, σ {rating.sigma:.1f}) after " \
           f"{len(hands)} rated hand{'s' if len(hands) > 1 else ''}" in shown
    zh = [format_text(line, "zh_CN") for line in reply.lines]
    assert any(line.startswith("等级分：") for line in zh)
    board = await h.do(cmds.ShowLeaderboard, people[0])
    assert board.text.msgid == "Season {season} of this chat, until {end}"
    before = list(h.store.rating_changes("telegram"))
    assert await h.store.rebuild_ratings() == len(hands)
    assert h.store.rating_changes("telegram") == before


def hand(*rows: tuple[str, bool, int, bool]) -> GameResult:
    return GameResult("g", ChatKey("telegram", "1"), "hand", 1,
                      [PlayerResult(u, u, won=w, cards_left=c, is_ai=ai) for u, w, c, ai in rows])


def test_who_is_rated_and_in_what_order() -> None:
    assert ratings.finishing_ranks(hand(("a", True, 0, False), ("b", False, 3, False),
                                        ("c", False, 1, False))) == [("a", 0), ("b", 3), ("c", 1)]
    assert ratings.finishing_ranks(hand(("a", True, 0, False), ("ai", False, 3, True))) is None
    assert ratings.finishing_ranks(hand(("a", True, 0, False))) is None
    match = hand(("a", True, 0, False), ("b", False, 3, False))
    match.kind = "match"
    assert ratings.finishing_ranks(match) is None
    # Results stored before cards were counted: the winner first, the others tied.
    assert ratings.finishing_ranks(hand(("a", True, 0, False), ("b", False, 0, False),
                                        ("c", False, 0, False))) == [("a", 0), ("b", 1), ("c", 1)]


def test_seasons_open_on_a_grid_and_keep_their_length() -> None:
    day = ratings.DAY
    first, new = ratings.season_for([], 1000.0, 30)
    assert new and first == ratings.Season(1, 1000.0, 1000.0 + 30 * day)
    assert ratings.season_for([first], 1000.0 + 29 * day, 7) == (first, False)
    second, new = ratings.season_for([first], first.ends_at + 100 * day, 7)
    assert new and second.number == 2 and second.started_at == first.ends_at + 98 * day
    assert second.ends_at - second.started_at == 7 * day
    assert ratings.current_season([first, second], second.ends_at) is None
    assert ratings.previous_season([first, second], second.ends_at) == second
    assert ratings.previous_season([first, second], second.started_at) == first


def test_top_words_in_both_languages() -> None:
    assert top_request([]) == ("chat", "current")
    assert top_request(["previous"]) == ("chat", "previous")
    assert top_request(["season:previous"]) == ("chat", "previous")
    assert top_request(["上赛季"]) == ("chat", "previous")
    assert top_request(["global"]) == ("global", "current")
    assert top_request(["全部"]) == ("global", "current")
    assert top_request(["全局", "上个赛季"]) == ("global", "previous")  # as people say them
    assert top_request(["当前"]) == ("chat", "current")
    assert top_request(["season=soon"]) == ("chat", "soon")  # refused by the coordinator


async def test_a_season_word_it_does_not_know_is_refused_saying_what_it_takes() -> None:
    h = Harness()
    people = await h.lobby(1)
    refused = await h.do(cmds.ShowLeaderboard, people[0], season="soon")
    assert refused.error == "bad_setting"
    refused = await h.do(cmds.ShowLeaderboard, people[0], scope="global", season="previous")
    assert refused.error == "bad_setting" and "Seasons belong to a chat" in format_text(
        refused.text, "en")
