"""The move model: a hand view offers exactly the engine's legal moves, each by a reference
that ``command_for`` turns back into the command for that very move."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.coordinator import commands as cmds
from bot.coordinator.choose import command_for
from bot.coordinator.moves import BadMoveRef, moves_of, parse_ref, play_options
from bot.coordinator.ports import ChatKey, User
from bot.coordinator.refusals import Refusal
from bot.engine import GameState, apply, legal_actions
from bot.engine.actions import CatchUno, Play
from bot.engine.cards import Card, Color
from bot.engine.rules import HOUSE, OFFICIAL
from tests.engine.test_properties import games
from tests.positions import action_for
from tests.positions import positions as _positions

CHAT = ChatKey("telegram", "-1")
ME = User("u1", "Ana")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games(), st.integers(5, 60))
def test_the_moves_are_exactly_the_legal_actions(game, steps):
    players, rules, seed = game
    for state in _positions(players, rules, seed, steps):
        for player in state.players:
            actions = legal_actions(state, player)
            moves = moves_of(actions, state)
            # one move per distinct legal action, and each reference names that action
            assert {action_for(m.ref, player) for m in moves} == set(actions)
            assert len({m.ref for m in moves}) == len(moves)
            # the grouped plays cover every play move, and each choice they offer is legal
            options = play_options(moves)
            play_refs = {m.ref for m in moves if m.kind == "play"}
            assert set().union(*(o.refs for o in options)) == play_refs if options else not play_refs
            for option in options:
                for ref in option.refs:
                    action = action_for(ref, player)
                    assert isinstance(action, Play) and action.cards == option.cards
                    assert (action.color in option.colors) if option.colors else action.color is None
                    assert (action.swap in option.targets) if option.targets else action.swap is None
                    assert option.ref(action.color, action.swap, action.uno) == ref
                assert option.uno == any(action_for(r, player).uno for r in option.refs)


def test_identical_cards_may_play_and_declare_uno():
    rules = HOUSE.with_(multi_play=True, uno_identical=True, jump_in=False,
                                          seven_zero=False)
    state, _ = GameState.from_position(
        ["u1", "u2"], {"u1": ["R5", "R5", "R5"], "u2": ["G1", "G2"]}, ["Y1", "Y2", "Y3"],
        rules=rules, discard=["R3"], color="R", current="u1")
    options = play_options(moves_of(legal_actions(state, "u1"), state))
    single = next(o for o in options if o.cards == (Card.parse("R5"),))
    assert single.uno and single.plain  # two identical R5 left: UNO may be declared
    assert any(o.cards == (Card.parse("R5"),) * 2 for o in options)


def test_a_seven_asks_for_a_target_only_when_cards_remain():
    rules = OFFICIAL.with_(seven_zero=True)
    state, _ = GameState.from_position(
        ["u1", "u2", "u3"], {"u1": ["R7"], "u2": ["G1"], "u3": ["B1"]}, ["Y1"],
        rules=rules, discard=["R3"], color="R", current="u1")
    (last,) = play_options(moves_of(legal_actions(state, "u1"), state))
    assert last.targets == ()
    state, _ = GameState.from_position(
        ["u1", "u2", "u3"], {"u1": ["R7", "G9"], "u2": ["G1"], "u3": ["B1"]}, ["Y1"],
        rules=rules, discard=["R3"], color="R", current="u1")
    seven = next(o for o in play_options(moves_of(legal_actions(state, "u1"), state))
                 if o.card == Card.parse("R7"))
    assert set(seven.targets) == {"u2", "u3"} and seven.uno


def test_a_wild_asks_for_a_colour_and_a_take_says_how_many():
    rules = OFFICIAL
    state, _ = GameState.from_position(
        ["u1", "u2"], {"u1": ["W+4", "G2"], "u2": ["G1", "B3"]}, ["Y1", "Y2", "Y3", "Y4"],
        rules=rules, discard=["R3"], color="R", current="u1")
    (wild,) = [o for o in play_options(moves_of(legal_actions(state, "u1"), state))]
    assert wild.colors == tuple(Color) and wild.uno
    state, _ = apply(state, action_for(wild.ref(Color.BLUE), "u1"))
    moves = moves_of(legal_actions(state, "u2"), state)
    assert {m.kind for m in moves} == {"take", "challenge", "catch"}  # u1 did not say UNO
    assert next(m for m in moves if m.kind == "take").amount == 4


def test_a_reference_becomes_the_command_it_names():
    play = command_for("pW+4~B!", chat=CHAT, user=ME, press="abc123")
    assert play == cmds.PlayCards(CHAT, ME, ("W+4",), "B", True, None, press="abc123")
    assert command_for("pR7@u2", chat=CHAT, user=ME).swap_with == "u2"
    assert command_for("pG5.G5", chat=CHAT, user=ME).cards == ("G5", "G5")
    assert isinstance(command_for("d", chat=CHAT, user=ME), cmds.Draw)
    assert isinstance(command_for("n", chat=CHAT, user=ME), cmds.Pass)
    assert isinstance(command_for("u", chat=CHAT, user=ME), cmds.DeclareUno)
    assert isinstance(command_for("c", chat=CHAT, user=ME), cmds.Challenge)
    assert command_for("k@u3", chat=CHAT, user=ME) == cmds.CallUno(CHAT, ME, target="u3")
    assert command_for("o~G", chat=CHAT, user=ME) == cmds.NameColor(CHAT, ME, color="G")


@pytest.mark.parametrize("forged", ["", "x", "pZ9", "p", "pR5~Q", "k@", "o~", "d!", "pR5:G",
                                    "p" + ".R5" * 40, None, 5, ["d"]])
def test_a_forged_reference_is_refused(forged):
    with pytest.raises(BadMoveRef):
        parse_ref(forged)
    with pytest.raises(Refusal) as refused:
        command_for(forged, chat=CHAT, user=ME)
    assert refused.value.code == "bad_move"


def test_catches_name_their_target():
    rules = OFFICIAL
    state, _ = GameState.from_position(
        ["u1", "u2"], {"u1": ["R5", "G2"], "u2": ["G1", "B3"]}, ["Y1", "Y2", "Y3", "Y4"],
        rules=rules, discard=["R3"], color="R", current="u1")
    state, _ = apply(state, Play("u1", (Card.parse("R5"),)))
    moves = moves_of(legal_actions(state, "u2"), state)
    assert [m.ref for m in moves if m.kind == "catch"] == ["k@u1"]
    assert action_for("k@u1", "u2") == CatchUno("u2", "u1")


@pytest.mark.parametrize("preset", ["official", "house"])
async def test_whole_games_played_by_choosing_offered_moves(h, preset):
    """Two people play only by pressing what their hand views offer: every offered move is
    accepted, and the hand view sent after it is the one pressed next (with its token)."""
    people = await h.start(3, settings={"preset": preset})
    rnd = random.Random(preset)
    for _ in range(400):
        record = await h.store.load(h.key)
        if record is None or record.status != "running":  # the match may be played out
            break
        state = await h.state()
        if state.winner is not None:
            break
        actor = next(p for p in people if p.id == state.current)
        view = h.chat.last_hand(actor.id)
        assert {action_for(m.ref, actor.id) for m in view.moves} == set(legal_actions(state, actor.id))
        assert view.moves
        own = [m for m in view.moves if m.kind != "catch"]
        move = rnd.choice(own)
        reply = await h.do(cmds.ChooseMove, actor, ref=move.ref, press=view.press)
        assert reply.ok, (move, reply)


async def test_a_press_on_an_earlier_hand_is_refused(h):
    people = await h.start(2)
    state = await h.state()
    actor = next(p for p in people if p.id == state.current)
    view = h.chat.last_hand(actor.id)
    first = next(m for m in view.moves if m.kind in ("play", "draw"))
    assert (await h.do(cmds.ChooseMove, actor, ref=first.ref, press=view.press)).ok
    again = await h.do(cmds.ChooseMove, actor, ref=first.ref, press=view.press)
    assert not again.ok and again.error in ("stale_press", "not_your_turn")
    before = await h.record()
    forged = await h.do(cmds.ChooseMove, actor, ref="pR5:evil")
    assert not forged.ok and forged.error == "bad_move"
    assert forged.text is not None and "button" in forged.text.msgid
    assert (await h.record()).version == before.version
