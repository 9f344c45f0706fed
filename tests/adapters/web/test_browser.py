"""The web hand in a real browser (Debian's chromium driven by playwright, no download):
two players open their pages, one from Telegram's initData and one from a Discord-style
link; a move on one page shows on the other without reloading; a wild's colour is picked
in the dialog; forged initData and an expired link are refused. A screenshot of the page is
kept in test-artifacts/."""

from __future__ import annotations

import asyncio
import json
from urllib.parse import quote

import pytest

from bot.coordinator import commands as cmds
from tests.adapters.web.conftest import WebHarness
from tests.browser import ARTIFACTS, chromium

THEME = json.dumps({"bg_color": "#ffffff", "text_color": "#000000",
                    "secondary_bg_color": "#f0f0f0", "button_color": "#2481cc",
                    "button_text_color": "#ffffff", "hint_color": "#707579"})


@pytest.fixture
async def browser():
    async with chromium() as launched:
        yield launched


@pytest.fixture
async def served():
    harness = WebHarness()
    port = await harness.web.start("127.0.0.1", 0)
    harness.base = f"http://127.0.0.1:{port}"
    yield harness
    await harness.web.stop()


async def open_page(browser, url: str, *, width: int = 412, height: int = 860):
    context = await browser.new_context(viewport={"width": width, "height": height},
                                        device_scale_factor=1)
    page = await context.new_page()
    await page.goto(url)
    return page


async def open_hand_and_watch(browser, web, user_id: str, game: str, *, watch_width: int = 412):
    """A player's hand page and the game's spectators' page, both showing the game."""
    hand = await open_page(browser, f"{web.base}/#token={web.link_token(user_id, game)}")
    token = web.web.links.watch("telegram", game).split("#token=")[1]
    watch = await open_page(browser, f"{web.base}/watch#token={token}", width=watch_width)
    await hand.wait_for_selector("body[data-ready='1']", timeout=10_000)
    await watch.wait_for_selector("#game:not([hidden])", timeout=10_000)
    return hand, watch


async def test_two_players_play_through_their_pages(browser, served):
    web = served
    ana, bo = await web.two_players()
    game = await web.game_id()
    await web.rig({ana.id: ["W", "R5", "G7", "B1"], bo.id: ["R9", "Y2", "Y3", "G2"]},
                  ["B3", "B4", "B5"], ["R1"], current=ana.id)
    telegram_hash = (f"tgWebAppData={quote(web.init_data(ana.id))}&tgWebAppVersion=8.0"
                     f"&tgWebAppThemeParams={quote(THEME)}")
    ana_page = await open_page(browser, f"{web.base}/?game={game}#{telegram_hash}")
    bo_page = await open_page(browser, f"{web.base}/#token={web.link_token(bo.id, game)}")
    for page in (ana_page, bo_page):
        await page.wait_for_selector("body[data-ready='1']", timeout=10_000)
    # The proof left the address bar once used.
    assert "tgWebAppData" not in ana_page.url and "token=" not in bo_page.url
    assert await ana_page.text_content("[data-testid=status]") == "▶ your turn!"
    assert await bo_page.text_content("[data-testid=status]") == "⏳ Ana is to move."
    assert (await ana_page.text_content("[data-testid=seal]")).startswith("🔒 Deck sealed · SHA-256 ")
    # Ana sees her own cards, Bo's page only his.
    assert await ana_page.locator("[data-testid=hand] button").count() == 4
    assert await bo_page.locator("[data-testid=card-W]").count() == 0
    assert await ana_page.is_disabled("[data-testid=card-G7]")  # no match on R1
    assert (await ana_page.get_attribute("[data-testid=card-R5] img", "src")).endswith("/cards/R5.png")
    # Bo draws his cards in high contrast: his page asks for that palette, live.
    from bot.coordinator import commands as cmds

    assert (await web.do(cmds.SetCardTheme, bo, theme="high_contrast")).ok
    await bo_page.wait_for_selector("[data-testid=card-R9] img[src$='?t=high_contrast']", timeout=5_000)
    await web.clock.advance(0)

    await ana_page.click("[data-testid=card-R5]")
    # Bo's page follows without a reload: the new top card, and his turn.
    await bo_page.wait_for_selector("#top[data-card='R5']", timeout=5_000)
    await bo_page.wait_for_function(
        "document.querySelector('[data-testid=status]').textContent === '▶ your turn!'")
    assert (await web.state()).top.rank.value == "5"

    await bo_page.click("[data-testid=card-R9]")
    await ana_page.wait_for_selector("#top[data-card='R9']", timeout=5_000)
    # A wild asks for its colour in a dialog; the chosen colour reaches the other page.
    await ana_page.click("[data-testid=card-W]")
    await ana_page.wait_for_selector("[data-testid=color-picker][open]")
    ARTIFACTS.mkdir(exist_ok=True)
    await ana_page.screenshot(path=str(ARTIFACTS / "web-hand-colour-picker.png"))
    await ana_page.click("[data-testid=color-picker] button[data-color='G']")
    await bo_page.wait_for_selector("#color[data-color='G']", timeout=5_000)
    state = await web.state()
    assert state.color.value == "G" and str(state.top) == "W"
    await bo_page.screenshot(path=str(ARTIFACTS / "web-hand.png"))


async def test_forged_and_expired_credentials_show_nothing(browser, served):
    web = served
    ana, bo = await web.two_players()
    game = await web.game_id()
    forged = web.init_data(ana.id).replace("Ana", "Eve")
    expired = web.link_token(bo.id, game, ttl=-1)
    for url in (f"{web.base}/?game={game}#tgWebAppData={quote(forged)}",
                f"{web.base}/#token={expired}", f"{web.base}/"):
        page = await open_page(browser, url)
        await page.wait_for_selector("body[data-error='unauthorized']", timeout=10_000)
        assert await page.locator("[data-testid=hand] button").count() == 0
        assert "401" in await page.text_content("[data-testid=status]")


async def test_the_dealer_names_a_first_wilds_colour_from_the_page(browser, served):
    web = served
    ana, bo = await web.two_players()
    game = await web.game_id()
    await web.rig({ana.id: ["R5", "B4"], bo.id: ["G1", "B6"]}, ["Y1", "Y2", "Y3"], ["W"],
                  current=ana.id)
    page = await open_page(browser, f"{web.base}/#token={web.link_token(ana.id, game)}")
    await page.wait_for_selector("body[data-ready='1']", timeout=10_000)
    # The page asks for the colour at once; cancelled, the button asks again.
    await page.wait_for_selector("[data-testid=color-picker][open]", timeout=5_000)
    await page.click("#color-cancel")
    assert await page.text_content("[data-testid=name-color]") == "Name the colour of the first card"
    await page.click("[data-testid=name-color]")
    await page.wait_for_selector("[data-testid=color-picker][open]")
    await page.click("[data-testid=color-picker] button[data-color='B']")
    await page.wait_for_selector("#color[data-color='B']", timeout=5_000)
    assert await page.is_hidden("[data-testid=name-color]")
    state = await web.state()
    assert state.color.value == "B" and state.current == bo.id


async def test_the_page_sends_no_second_tap_while_one_is_on_its_way(browser, served):
    web = served
    ana, bo = await web.two_players()
    game = await web.game_id()
    await web.rig({ana.id: ["R5", "R5", "G7"], bo.id: ["Y9", "Y2", "Y3"]}, ["B3", "B4", "B5"],
                  ["R1"], current=ana.id)
    page = await open_page(browser, f"{web.base}/#token={web.link_token(ana.id, game)}")
    await page.wait_for_selector("body[data-ready='1']", timeout=10_000)
    sent, answer = [], asyncio.Event()
    handle = web.web._handle

    async def slow_handle(command):  # the answer to the first tap is held back
        sent.append(command)
        await answer.wait()
        return await handle(command)

    web.web.serve_commands(slow_handle)
    await page.locator("[data-testid=card-R5]").first.click()
    await page.wait_for_selector("body[data-pending='1']", timeout=5_000)
    assert await page.locator("[data-testid=hand] button:enabled").count() == 0
    assert await page.is_disabled("[data-testid=draw]")
    # Taps that reach the page anyway (a script, a fast double tap) send nothing.
    await page.evaluate("""() => {
        for (const button of document.querySelectorAll('[data-testid=hand] button')) button.click();
        act({ action: "draw" });
    }""")
    await page.wait_for_function("() => true")  # one round trip to the page: its handlers ran
    assert len(sent) == 1
    answer.set()
    await page.wait_for_selector("body:not([data-pending])", timeout=5_000)
    await page.wait_for_selector("#top[data-card='R5']", timeout=5_000)
    assert len(sent) == 1
    assert sorted(str(card) for card in (await web.state()).hand(ana.id)) == ["G7", "R5"]


async def test_a_page_replaced_by_a_newer_one_says_so_and_stays_closed(browser, served):
    from adapters.web.server import MAX_PAGES_PER_PLAYER

    web = served
    ana, _ = await web.two_players()
    game = await web.game_id()
    pages = []
    for _ in range(MAX_PAGES_PER_PLAYER + 1):
        page = await open_page(browser, f"{web.base}/#token={web.link_token(ana.id, game)}")
        await page.wait_for_selector("body[data-ready='1']", timeout=10_000)
        await page.wait_for_function("() => socket && socket.readyState === 1", timeout=5_000)
        pages.append(page)
    await pages[0].wait_for_selector("body[data-replaced='1']", timeout=5_000)
    assert "open in another page" in await pages[0].text_content("[data-testid=status]")
    assert await pages[0].locator("[data-testid=hand] button:enabled").count() == 0
    assert web.web.hub.open_pages() == MAX_PAGES_PER_PLAYER  # the old page did not come back
    for page in pages[1:]:
        assert await page.get_attribute("body", "data-replaced") is None


async def test_three_identical_cards_play_one_and_say_uno_from_the_page(browser, served):
    from bot.engine.rules import HOUSE

    web = served
    ana, bo = await web.two_players()
    game = await web.game_id()
    rules = HOUSE.with_(multi_play=True, uno_identical=True, jump_in=False, seven_zero=False)
    await web.rig({ana.id: ["R5", "R5", "R5"], bo.id: ["G1", "G2", "G3"]}, ["Y1", "Y2", "Y3"],
                  ["R3"], current=ana.id, color="R", rules=rules)
    page = await open_page(browser, f"{web.base}/#token={web.link_token(ana.id, game)}")
    await page.wait_for_selector("body[data-ready='1']", timeout=10_000)
    # One R5 may go alone or with its twins: a tap chooses it, "Play selected" plays it.
    await page.locator("[data-testid=card-R5]").first.click()
    await page.wait_for_selector("[data-testid=play-selected]:not([hidden])", timeout=5_000)
    # Two identical R5 stay in hand: the rules let her say UNO! with this one.
    assert await page.is_enabled("[data-testid=uno-with]")
    await page.check("[data-testid=uno-with]")
    await page.click("[data-testid=play-selected]")
    await page.wait_for_selector("#top[data-card='R5']", timeout=5_000)
    state = await web.state()
    assert [str(card) for card in state.hand(ana.id)] == ["R5", "R5"]
    assert ana.id in state.declared and state.current == bo.id


async def test_a_seven_with_cards_left_asks_for_whom_to_swap_with(browser, served):
    from bot.engine.rules import OFFICIAL

    web = served
    ana, bo = await web.two_players()
    game = await web.game_id()
    await web.rig({ana.id: ["R7", "G9"], bo.id: ["B1", "B2", "B3"]}, ["Y1", "Y2", "Y3"],
                  ["R3"], current=ana.id, color="R", rules=OFFICIAL.with_(seven_zero=True))
    page = await open_page(browser, f"{web.base}/#token={web.link_token(ana.id, game)}")
    await page.wait_for_selector("body[data-ready='1']", timeout=10_000)
    await page.click("[data-testid=card-R7]")
    await page.wait_for_selector("[data-testid=swap-picker][open]", timeout=5_000)
    assert await page.locator("#swap-targets button").count() == 1  # only Bo is offered
    await page.click(f"[data-testid=swap-{bo.id}]")
    await page.wait_for_selector("#top[data-card='R7']", timeout=5_000)
    state = await web.state()
    assert sorted(str(card) for card in state.hand(ana.id)) == ["B1", "B2", "B3"]
    assert [str(card) for card in state.hand(bo.id)] == ["G9"]


async def test_a_card_that_may_jump_in_is_marked_and_plays_out_of_turn(browser, served):
    from bot.engine.rules import HOUSE

    web = served
    ana, bo = await web.two_players()
    game = await web.game_id()
    rules = HOUSE.with_(jump_in=True, multi_play=False, seven_zero=False)
    await web.rig({ana.id: ["G1", "G2", "G3"], bo.id: ["R5", "Y2", "Y3"]}, ["B1", "B2", "B3"],
                  ["R5"], current=ana.id, color="R", rules=rules)
    page = await open_page(browser, f"{web.base}/#token={web.link_token(bo.id, game)}")
    await page.wait_for_selector("body[data-ready='1']", timeout=10_000)
    assert await page.text_content("[data-testid=status]") == "⏳ Ana is to move."
    # Not his turn, yet his identical R5 is raised and may be played; the others wait.
    assert "jump-in" in await page.get_attribute("[data-testid=card-R5]", "class")
    assert await page.is_disabled("[data-testid=card-Y2]")
    await page.click("[data-testid=card-R5]")
    await page.wait_for_function(
        "document.querySelector('[data-testid=status]').textContent === '⏳ Ana is to move.'"
        " && !document.querySelector('[data-testid=card-R5]')", timeout=5_000)
    state = await web.state()
    assert sorted(str(card) for card in state.hand(bo.id)) == ["Y2", "Y3"]


async def test_a_waiting_penalty_is_taken_with_the_button_the_page_is_given(browser, served):
    from bot.engine.rules import HOUSE

    web = served
    ana, bo = await web.two_players()
    game = await web.game_id()
    await web.rig({ana.id: ["G1", "G2"], bo.id: ["R+2", "Y3"]}, ["B1", "B2", "B3", "B4"],
                  ["R5"], current=bo.id, color="R", rules=HOUSE.with_(jump_in=False))
    bo_page = await open_page(browser, f"{web.base}/#token={web.link_token(bo.id, game)}")
    await bo_page.wait_for_selector("body[data-ready='1']", timeout=10_000)
    await bo_page.click("[data-testid='card-R+2']")
    page = await open_page(browser, f"{web.base}/#token={web.link_token(ana.id, game)}")
    await page.wait_for_selector("body[data-ready='1']", timeout=10_000)
    await page.wait_for_selector("#top[data-card='R+2']", timeout=5_000)
    assert await page.text_content("[data-testid=draw]") == "Take +2"
    assert await page.is_disabled("[data-testid=pass]")
    await page.click("[data-testid=draw]")
    await page.wait_for_selector("[data-testid=hand] button >> nth=3", timeout=5_000)
    assert len((await web.state()).hand(ana.id)) == 4


async def test_several_cards_are_played_in_the_order_tapped(browser, served):
    from bot.engine.rules import HOUSE

    web = served
    ana, bo = await web.two_players()
    game = await web.game_id()
    rules = HOUSE.with_(multi_play=True, jump_in=False, seven_zero=False)
    await web.rig({ana.id: ["R5", "G5", "B9", "Y1"], bo.id: ["G1", "G2", "G3"]},
                  ["Y2", "Y3", "Y4"], ["R3"], current=ana.id, color="R", rules=rules)
    page = await open_page(browser, f"{web.base}/#token={web.link_token(ana.id, game)}")
    await page.wait_for_selector("body[data-ready='1']", timeout=10_000)
    await page.click("[data-testid=card-R5]")
    # Only a card that continues an offered group may join it.
    assert await page.is_enabled("[data-testid=card-G5]")
    assert await page.is_disabled("[data-testid=card-B9]")
    await page.click("[data-testid=card-G5]")
    await page.click("[data-testid=play-selected]")
    await page.wait_for_selector("#top[data-card='G5']", timeout=5_000)  # the last tapped on top
    state = await web.state()
    assert sorted(str(card) for card in state.hand(ana.id)) == ["B9", "Y1"]


async def test_a_spectator_page_shows_the_live_table_and_never_a_hand(browser, served):
    web = served
    ana, bo = await web.two_players()
    game = await web.game_id()
    await web.rig({ana.id: ["R5", "G7", "B1"], bo.id: ["R9", "Y2", "Y3"]},
                  ["B3", "B4", "B5"], ["R1"], current=ana.id)
    token = web.web.links.watch("telegram", game).split("#token=")[1]
    page = await open_page(browser, f"{web.base}/watch#token={token}")
    await page.wait_for_selector("#game:not([hidden])", timeout=10_000)
    await page.wait_for_function("document.querySelector('#watching').textContent.includes('1')",
                                 timeout=10_000)
    before = await page.text_content("body")
    assert "Ana" in before and "Bo" in before
    # No UNO! call yet: a sentence, not a numbered list of one.
    assert await page.locator("#race li").count() == 0
    assert await page.text_content("#no-race") == "No UNO! calls in this game yet."
    # The hand's sealed deck, as the table shows it: the first 16 hex digits of its SHA-256.
    fingerprint = (await web.match()).fingerprint.upper()
    short = " ".join(fingerprint[i:i + 4] for i in range(0, 16, 4))
    assert await page.text_content("#seal") == f"🔒 Deck sealed · SHA-256 {short}…"
    assert (await web.do(cmds.PlayCards, ana, cards=("R5",))).ok  # the table changes
    await page.wait_for_function("document.querySelector('#top').alt.includes('5')",
                                 timeout=10_000)
    shown = await page.content()
    for card in ("G7", "B1", "R9", "Y2", "Y3"):  # what the players hold, code or name
        assert f'"{card}"' not in shown and f">{card}<" not in shown
    await page.screenshot(path=str(ARTIFACTS / "watch-page.png"))


async def test_a_spectator_sees_what_waits_at_the_table_as_the_chat_table_words_it(browser, served):
    web = served
    ana, bo = await web.two_players()
    game = await web.game_id()
    await web.rig({ana.id: ["R5", "G7"], bo.id: ["R9", "Y2", "Y3"]}, ["B3", "B4", "B5"], ["R1"],
                  current=ana.id)
    token = web.web.links.watch("telegram", game).split("#token=")[1]
    page = await open_page(browser, f"{web.base}/watch#token={token}")
    await page.wait_for_selector("#game:not([hidden])", timeout=10_000)
    assert await page.text_content("#notes") == ""
    assert (await web.do(cmds.PlayCards, ana, cards=("R5",))).ok  # one card left, no UNO! said
    await page.wait_for_function("document.querySelector('#notes').textContent.includes('UNO')",
                                 timeout=10_000)
    assert await page.text_content("#notes") == \
        "❗ Did not say UNO!: Ana. Anyone can call them out."


async def test_a_chinese_players_page_and_the_spectators_read_no_english(browser, served):
    """In a Chinese chat, a player facing a Wild Draw Four reads their page in Chinese: the
    table, the penalty and what a challenge risks, the buttons; so do the spectators."""
    import re

    web = served
    ana, bo = await web.two_players(settings={"language": "zh_CN"})
    game = await web.game_id()
    await web.rig({ana.id: ["W+4", "G7", "B1"], bo.id: ["R9", "Y2", "Y3"]}, ["B3", "B4", "B5"],
                  ["R1"], current=ana.id)
    assert (await web.do(cmds.PlayCards, ana, cards=("W+4",), color="B")).ok
    hand, watch = await open_hand_and_watch(browser, web, bo.id, game)
    await hand.wait_for_function("document.querySelector('#note').textContent.includes('质疑')",
                                 timeout=10_000)
    for page in (hand, watch):
        shown = await page.inner_text("body")
        words = set(re.findall(r"[A-Za-z][A-Za-z']{2,}", shown)) - {"Ana", "UNO", "SHA"}
        assert not words, words
    assert await hand.text_content("[data-testid=draw]") == "接受+4"


async def test_the_recap_appears_live_on_the_hand_and_watch_pages_and_stays_on_reload(browser, served):
    web = served
    ana, bo = await web.two_players(settings={"target_score": 1, "turn_timer": 0})
    game = await web.game_id()
    await web.rig({ana.id: ["R1"], bo.id: ["G5", "G6", "Y7"]}, ["Y1", "Y2", "Y3", "B4"], ["R9"],
                  current=ana.id, color="R")
    hand, watch = await open_hand_and_watch(browser, web, ana.id, game, watch_width=1000)
    for page in (hand, watch):
        assert await page.is_hidden("[data-testid=recap]")  # not before the end
        await page.wait_for_function("() => socket && socket.readyState === 1", timeout=5_000)
    assert await hand.is_visible("#actions")
    await hand.click("[data-testid=card-R1]")  # Ana's last card wins the match
    await hand.wait_for_selector("#actions", state="hidden", timeout=10_000)  # nothing left to do
    for page in (hand, watch):  # both pages show it without a reload
        await page.wait_for_selector("[data-testid=recap-chart][data-loaded='1']", timeout=10_000)
        assert (await page.text_content("#recap-title")).startswith("Match recap · Match of ")
        facts = await page.locator("[data-testid=recap-facts] li").all_text_contents()
        assert "1 hand played." in facts and "Hands won: Ana 1, Bo 0" in facts
        assert await page.get_attribute("[data-testid=recap-chart]", "alt") == \
            "Each player's score after every hand"
        assert await page.evaluate("document.querySelector('#recap-chart').naturalWidth") == 1000
    ARTIFACTS.mkdir(exist_ok=True)
    await watch.screenshot(path=str(ARTIFACTS / "watch-recap.png"), full_page=True)
    shown = await watch.content()
    for card in ("G5", "G6", "Y7"):  # what Bo still holds: never on the spectators' page
        assert f'"{card}"' not in shown and f">{card}<" not in shown and card not in facts
    for page in (hand, watch):  # a reload after the end shows it again
        await page.reload()
        await page.wait_for_selector("[data-testid=recap-chart][data-loaded='1']", timeout=10_000)
        assert "1 hand played." in await page.text_content("[data-testid=recap-facts]")
    await hand.screenshot(path=str(ARTIFACTS / "web-hand-recap.png"), full_page=True)


async def test_a_seat_with_one_card_reads_one_card_on_the_hand_and_watch_pages(browser, served):
    web = served
    ana, bo = await web.two_players()
    game = await web.game_id()
    await web.rig({ana.id: ["R5"], bo.id: ["R9", "Y2", "Y3"]}, ["B3", "B4", "B5"], ["R1"],
                  current=bo.id)
    hand, watch = await open_hand_and_watch(browser, web, bo.id, game)
    for page in (hand, watch):
        rows = [" ".join(row.split()) for row in await page.locator("#seats li").all_inner_texts()]
        assert any(row.startswith("Ana") and "1 card ·" in row for row in rows), rows
        assert any(row.endswith("3 cards · 0 pts") for row in rows), rows
    # Your own seat says so in words on your page (and on no spectator's).
    assert "Bo (you)" in await hand.text_content("#seats")
    assert "(you)" not in await watch.text_content("#seats")


async def test_the_next_hand_says_how_the_one_before_ended_on_both_pages(browser, served):
    web = served
    ana, bo = await web.two_players(settings={"target_score": 500, "turn_timer": 0})
    game = await web.game_id()
    await web.rig({ana.id: ["R1"], bo.id: ["G5", "Y7"]}, ["Y1", "Y2", "Y3", "B4"] * 5, ["R9"],
                  current=ana.id, color="R")
    hand, watch = await open_hand_and_watch(browser, web, ana.id, game)
    for page in (hand, watch):
        assert await page.is_hidden("#previous-hand")  # the first hand: none before it
        await page.wait_for_function("() => socket && socket.readyState === 1", timeout=5_000)
    await hand.click("[data-testid=card-R1]")  # Ana's last card ends hand 1; hand 2 is dealt
    for page in (hand, watch):
        await page.wait_for_selector("#previous-hand:not([hidden])", timeout=10_000)
        assert (await page.text_content("#previous-hand")).startswith("🏁 Ana won hand 1 (+")
    await hand.screenshot(path=str(ARTIFACTS / "web-hand-next-hand.png"))


async def test_a_page_whose_player_left_says_so_and_offers_nothing(browser, served):
    web = served
    ana, bo = await web.two_players()
    game = await web.game_id()
    page = await open_page(browser, f"{web.base}/#token={web.link_token(bo.id, game)}")
    await page.wait_for_selector("body[data-ready='1']", timeout=10_000)
    await page.wait_for_function("() => socket && socket.readyState === 1", timeout=5_000)
    assert await page.locator("[data-testid=hand] button").count() == 7
    assert (await web.do(cmds.Leave, bo)).ok
    await page.wait_for_selector("body[data-error='seat_gone']", timeout=5_000)
    assert await page.text_content("[data-testid=status]") == "You have no seat in this game any more."
    assert await page.locator("[data-testid=hand] button").count() == 0
    assert await page.is_hidden("#actions")


async def test_a_player_a_bot_stands_in_for_comes_back_from_the_open_page(browser, served):
    web = served
    ana, bo = await web.two_players(settings={"turn_timer": 60})
    game = await web.game_id()
    page = await open_page(browser, f"{web.base}/#token={web.link_token(ana.id, game)}")
    await page.wait_for_selector("body[data-ready='1']", timeout=10_000)
    await page.wait_for_function("() => socket && socket.readyState === 1", timeout=5_000)
    assert await page.is_hidden("[data-testid=back]")
    for _ in range(20):  # Ana lets her turns run out; Bo plays his
        record = await web.record()
        if record.seat_of(ana.id).ai is not None:
            break
        if (await web.state()).current == ana.id:
            await web.clock.advance(61)
        else:
            assert (await web.human_move(bo)).ok
    assert (await web.record()).seat_of(ana.id).ai is not None  # a bot plays her seat
    await page.wait_for_selector("[data-testid=back]:not([hidden])", timeout=5_000)
    assert await page.text_content("[data-testid=status]") == "You were away too long: a bot plays for you."
    await page.click("[data-testid=back]")
    await page.wait_for_selector("[data-testid=back][hidden]", state="attached", timeout=5_000)
    assert (await web.record()).seat_of(ana.id).ai is None  # hers again
    assert await page.text_content("[data-testid=status]") != "You were away too long: a bot plays for you."
