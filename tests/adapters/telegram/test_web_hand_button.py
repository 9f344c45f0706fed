"""With WEBAPP_URL set, the private hand message carries the web hand as a Mini App button
(Telegram allows web_app buttons in private chats, where hands are): real PTB, fake Bot API."""

import dataclasses

from adapters.web import auth
from adapters.web.links import WebLinks

from .conftest import ANA, BO, Harness, make_config


async def test_the_hand_message_opens_the_web_hand_as_a_mini_app(api, harness: Harness, monkeypatch):
    links = WebLinks("https://uno.example.org", b"secret")
    config = dataclasses.replace(make_config(api), web_links=links)
    monkeypatch.setattr("tests.adapters.telegram.conftest.make_config", lambda _api: config)
    await harness.start()
    game = await harness.open_game(ANA, BO)
    await harness.start_game(ANA, [ANA, BO])
    for user in (ANA, BO):
        hand = harness.hand_message(user)
        apps = [b for b in hand.buttons() if "web_app" in b]
        assert apps == [{"text": "🃏 Open my hand", "web_app": {"url": links.telegram(game)}}]
        # And a direct link for any browser, signed for this player and game only.
        direct = [b["url"] for b in hand.buttons() if b.get("text", "").startswith("🔗")]
        assert len(direct) == 1 and direct[0].startswith("https://uno.example.org/#token=")
        claims = auth.read_token(links.secret, direct[0].split("#token=")[1], links.now())
        assert (claims.platform, claims.user_id, claims.game_id) == ("telegram", str(user.id), game)
    # Never in the group: a web_app button is for the player's own chat.
    assert not any("web_app" in b for m in api.chat_messages(-100777) for b in m.buttons())


async def test_without_webapp_url_there_is_no_button(harness: Harness):
    await harness.start()
    await harness.open_game(ANA, BO)
    await harness.start_game(ANA, [ANA, BO])
    assert not any("web_app" in b for b in harness.hand_message(ANA).buttons())
