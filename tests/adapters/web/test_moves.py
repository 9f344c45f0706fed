"""The web page is offered exactly the engine's legal moves (no more, no less) over many
positions under every preset and option, and a move sent back by its reference is played."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adapters.web.views import snapshot_json
from bot.coordinator import presenter
from bot.coordinator.ports import ChatKey, GameRecord, Seat
from bot.coordinator.snapshot import PlayerSnapshot
from bot.engine import Match, legal_actions
from bot.engine.rules import HOUSE, OFFICIAL
from tests.adapters.web.test_server import act, session_for, state_of
from tests.engine.test_properties import games
from tests.positions import action_for
from tests.positions import positions as _positions

CHAT = ChatKey("telegram", "-100")

VARIANTS = {
    "official": OFFICIAL, "house": HOUSE,
    **{f"{base}-stacking-{mode}": rules.with_(stacking=mode)
       for base, rules in (("official", OFFICIAL), ("house", HOUSE))
       for mode in ("off", "same", "progressive", "by_value")},
    "jump_in": OFFICIAL.with_(jump_in=True),
    "multi_play": OFFICIAL.with_(multi_play=True),
    "multi_play-jump_in": OFFICIAL.with_(multi_play=True, jump_in=True),
    "seven_zero": OFFICIAL.with_(seven_zero=True),
    "seven_zero-multi_play": HOUSE.with_(seven_zero=True, multi_play=True),
    "uno_identical": OFFICIAL.with_(multi_play=True, uno_identical=True),
    "draw_until_playable": OFFICIAL.with_(draw_until_playable=True),
    "no_play_after_draw": OFFICIAL.with_(play_after_draw=False),
    "force_play": OFFICIAL.with_(force_play=True),
    "no_wd4_challenge": OFFICIAL.with_(wd4_challenge=False),
    "first_wild-dealer_names": OFFICIAL.with_(first_wild="dealer_names"),
    "first_wild-any_card": OFFICIAL.with_(first_wild="any_card"),
    "small_hands": HOUSE.with_(hand_size=2, uno_identical=True, seven_zero=True),
}


def _page_refs(state, player: str) -> tuple[list[str], dict, object]:
    """The references the page's JSON offers ``player`` (plays' choices and other moves),
    the JSON itself, and the hand view it was made from."""
    record = GameRecord(game_id="g1", chat=CHAT, status="running", creator=state.players[0],
                        seats=[Seat(p, f"Name {p}") for p in state.players], rules={})
    match = Match(tuple(state.players), state.rules, 1, (), 1, state)
    view = presenter.hand_view(record, match, player, "en")
    snapshot = PlayerSnapshot(game_id="g1", chat=CHAT, status="running", version=1,
                              locale="en", name=f"Name {player}", lobby=None,
                              table=presenter.table_view(record, match, "en"), hand=view)
    data = snapshot_json(snapshot, 0.0)
    hand = data["hand"]
    refs = [choice["ref"] for option in hand["plays"] for choice in option["choices"]]
    refs += [move["ref"] for move in hand["moves"]]
    return refs, hand, view


def _check_position(state) -> int:
    offered = 0
    for player in state.players:
        refs, hand, view = _page_refs(state, player)
        legal = set(legal_actions(state, player))
        assert len(refs) == len(set(refs))  # each move once
        assert set(refs) == {m.ref for m in view.moves}  # no more, no less
        assert {action_for(ref, player) for ref in refs} == legal
        # each option's choices say what the page asks for, from the option's own lists
        for option in hand["plays"]:
            for choice in option["choices"]:
                assert choice["ref"].startswith("p" + ".".join(option["cards"]))
                assert (choice["color"] in option["colors"]) if option["colors"] else choice["color"] is None
                targets = [user for user, _ in option["targets"]]
                assert (choice["target"] in targets) if targets else choice["target"] is None
            assert option["uno"] == any(c["uno"] for c in option["choices"])
            assert option["plain"] == any(not c["uno"] for c in option["choices"])
        # a card is raised exactly when some option begins with it
        firsts = {option["cards"][0] for option in hand["plays"]}
        jumps = {option["cards"][0] for option in hand["plays"] if option["jump_in"]}
        for card in hand["cards"]:
            assert (card["playable"] or card["jump_in"]) == (card["code"] in firsts)
            assert card["jump_in"] == (card["code"] in jumps)
        offered += len(refs)
    return offered


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(count=st.integers(2, 5), seed=st.integers(0, 2**32), steps=st.integers(5, 40))
def test_the_page_offers_exactly_the_legal_moves(variant, count, seed, steps):
    rules = VARIANTS[variant]
    players = [f"p{i}" for i in range(count)]
    for state in _positions(players, rules, seed, steps):
        _check_position(state)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games(), st.integers(5, 50))
def test_the_page_offers_exactly_the_legal_moves_under_mixed_rules(game, steps):
    players, rules, seed = game
    for state in _positions(players, rules, seed, steps):
        _check_position(state)


async def test_a_move_sent_by_its_reference_is_played_once(web):
    ana, bo = await web.two_players()
    game = await web.game_id()
    await web.rig({ana.id: ["R5", "R5", "G7"], bo.id: ["R9", "Y2", "Y3"]}, ["B3", "B4", "B5"],
                  ["R1"], current=ana.id, rules=OFFICIAL.with_(jump_in=False))
    session = await session_for(web, ana.id, game)
    state = await state_of(web, session)
    (option,) = [o for o in state["hand"]["plays"] if o["cards"] == ["R5"]]
    ref = option["choices"][0]["ref"]
    answer = await act(web, session, action="move", ref=ref, version=state["version"])
    assert answer["ok"], answer
    assert answer["state"]["table"]["top"] == "R5"
    # The same tap again, on the version it was made on: refused, nothing more is played.
    before = await web.state()
    again = await act(web, session, action="move", ref=ref, version=state["version"])
    assert again["ok"] is False and again["error"] == "stale"
    assert (await web.state()) == before
    assert sorted(str(c) for c in before.hand(ana.id)) == ["G7", "R5"]


async def test_a_malformed_or_unoffered_reference_is_refused(web):
    ana, bo = await web.two_players()
    game = await web.game_id()
    await web.rig({ana.id: ["R5", "G7"], bo.id: ["R9", "Y2"]}, ["B3"], ["R1"], current=ana.id)
    session = await session_for(web, ana.id, game)
    state = await state_of(web, session)
    before = await web.state()
    for ref in ("pR5:evil", "", None, 5, ["d"], "p" + ".R5" * 40):
        response = await web.client.post(
            "/api/action", json={"action": "move", "ref": ref, "version": state["version"]},
            headers={"Authorization": f"Bearer {session}"})
        assert response.status == 400, ref
    refused = await act(web, session, action="move", ref="pG7", version=state["version"])
    assert refused["ok"] is False  # well formed but not legal: the rules refuse it
    assert (await web.state()) == before
