"""The web hand under hostile or clumsy use: a doubled tap plays one card (the coordinator
refuses the second by its press token), malformed credentials and bodies are answered 400/401
and never logged at ERROR, and one player's live pages are capped."""

import asyncio
import json
import logging

import aiohttp
import pytest

from bot.engine.rules import HOUSE
from tests.adapters.web.test_server import act, receive_state, session_for, state_of


@pytest.mark.parametrize("tap", [{"action": "move", "ref": "pR5"}])
async def test_two_concurrent_taps_of_the_same_card_play_it_once(web, tap):
    ana, bo = await web.two_players()
    game = await web.game_id()
    session = await session_for(web, ana.id, game)
    read = web.store.get

    async def database_read(game_id):  # a real database answers later: requests interleave
        record = await read(game_id)
        await asyncio.sleep(0.005)
        return record

    web.store.get = database_read
    for round_ in range(20):
        # Ana holds two identical cards: under jump-in the second R5 could follow the first
        # out of turn, so only the press token tells the double tap from a jump-in.
        await web.rig({ana.id: ["R5", "R5", "G7"], bo.id: ["Y9", "Y2", "Y3"]},
                      ["B3", "B4", "B5", "B6"], ["R1"], current=ana.id,
                      rules=HOUSE.with_(multi_play=False))
        # Two reads at once leave two open connections, so the two taps arrive together.
        states = await asyncio.gather(state_of(web, session), state_of(web, session))
        version = states[0]["version"]
        answers = await asyncio.gather(*(act(web, session, **tap, version=version) for _ in range(2)))
        hand = (await web.state()).hand(ana.id)
        assert sorted(str(card) for card in hand) == ["G7", "R5"], (round_, answers)
        assert sorted(answer["ok"] for answer in answers) == [False, True], answers
        refused = next(answer for answer in answers if not answer["ok"])
        assert refused["error"] == "stale" and "moved on" in refused["text"]


def no_errors_logged(caplog) -> None:
    errors = [record for record in caplog.records if record.levelno >= logging.ERROR]
    assert errors == [], [record.getMessage() for record in errors]


NESTED = "[" * 5000 + "]" * 5000


def as_bytes(body: str | bytes) -> bytes:
    return body if isinstance(body, bytes) else body.encode()


async def test_a_non_ascii_init_data_hash_is_a_bare_401(web, caplog):
    ana, _ = await web.two_players()
    game = await web.game_id()
    forged = web.init_data(ana.id).split("&hash=")[0] + "&hash=%E4%BD%A0%E5%A5%BD"
    with caplog.at_level(logging.INFO):
        response = await web.client.post("/api/session", json={"init_data": forged, "game": game})
    assert response.status == 401
    assert await response.json() == {"error": "unauthorized"}
    no_errors_logged(caplog)


async def test_malformed_session_bodies_are_401_and_never_logged_as_errors(web, caplog):
    ana, _ = await web.two_players()
    game = await web.game_id()
    bodies = [NESTED, '{"token": ' + NESTED + "}", '{"init_data": {"a": 1}, "game": []}',
              '{"token": ["x"]}', '{"token": "\u00e9.\u00e9"}', '{"token": 5}',
              "1" * 5000, b"\xff\xfe", '"just a string"', "null",
              '{"init_data": "hash=\u00e9&user=%7B%7D", "game": "' + game + '"}']
    with caplog.at_level(logging.INFO):
        for body in bodies:
            response = await web.client.post("/api/session", data=as_bytes(body),
                                             headers={"Content-Type": "application/json"})
            assert response.status == 401, body[:40]
        huge = await web.client.post("/api/session", data=b"{" + b" " * 100_000 + b"}",
                                     headers={"Content-Type": "application/json"})
        assert huge.status == 413  # the body is refused unread
    no_errors_logged(caplog)


async def test_malformed_action_bodies_are_400_and_never_logged_as_errors(web, caplog):
    ana, _ = await web.two_players()
    session = await session_for(web, ana.id, await web.game_id())
    headers = {"Authorization": f"Bearer {session}", "Content-Type": "application/json"}
    before = await web.state()
    version = (await state_of(web, session))["version"]
    bodies = [NESTED, '{"action": "play", "cards": ' + NESTED + "}", "not json", b"\xff",
              '{"action": ["play"]}', json.dumps({"action": "play", "cards": [{"a": 1}], "version": version}),
              json.dumps({"action": "play", "cards": ["R5"], "swap": [1], "version": version}),
              json.dumps({"action": "name_color", "color": 7, "version": version}),
              '{"action": "call_out", "target": {"x": 1}}', "1" * 5000]
    with caplog.at_level(logging.INFO):
        for body in bodies:
            response = await web.client.post("/api/action", data=as_bytes(body),
                                             headers=headers)
            assert response.status == 400, body[:40]
            answer = await response.json()
            assert answer["ok"] is False and answer["error"] == "bad_action" and answer["text"]
        huge = await web.client.post("/api/action", data=b"[" + b" " * 100_000 + b"]", headers=headers)
        assert huge.status == 413
        for header in ("Bearer \u00e9\u00e9.\u00e9", "Bearer " + "a." * 3000, "Basic x"):
            response = await web.client.post("/api/action", data=b"{}", headers={
                "Authorization": header.encode("utf-8").decode("latin-1")})
            assert response.status == 401
    assert (await web.state()) == before
    no_errors_logged(caplog)


async def test_a_bad_first_websocket_frame_is_closed_4401_without_a_traceback(web, caplog):
    ana, _ = await web.two_players()
    game = await web.game_id()
    frames = [NESTED, '{"session": ' + NESTED + "}", '{"session": "\u00e9.\u00e9"}',
              '{"session": 5}', "[1]", "null", b"\x00binary", '{"session": "' + "a" * 100_000 + '"}',
              json.dumps({"session": web.link_token(ana.id, game)})]
    with caplog.at_level(logging.INFO):
        for frame in frames:
            socket = await web.client.ws_connect("/api/live")
            if isinstance(frame, bytes):
                await socket.send_bytes(frame)
            else:
                await socket.send_str(frame)
            await asyncio.wait_for(socket.receive(), 5)
            assert socket.close_code == 4401, frame[:40]
            await socket.close()
    no_errors_logged(caplog)


async def test_a_fourth_live_page_of_one_player_closes_the_oldest(web):
    from adapters.web.server import MAX_PAGES_PER_PLAYER, REPLACED

    ana, bo = await web.two_players()
    game = await web.game_id()
    session = await session_for(web, ana.id, game)
    bo_socket = await web.client.ws_connect("/api/live")
    await bo_socket.send_json({"session": await session_for(web, bo.id, game)})
    await receive_state(bo_socket)
    sockets = []
    for _ in range(MAX_PAGES_PER_PLAYER + 2):
        socket = await web.client.ws_connect("/api/live")
        await socket.send_json({"session": session})
        await receive_state(socket)
        sockets.append(socket)
    for oldest in sockets[:2]:  # closed, with a reason the page can show
        message = await asyncio.wait_for(oldest.receive(), 5)
        assert message.type == aiohttp.WSMsgType.CLOSE
        assert message.data == REPLACED and message.extra == "opened in another page", message
    assert all(not socket.closed for socket in sockets[2:]) and not bo_socket.closed
    assert web.web.hub.open_pages() == MAX_PAGES_PER_PLAYER + 1  # Bo's page is not Ana's
    # The newest pages still follow the game.
    await web.rig({ana.id: ["R5", "G7"], bo.id: ["R9", "Y2"]}, ["B3", "B4"], ["R1"],
                  current=ana.id)
    version = (await state_of(web, session))["version"]
    assert (await act(web, session, action="move", ref="pR5", version=version))["ok"]
    for socket in sockets[2:]:
        state = await receive_state(socket)
        while state["table"]["top"] != "R5":
            state = await receive_state(socket)
    for socket in (*sockets, bo_socket):
        await socket.close()


async def test_the_dealer_names_a_first_wilds_colour_through_the_api(web):
    ana, bo = await web.two_players()
    game = await web.game_id()
    await web.rig({ana.id: ["R5", "B4"], bo.id: ["G1", "B6"]}, ["Y1", "Y2", "Y3"], ["W"],
                  current=ana.id)
    session = await session_for(web, ana.id, game)
    state = await state_of(web, session)
    assert state["hand"]["name_color"] is True and state["table"]["color"] is None
    assert state["labels"]["name_color"] == "Name the colour of the first card"
    bo_state = await state_of(web, await session_for(web, bo.id, game))
    assert bo_state["hand"]["name_color"] is False
    answer = await act(web, session, action="move", ref="o~B", version=state["version"])
    assert answer["ok"], answer
    assert answer["state"]["table"]["color"] == "B" and answer["state"]["hand"]["name_color"] is False
    assert (await web.state()).color.value == "B"
    # The same tap again (its twin racing in, or an old page): refused, nothing changes.
    before = await web.state()
    again = await act(web, session, action="move", ref="o~G", version=state["version"])
    assert again["ok"] is False and again["error"] == "stale"
    assert (await web.state()) == before
