"""The real `unobot run telegram` process with WEBAPP_URL: the composition root serves the
web hand beside the bot, the private hand carries the Mini App button, a proven player
gets their page's session and a forged one a 401; no token or link secret in the log."""

from __future__ import annotations

import json
import time
from urllib.parse import parse_qs, urlparse

import aiohttp

from adapters.web import auth
from tests.adapters.telegram.conftest import ANA, BO, GROUP, api  # noqa: F401  (a fixture)
from tests.adapters.telegram.test_secrets import BotProcess, assert_no_secret, free_port

LINK_SECRET = "link-secret-Do-Not-Log-0042"


def web_app_url(fake, user) -> str | None:
    for call in fake.calls_to("sendMessage", user.id) + fake.calls_to("editMessageText", user.id):
        markup = call.params.get("reply_markup")
        markup = json.loads(markup) if isinstance(markup, str) else markup or {}
        for row in markup.get("inline_keyboard", []):
            for button in row:
                if "web_app" in button:
                    return button["web_app"]["url"]
    return None


async def test_the_bot_process_serves_the_web_hand(api, tmp_path):  # noqa: F811
    port = free_port()
    env = {"TELEGRAM_BOT_TOKEN": api.token, "TELEGRAM_API_BASE_URL": f"http://127.0.0.1:{api.port}",
           "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'uno.db'}", "UNOBOT_LOG_LEVEL": "DEBUG",
           "WEBAPP_URL": f"http://127.0.0.1:{port}", "WEBAPP_PORT": str(port),
           "WEBAPP_SECRET": LINK_SECRET}
    async with BotProcess(env, tmp_path) as bot:
        await api.wait_for(lambda: api.calls_to("deleteWebhook"), timeout=30, what="polling to start")
        api.send_text(ANA, GROUP, "/new")
        await api.wait_for(lambda: api.calls_to("sendMessage", GROUP), what="the lobby")
        api.send_text(BO, GROUP, "/join")
        await api.wait_for(lambda: "Bo" in str(api.calls[-1].params), what="Bo joined")
        api.send_text(ANA, GROUP, "/start")
        await api.wait_for(lambda: web_app_url(api, ANA), timeout=15, what="Ana's hand with the button")
        url = web_app_url(api, ANA)
        game = parse_qs(urlparse(url).query)["game"][0]
        init_data = auth.sign_init_data({"auth_date": str(int(time.time())),
                                         "user": json.dumps(ANA.to_dict())}, api.token)
        async with aiohttp.ClientSession() as http:
            async with http.get(url) as page:
                assert page.status == 200 and "/api/session" in await page.text()
            async with http.post(f"http://127.0.0.1:{port}/api/session",
                                 json={"init_data": init_data, "game": game}) as answer:
                assert answer.status == 200
                session = (await answer.json())["session"]
            async with http.get(f"http://127.0.0.1:{port}/api/state",
                                headers={"Authorization": f"Bearer {session}"}) as state:
                data = await state.json()
                mine = next(seat for seat in data["table"]["seats"] if seat["id"] == str(ANA.id))
                assert data["me"] == str(ANA.id)
                assert len(data["hand"]["cards"]) == mine["cards"] >= 7  # 7 dealt (+2 drawn?)
            forged = init_data.replace("Ana", "Eve")
            async with http.post(f"http://127.0.0.1:{port}/api/session",
                                 json={"init_data": forged, "game": game}) as answer:
                assert answer.status == 401
        output = await bot.output()
    assert bot.process.returncode == 0, output[-2000:]
    assert "web hand listening" in output
    assert_no_secret(output, api.token, LINK_SECRET, session, init_data.split("hash=")[-1])
