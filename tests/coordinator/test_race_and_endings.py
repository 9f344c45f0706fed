"""The UNO! race on the bot's clock (the table line, late presses, the log, a restart), the
vote to end a game, a game everyone left, and why a new game cannot open."""

from __future__ import annotations

from dataclasses import replace

from bot.coordinator import commands as cmds
from bot.coordinator.endings import VOTE_LAPSE
from bot.coordinator.ports import User
from bot.i18n import format_text as _format

from .conftest import Harness

HANDS = {"u1": ["R1", "R2"], "u2": ["G5", "G6", "Y7"], "u3": ["B3", "B4", "Y9"]}
PILE = ["Y1", "Y2", "Y3", "Y4", "G1", "G2", "G3", "G4"]
BYSTANDER = User("u9", "Watcher")


def format_text(text, locale: str) -> str:
    """As read, without the marks that isolate names."""
    return _format(text, locale).replace("\u2068", "").replace("\u2069", "")


async def setup(h: Harness, **settings):
    people = await h.start(3, settings={"turn_timer": 0, **settings})
    await h.rig(HANDS, PILE, ["R9"], current="u1", color="R")
    return people


def race_lines(h: Harness, locale: str = "en") -> list[str]:
    return [format_text(t, locale) for t in h.chat.last_table().last if "UNO! race" in t.msgid]


def race_log(reply) -> list:
    """The race lines of ``/log``: those before its sealed decks (tested in test_sealed_seeds)."""
    lines = list(reply.lines)
    heading = next((i for i, t in enumerate(lines) if t.msgid.startswith("Sealed decks")), len(lines))
    return lines[:heading]


async def test_a_catch_and_a_late_declaration_are_timed_to_the_millisecond(h: Harness) -> None:
    u1, u2, u3 = await setup(h)
    assert (await h.do(cmds.PlayCards, u1, cards=("R1",))).ok
    await h.clock.advance(1.24)
    assert (await h.do(cmds.CallUno, u2, target="u1")).ok
    assert race_lines(h) == ["UNO! race: P2 caught P1 1.24 s after the play. Reaction window: 3 s."]
    await h.clock.advance(0.37)
    late = await h.do(cmds.DeclareUno, u1)
    assert (late.ok, late.error) == (False, "already_called")
    assert race_lines(h) == ["UNO! race: P2 caught P1 1.24 s after the play; P1 declared at "
                             "1.61 s, too late. Reaction window: 3 s."]
    # A double press changes nothing: no new line, no save.
    version = (await h.record()).version
    assert (await h.do(cmds.DeclareUno, u1)).error == "already_called"
    assert (await h.record()).version == version
    log = await h.do(cmds.ShowLog, BYSTANDER)
    assert log.ok
    assert [format_text(t, "en") for t in race_log(log)] == [
        "Hand 1: P2 caught P1 1.24 s after the play (window 3 s).",
        "Hand 1: P1 declared at 1.61 s, too late (window 3 s)."]
    assert format_text(log.lines[0], "zh_CN") == "第1局：P2在出牌后1.24秒抓到了P1（反应时间3秒）。"


async def test_a_missed_window_and_a_late_declaration_in_the_window(h: Harness) -> None:
    u1, u2, u3 = await setup(h, reaction_window=5)
    assert (await h.do(cmds.PlayCards, u1, cards=("R1",))).ok
    await h.clock.advance(0.5)
    assert (await h.do(cmds.CallUno, u1)).ok  # declares late, before anyone calls
    assert race_lines(h) == ["UNO! race: P1 declared UNO! 0.50 s after the play. Reaction window: 5 s."]
    assert (await h.do(cmds.Draw, u2)).ok
    await h.rig({"u1": ["R1", "R2"], "u2": ["G5", "G6"], "u3": ["B3", "B4", "Y9"]}, PILE, ["R9"],
                current="u1", color="R")
    assert (await h.do(cmds.PlayCards, u1, cards=("R1",))).ok
    await h.clock.advance(4.2)
    assert (await h.do(cmds.Draw, u2)).ok
    assert race_lines(h) == ["UNO! race: nobody called UNO! on P1: P2 moved on 4.20 s after the "
                             "play. Reaction window: 5 s."]


async def test_a_bystander_is_named_in_the_race_and_it_survives_a_restart(h: Harness) -> None:
    u1, _, _ = await setup(h)
    assert (await h.do(cmds.PlayCards, u1, cards=("R1",))).ok
    await h.clock.advance(2)
    assert (await h.do(cmds.CallUno, BYSTANDER, target="u1")).ok
    assert race_lines(h) == ["UNO! race: Watcher caught P1 2.00 s after the play. Reaction window: 3 s."]
    again = h.restart()
    log = await again.do(cmds.ShowLog, BYSTANDER)
    assert [format_text(t, "en") for t in race_log(log)] == [
        "Hand 1: Watcher caught P1 2.00 s after the play (window 3 s)."]


async def test_the_log_keeps_names_and_times_only(h: Harness) -> None:
    u1, _, _ = await setup(h)
    assert (await h.do(cmds.PlayCards, u1, cards=("R1",), declare_uno=True)).ok
    log = await h.do(cmds.ShowLog, BYSTANDER)
    text = " ".join(format_text(t, "en") for t in race_log(log))
    assert text == "Hand 1: P1 declared UNO! with the play."
    everything = " ".join(format_text(t, "en") for t in log.lines)  # the sealed decks too
    assert "R2" not in everything and "Red" not in everything


async def test_no_game_no_log(h: Harness) -> None:
    reply = await h.do(cmds.ShowLog, BYSTANDER)
    assert (reply.ok, reply.error) == (False, "no_game")


async def test_after_a_game_the_log_shows_the_finished_games_race(h: Harness) -> None:
    u1, u2, _ = await setup(h, target_score=1)
    assert (await h.do(cmds.PlayCards, u1, cards=("R1",))).ok
    await h.clock.advance(1.24)
    assert (await h.do(cmds.CallUno, u2, target="u1")).ok
    await h.rig({"u1": ["R2"], "u2": ["G5", "G6", "Y7"], "u3": ["B3", "B4", "Y9"]}, PILE, ["R9"],
                current="u1", color="R")
    assert (await h.do(cmds.PlayCards, u1, cards=("R2",))).ok  # the hand and the match won
    assert await h.store.load(h.key) is None
    log = await h.do(cmds.ShowLog, BYSTANDER)
    assert log.ok
    assert format_text(log.text, "en") == ("The last game is over. Its UNO! race: the last 1 "
                                           "event, with its time after the play.")
    assert [format_text(t, "en") for t in race_log(log)] == [
        "Hand 1: P2 caught P1 1.24 s after the play (window 3 s)."]
    assert format_text(log.text, "zh_CN") == "上一场对局已结束。它的UNO！抢答：最近1条记录，时间从出牌算起。"
    assert format_text(log.lines[0], "zh_CN") == "第1局：P2在出牌后1.24秒抓到了P1（反应时间3秒）。"
    # A new game's log is its own (nothing yet), no longer the finished one's.
    assert (await h.do(cmds.NewGame, u1)).ok
    fresh = await h.do(cmds.ShowLog, BYSTANDER)
    assert (fresh.text.msgid, fresh.lines) == ("No UNO! calls in this game yet.", ())


async def test_after_a_stopped_game_without_calls_the_log_says_so(h: Harness) -> None:
    u1, _, _ = await setup(h)
    assert (await h.do(cmds.StopGame, u1)).ok
    log = await h.do(cmds.ShowLog, BYSTANDER)
    assert log.ok and race_log(log) == []
    assert format_text(log.text, "en") == "The last game is over; nobody called UNO! in it."
    assert format_text(log.text, "zh_CN") == "上一场对局已结束，其间没有人喊过UNO。"


async def test_a_majority_of_people_ends_the_game_for_nobody(h: Harness) -> None:
    u1, u2, u3 = await h.start(3, 1, settings={"turn_timer": 0})
    first = await h.do(cmds.VoteEnd, u2)
    assert first.ok
    line = next(t for t in h.chat.last_table().last if "votes to end" in t.msgid)
    assert format_text(line, "en").startswith("P2 votes to end the game: 1 of 2 votes needed.")
    assert (await h.do(cmds.VoteEnd, u2)).error == "already_voted"
    assert (await h.do(cmds.VoteEnd, BYSTANDER)).error == "not_in_game"
    assert (await h.do(cmds.VoteEnd, u3)).ok
    assert await h.store.load(h.key) is None
    notice = h.chat.notices()[-1]
    assert format_text(notice.text, "en") == (
        "P2, P3 voted to end the game: it ends here. It is recorded as abandoned and counts for "
        "nobody's wins or losses.")
    assert not any(r.kind == "match" for r in h.store._results)
    assert (await h.do(cmds.NewGame, u2)).ok  # the chat is free again


async def test_votes_lapse_at_the_next_hand_or_in_time(h: Harness) -> None:
    u1, u2, u3 = await h.start(3, settings={"turn_timer": 0})
    assert (await h.do(cmds.VoteEnd, u1)).ok
    await h.clock.advance(VOTE_LAPSE + 1)
    assert (await h.do(cmds.VoteEnd, u2)).ok  # u1's vote lapsed: 1 of 2 again
    assert (await h.record()).status == "running"
    assert (await h.record()).book.end_vote.voters == ["u2"]


async def test_a_lobby_is_not_voted_away(h: Harness) -> None:
    u1, u2 = await h.lobby(2)
    refused = await h.do(cmds.VoteEnd, u2)
    assert refused.error == "not_started"
    # Not "its creator deals": the voter wants it gone, which its creator or an admin does.
    assert _format(refused.text, "en") == ("The game has not started yet: there is nothing to "
                                           "vote on. Its creator or a chat admin can close the "
                                           "lobby with /stop.")
    assert (await h.record()).status == "lobby"


async def test_a_new_game_says_who_can_end_the_old_one(h: Harness) -> None:
    u1, u2 = await h.lobby(2)
    refused = await h.do(cmds.NewGame, u2)
    assert refused.error == "game_exists"
    assert format_text(refused.text, "en") == (
        "A game is already open here, waiting to start (opened by P1). Join it with /join; P1 "
        "or a chat admin can close it with /stop.")
    assert (await h.do(cmds.StartGame, u1)).ok
    refused = await h.do(cmds.NewGame, User("u5", "New"))
    assert format_text(refused.text, "en") == (
        "A game is already being played here (hand 1, opened by P1). P1 or a chat admin can end "
        "it with /stop, or its players can vote to end it with /voteend (2 votes needed).")
    assert "/voteend" in format_text(refused.text, "zh_CN")


async def test_a_game_nobody_plays_gives_way_to_a_new_one(h: Harness) -> None:
    await h.start(2, 1, settings={"turn_timer": 0})
    record = await h.record()
    # as left by a version that let bots play on for nobody
    record.seats = [replace(seat, ai=seat.ai or "normal") for seat in record.seats]
    await h.store.save(record)
    old = record.game_id
    assert (await h.do(cmds.NewGame, User("u7", "Late"))).ok
    ended = await h.store.get(old)
    assert (ended.status, ended.book.end_reason) == ("stopped", "away")
    assert any("nobody left playing" in n.text.msgid for n in h.chat.notices())
