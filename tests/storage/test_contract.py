"""The GameStore contract, run on SQLite, PostgreSQL and the coordinator's MemoryStore."""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace

import pytest

from bot.coordinator.hand_book import HandBook
from bot.coordinator.ports import (
    ChatKey,
    ChatSettings,
    GameRecord,
    GameResult,
    PlayerResult,
    Seat,
    UserProfile,
    VersionConflict,
)
from bot.coordinator.record import DeliveryState, Outbox

CHAT = ChatKey("telegram", "-100123")
OTHER_CHAT = ChatKey("telegram", "-100999")

# Awkward JSON on purpose: unicode, floats that do not round-trip through float32, big ints,
# nested lists, nulls, booleans and a key order that is not sorted.
MATCH_JSON = {
    "zeta": 1,
    "alpha": [0.1 + 0.2, 1e-300, 2**53 + 1, -0.0, None, True, False],
    "players": ["ana", "bo", "陈"],
    "game": {"hands": {"ana": ["R5", "W+4"], "bo": [], "陈": ["Y0"]},
             "draw_pile": ["G+2", "BS", "YR"] * 20, "seed": "s:17", "counter": 42},
    "scores": {"ana": 0, "bo": 120, "陈": 7},
    "emoji": "🃏 \"quoted\" \\ back\nslash",
}


def make_record(game_id: str = "g1", chat: ChatKey = CHAT, status: str = "lobby",
                seats: list[Seat] | None = None, **fields) -> GameRecord:
    return GameRecord(
        game_id=game_id, chat=chat, status=status, creator="u1",
        seats=seats if seats is not None else [Seat("u1", "Ana", "en"), Seat("ai1", "Bot Bo", ai="normal")],
        rules={"preset": "official", "stacking": "off", "target_score": 500},
        **fields)


def result(kind: str, hand: int, players: list[PlayerResult], game_id: str = "g1",
           chat: ChatKey = CHAT, finished_at: float = 1000.0) -> GameResult:
    return GameResult(game_id=game_id, chat=chat, kind=kind, hand_number=hand,
                      players=players, finished_at=finished_at)


async def test_insert_then_load_and_get_return_the_same_record(store):
    record = make_record(match=MATCH_JSON, table_message_id="77",
                         hand_message_ids={"u1": "m1"}, deadlines={"turn": 1_800_000_000.125},
                         book=HandBook(timeouts={"u1": 2}),
                         delivery=DeliveryState(unreachable=["u1"]))
    saved = await store.save(record)
    assert saved.version == 1 and record.version == 0
    assert saved.updated_at > 0 and saved.created_at > 0
    for loaded in (await store.load(CHAT), await store.get("g1")):
        assert loaded == saved
    assert await store.load(OTHER_CHAT) is None
    assert await store.get("nope") is None


async def test_match_state_json_round_trips_exactly(store):
    saved = await store.save(make_record(status="running", match=MATCH_JSON))
    loaded = await store.get(saved.game_id)
    assert loaded.match == MATCH_JSON
    # Same text, key order included: what the engine wrote is what it reads back.
    assert json.dumps(loaded.match) == json.dumps(MATCH_JSON)
    assert loaded.seats == [Seat("u1", "Ana", "en"), Seat("ai1", "Bot Bo", ai="normal")]


async def test_store_keeps_its_own_copy(store):
    record = make_record(match={"cards": ["R1"]}, book=HandBook(timeouts={"u1": 1}))
    saved = await store.save(record)
    record.match["cards"].append("R2")
    saved.book.timeouts["u1"] = 99
    saved.seats.append(Seat("x", "X"))
    loaded = await store.get("g1")
    assert loaded.match == {"cards": ["R1"]} and loaded.book.timeouts == {"u1": 1} and len(loaded.seats) == 2
    loaded.match["cards"].clear()
    assert (await store.get("g1")).match == {"cards": ["R1"]}


async def test_update_bumps_the_version_and_a_stale_version_conflicts(store):
    first = await store.save(make_record())
    second = await store.save(replace(first, status="running", match={"step": 2},
                                      deadlines={"turn": 5.5}))
    assert second.version == 2
    with pytest.raises(VersionConflict):
        await store.save(make_record(status="running", version=first.version, match={"step": "lost"}))
    stored = await store.get("g1")
    assert stored.version == 2 and stored.match == {"step": 2} and stored.deadlines == {"turn": 5.5}
    third = await store.save(stored)
    assert third.version == 3 and third.created_at == first.created_at
    assert await store.get("g1") == third


async def test_inserting_an_existing_game_id_conflicts(store):
    await store.save(make_record())
    with pytest.raises(VersionConflict):
        await store.save(make_record(chat=OTHER_CHAT))
    assert await store.load(OTHER_CHAT) is None


async def test_updating_a_game_that_was_never_saved_conflicts(store):
    with pytest.raises(VersionConflict):
        await store.save(make_record(version=3))
    assert await store.get("g1") is None


async def test_one_active_game_per_chat(store):
    await store.save(make_record("g1"))
    with pytest.raises(VersionConflict):
        await store.save(make_record("g2"))
    with pytest.raises(VersionConflict):
        await store.save(make_record("g2", status="running"))
    # Another chat, or the same chat id on another platform, is independent.
    await store.save(make_record("g3", chat=OTHER_CHAT))
    await store.save(make_record("g4", chat=ChatKey("discord", CHAT.chat_id)))
    # Once the first game is over, the chat may start a new one.
    g1 = await store.get("g1")
    await store.save(make_record("g1", status="finished", version=g1.version))
    g2 = await store.save(make_record("g2"))
    assert (await store.load(CHAT)).game_id == "g2"
    # A finished game cannot come back to life while another is active.
    finished = await store.get("g1")
    with pytest.raises(VersionConflict):
        await store.save(make_record("g1", status="lobby", version=finished.version))
    assert (await store.get("g1")).status == "finished"
    assert (await store.load(CHAT)) == g2


async def test_active_games_lists_lobbies_and_running_games_only(store):
    await store.save(make_record("a", chat=ChatKey("telegram", "1")))
    await store.save(make_record("b", chat=ChatKey("discord", "2"), status="running"))
    stopped = await store.save(make_record("c", chat=ChatKey("console", "3")))
    await store.save(make_record("c", chat=ChatKey("console", "3"), status="stopped",
                                 version=stopped.version))
    finished = await store.save(make_record("d", chat=ChatKey("telegram", "4"), status="running"))
    await store.save(make_record("d", chat=ChatKey("telegram", "4"), status="finished",
                                 version=finished.version))
    active = await store.active_games()
    assert sorted(record.game_id for record in active) == ["a", "b"]
    assert all(record.active for record in active)
    assert await store.get("c") is not None


async def test_racing_saves_of_one_version_let_exactly_one_win(store):
    base = await store.save(make_record(status="running", match={"turn": 0}))
    attempts = [make_record(status="running", version=base.version, match={"turn": n})
                for n in range(1, 9)]
    outcomes = await asyncio.gather(*(store.save(r) for r in attempts), return_exceptions=True)
    winners = [o for o in outcomes if isinstance(o, GameRecord)]
    assert len(winners) == 1
    assert all(isinstance(o, VersionConflict) for o in outcomes if o not in winners)
    stored = await store.get("g1")
    assert stored.version == 2 and stored.match == winners[0].match


# ---- results, stats and leaderboards -----------------------------------------------------

def hand(user_id, name, won=False, points=0, is_ai=False, uno_calls=0, caught=0, challenges_won=0):
    return PlayerResult(user_id, name, points=points, won=won, is_ai=is_ai, uno_calls=uno_calls,
                        caught=caught, challenges_won=challenges_won)


async def record_history(store):
    """Chat A: match g1 (two hands) won by ana; chat B: match g2 (one hand) won by bo.
    Plus a hand on Discord that must not leak into Telegram figures."""
    g1 = await store.save(make_record("g1", status="running"))
    g1 = await store.save(make_record("g1", status="running", version=g1.version), [
        result("hand", 1, [hand("ana", "Ana", won=True, points=60, uno_calls=1),
                           hand("bo", "Bo", caught=1),
                           hand("ai1", "Bot", points=30, is_ai=True)], finished_at=100)])
    await store.save(make_record("g1", status="finished", version=g1.version), [
        result("hand", 2, [hand("ana", "Ana", won=True, points=80, challenges_won=1),
                           hand("bo", "Bo", caught=2),
                           hand("ai1", "Bot", points=40, is_ai=True, uno_calls=3)], finished_at=200),
        result("match", 2, [hand("ana", "Ana", won=True, points=140),
                            hand("bo", "Bo"), hand("ai1", "Bot", is_ai=True)], finished_at=200)])
    g2 = await store.save(make_record("g2", chat=OTHER_CHAT, status="running"))
    await store.save(make_record("g2", chat=OTHER_CHAT, status="finished", version=g2.version), [
        result("hand", 1, [hand("bo", "Bo B.", won=True, points=25, uno_calls=2),
                           hand("cy", "Cy", points=10),
                           hand("ai1", "Bot", won=False, is_ai=True)],
               game_id="g2", chat=OTHER_CHAT, finished_at=300),
        result("match", 1, [hand("bo", "Bo B.", won=True, points=25), hand("cy", "Cy"),
                            hand("ai1", "Bot", is_ai=True)],
               game_id="g2", chat=OTHER_CHAT, finished_at=300)])
    discord = ChatKey("discord", "-100123")
    g3 = await store.save(make_record("g3", chat=discord, status="running"))
    await store.save(make_record("g3", chat=discord, status="finished", version=g3.version), [
        result("match", 1, [hand("ana", "Ana", won=True, points=500)],
               game_id="g3", chat=discord, finished_at=400)])


def figures(stats):
    return (stats.games, stats.wins, stats.hands, stats.hands_won, stats.points,
            stats.uno_calls, stats.caught, stats.challenges_won)


async def test_stats_per_chat_and_per_platform(store):
    await record_history(store)
    ana = await store.stats("telegram", "ana", CHAT)
    assert ana.name == "Ana"
    assert figures(ana) == (1, 1, 2, 2, 140, 1, 0, 1)
    assert ana.win_rate == 1.0
    bo_here = await store.stats("telegram", "bo", CHAT)
    assert figures(bo_here) == (1, 0, 2, 0, 0, 0, 3, 0) and bo_here.win_rate == 0.0
    bo_everywhere = await store.stats("telegram", "bo")
    assert figures(bo_everywhere) == (2, 1, 3, 1, 25, 2, 3, 0)
    assert bo_everywhere.win_rate == 0.5
    assert bo_everywhere.name == "Bo B."  # the latest name
    assert figures(await store.stats("discord", "ana")) == (1, 1, 0, 0, 0, 0, 0, 0)
    nobody = await store.stats("telegram", "zed", CHAT)
    assert figures(nobody) == (0,) * 8 and nobody.win_rate == 0.0 and nobody.user_id == "zed"
    assert nobody.name == ""


async def test_leaderboard_orders_by_wins_then_points_and_skips_ai_and_opted_out(store):
    await record_history(store)
    board = await store.leaderboard("telegram")
    assert [(p.user_id, p.wins, p.points) for p in board] == [
        ("ana", 1, 140), ("bo", 1, 25), ("cy", 0, 10)]
    assert [p.user_id for p in await store.leaderboard("telegram", CHAT)] == ["ana", "bo"]
    assert [p.user_id for p in await store.leaderboard("telegram", limit=1)] == ["ana"]
    await store.save_user_profile("telegram", "ana", UserProfile(stats_opt_out=True))
    assert [p.user_id for p in await store.leaderboard("telegram")] == ["bo", "cy"]
    # Opting out hides a player from boards, not from their own stats.
    assert (await store.stats("telegram", "ana")).wins == 1
    # The opt-out is per platform.
    assert [p.user_id for p in await store.leaderboard("discord")] == ["ana"]


async def test_results_of_a_conflicting_save_are_not_recorded(store):
    base = await store.save(make_record(status="running"))
    await store.save(make_record(status="running", version=base.version))
    with pytest.raises(VersionConflict):
        await store.save(make_record(status="finished", version=base.version), [
            result("match", 1, [hand("ana", "Ana", won=True, points=99)])])
    assert (await store.stats("telegram", "ana")).games == 0
    assert await store.leaderboard("telegram") == []


# ---- settings and profiles ---------------------------------------------------------------

async def test_chat_settings_default_and_round_trip(store):
    assert await store.chat_settings(CHAT) == ChatSettings()
    assert (await store.chat_settings(CHAT)).new
    settings = ChatSettings(preset="house", overrides={"stacking": "same", "uno_penalty": 4},
                            language="zh_CN", turn_timer=0, afk_policy="leave", reaction_window=7,
                            ai_level="hard")
    await store.save_chat_settings(CHAT, settings)
    assert await store.chat_settings(CHAT) == settings
    assert not (await store.chat_settings(CHAT)).new  # saved once: no longer a new chat
    assert (await store.chat_settings(OTHER_CHAT)).new
    assert await store.chat_settings(OTHER_CHAT) == ChatSettings()
    settings.overrides["jump_in"] = True  # the caller's object is not the stored one
    assert "jump_in" not in (await store.chat_settings(CHAT)).overrides
    changed = ChatSettings(preset="official", overrides={}, language="en", turn_timer=30)
    await store.save_chat_settings(CHAT, changed)
    assert await store.chat_settings(CHAT) == changed


async def test_user_profile_default_and_round_trip(store):
    assert await store.user_profile("discord", "42") == UserProfile()
    await store.save_user_profile("discord", "42", UserProfile(language="zh_CN", stats_opt_out=True))
    assert await store.user_profile("discord", "42") == UserProfile("zh_CN", True)
    assert await store.user_profile("telegram", "42") == UserProfile()
    await store.save_user_profile("discord", "42", UserProfile(language=None, stats_opt_out=False))
    assert await store.user_profile("discord", "42") == UserProfile()
    await store.save_user_profile("discord", "42", UserProfile(card_theme="high_contrast"))
    assert (await store.user_profile("discord", "42")).card_theme == "high_contrast"


async def test_a_seats_card_theme_round_trips(store):
    seats = [Seat("u1", "Ana", "en", theme="high_contrast"), Seat("u2", "Bo")]
    saved = await store.save(make_record(seats=seats))
    assert (await store.get(saved.game_id)).seats == seats


async def test_media_files_are_kept_per_platform_and_replaced_by_key(store):
    assert await store.media_files("telegram") == {}
    await store.save_media_file("telegram", "sticker:classic:R5", "CAACAgIAAx0")
    await store.save_media_file("telegram", "photo:top:W:R", "AgACAgIAAx1")
    await store.save_media_file("discord", "sticker:classic:R5", "other")
    await store.save_media_file("telegram", "photo:top:W:R", "AgACAgIAAx2")  # uploaded again
    assert await store.media_files("telegram") == {"sticker:classic:R5": "CAACAgIAAx0",
                                                   "photo:top:W:R": "AgACAgIAAx2"}
    assert await store.media_files("discord") == {"sticker:classic:R5": "other"}
    with pytest.raises(ValueError):
        await store.save_media_file("telegram", "k" * 129, "x")
    assert len(await store.media_files("telegram")) == 2


async def test_a_real_match_state_round_trips_card_for_card(store):
    from bot.engine import HOUSE, Match, legal_actions

    match, _ = Match.start(("u1", "u2", "u3"), HOUSE, seed="fidelity")
    for _ in range(40):  # play into the hand: draws, specials, a reshuffled counter
        state = match.game
        if state.current is None:
            break
        match, _ = match.apply(legal_actions(state, state.current)[-1])
    saved = await store.save(make_record(status="running", match=match.to_json()))
    loaded = await store.get(saved.game_id)
    assert Match.from_json(loaded.match) == match
    assert json.dumps(loaded.match) == json.dumps(match.to_json())


async def test_notify_requests_are_added_once_removed_and_taken_once(store):
    assert await store.add_notify_request(CHAT, "u1", "Ana", "zh_CN")
    assert not await store.add_notify_request(CHAT, "u1", "Ana", "zh_CN")  # already waiting
    assert await store.add_notify_request(CHAT, "u2", "Bo", "en")
    assert await store.add_notify_request(OTHER_CHAT, "u1", "Ana", "en")
    assert await store.remove_notify_request(CHAT, "u2")
    assert not await store.remove_notify_request(CHAT, "u2")
    assert await store.take_notify_requests(CHAT) == [("u1", "Ana", "zh_CN")]
    assert await store.take_notify_requests(CHAT) == []  # answered once
    assert await store.take_notify_requests(OTHER_CHAT) == [("u1", "Ana", "en")]


async def test_a_delivered_outbox_is_owed_no_more_and_only_at_its_version(store):
    owing = await store.save(make_record(status="running", match=MATCH_JSON,
                                         delivery=DeliveryState(Outbox(1, table=True))))
    assert [r.game_id for r in await store.owing_delivery()] == ["g1"]
    assert not await store.mark_delivered("g1", owing.version + 1)  # not a version it has
    assert await store.mark_delivered("g1", owing.version)
    assert await store.owing_delivery() == []
    loaded = await store.get("g1")
    assert loaded.delivery.outbox is None and loaded.version == owing.version
    assert not await store.mark_delivered("g1", owing.version)  # once


async def test_a_games_results_read_back_for_its_recap(store):
    await record_history(store)
    rows = await store.game_results("g1")
    assert [(r.kind, r.hand_number) for r in rows] == [("hand", 1), ("hand", 2), ("match", 2)]
    assert [(p.user_id, p.points, p.uno_calls, p.caught) for p in rows[1].players] == [
        ("ana", 80, 0, 0), ("bo", 0, 0, 2), ("ai1", 40, 3, 0)]
    assert await store.game_results("nope") == []
    assert await store.last_match_game(CHAT) == "g1"
    assert await store.last_match_game(OTHER_CHAT) == "g2"
    assert await store.last_match_game(ChatKey("telegram", "-1")) is None


async def test_a_chats_last_game_is_found_whatever_its_status(store):
    assert await store.last_game(CHAT) is None
    first = await store.save(make_record("g1", status="running"))
    await store.save(make_record("g9", chat=OTHER_CHAT))
    assert (await store.last_game(CHAT)).game_id == "g1"  # the open one
    await store.save(make_record("g1", status="finished", version=first.version))
    ended = await store.last_game(CHAT)
    assert (ended.game_id, ended.status) == ("g1", "finished")  # no open game: the one that ended
    second = await store.save(make_record("g2"))
    assert (await store.last_game(CHAT)).game_id == "g2"
    await store.save(make_record("g2", status="stopped", version=second.version))
    assert (await store.last_game(CHAT)).game_id == "g2"
    assert (await store.last_game(OTHER_CHAT)).game_id == "g9"
    assert await store.last_game(ChatKey("discord", CHAT.chat_id)) is None


async def test_a_chats_last_game_is_the_one_opened_last_even_if_an_older_one_saves_after_it(store):
    old = await store.save(make_record("g1", status="running"))
    old = await store.save(make_record("g1", status="finished", version=old.version))
    new = await store.save(make_record("g2"))
    await store.save(make_record("g2", status="stopped", version=new.version))
    await store.save(make_record("g1", status="finished", version=old.version,
                                 table_message_id="late"))  # e.g. a message id learnt late
    assert (await store.last_game(CHAT)).game_id == "g2"
