"""Ratings on every store (SQLite, PostgreSQL, memory): the numbers against openskill
computed here, independently; who is rated and ranked; seasons; the trend; and a rebuild
from the stored results giving exactly the live numbers."""

from __future__ import annotations

import asyncio
import random

from openskill.models import PlackettLuce

from bot.coordinator.memory_store import MemoryStore
from bot.coordinator.ports import ChatKey, ChatSettings, UserProfile
from tests.rating_history import random_hands, store_hands

CHAT = ChatKey("telegram", "-100123")
OTHER = ChatKey("telegram", "-100999")
DISCORD = ChatKey("discord", "555")
DAY = 86400.0
T0 = 1_800_000_000.0
PEOPLE = [("ana", "Ana"), ("bo", "Bo"), ("cy", "Cy"), ("dee", "Dee"), ("eve", "Eve")]


def expected_ratings(hands):
    """What openskill says, from the documented rule: the winner first, then fewest cards."""
    model = PlackettLuce()
    ratings = {}
    for players in hands:
        teams = [[ratings.get(user) or model.rating()] for user, _, _, _ in players]
        ranks = [0 if won else left for _, _, won, left in players]
        for (user, _, _, _), (new,) in zip(players, model.rate(teams, ranks=ranks), strict=True):
            ratings[user] = new
    return ratings


async def test_the_numbers_are_openskills_plackett_luce(store):
    hands = random_hands(random.Random(7), PEOPLE[:4], 30)
    last = await store_hands(store, CHAT, "g1", hands, start=T0)
    expected = expected_ratings(hands)
    for user, _ in PEOPLE[:4]:
        for chat in (CHAT, None):
            got = (await store.player_rating("telegram", user, chat, last + 1)).rated
            assert got is not None and (got.mu, got.sigma) == (expected[user].mu,
                                                               expected[user].sigma)
            assert got.rating == expected[user].ordinal()  # mu - 3 sigma
    table = await store.rating_table("telegram", CHAT, last + 1)
    best_first = sorted(expected, key=lambda u: (-expected[u].ordinal(), u))
    assert [row.user_id for row in table.rows] == best_first
    assert [(await store.player_rating("telegram", u, CHAT, last + 1)).rank
            for u in best_first] == [1, 2, 3, 4]


async def test_ties_in_cards_left_share_a_place_and_a_winners_partner_shares_first(store):
    hands = [[("ana", "Ana", True, 0), ("bo", "Bo", True, 4), ("cy", "Cy", False, 3),
              ("dee", "Dee", False, 3)]]
    last = await store_hands(store, CHAT, "g1", hands, start=T0)
    got = {u: (await store.player_rating("telegram", u, CHAT, last)).rated for u in
           ("ana", "bo", "cy", "dee")}
    assert got["ana"].mu == got["bo"].mu > got["cy"].mu == got["dee"].mu
    expected = expected_ratings(hands)
    assert got["cy"].mu == expected["cy"].mu


async def test_hands_with_a_bot_are_not_rated_and_ten_rated_hands_make_a_ranking(store):
    people = PEOPLE[:2]
    with_bot = [[("ana", "Ana", True, 0), ("bo", "Bo", False, 2), ("ai1", "Bot", False, 5)]]
    await store_hands(store, CHAT, "g0", with_bot * 3, start=T0, ai=frozenset({"ai1"}))
    assert (await store.player_rating("telegram", "ana", CHAT, T0 + DAY)).rated is None
    assert (await store.rating_table("telegram", CHAT, T0 + DAY)).season is None
    assert await store.rebuild_ratings() == 0
    hands = random_hands(random.Random(3), people, 9)
    last = await store_hands(store, CHAT, "g1", hands, start=T0 + 600)
    ana = await store.player_rating("telegram", "ana", CHAT, last)
    assert ana.rated.hands == 9 and ana.rank is None and ana.season == 1
    assert (await store.rating_table("telegram", CHAT, last)).rows == []
    last = await store_hands(store, CHAT, "g2", random_hands(random.Random(4), people, 1),
                             start=last + 60)
    table = await store.rating_table("telegram", CHAT, last)
    assert {row.user_id for row in table.rows} == {"ana", "bo"} and table.season == 1
    assert {row.hands for row in table.rows} == {10}
    # Opting out of stats leaves a person rated but out of the tables.
    await store.save_user_profile("telegram", "bo", UserProfile(stats_opt_out=True))
    assert [row.user_id for row in (await store.rating_table("telegram", None, last)).rows] == ["ana"]
    bo = await store.player_rating("telegram", "bo", CHAT, last)
    assert bo.rated is not None and bo.rank is None
    assert (await store.player_rating("telegram", "ana", CHAT, last)).rank == 1


async def test_the_trend_is_the_change_over_the_last_ten_rated_hands(store):
    hands = random_hands(random.Random(11), PEOPLE[:3], 25)
    last = await store_hands(store, CHAT, "g1", hands, start=T0)
    model = PlackettLuce()
    history: dict[str, list[float]] = {}
    ratings = {}
    for players in hands:
        teams = [[ratings.get(u) or model.rating()] for u, _, _, _ in players]
        rated = model.rate(teams, ranks=[0 if w else left for _, _, w, left in players])
        for (user, _, _, _), (new,) in zip(players, rated, strict=True):
            before = ratings.get(user) or model.rating()
            history.setdefault(user, []).append(new.ordinal() - before.ordinal())
            ratings[user] = new
    for user in ("ana", "bo", "cy"):
        got = await store.player_rating("telegram", user, CHAT, last)
        assert got.trend_hands == 10
        assert abs(got.trend - sum(history[user][-10:])) < 1e-9


async def test_seasons_follow_season_days_and_the_previous_table_stays(store):
    await store.save_chat_settings(CHAT, ChatSettings(season_days=7))
    people = PEOPLE[:2]
    first = random_hands(random.Random(1), people, 10)
    end_first = await store_hands(store, CHAT, "g1", first, start=T0, step=600)
    week_one = await store.rating_table("telegram", CHAT, end_first)
    assert week_one.season == 1 and week_one.started_at == T0 and week_one.ends_at == T0 + 7 * DAY
    # Three weeks later, on the same grid: the quiet fortnight leaves no empty season.
    later = T0 + 21 * DAY + 3600
    end_second = await store_hands(store, CHAT, "g2", random_hands(random.Random(2), people, 10),
                                   start=later, step=600)
    current = await store.rating_table("telegram", CHAT, end_second)
    assert (current.season, current.started_at, current.ends_at) == (2, T0 + 21 * DAY,
                                                                     T0 + 28 * DAY)
    previous = await store.rating_table("telegram", CHAT, end_second, previous=True)
    assert previous == week_one  # the final table of season 1, as it was
    # Each season starts afresh; across the platform, ratings run on.
    ana_now = await store.player_rating("telegram", "ana", CHAT, end_second)
    assert ana_now.rated.hands == 10 and ana_now.season == 2
    assert (await store.player_rating("telegram", "ana", None, end_second)).rated.hands == 20
    # A new length counts from the next season on, which starts where the last one ended.
    await store.save_chat_settings(CHAT, ChatSettings(season_days=30))
    assert (await store.rating_table("telegram", CHAT, end_second)).ends_at == T0 + 28 * DAY
    end_third = await store_hands(store, CHAT, "g3", random_hands(random.Random(3), people, 2),
                                  start=T0 + 29 * DAY, step=600)
    third = await store.rating_table("telegram", CHAT, end_third)
    assert (third.season, third.started_at, third.ends_at) == (3, T0 + 28 * DAY, T0 + 58 * DAY)
    assert third.rows == []  # nobody has 10 rated hands in it yet
    assert (await store.rating_table("telegram", CHAT, end_third, previous=True)).season == 2
    # After season 3 ended and before anyone plays: no season runs, the previous is 3.
    after = T0 + 59 * DAY
    assert (await store.rating_table("telegram", CHAT, after)).season is None
    assert (await store.rating_table("telegram", CHAT, after, previous=True)).season == 3
    assert (await store.rating_table("telegram", OTHER, after, previous=True)).season is None


async def snapshot(store, now: float):
    """Everything a person can read about ratings, on both platforms."""
    seen = []
    for platform, chats in (("telegram", (CHAT, OTHER)), ("discord", (DISCORD,))):
        seen.append(await store.rating_table(platform, None, now, limit=100))
        for chat in chats:
            for previous in (False, True):
                seen.append(await store.rating_table(platform, chat, now, previous=previous,
                                                     limit=100))
        for user, _ in PEOPLE:
            for chat in (*chats, None):
                seen.append(await store.player_rating(platform, user, chat, now))
    return seen


async def store_history(store) -> float:
    rng = random.Random(2024)
    await store.save_chat_settings(OTHER, ChatSettings(season_days=3))
    when = T0
    for game in range(8):
        chat = (CHAT, OTHER, DISCORD)[game % 3]
        ai = frozenset({"ai1"}) if game % 4 == 3 else frozenset()
        hands = random_hands(rng, PEOPLE, 6)
        if ai:
            hands = [[*players, ("ai1", "Bot", False, 3)] for players in hands]
        when = await store_hands(store, chat, f"g{game}", hands, start=when + DAY, step=1800,
                                 ai=ai)
    return when


async def test_a_rebuild_gives_the_live_numbers_and_every_store_the_same(store):
    now = await store_history(store) + 1
    live = await snapshot(store, now)
    assert any(getattr(item, "rows", None) for item in live)
    memory = MemoryStore()
    await store_history(memory)
    assert await snapshot(memory, now) == live  # SQL and memory agree to the last bit
    rated = await store.rebuild_ratings()
    assert rated == 6 * 6  # the 2 games of 8 with a bot are not rated
    assert await snapshot(store, now) == live
    assert await store.rebuild_ratings() == rated and await snapshot(store, now) == live


async def test_hands_stored_at_once_by_two_games_rebuild_to_the_same_numbers(store):
    """Two games sharing a person finish hands concurrently (two processes would too): the
    live order of updates is the order a rebuild replays them in."""
    rng = random.Random(5)

    async def game(game_id: str, chat: ChatKey, people) -> None:
        await store_hands(store, chat, game_id, random_hands(rng, people, 12), start=T0, step=1)

    await asyncio.gather(game("a", CHAT, PEOPLE[:3]), game("b", OTHER, PEOPLE[2:]),
                         game("c", CHAT.__class__("telegram", "-3"), [PEOPLE[0], PEOPLE[4]]))
    live = [await store.player_rating("telegram", user, None, T0 + 100) for user, _ in PEOPLE]
    await store.rebuild_ratings()
    assert [await store.player_rating("telegram", user, None, T0 + 100)
            for user, _ in PEOPLE] == live
