"""The web hand's HTTP and WebSocket API over a real coordinator: who gets in (401 for
everyone else), that a player sees their own hand only, moves through the coordinator's
commands with the same refusals, stale taps refused, and live pushes to every open page."""

import asyncio
import dataclasses
import json

import pytest

from bot.engine.cards import Card


async def session_for(web, user_id: str, game_id: str) -> str:
    response = await web.client.post("/api/session", json={"token": web.link_token(user_id, game_id)})
    assert response.status == 200
    return (await response.json())["session"]


async def state_of(web, session: str) -> dict:
    response = await web.client.get("/api/state", headers={"Authorization": f"Bearer {session}"})
    assert response.status == 200
    return await response.json()


async def act(web, session: str, **move) -> dict:
    response = await web.client.post("/api/action", json=move,
                                     headers={"Authorization": f"Bearer {session}"})
    assert response.status == 200
    return await response.json()


async def test_a_player_sees_the_table_and_only_their_own_hand(web):
    ana, bo = await web.two_players()
    game = await web.game_id()
    state = await state_of(web, await session_for(web, ana.id, game))
    game_state = await web.state()
    mine = [str(card) for card in game_state.hand(ana.id)]
    assert sorted(c["code"] for c in state["hand"]["cards"]) == sorted(mine)
    assert {seat["name"] for seat in state["table"]["seats"]} == {"Ana", "Bo"}
    assert state["table"]["top"] == str(game_state.top)
    # Nothing of Bo's hand anywhere in Ana's state, only his count.
    theirs = [seat for seat in state["table"]["seats"] if seat["id"] == bo.id][0]
    assert theirs["cards"] == game_state.card_count(bo.id)
    assert "hand" not in json.dumps(theirs)


async def test_telegram_init_data_opens_a_session_for_a_seated_player(web):
    ana, _ = await web.two_players()
    game = await web.game_id()
    response = await web.client.post("/api/session",
                                     json={"init_data": web.init_data(ana.id), "game": game})
    assert response.status == 200
    state = await state_of(web, (await response.json())["session"])
    assert state["me"] == ana.id


@pytest.mark.parametrize("case", ["forged", "other_bot", "stale", "not_seated", "wrong_game",
                                  "discord_link_for_telegram_game", "session_as_link", "junk"])
async def test_every_bad_credential_gets_a_bare_401(web, case):
    ana, _ = await web.two_players()
    game = await web.game_id()
    bodies = {
        "forged": {"init_data": web.init_data(ana.id).replace("Ana", "Eve"), "game": game},
        "other_bot": {"init_data": web.init_data(ana.id, token="1:OTHER"), "game": game},
        "stale": {"init_data": web.init_data(ana.id, auth_date=web.clock.now() - 7200),
                  "game": game},
        "not_seated": {"init_data": web.init_data("1003"), "game": game},
        "wrong_game": {"token": web.link_token(ana.id, "nope")},
        "discord_link_for_telegram_game": {"token": web.link_token(ana.id, game,
                                                                   platform="discord")},
        "session_as_link": {"token": web.link_token(ana.id, game, kind="session")},
        "junk": [1, 2],
    }
    response = await web.client.post("/api/session", json=bodies[case])
    assert response.status == 401
    assert await response.json() == {"error": "unauthorized"}


async def test_expired_links_and_sessions_are_refused(web):
    ana, _ = await web.two_players()
    game = await web.game_id()
    link = web.link_token(ana.id, game, ttl=60)
    session = await session_for(web, ana.id, game)
    await web.clock.advance(61)
    response = await web.client.post("/api/session", json={"token": link})
    assert response.status == 401
    assert (await state_of(web, session))["me"] == ana.id  # a session lives longer
    await web.clock.advance(5 * 3600)
    response = await web.client.get("/api/state", headers={"Authorization": f"Bearer {session}"})
    assert response.status == 401


async def test_api_calls_without_a_session_are_401(web):
    ana, _ = await web.two_players()
    game = await web.game_id()
    link = web.link_token(ana.id, game)
    for headers in ({}, {"Authorization": "Bearer nonsense"}, {"Authorization": f"Bearer {link}"}):
        assert (await web.client.get("/api/state", headers=headers)).status == 401
        assert (await web.client.post("/api/action", json={"action": "move", "ref": "d"},
                                      headers=headers)).status == 401


async def test_a_move_goes_through_the_coordinator_and_a_stale_tap_is_refused(web):
    ana, bo = await web.two_players()
    game = await web.game_id()
    await web.rig({ana.id: ["R5", "G7", "B1"], bo.id: ["R9", "Y2", "Y3"]}, ["B3", "B4", "B5"],
                  ["R1"], current=ana.id)
    session = await session_for(web, ana.id, game)
    state = await state_of(web, session)
    answer = await act(web, session, action="move", ref="pR5", version=state["version"])
    assert answer["ok"], answer
    assert Card.parse("R5") not in (await web.state()).hand(ana.id)
    assert answer["state"]["table"]["top"] == "R5"
    # The same tap again, against the old version: refused, nothing changes.
    before = await web.state()
    again = await act(web, session, action="move", ref="pG7", version=state["version"])
    assert again["ok"] is False and again["error"] == "stale"
    assert "moved on" in again["text"]
    assert (await web.state()) == before


async def test_refusals_are_the_coordinators_localised_answers(web):
    ana, bo = await web.two_players(settings={"language": "zh_CN"})
    game = await web.game_id()
    await web.rig({ana.id: ["R5", "G7"], bo.id: ["R9", "Y2"]}, ["B3"], ["R1"], current=ana.id)
    session = await session_for(web, bo.id, game)
    state = await state_of(web, session)
    assert state["locale"] == "zh_CN" and state["labels"]["draw"] == "摸牌"
    before = await web.state()
    answer = await act(web, session, action="move", ref="pR9", version=state["version"])
    assert answer["ok"] is False and answer["error"] == "not_your_turn"
    assert answer["text"] == "还没轮到你：现在轮到Ana。"  # and whose turn it is
    assert (await web.state()) == before


@pytest.mark.parametrize("move", [
    {"action": "explode"}, {"action": "play", "cards": "R5"}, {"action": "play", "cards": [5]},
    {"action": "play", "cards": ["R5"], "color": 3}, {"action": "call_out", "target": 7}, [1]])
async def test_malformed_moves_get_a_clear_answer_and_change_nothing(web, move):
    ana, _ = await web.two_players()
    session = await session_for(web, ana.id, await web.game_id())
    before = await web.state()
    if isinstance(move, dict):
        move = {**move, "version": (await state_of(web, session))["version"]}
    response = await web.client.post("/api/action", json=move,
                                     headers={"Authorization": f"Bearer {session}"})
    answer = await response.json()
    assert answer["ok"] is False and answer["error"] == "bad_action" and answer["text"]
    assert (await web.state()) == before


async def test_a_wild_needs_its_colour_and_then_sets_it(web):
    ana, bo = await web.two_players()
    game = await web.game_id()
    await web.rig({ana.id: ["W", "G7", "B1"], bo.id: ["R9", "Y2"]}, ["B3", "B4"], ["R1"],
                  current=ana.id)
    session = await session_for(web, ana.id, game)
    version = (await state_of(web, session))["version"]
    refused = await act(web, session, action="move", ref="pW", version=version)
    assert refused["ok"] is False
    answer = await act(web, session, action="move", ref="pW~G", version=version)
    assert answer["ok"], answer
    assert answer["state"]["table"]["color"] == "G"


async def receive_state(socket, timeout: float = 2.0) -> dict:
    message = await asyncio.wait_for(socket.receive_json(), timeout)
    assert message["type"] == "state"
    return message["state"]


async def test_live_pages_follow_every_move(web):
    ana, bo = await web.two_players()
    game = await web.game_id()
    await web.rig({ana.id: ["R5", "G7", "B1"], bo.id: ["R9", "Y2", "Y3"]}, ["B3", "B4"], ["R1"],
                  current=ana.id)
    ana_session = await session_for(web, ana.id, game)
    bo_socket = await web.client.ws_connect("/api/live")
    await bo_socket.send_json({"session": await session_for(web, bo.id, game)})
    first = await receive_state(bo_socket)
    assert first["hand"]["is_turn"] is False and first["table"]["top"] == "R1"
    version = (await state_of(web, ana_session))["version"]
    assert (await act(web, ana_session, action="move", ref="pR5", version=version))["ok"]
    pushed = await receive_state(bo_socket)
    assert pushed["table"]["top"] == "R5" and pushed["hand"]["is_turn"] is True
    assert sorted(c["code"] for c in pushed["hand"]["cards"]) == ["R9", "Y2", "Y3"]
    await bo_socket.close()
    await asyncio.sleep(0)
    assert web.web.hub.open_pages() == 0
    assert game not in web.web._matches  # nothing kept for a game no page watches


async def test_a_live_socket_without_a_valid_session_is_closed_401(web):
    ana, _ = await web.two_players()
    game = await web.game_id()
    for first in ({"session": "forged.token"}, {"session": web.link_token(ana.id, game)},
                  "not json"):
        socket = await web.client.ws_connect("/api/live")
        if isinstance(first, dict):
            await socket.send_json(first)
        else:
            await socket.send_str(first)
        message = await asyncio.wait_for(socket.receive(), 2)
        assert socket.close_code == 4401, message
        await socket.close()


async def test_card_pictures_are_served_and_junk_is_404(web):
    response = await web.client.get("/cards/W%2B4.png")
    assert response.status == 200 and response.content_type == "image/png"
    assert (await response.read())[:8] == b"\x89PNG\r\n\x1a\n"
    assert (await web.client.get("/cards/Q9.png")).status == 404


async def test_the_page_is_served_without_caching_or_referrer(web):
    response = await web.client.get("/")
    assert response.status == 200
    assert response.headers["Cache-Control"] == "no-store"
    assert response.headers["Referrer-Policy"] == "no-referrer"
    assert "/api/session" in await response.text()


def test_a_discord_link_carries_only_a_signed_token_after_the_hash():
    from adapters.web.links import WebLinks
    from adapters.web.server import WebHand

    web = WebHand(links=WebLinks("https://uno.example/", b"k", lambda: 1_800_000_000.0),
                  store=None)
    link = web.link("discord", "7", "g1")
    assert link.startswith("https://uno.example/#token=")
    from adapters.web import auth
    claims = auth.read_token(b"k", link.split("#token=")[1], 1_800_000_000.0)
    assert (claims.user_id, claims.game_id, claims.kind) == ("7", "g1", "link")
    assert web.telegram_url("g 1") == "https://uno.example/?game=g%201"


async def test_the_page_draws_cards_in_the_players_own_theme(web):
    from bot.coordinator import commands as cmds

    ana, bo = await web.two_players()
    game = await web.game_id()
    assert (await web.do(cmds.SetCardTheme, ana, theme="high_contrast")).ok
    assert (await state_of(web, await session_for(web, ana.id, game)))["theme"] == "high_contrast"
    assert (await state_of(web, await session_for(web, bo.id, game)))["theme"] == "classic"
    classic = await (await web.client.get("/cards/Y5.png")).read()
    contrast = await (await web.client.get("/cards/Y5.png?t=high_contrast")).read()
    assert classic != contrast  # the palette the page asks for is the one drawn


async def test_stopping_the_server_closes_live_pages_at_once():
    """A stopping bot tells each open page it is going away (1001) rather than keeping the
    shutdown waiting on them."""
    import aiohttp

    from .conftest import WebHarness

    harness = WebHarness()
    port = await harness.web.start("127.0.0.1", 0)
    base = f"http://127.0.0.1:{port}"
    _, bo = await harness.two_players()
    game = await harness.game_id()
    async with aiohttp.ClientSession() as http:
        response = await http.post(f"{base}/api/session", json={"token": harness.link_token(bo.id, game)})
        session = (await response.json())["session"]
        socket = await http.ws_connect(f"{base}/api/live")
        await socket.send_json({"session": session})
        assert (await asyncio.wait_for(socket.receive(), 5)).type == aiohttp.WSMsgType.TEXT
        await asyncio.wait_for(harness.web.stop(), 10)
        message = await asyncio.wait_for(socket.receive(), 5)
        assert message.type == aiohttp.WSMsgType.CLOSE
        assert message.data == aiohttp.WSCloseCode.GOING_AWAY


async def test_after_a_hand_both_pages_say_how_the_hand_before_ended(web):
    from bot.coordinator import commands as cmds

    from .test_watch import watch_state, watch_token

    ana, bo = await web.two_players(settings={"target_score": 500, "turn_timer": 0})
    game = await web.game_id()
    session = await session_for(web, bo.id, game)
    assert (await state_of(web, session))["table"]["previous_hand"] is None  # the first hand
    await web.rig({ana.id: ["R1"], bo.id: ["G5", "Y7"]}, ["Y1", "Y2", "Y3", "B4"] * 5, ["R9"],
                  current=ana.id, color="R")
    assert (await web.do(cmds.PlayCards, ana, cards=("R1",))).ok  # Ana wins hand 1; hand 2 is dealt
    table = (await state_of(web, session))["table"]
    assert table["hand_number"] == 2
    assert table["previous_hand"] == "🏁 Ana won hand 1 (+12 points). Standings: Ana: 12 points, Bo: 0 points"
    watched = await (await watch_state(web, watch_token(web, game))).json()
    assert watched["table"]["previous_hand"] == table["previous_hand"]


async def test_a_player_a_bot_stands_in_for_opens_the_page_and_has_the_seat_back(web):
    ana, bo = await web.two_players()
    game = await web.game_id()
    record = await web.record()
    record.seats = [s if s.user_id != ana.id else dataclasses.replace(s, ai="normal") for s in record.seats]
    record.book.taken_over.append(ana.id)  # as three missed turns leave it
    await web.store.save(record)
    state = await state_of(web, await session_for(web, ana.id, game))
    record = await web.record()
    assert record.seat_of(ana.id).ai is None and ana.id not in record.book.taken_over
    assert state["hand"] is not None and len(state["hand"]["cards"]) == (await web.state()).card_count(ana.id)
    # A bot's own seat still has no page.
    record.seats = [s if s.user_id != bo.id else dataclasses.replace(s, ai="normal") for s in record.seats]
    await web.store.save(record)
    refused = await web.client.post("/api/session", json={"token": web.link_token(bo.id, game)})
    assert refused.status == 401


async def test_coming_back_is_for_a_player_a_bot_stands_in_for_only(web):
    ana, _ = await web.two_players()
    session = await session_for(web, ana.id, await web.game_id())
    state = await state_of(web, session)
    assert state["stood_in"] is False and state["labels"]["back"]
    before = await web.record()
    answer = await act(web, session, action="back", version=state["version"])
    assert answer["ok"] is False and answer["error"] == "stale" and answer["state"]
    assert (await web.record()).version == before.version  # nothing happened
