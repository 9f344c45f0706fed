"""/watch: anyone in the group gets a URL button to the read-only live table; the web server's
count of open pages reaches the group's table; without WEBAPP_URL the answer says why, in the
asker's language. Real PTB against the fake Bot API, and the real web server behind the link."""

import asyncio
import dataclasses

from aiohttp.test_utils import TestClient, TestServer

from adapters.telegram.app import TelegramBot
from adapters.web import auth
from adapters.web.links import WebLinks
from adapters.web.server import WebHand
from bot.coordinator import Coordinator

from .conftest import ANA, BO, DEE, GROUP, Harness, TgUser, make_config

LINKS = WebLinks("https://uno.example.org", b"secret")


async def start_with_web(harness: Harness) -> WebHand:
    web = WebHand(links=LINKS, store=harness.store, telegram_token=harness.api.token)

    def make(port):
        return Coordinator(web.tee(port), harness.store, harness.clock, ai_delay=0,
                           seed=harness.seed, notifier=port, table_opener=port, watchers=web)

    config = dataclasses.replace(make_config(harness.api), web_links=LINKS)
    harness.bot = TelegramBot(config, make, harness.store)
    await harness.bot.start()
    return web


def watch_answer(harness: Harness, since: int):
    return [m for m in harness.api.chat_messages(GROUP)[since:]
            if any("url" in b and "/watch#token=" in b["url"] for b in m.buttons())]


async def test_a_bystander_gets_a_watch_link_and_the_table_counts_the_page(harness: Harness):
    web = await start_with_web(harness)
    game = await harness.open_game(ANA, BO)
    await harness.start_game(ANA, [ANA, BO])
    await harness.settle()
    since = len(harness.api.chat_messages(GROUP))
    harness.say(DEE, "/watch")
    await harness.api.wait_for(lambda: watch_answer(harness, since), what="the watch link")
    answer = watch_answer(harness, since)[0]
    assert "never a card of any hand" in answer.text
    [button] = answer.buttons()
    assert button["text"] == "Watch the table" and "web_app" not in button
    token = button["url"].split("#token=")[1]
    claims = auth.read_token(LINKS.secret, token, LINKS.now())
    assert (claims.kind, claims.platform, claims.user_id, claims.game_id) == ("watch", "telegram", "", game)

    client = TestClient(TestServer(web.app()))
    await client.start_server()
    try:
        socket = await client.ws_connect("/api/watch/live")
        await socket.send_json({"token": token})
        state = (await socket.receive_json(timeout=2))["state"]
        assert state["watchers"] == 1
        assert {seat["name"] for seat in state["table"]["seats"]} == {"Ana", "Bo"}
        record = (await harness.store.active_games())[0]
        mover = ANA if record.current().game.current == str(ANA.id) else BO
        harness.say(mover, "/draw")
        for _ in range(100):
            table = harness.table()
            if table is not None and "👁 1 watching" in table.text:
                break
            await asyncio.sleep(0.02)
        assert table is not None and "👁 1 watching" in table.text, table
        await socket.close()
    finally:
        await client.close()


async def test_without_webapp_url_the_answer_says_watching_needs_the_web_page(harness: Harness):
    await harness.start()
    await harness.open_game(ANA, BO)
    await harness.start_game(ANA, [ANA, BO])
    text = await harness.ask(DEE, "/watch", privately=True)
    assert "WEBAPP_URL" in text and "web page" in text


async def test_the_refusal_speaks_chinese_to_a_chinese_speaker(harness: Harness):
    await harness.start()
    await harness.open_game(ANA, BO)
    reader = TgUser(1005, "Lin", language_code="zh-hans")
    text = await harness.ask(reader, "/watch", privately=True)
    assert "观战需要" in text and "WEBAPP_URL" in text


async def test_without_a_game_there_is_nothing_to_watch(harness: Harness):
    await start_with_web(harness)
    text = await harness.ask(DEE, "/watch", privately=True)
    assert "no game" in text.lower()
