"""A finished match's recap on the web pages: its facts in the player's and the spectators'
state, pushed live when the match ends; its picture from an endpoint that each page's own
credential opens, and a clear 403 or 404 page (never a 500) for everyone else."""

from __future__ import annotations

import io
import json

import pytest
from PIL import Image

from adapters.web import auth
from bot.coordinator import commands as cmds
from tests.adapters.web.test_server import session_for, state_of
from tests.adapters.web.test_watch import (
    assert_no_hand_card,
    assert_no_user_id,
    hand_cards,
    watch_state,
    watch_token,
)

PNG = b"\x89PNG"


async def one_hand_match(web, **settings):
    """Ana and Bo in a one-hand match, Ana about to win it with her last card."""
    ana, bo = await web.two_players(settings={"target_score": 1, "turn_timer": 0, **settings})
    await web.rig({ana.id: ["R1"], bo.id: ["G5", "G6", "Y7"]}, ["Y1", "Y2", "Y3", "B4"], ["R9"],
                  current=ana.id, color="R")
    return ana, bo


async def win(web, ana) -> None:
    assert (await web.do(cmds.PlayCards, ana, cards=("R1",))).ok
    assert await web.store.load(web.key) is None  # the match is over


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def test_the_finished_match_shows_its_recap_to_players_and_spectators(web):
    ana, bo = await one_hand_match(web)
    game = await web.game_id()
    session, watch = await session_for(web, ana.id, game), watch_token(web, game)
    assert (await state_of(web, session))["recap"] is None  # not before the end
    assert (await (await watch_state(web, watch)).json())["recap"] is None
    cards = hand_cards(await web.state(), [bo])  # what Bo still holds at the end
    await win(web, ana)
    mine = (await state_of(web, session))["recap"]
    assert mine["image"] == "/api/recap.png" and mine["title"].startswith("Match of ")
    assert "1 hand played." in mine["facts"] and "Hands won: Ana 1, Bo 0" in mine["facts"]
    body = await (await watch_state(web, watch)).text()
    shown = json.loads(body)["recap"]
    assert shown["image"] == "/api/watch/recap.png" and shown["facts"] == mine["facts"]
    assert json.loads(body)["labels"]["recap"] == "Match recap"
    assert_no_hand_card(body, cards)  # names and counts only
    assert_no_user_id(body, ana.id, bo.id)
    for path, token in (("/api/recap.png", session), ("/api/watch/recap.png", watch)):
        response = await web.client.get(path, headers=bearer(token))
        assert response.status == 200 and response.content_type == "image/png"
        assert response.headers["Cache-Control"] == "private, no-store"
        picture = await response.read()
        assert picture.startswith(PNG)
        assert Image.open(io.BytesIO(picture)).size == (1000, 600)


async def test_the_recap_is_pushed_live_to_open_pages_when_the_match_ends(web):
    ana, _ = await one_hand_match(web)
    game = await web.game_id()
    player = await web.client.ws_connect("/api/live")
    await player.send_json({"session": await session_for(web, ana.id, game)})
    spectator = await web.client.ws_connect("/api/watch/live")
    await spectator.send_json({"token": watch_token(web, game)})
    for socket in (player, spectator):
        assert (await socket.receive_json(timeout=2))["state"]["recap"] is None
    await win(web, ana)
    for socket in (player, spectator):
        state = (await socket.receive_json(timeout=2))["state"]
        while state["recap"] is None:
            state = (await socket.receive_json(timeout=2))["state"]
        assert "1 hand played." in state["recap"]["facts"]
        await socket.close()


async def test_a_chinese_chat_gets_its_recap_in_chinese(web):
    ana, _ = await one_hand_match(web, language="zh_CN")
    game = await web.game_id()
    await win(web, ana)
    data = await (await watch_state(web, watch_token(web, game))).json()
    assert "共打了1局。" in data["recap"]["facts"] and "的比赛" in data["recap"]["title"]
    assert data["labels"]["recap"] == "比赛回顾"


@pytest.mark.parametrize("case", ["forged", "altered", "expired", "player_link", "session",
                                  "other_platform", "no_game", "junk", "none"])
async def test_every_bad_credential_on_the_spectators_recap_gets_a_403_page(web, case):
    ana, _ = await one_hand_match(web)
    game = await web.game_id()
    await win(web, ana)
    good = watch_token(web, game)
    payload, signature = good.split(".")
    token = {
        "forged": auth.sign_token(b"not our secret", platform="telegram", user_id="", game_id=game,
                                  expires=web.clock.now() + 600, kind="watch"),
        "altered": auth._b64(auth._unb64(payload).replace(game.encode(), b"x" * len(game)))
        + "." + signature,
        "expired": watch_token(web, game, ttl=-1),
        "player_link": web.link_token(ana.id, game),
        "session": web.link_token(ana.id, game, kind="session"),
        "other_platform": watch_token(web, game, platform="discord"),
        "no_game": watch_token(web, "nosuchgame"),
        "junk": "a.b.c\u00e9",
        "none": "",
    }[case]
    response = await web.client.get("/api/watch/recap.png", headers=bearer(token))
    assert response.status == 403 and response.content_type == "text/html"
    page = await response.text()
    assert "not valid any more" in page and not (await response.read()).startswith(PNG)
    chinese = await web.client.get("/api/watch/recap.png",
                                   headers={**bearer(token), "Accept-Language": "zh-CN,zh;q=0.9"})
    assert chinese.status == 403 and "链接已失效" in await chinese.text()


@pytest.mark.parametrize("case", ["forged", "expired", "link_not_session", "watch_token",
                                  "not_seated", "none"])
async def test_every_bad_credential_on_a_players_recap_gets_a_403_page(web, case):
    ana, _ = await one_hand_match(web)
    game = await web.game_id()
    await win(web, ana)
    token = {
        "forged": auth.sign_token(b"not our secret", platform="telegram", user_id=ana.id,
                                  game_id=game, expires=web.clock.now() + 600, kind="session"),
        "expired": web.link_token(ana.id, game, kind="session", ttl=-1),
        "link_not_session": web.link_token(ana.id, game),
        "watch_token": watch_token(web, game),
        "not_seated": web.link_token("1003", game, kind="session"),
        "none": "",
    }[case]
    response = await web.client.get("/api/recap.png", headers=bearer(token) if token else {})
    assert response.status == 403 and response.content_type == "text/html"
    assert "open your hand again from the chat" in await response.text()


async def test_before_the_end_or_after_a_stop_there_is_no_recap_a_404_page(web):
    ana, _ = await one_hand_match(web)
    game = await web.game_id()
    session, watch = await session_for(web, ana.id, game), watch_token(web, game)
    for path, token in (("/api/recap.png", session), ("/api/watch/recap.png", watch)):
        response = await web.client.get(path, headers=bearer(token))
        assert response.status == 404 and "no recap yet" in await response.text()
    assert (await web.do(cmds.StopGame, ana)).ok  # stopped early: no match to look back on
    response = await web.client.get("/api/watch/recap.png", headers=bearer(watch))
    assert response.status == 404
    assert (await (await watch_state(web, watch)).json())["recap"] is None


async def test_poking_the_recap_endpoints_never_gets_a_500(web):
    ana, _ = await one_hand_match(web)
    game = await web.game_id()
    await win(web, ana)
    token = watch_token(web, game)
    for method, path, headers in [
            ("GET", "/api/watch/recap.png?token=" + token, {}),  # a token in the address: no
            ("POST", "/api/watch/recap.png", bearer(token)),
            ("GET", "/api/watch/recap.png", {"Authorization": "Bearer " + "x" * 5000}),
            ("GET", "/api/watch/recap.png", {"Authorization": "Basic abc"}),
            ("GET", "/api/recap.png/../state", bearer(token)),
            ("HEAD", "/api/recap.png", {})]:
        response = await web.client.request(method, path, headers=headers)
        assert response.status < 500, (method, path)
        assert response.status != 200, (method, path)


async def test_a_two_table_matchs_recap_reaches_the_pages_of_both_tables(web):
    from tests.coordinator.test_two_tables import SETTINGS, human_command

    people = await web.lobby(1, 7, settings={**SETTINGS, "rotation_hands": "1"})
    assert (await web.do(cmds.StartGame, people[0])).ok
    web.games = (await web.record()).two_tables.games
    sockets = []
    for table in web.games:  # a spectator's page open on each table
        socket = await web.client.ws_connect("/api/watch/live")
        await socket.send_json({"token": watch_token(web, table)})
        assert (await socket.receive_json(timeout=2))["state"]["recap"] is None
        sockets.append(socket)
    for _ in range(5000):
        if await web.store.load(web.key) is None:
            break
        command = await human_command(web, people[0])
        if command is not None:
            assert (await web.coordinator.handle(command)).ok
    assert await web.store.load(web.key) is None  # the champion is named
    for socket, table in zip(sockets, web.games, strict=True):
        state = (await socket.receive_json(timeout=2))["state"]
        while state["recap"] is None:  # the table finished first; the recap came with the hub
            state = (await socket.receive_json(timeout=2))["state"]
        assert "7 hands played at each of the 2 tables." in state["recap"]["facts"]
        response = await web.client.get("/api/watch/recap.png",
                                        headers=bearer(watch_token(web, table)))
        assert response.status == 200 and (await response.read()).startswith(PNG)
        await socket.close()
