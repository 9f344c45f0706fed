"""The dealer names the colour of a first Wild (a person, an AI seat, or the turn timer), and a
challenged Wild Draw Four's hand goes to the challenger only."""

from __future__ import annotations

from bot.coordinator import commands as cmds
from bot.coordinator import presenter
from bot.engine.cards import Card, Color
from bot.engine.match import Match
from bot.render.hand_text import render_hand
from bot.render.text import render_table

from .conftest import Harness


async def first_wild(h: Harness, dealer: str) -> None:
    await h.rig({"u1": ["R5", "B4"], "u2": ["G1", "B6"]}, ["Y1", "Y2", "Y3"], ["W"], current=dealer)


async def test_the_dealer_names_the_colour_before_play(h: Harness) -> None:
    u1, u2 = await h.start(2)
    await first_wild(h, "u1")
    before = await h.record()
    refused = await h.do(cmds.PlayCards, u2, cards=("G1",))
    assert (refused.ok, refused.error) == (False, "not_your_turn")
    refused = await h.do(cmds.PlayCards, u1, cards=("R5",))
    assert (refused.ok, refused.error) == (False, "color_required")
    refused = await h.do(cmds.NameColor, u1, color="purple")
    assert (refused.ok, refused.error) == (False, "bad_color")
    refused = await h.do(cmds.NameColor, u2, color="red")
    assert (refused.ok, refused.error) == (False, "not_your_turn")
    assert (await h.record()).match == before.match  # refusals change nothing
    shown = await h.do(cmds.ShowHand, u1)
    assert shown.hand is not None and shown.hand.name_color and not shown.hand.can_draw
    # Everyone is told the colour is being named, not that any card goes.
    other = (await h.do(cmds.ShowHand, u2)).hand
    assert shown.hand.color_pending and other is not None and other.color_pending
    assert "not named yet" in render_hand(other) and "free choice" not in render_hand(other)
    table = presenter.table_view(await h.record(), Match.from_json((await h.record()).match), "en")
    assert table.color_pending
    out = render_table(table, now=0)
    assert "not named yet" in out and "🎨 \u2068P1\u2069 names the colour of the first card now." in out
    reply = await h.do(cmds.NameColor, u1, color="green")
    assert reply.ok and reply.text.params["color"] is Color.GREEN
    state = await h.state()
    assert state.color is Color.GREEN and state.current == "u2"
    assert any(t.msgid == "{player} names the colour of the first card: {color}."
               for t in h.chat.last_table().last)
    assert not h.chat.last_hand("u1").name_color
    assert not h.chat.last_hand("u2").color_pending and not h.chat.last_table().color_pending


async def test_an_ai_dealer_names_the_colour_by_itself(h: Harness) -> None:
    (human,) = await h.start(1, 1)
    bot = next(s.user_id for s in (await h.record()).seats if s.ai)
    await h.rig({human.id: ["R5", "B4"], bot: ["G1", "G6", "G7"]}, ["Y1", "Y2"], ["W"], current=bot)
    h.coordinator.scheduler.look_again(h.key)  # the rigged position was not a transaction: look again
    await h.do(cmds.ShowHand, human)  # any command lets the AI seats act
    state = await h.state()
    assert state.color is Color.GREEN  # the colour it holds most
    assert state.current == human.id


async def test_the_turn_timer_names_a_colour_for_an_absent_dealer(h: Harness) -> None:
    await h.start(2)
    await first_wild(h, "u2")
    await h.clock.advance(61)
    state = await h.state()
    assert state.color is not None and state.current == "u1"


async def test_the_challenged_hand_is_shown_to_the_challenger_only(h: Harness) -> None:
    u1, u2, u3 = await h.start(3)
    await h.rig({"u1": ["W+4", "R7", "G2"], "u2": ["B1", "B2"], "u3": ["Y5"]},
                ["Y1", "Y2", "Y3", "Y4", "Y6", "Y7", "Y8"], ["R3"], current="u1")
    assert (await h.do(cmds.PlayCards, u1, cards=("W+4",), color="blue")).ok
    public_before = len(h.chat.public)
    assert (await h.do(cmds.Challenge, u2)).ok
    note = h.chat.last_hand("u2").note
    assert note is not None and note.msgid == "{player}'s hand when you challenged: {hand}."
    assert note.params["hand"] == (Card.parse("R7"), Card.parse("G2"))
    for view in h.chat.public[public_before:]:  # nothing public names the challenged cards
        assert "R7" not in repr(view) and "Red 7" not in repr(view)
    for other in ("u1", "u3"):
        last = h.chat.last_hand(other).note
        assert last is None or "challenged" not in last.msgid


async def test_a_lost_challenge_shows_the_hand_and_the_six_drawn(h: Harness) -> None:
    u1, u2, u3 = await h.start(3)
    await h.rig({"u1": ["W+4", "B7", "G2"], "u2": ["B1", "B2"], "u3": ["Y5"]},
                ["Y1", "Y2", "Y3", "Y4", "Y6", "Y7", "Y8"], ["R3"], current="u1")
    assert (await h.do(cmds.PlayCards, u1, cards=("W+4",), color="blue")).ok
    assert (await h.do(cmds.Challenge, u2)).ok
    note = h.chat.last_hand("u2").note
    assert note.msgid == "{player}'s hand when you challenged: {hand}. You drew {cards}."
    assert note.params["hand"] == (Card.parse("B7"), Card.parse("G2"))
    assert len(note.params["cards"]) == 6


async def test_teams_of_three_need_a_multiple_of_three(h: Harness) -> None:
    people = await h.lobby(4, settings={"teams": "on", "team_size": "3"})
    reply = await h.do(cmds.StartGame, people[0])
    assert (reply.ok, reply.error) == (False, "bad_team_size")
    assert reply.text.params == {"size": 3, "least": 6}
    assert (await h.do(cmds.AddAiSeat, people[0])).ok
    assert (await h.do(cmds.AddAiSeat, people[0])).ok
    assert (await h.do(cmds.StartGame, people[0])).ok
    assert (await h.state()).team_ids == (0, 1, 0, 1, 0, 1)
