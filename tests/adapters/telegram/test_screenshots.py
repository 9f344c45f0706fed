"""The README's Telegram screenshots, drawn from the messages the bot really sent to the fake
Bot API (the group's photo table, a private hand and its "🖼 Show my hand" picture) and
photographed by Debian's chromium: written to test-artifacts/telegram-table.png and
telegram-hand.png (``make screenshots`` copies them to docs/). Each shot is checked to show
the very picture the bot uploaded, pixel for pixel."""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image, ImageChops

from bot.engine.cards import Card, Color
from bot.render.images import top_card_image
from tests.browser import ARTIFACTS, chromium

from .conftest import ANA, BO, CY, GROUP, Harness
from .fake_bot_api import CHAT_TITLES
from .helpers import refresh_hands, rig, take_turn
from .test_card_pictures import show_hand

PLAYERS = [ANA, BO, CY]


async def photograph(page_html: str, path: Path) -> list[Image.Image]:
    """Write the page's picture to ``path``; return what the shot shows in place of each of
    its pictures (img.picture), in order."""
    async with chromium() as browser:
        page = await browser.new_page(viewport={"width": 700, "height": 400}, device_scale_factor=1)
        await page.set_content(page_html)
        await page.locator("body").screenshot(path=str(path))
        boxes = [await img.bounding_box() for img in await page.locator("img.picture").all()]
    shot = Image.open(path).convert("RGB")
    return [shot.crop((round(b["x"]), round(b["y"]), round(b["x"] + b["width"]),
                       round(b["y"] + b["height"]))) for b in boxes if b is not None]


def shown_as(picture: bytes) -> Image.Image:
    """The picture on a message's white background, as a client shows it."""
    image = Image.open(io.BytesIO(picture)).convert("RGBA")
    canvas = Image.new("RGBA", image.size, (255, 255, 255, 255))
    canvas.alpha_composite(image)
    return canvas.convert("RGB")


def assert_same_picture(shown: Image.Image, picture: bytes) -> None:
    expected = shown_as(picture)
    assert shown.size == expected.size
    worst = max(high for _low, high in ImageChops.difference(shown, expected).getextrema())
    assert worst <= 3, "the shot does not show the uploaded picture"


async def test_screenshots_of_the_table_and_a_hand_show_the_uploaded_pictures(harness: Harness, monkeypatch):
    from .snapshot import chat_html, message_html

    monkeypatch.setitem(CHAT_TITLES, GROUP, "UNO night")
    await harness.start()
    await harness.open_game(ANA, BO, CY)
    await harness.start_game(ANA, PLAYERS)
    # Cy's old cards go back to the pile first, for Ana's to be found there (seeded deal).
    await rig(harness, hands={str(CY.id): ["G3", "B9", "Y7"],
                              str(ANA.id): ["W", "R1", "G2", "Y3", "B+2", "GS", "G7"]},
              current=str(CY.id), top="R3", color="R")
    await refresh_hands(harness, PLAYERS)
    await take_turn(harness, CY)  # Cy plays his green 3: Ana's turn
    await harness.settle()
    api = harness.api
    table = harness.table()
    assert table is not None and table.photo is not None
    top = api.picture(table)
    assert top == top_card_image(Card.parse("G3"), Color.GREEN)
    hand = harness.hand_message(ANA)
    _, photos = await show_hand(harness, ANA)
    assert [c.chat_id for c in photos] == [ANA.id]
    picture_message = api.chat_messages(ANA.id)[-1]
    hand_picture = api.picture(picture_message)

    ARTIFACTS.mkdir(exist_ok=True)
    group = chat_html(CHAT_TITLES[GROUP], "4 members", [
        message_html(table.text, table.reply_markup, top, sender="UNO Bot")])
    private = chat_html("UNO Bot", "bot", [
        message_html(hand.text, hand.reply_markup),
        message_html(picture_message.text, None, hand_picture)])
    for name, page_html, pictures in (("telegram-table", group, [top]),
                                      ("telegram-hand", private, [hand_picture])):
        shown = await photograph(page_html, ARTIFACTS / f"{name}.png")
        assert len(shown) == len(pictures)
        for region, picture in zip(shown, pictures, strict=True):
            assert_same_picture(region, picture)
    assert GROUP not in [c.chat_id for c in photos]
