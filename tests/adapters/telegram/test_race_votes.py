"""The UNO! race on the table and in /log, /voteend, and /new refused with who can end the
game: through the real Application against the fake Bot API, on the fake clock."""

from __future__ import annotations

from .conftest import ANA, BO, CY, DEE, GROUP, Harness
from .fake_bot_api import TgUser
from .helpers import match_of, next_actor, refresh_hands, rig

PLAYERS = [ANA, BO, CY]
IDS = {u: str(u.id) for u in PLAYERS}
LI = TgUser(1005, "Li", language_code="zh-hans")  # a Chinese-speaking bystander


def group_texts(h: Harness) -> list[str]:
    return [m.text for m in h.api.chat_messages(GROUP)]


def new_lobby(h: Harness, old: str) -> bool:
    try:
        return h.game_id() != old
    except StopIteration:  # no lobby message with a Join link yet
        return False


async def caught_after_1_24_s(harness: Harness):
    """A game of Ana, Bo and Cy in which the player to move plays R1 of R1 R2 without UNO!
    and Dee, who is not playing, calls them out 1.24 s later; the player caught."""
    await harness.open_game(ANA, BO, CY)
    await harness.start_game(ANA, PLAYERS)
    mover = await next_actor(harness, PLAYERS)
    await rig(harness, hands={IDS[mover]: ["R1", "R2"]}, current=IDS[mover], top="R9", color="R")
    await refresh_hands(harness, PLAYERS)
    harness.say(mover, "/play R1")

    async def exposed() -> bool:
        return IDS[mover] in (await match_of(harness)).game.catchable

    await harness.until(exposed, "the play without UNO!")
    await harness.settle()
    await harness.clock.advance(1.24)
    harness.say(DEE, "/uno")  # anyone in the group may call a player out
    await harness.api.wait_for(lambda: any("1.24 s after the play" in t for t in group_texts(harness)),
                               what="the race on the table")
    return mover


async def test_the_race_is_timed_on_the_table_and_in_the_log(harness: Harness):
    await harness.start()
    mover = await caught_after_1_24_s(harness)
    line = next(t for t in group_texts(harness) if "1.24 s after the play" in t)
    assert "Dee" in line and mover.first_name in line and "Reaction window: 3 s" in line
    log = await harness.ask(BO, "/log")
    assert "Hand 1:" in log and "caught" in log and "1.24 s" in log and "(window 3 s)" in log
    assert "R2" not in log  # names and times only, never a card
    chinese = await harness.ask(LI, "/log")
    assert "第1局" in chinese and "1.24秒" in chinese


async def test_a_majority_votes_the_game_away_and_the_chat_is_free(harness: Harness):
    await harness.start()
    game_id = await harness.open_game(ANA, BO, CY)
    await harness.start_game(ANA, PLAYERS)
    refused = await harness.ask(DEE, "/new", privately=True)
    assert "Ana" in refused and "/stop" in refused and "/voteend" in refused and "2 votes needed" in refused
    harness.say(BO, "/voteend")
    await harness.api.wait_for(lambda: any("votes to end the game: 1 of 2" in t for t in group_texts(harness)),
                               what="the first vote on the table")
    again = await harness.ask(BO, "/voteend", privately=True)
    assert "already voted" in again
    harness.say(CY, "/voteend")
    await harness.api.wait_for(lambda: any("voted to end the game" in t and "abandoned" in t
                                           for t in group_texts(harness)), what="the game ended")
    ended = await harness.store.get(game_id)
    assert (ended.status, ended.book.end_reason) == ("stopped", "vote")
    harness.say(ANA, "/new")
    await harness.api.wait_for(lambda: new_lobby(harness, game_id), what="a new lobby")


async def test_new_is_refused_in_chinese_with_who_can_end_it(harness: Harness):
    await harness.start()
    await harness.open_game(ANA, BO)
    refused = await harness.ask(LI, "/new", privately=True)
    assert "Ana" in refused and "/join" in refused and "/stop" in refused
    assert "创建" in refused


async def test_after_the_match_the_log_shows_the_finished_games_race(harness: Harness):
    await harness.start()
    harness.api.admins[GROUP] = {ANA.id}
    assert "Settings saved" in await harness.ask(ANA, "/settings target_score=1")
    mover = await caught_after_1_24_s(harness)
    await rig(harness, hands={IDS[mover]: ["R2"]}, current=IDS[mover], top="R9", color="R")
    await refresh_hands(harness, PLAYERS)
    harness.say(mover, "/play R2")
    await harness.api.wait_for(lambda: any("wins the match" in t for t in group_texts(harness)),
                               what="the end of the match")
    log = (await harness.ask(BO, "/log")).replace("\u2068", "").replace("\u2069", "")
    assert "The last game is over. Its UNO! race: the last 1 event" in log
    assert f"Hand 1: Dee caught {mover.first_name} 1.24 s after the play" in log and "1.24 s" in log and "There is no game" not in log
    chinese = await harness.ask(LI, "/log")
    assert "上一场对局已结束" in chinese and "第1局" in chinese and "1.24秒" in chinese
