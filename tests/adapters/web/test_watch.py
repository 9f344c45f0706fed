"""The spectators' page: a watch link shows the public table live and counts its pages, and no
card of any hand reaches it however the page or the API is poked; a watch token opens nothing
of a player's, and every bad credential is a bare 401, never a 500."""

import json
import re

import pytest

from adapters.web import auth
from adapters.web.links import WebLinks
from bot.coordinator import TableView
from bot.coordinator import commands as cmds
from bot.i18n import card_label
from tests.adapters.web.conftest import SECRET
from tests.waiting import wait_until


def watch_token(web, game_id: str, **kw) -> str:
    return web.link_token("", game_id, kind="watch", **kw)


async def watch_state(web, token: str):
    return await web.client.get("/api/watch/state", headers={"Authorization": f"Bearer {token}"})


def hand_cards(state, seats) -> set[str]:
    """Every card code in a hand, less those that are also the top card (a second copy)."""
    return {str(card) for seat in seats for card in state.hand(seat.id)} - {str(state.top)}


def tokens_of(text: str) -> set[str]:
    """The words of ``text`` (a JSON body): an id is looked for as a whole word, so that a
    short numeric id is not "found" inside a hex digest, a game id or a timestamp."""
    return set(re.findall(r"[A-Za-z0-9+]+", text))


def assert_no_user_id(text: str, *user_ids: str) -> None:
    tokens = tokens_of(text)
    for user_id in user_ids:
        assert user_id not in tokens, user_id


def assert_no_hand_card(text: str, cards: set[str]) -> None:
    tokens = tokens_of(text)
    for code in cards:
        assert code not in tokens, code
        assert card_label_of(code) not in text, code


def card_label_of(code: str) -> str:
    from bot.engine.cards import Card

    return card_label(Card.parse(code), "en")


async def test_the_link_opens_a_page_of_the_public_table_without_any_hand(web):
    ana, bo = await web.two_players()
    game = await web.game_id()
    link = web.web.links.watch("telegram", game)
    assert link.startswith("https://uno.example/watch#token=")
    token = link.split("#token=")[1]
    response = await watch_state(web, token)
    assert response.status == 200
    body = await response.text()
    data = json.loads(body)
    state = await web.state()
    table = data["table"]
    assert table["top"] == str(state.top)
    assert [seat["cards"] for seat in table["seats"]] == [state.card_count(p) for p in state.players]
    assert {seat["name"] for seat in table["seats"]} == {"Ana", "Bo"}
    assert table["turn_text"] in {"⏳ Ana is to move.", "⏳ Bo is to move."} and table["direction"] in (1, -1)
    assert "hand" not in data and "plays" not in body and "moves" not in body
    # The hand's sealed deck: its fingerprint, never its seed (the hand is being played).
    match = await web.match()
    assert table["fingerprint"] == match.fingerprint and table["seal"].startswith("🔒 Deck sealed")
    assert str(match.game.seed) not in body and str(match.seed) not in body
    assert_no_user_id(body, ana.id, bo.id)  # not even who is who on the platform
    assert_no_hand_card(body, hand_cards(state, [ana, bo]))
    # The page itself is static: nothing of the game is in it.
    page = await web.client.get("/watch")
    assert page.status == 200 and page.headers["Cache-Control"] == "no-store"
    assert_no_hand_card(await page.text(), hand_cards(state, [ana, bo]))


async def test_the_live_page_follows_the_game_and_counts_its_watchers(web):
    ana, bo = await web.two_players()
    game = await web.game_id()
    token = watch_token(web, game)
    first = await web.client.ws_connect("/api/watch/live")
    await first.send_json({"token": token})
    opening = (await first.receive_json(timeout=2))["state"]
    assert opening["watchers"] == 1
    assert web.web.watching(game) == 1
    second = await web.client.ws_connect("/api/watch/live")
    await second.send_json({"token": token})
    assert (await second.receive_json(timeout=2))["state"]["watchers"] == 2
    # The first page learns of the second watcher, then of the move.
    assert (await first.receive_json(timeout=2))["state"]["watchers"] == 2
    before = await web.state()
    await web.human_move(ana if before.current == ana.id else bo)
    after = await web.state()
    counts = [after.card_count(p) for p in after.players]
    pushed = (await first.receive_json(timeout=2))["state"]
    while [seat["cards"] for seat in pushed["table"]["seats"]] != counts:
        pushed = (await first.receive_json(timeout=2))["state"]
    assert pushed["table"]["top"] == str(after.top)
    assert_no_hand_card(json.dumps(pushed), hand_cards(after, [ana, bo]))
    # The chat's table counts the pages too.
    tables = [m for _, m, _ in web.chat.public if isinstance(m, TableView)]
    assert tables and tables[-1].watchers == 2
    await second.close()
    await wait_until(lambda: web.web.watching(game) == 1)
    await first.close()
    await wait_until(lambda: web.web.watching(game) == 0)


@pytest.mark.parametrize("case", ["forged", "altered", "expired", "player_link", "session",
                                  "other_platform", "no_game", "junk", "none"])
async def test_every_bad_watch_credential_gets_a_bare_401(web, case):
    await web.two_players()
    game = await web.game_id()
    good = watch_token(web, game)
    payload, signature = good.split(".")
    token = {
        "forged": auth.sign_token(b"not our secret", platform="telegram", user_id="", game_id=game,
                        expires=web.clock.now() + 600, kind="watch"),
        "altered": auth._b64(auth._unb64(payload).replace(b'"watch"', b'"wat_h"')) + "." + signature,
        "expired": watch_token(web, game, ttl=-1),
        "player_link": web.link_token("1001", game),
        "session": web.link_token("1001", game, kind="session"),
        "other_platform": watch_token(web, game, platform="discord"),
        "no_game": watch_token(web, "nosuchgame"),
        "junk": "a.b.c\u00e9",
        "none": "",
    }[case]
    response = await watch_state(web, token)
    assert response.status == 401
    assert await response.json() == {"error": "unauthorized"}
    socket = await web.client.ws_connect("/api/watch/live")
    await socket.send_str(json.dumps({"token": token}))
    await socket.receive(timeout=2)
    assert socket.close_code == 4401


async def test_a_watch_token_opens_nothing_of_a_players_hand(web):
    await web.two_players()
    game = await web.game_id()
    token = watch_token(web, game)
    bearer = {"Authorization": f"Bearer {token}"}
    assert (await web.client.post("/api/session", json={"token": token})).status == 401
    assert (await web.client.get("/api/state", headers=bearer)).status == 401
    action = await web.client.post("/api/action", json={"action": "draw"}, headers=bearer)
    assert action.status == 401
    assert (await web.client.get("/api/recap.png", headers=bearer)).status == 403
    socket = await web.client.ws_connect("/api/live")
    await socket.send_json({"session": token})
    await socket.receive(timeout=2)
    assert socket.close_code == 4401


@pytest.mark.parametrize("body", ["not json", "[]", "{\"token\": 5}", "{\"token\": {}}",
                                  "[" * 5000 + "]" * 5000])
async def test_a_poked_live_socket_is_closed_not_crashed(web, body):
    await web.two_players()
    socket = await web.client.ws_connect("/api/watch/live")
    await socket.send_str(body)
    await socket.receive(timeout=2)
    assert socket.close_code == 4401


async def test_poking_the_watch_api_never_gets_a_500(web):
    await web.two_players()
    game = await web.game_id()
    token = watch_token(web, game)
    for method, path in [("POST", "/api/watch/state"), ("GET", "/api/watch/state?token=" + token),
                         ("GET", "/api/watch/state/../state"), ("GET", "/watch/../api/state"),
                         ("DELETE", "/watch"), ("GET", "/api/watch/recap.png"),
                         ("GET", "/api/watch/recap.png?token=" + token),
                         ("GET", "/api/recap.png"), ("PUT", "/api/watch/recap.png")]:
        response = await web.client.request(method, path, headers={"Authorization": "Bearer x"})
        assert response.status < 500, (method, path)


async def test_a_page_stays_on_the_game_after_it_ends_and_shows_no_hand(web):
    ana, bo = await web.two_players()
    game = await web.game_id()
    state = await web.state()
    cards = hand_cards(state, [ana, bo])
    assert (await web.do(cmds.StopGame, ana)).ok
    response = await watch_state(web, watch_token(web, game))
    assert response.status == 200
    body = await response.text()
    assert json.loads(body)["status"] == "stopped"
    assert_no_hand_card(body, cards)


async def test_the_page_speaks_the_chats_language(web):
    await web.two_players(settings={"language": "zh_CN"})
    data = await (await watch_state(web, watch_token(web, await web.game_id()))).json()
    assert data["labels"]["race"] != "UNO! race"
    assert data["table"]["top_label"] == card_label((await web.state()).top, "zh_CN")
    # Counts as the table words them: "7张牌 · 0分", never an English unit.
    assert [(seat["cards_text"], seat["score_text"]) for seat in data["table"]["seats"]] == \
        [(f"{seat['cards']}张牌", f"{seat['score']}分") for seat in data["table"]["seats"]]


def test_links_sign_a_watch_token_naming_no_user():
    links = WebLinks("https://uno.example/", SECRET, lambda: 1000.0)
    token = links.watch("discord", "g1").split("#token=")[1]
    claims = auth.read_token(SECRET, token, 1000.0)
    assert (claims.kind, claims.platform, claims.user_id, claims.game_id) == ("watch", "discord", "", "g1")
    assert claims.expires == 1000.0 + auth.WATCH_TTL
