"""Turns that reach people and tables that tell the truth, at the coordinator's level: which
hand update starts a turn (so an adapter notifies), the table of a hand or game that ended
(how it ended, nobody to act, no countdown), and ``/hand`` posting the hand anew."""

from __future__ import annotations

from bot.coordinator import commands as cmds
from bot.coordinator.views import TableView

from .conftest import Harness

PILE = ["Y1", "Y2", "Y3", "Y4", "G1", "G2", "G3", "G4", "B5", "B6", "B7"]


async def setup(h: Harness, u1_hand: list[str], *, timer: int = 60, pile: list[str] = PILE):
    people = await h.start(3, settings={"turn_timer": timer})
    await h.rig({"u1": u1_hand, "u2": ["G5", "G6", "Y7"], "u3": ["B3", "B4", "Y9"]}, pile, ["R9"],
                current="u1", color="R")
    return people


async def test_the_player_the_turn_passes_to_gets_a_turn_start_and_no_one_else(h: Harness):
    u1, u2, _u3 = await setup(h, ["R5", "R6", "B9"])
    mark = {uid: len(views) for uid, views in h.chat.private.items()}
    assert (await h.do(cmds.PlayCards, u1, cards=("R5",))).ok
    new = {uid: views[mark.get(uid, 0):] for uid, views in h.chat.private.items()}
    assert [v.turn_started for v in new["u2"]] == [True]
    assert [v.turn_started for v in new["u1"]] == [False]  # the actor's hand is just updated
    assert "u3" not in new or not any(v.turn_started for v in new["u3"])


async def test_a_player_who_keeps_the_turn_is_not_notified_again(h: Harness):
    # Nothing playable on R9: draw a red card, and the turn stays to play or keep it.
    u1, *_ = await setup(h, ["B1", "B2", "G9"], pile=["R1", "R2", "R3", "R4"])
    mark = len(h.chat.private["u1"])
    assert (await h.do(cmds.Draw, u1)).ok
    assert (await h.state()).current == "u1"
    assert [v.turn_started for v in h.chat.private["u1"][mark:]] == [False]


async def test_the_table_of_a_won_hand_shows_who_won_and_no_turn(h: Harness):
    u1, *_ = await setup(h, ["R5"])
    table_id = (await h.record()).table_message_id
    assert (await h.do(cmds.PlayCards, u1, cards=("R5",))).ok
    finals = [(m, edit) for _c, m, edit in h.chat.public if isinstance(m, TableView) and m.closed]
    assert len(finals) == 1
    final, edited = finals[0]
    assert edited == table_id  # the hand's own table message, edited in place
    assert final.current is None and final.deadline is None and final.catchable == ()
    assert not any(seat.is_current for seat in final.seats)
    assert final.result.params["winner"] == "P1"
    assert final.result.params["points"].params["count"] > 0  # points, in the scoring's units
    assert final.hand_number == 1
    # The next hand gets a table message of its own, below the hand's notice.
    record = await h.record()
    assert record.table_message_id != table_id
    kinds = [type(m).__name__ + ("/closed" if isinstance(m, TableView) and m.closed else "")
             for _c, m, _e in h.chat.public[-3:]]
    assert kinds == ["TableView/closed", "Notice", "TableView"]
    assert h.chat.last_table().hand_number == 2 and h.chat.last_table().current is not None


async def test_a_stopped_game_closes_its_table_saying_so(h: Harness):
    u1, *_ = await setup(h, ["R5", "R6"])
    table_id = (await h.record()).table_message_id
    assert (await h.do(cmds.StopGame, u1)).ok
    final = h.chat.last_table()
    assert final.closed and final.current is None and final.deadline is None
    assert final.result.msgid == "{player} stopped the game."
    assert h.chat.public[-1][2] == table_id


async def test_a_won_match_closes_the_table_with_the_final_standings(h: Harness):
    people = await h.start(2, settings={"turn_timer": 0, "target_score": 30})
    await h.rig({"u1": ["R5"], "u2": ["W", "W+4", "G5"]}, PILE, ["R9"], current="u1", color="R")
    assert (await h.do(cmds.PlayCards, people[0], cards=("R5",))).ok
    game_id = h.chat.last_table().game_id
    assert (await h.store.get(game_id)).status == "finished"
    finals = [m for m in h.chat.tables() if m.closed]
    assert len(finals) == 1  # one edit, saying the match is won (not also the hand)
    assert finals[0].result.msgid == "{winner} wins the match! Final standings: {standings}"


async def test_show_hand_posts_the_hand_anew(h: Harness):
    u1, *_ = await setup(h, ["R5", "R6"])
    assert (await h.do(cmds.ShowHand, u1)).ok
    assert h.chat.last_hand("u1").repost
    assert not h.chat.last_hand("u1").turn_started


async def test_a_lobby_that_closes_without_a_game_says_so_and_offers_nothing(h: Harness):
    people = await h.lobby(2)
    lobby_id = (await h.record()).table_message_id
    assert (await h.do(cmds.StopGame, people[0])).ok
    closed = h.chat.lobbies()[-1]
    assert closed.closed is not None and closed.closed.msgid == "{player} stopped the game."
    assert not closed.can_start
    assert h.chat.public[-1][2] == lobby_id  # the lobby message itself, edited


async def test_an_expired_lobby_says_so(h: Harness):
    await h.lobby(1)
    lobby_id = (await h.record()).table_message_id
    await h.clock.advance(601)
    closed = h.chat.lobbies()[-1]
    assert closed.closed is not None and "lobby has closed" in closed.closed.msgid
    assert h.chat.public[-1][2] == lobby_id
