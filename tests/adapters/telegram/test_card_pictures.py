"""The "🖼 Show my hand" button and the per-user card theme (``/cards``), through the real
Application against the fake Bot API: the picture goes to the presser's private chat only,
in their own theme; bad input is refused in their language and changes nothing."""

from __future__ import annotations

import io

from PIL import Image

from adapters.telegram import callbacks
from adapters.telegram.card_theme import theme_keyboard
from adapters.telegram.keyboards import hand_keyboard
from bot.engine.cards import Color
from bot.render.images import PALETTES, Theme, card_size, hand_layout

from .conftest import ANA, BO, CY, GROUP, Harness, data_of
from .fake_bot_api import TgUser
from .helpers import refresh_hands, rig
from .test_keyboards import datas, view

PLAYERS = [ANA, BO, CY]
LI = TgUser(1005, "Li", language_code="zh-hans")


def picture_button(message) -> str:
    return next(d for d in data_of(message) if callbacks.parse(d).verb == "v")


def colors_in(data: bytes) -> set[tuple[int, int, int]]:
    picture = Image.open(io.BytesIO(data)).convert("RGB")
    return {color for _count, color in picture.getcolors(maxcolors=1 << 20)}


async def game_with_ana_holding(harness: Harness, cards: list[str], top: str = "R1") -> None:
    await harness.start()
    await harness.open_game(ANA, BO, CY)
    await harness.start_game(ANA, PLAYERS)
    await rig(harness, hands={str(ANA.id): cards}, current=str(ANA.id), top=top, color=top[0])
    await refresh_hands(harness, PLAYERS)
    await harness.settle()


async def show_hand(harness: Harness, user: TgUser, owner: TgUser = ANA) -> tuple[dict, list]:
    """``user`` presses the picture button of ``owner``'s hand: (the answer, photos sent)."""
    mark = len(harness.api.calls)
    answer = await harness.press(user, harness.hand_message(owner), picture_button(harness.hand_message(owner)))
    await harness.settle()
    return answer, [c for c in harness.api.calls[mark:] if c.method == "sendPhoto"]


def test_the_hand_keyboard_offers_the_picture_within_64_bytes():
    markup = hand_keyboard(view(["R5", "G9"]), hand_number=9999)
    labels = {b.text: b.callback_data for row in markup.inline_keyboard for b in row}
    data = labels["🖼 Show my hand"]
    assert callbacks.parse(data).verb == "v" and callbacks.parse(data).owner == "9" * 13
    assert all(len(d.encode()) <= 64 for d in datas(markup))
    # The text buttons stay: the fast path.
    assert {callbacks.parse(d).card for d in datas(markup)} >= {"R5", "G9"}
    zh = hand_keyboard(view(["R5"], locale="zh_CN"))
    assert any(b.text.startswith("🖼 ") and b.text != "🖼 Show my hand" for row in zh.inline_keyboard for b in row)


async def test_show_my_hand_sends_the_picture_to_the_presser_only(harness: Harness):
    await game_with_ana_holding(harness, ["R5", "G7", "B3", "Y4"])
    answer, photos = await show_hand(harness, ANA)
    assert answer.get("show_alert") is not True, answer
    assert [c.chat_id for c in photos] == [ANA.id]  # her private chat, never the group
    assert not [c for c in photos if c.chat_id == GROUP]
    assert photos[0].params["caption"].startswith("🖼 Your hand (4)")
    sent = harness.api.chat_messages(ANA.id)[-1]
    picture = Image.open(io.BytesIO(harness.api.picture(sent)))
    width, height = card_size(120)
    assert picture.size == hand_layout(4, width, height)[2:]
    # Classic colours by default: R5 (playable) in the classic red, nothing high-contrast.
    colors = colors_in(harness.api.picture(sent))
    assert PALETTES[Theme.CLASSIC][Color.RED] in colors
    assert PALETTES[Theme.HIGH_CONTRAST][Color.RED] not in colors


async def test_another_player_cannot_show_my_hand(harness: Harness):
    await game_with_ana_holding(harness, ["R5", "G7"])
    answer, photos = await show_hand(harness, BO, owner=ANA)
    assert answer.get("show_alert") is True and "another player" in answer["text"]
    assert photos == []


async def test_cards_contrast_changes_the_hand_picture(harness: Harness):
    await game_with_ana_holding(harness, ["R5", "G7", "B3", "Y4"])
    _, before = await show_hand(harness, ANA)
    classic = harness.api.picture(harness.api.chat_messages(ANA.id)[-1])
    reply = await harness.ask(ANA, "/cards contrast", chat=ANA.id)
    assert reply == "Your cards are now drawn in high contrast."
    assert (await harness.store.user_profile("telegram", str(ANA.id))).card_theme == "high_contrast"
    await harness.api.wait_for(lambda: harness.hand_message(ANA), what="Ana's hand")
    _, after = await show_hand(harness, ANA)
    contrast = harness.api.picture(next(m for m in reversed(harness.api.chat_messages(ANA.id)) if m.photo))
    assert contrast != classic
    colors = colors_in(contrast)
    assert PALETTES[Theme.HIGH_CONTRAST][Color.RED] in colors
    assert PALETTES[Theme.CLASSIC][Color.RED] not in colors
    # The group's table keeps the classic palette.
    table = harness.api.picture(harness.table())
    assert PALETTES[Theme.HIGH_CONTRAST][Color.RED] not in colors_in(table)


async def test_bad_theme_is_refused_in_the_players_language_and_changes_nothing(harness: Harness):
    await harness.start()
    reply = await harness.ask(ANA, "/cards purple", chat=ANA.id)
    assert reply.startswith("Invalid setting") and "purple" in reply and "high_contrast" in reply
    assert (await harness.store.user_profile("telegram", str(ANA.id))).card_theme is None
    reply = await harness.ask(LI, "/cards 紫色", chat=LI.id)
    assert reply.startswith("无效设置") and "紫色" in reply, reply
    assert (await harness.store.user_profile("telegram", str(LI.id))).card_theme is None


async def test_cards_menu_buttons_set_the_theme(harness: Harness):
    await harness.start()
    menu_text = await harness.ask(ANA, "/cards", chat=ANA.id)
    assert "classic" in menu_text.lower()
    menu = harness.api.chat_messages(ANA.id)[-1]
    choices = [(b["text"], b["callback_data"]) for b in menu.buttons()]
    assert choices == [("✅ Classic colours", "ct:classic"),
                       ("High contrast (colour-blind friendly)", "ct:high_contrast")]
    answer = await harness.press(ANA, menu, "ct:high_contrast")
    assert answer.get("show_alert") is not True, answer
    assert (await harness.store.user_profile("telegram", str(ANA.id))).card_theme == "high_contrast"
    await harness.api.wait_for(lambda: harness.api.message(ANA.id, menu.message_id).buttons()[1]["text"]
                               == "✅ High contrast (colour-blind friendly)", what="the tick moved")
    # A forged choice is refused, nothing changes.
    answer = await harness.press(ANA, menu, "ct:neon")
    assert answer.get("show_alert") is True
    assert (await harness.store.user_profile("telegram", str(ANA.id))).card_theme == "high_contrast"


def test_theme_menu_is_translated():
    markup = theme_keyboard("high_contrast", "zh_CN")
    labels = [b.text for row in markup.inline_keyboard for b in row]
    assert labels[1].startswith("✅ ") and all(any("\u4e00" <= ch <= "\u9fff" for ch in x) for x in labels)
