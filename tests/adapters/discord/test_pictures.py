"""Card pictures on Discord, through the real discord.py and the fake Discord: the table shows
the top card, each player's own hand message shows their hand, as files uploaded with those
messages (multipart ``payload_json`` + ``files[n]``) and compared byte for byte with the renderer."""

from __future__ import annotations

import io
import re
from pathlib import Path

from PIL import Image

from adapters.discord.embeds import COLOURS
from adapters.discord.pictures import HAND_CARD_HEIGHT
from bot.coordinator import MemoryStore
from bot.coordinator.presenter import display_order
from bot.engine.cards import Card, Color
from bot.render.images import Theme, card_size, hand_image, hand_layout, top_card_image

from .fake_discord import DEFERRED_MESSAGE, DEFERRED_UPDATE, EPHEMERAL, UPDATE_MESSAGE
from .harness import BotHarness
from .players import Table
from .snapshot import EMBED_BG, draw_message
from .test_game import ANA, BO, CY, USERS, open_game
from .test_resilience import SlowCoordinator, set_position

SECONDARY, SUCCESS, DANGER, PRIMARY = 2, 3, 4, 1  # Discord's button styles
CHANNEL = 1000


def cards(*specs: str) -> list[Card]:
    return sorted((Card.parse(s) for s in specs), key=display_order)


def expected_hand(specs: list[str], playable: set[str] | None, theme: Theme = Theme.CLASSIC) -> bytes:
    """The renderer's picture of a hand as the hand view orders it."""
    hand = cards(*specs)
    flags = None if playable is None else [str(c) in playable for c in hand]
    return hand_image(hand, HAND_CARD_HEIGHT, playable=flags, theme=theme)


def png_size(data: bytes) -> tuple[int, int]:
    with Image.open(io.BytesIO(data)) as image:
        assert image.format == "PNG"
        return image.size


def table_edits(fake, table_id: int | None = None, since: int = 0) -> list:
    """The requests that painted the table since ``since``: its edits in place (of message
    ``table_id`` when given), and its posts anew when the turn passed to a person."""
    return [r for r in fake.requests[since:]
            if (r.method == "PATCH" and re.fullmatch(rf"/channels/\d+/messages/{table_id or '[0-9]+'}", r.path))
            or (r.method == "POST" and re.fullmatch(r"/channels/\d+/messages", r.path) and "top.png" in str(r.body))]


async def test_the_table_shows_the_top_card_and_every_move_sends_the_new_one(bot, fake):
    await open_game(bot)
    table = Table(bot, USERS)
    for turn in range(8):
        message = bot.table_message()
        game = (await table.match()).game
        # the embed's picture is the renderer's top card (classic: the table is public), the
        # embed's colour the colour in force, and no file hangs loose under the embed
        assert fake.embed_image(message) == top_card_image(game.top, game.color, theme=Theme.CLASSIC)
        assert message["embeds"][0]["image"]["url"].endswith("/top.png")
        assert message["embeds"][0]["color"] == COLOURS[game.color]
        assert message["attachments"] == []
        seen = len(fake.requests)
        await table.take_turn(USERS[bot.current_player_id()], use_slash=turn % 2 == 1)
        edits = table_edits(fake, since=seen)
        assert edits  # the move repainted the table ...
        for edit in edits:  # ... each edit one request carrying the new top card as its only file
            assert set(fake.uploads(edit)) == {"top.png"}
            assert edit.body["attachments"] == [{"id": 0, "filename": "top.png"}]
            assert edit.body["embeds"][0]["image"]["url"] == "attachment://top.png"
    assert len([m for m in fake.channel_messages() if m.get("embeds")]) == 1  # one table stands


async def test_a_wild_on_top_is_framed_in_the_colour_chosen(bot, fake):
    await open_game(bot)
    a, b, c = (str(u.id) for u in (ANA, BO, CY))
    await set_position(bot, {a: ["W", "R1", "G2"], b: ["G7", "R9"], c: ["B2", "Y1"]}, ["R3"], a)
    table = Table(bot, USERS)
    hand = await table.hand_message(ANA, fresh=False)
    wild = next(comp for h, comp in bot.hand_buttons(hand) if h.action == "w")
    await bot.click(ANA, int(hand["id"]), wild["custom_id"])
    green = next(comp for h, comp in bot.hand_buttons(fake.messages[int(hand["id"])])
                 if h.action == "c" and h.arg.endswith("~G"))
    await bot.click(ANA, int(hand["id"]), green["custom_id"])
    shown = fake.embed_image(bot.table_message())
    assert shown == top_card_image(Card.parse("W"), Color.GREEN)
    assert shown != top_card_image(Card.parse("W"), None)  # the frame says green
    assert bot.table_message()["embeds"][0]["color"] == COLOURS[Color.GREEN]


async def test_the_hand_view_shows_the_players_own_hand_highlighting_what_they_can_play(bot, fake):
    await open_game(bot)
    a, b, c = (str(u.id) for u in (ANA, BO, CY))
    ana, bo = ["R1", "G2", "W", "B+2", "Y7"], ["G7", "R9", "B4"]
    await set_position(bot, {a: ana, b: bo, c: ["B2", "Y1"]}, ["R3"], a)
    table = Table(bot, USERS)
    mine = await table.hand_message(ANA, fresh=False)
    assert mine["flags"] & EPHEMERAL
    assert set(fake.message_files(mine)) == {"hand.png"} and mine["attachments"] == []
    picture = fake.embed_image(mine, -1)
    # Ana's turn: the red 1 and the wild bright, the rest darkened
    assert picture == expected_hand(ana, {"R1", "W"})
    width, height = card_size(HAND_CARD_HEIGHT)
    assert png_size(picture) == hand_layout(len(ana), width, height)[2:]  # five cards
    # Bo waits with nothing to play: his cards are drawn plainly, not all dark
    theirs = await table.hand_message(BO, fresh=False)
    assert fake.embed_image(theirs, -1) == expected_hand(bo, None)
    # Ana plays her red 1: her message (the click's answer) and Bo's open view (refreshed
    # through its webhook, his turn now) each get their new picture
    seen = len(fake.requests)
    red1 = next(comp for h, comp in bot.hand_buttons(mine) if h.arg == "pR1")
    record = await bot.click(ANA, int(mine["id"]), red1["custom_id"])
    assert record.callback_type == UPDATE_MESSAGE
    assert fake.embed_image(fake.messages[int(mine["id"])], -1) == expected_hand(["G2", "W", "B+2", "Y7"], None)
    assert fake.embed_image(fake.messages[int(theirs["id"])], -1) == expected_hand(bo, {"R9"})
    refreshed = [r for r in fake.requests[seen:] if r.method == "PATCH" and r.path.startswith("/webhooks/")]
    assert refreshed and all(set(fake.uploads(r)) == {"hand.png"} for r in refreshed)
    # nobody else ever saw a hand picture: only the two ephemeral hand messages hold one
    holders = {int(m["id"]) for m in fake.messages.values() if "hand.png" in fake.message_files(m)}
    assert holders == {int(mine["id"]), int(theirs["id"])}
    for message in fake.public_history():
        assert "hand.png" not in fake.message_files(message)


async def test_an_older_hand_view_loses_its_picture_when_a_newer_one_opens(bot, fake):
    await open_game(bot)
    old = fake.response_message(await bot.slash(BO, "hand"))
    assert "hand.png" in fake.message_files(old)
    new = fake.response_message(await bot.slash(BO, "hand"))
    assert "hand.png" in fake.message_files(new)
    stub = fake.messages[int(old["id"])]
    assert "newer message" in stub["content"] and fake.message_files(stub) == {} and not stub["embeds"]


async def test_a_huge_hand_shows_every_card_on_every_page(bot, fake):
    from bot.engine.cards import full_deck

    await open_game(bot)
    a, b, c = (str(u.id) for u in USERS.values())
    big = list(dict.fromkeys(str(card) for card in full_deck()))[:30]
    await set_position(bot, {a: big, b: ["G7"], c: ["B2"]}, ["R3"], a)
    message = fake.response_message(await bot.slash(ANA, "hand"))
    width, height = card_size(HAND_CARD_HEIGHT)
    size = hand_layout(30, width, height)[2:]  # three rows of up to twelve
    assert png_size(fake.embed_image(message, -1)) == size
    more = next(comp for h, comp in bot.hand_buttons(message) if h.action == "pg")
    await bot.click(ANA, int(message["id"]), more["custom_id"])
    page2 = fake.messages[int(message["id"])]
    assert "Page 2 of 2" in page2["embeds"][-1]["footer"]["text"]
    assert png_size(fake.embed_image(page2, -1)) == size


async def test_deferred_and_followup_answers_carry_the_picture(fake):
    bot = BotHarness(fake, MemoryStore(), ack_after=0.05, coordinator_wrapper=lambda c: SlowCoordinator(c, 0.15))
    await bot.start()
    try:
        await bot.slash(ANA, "new")
        for user in (BO, CY):
            await bot.press_table(user, "join")
        await bot.press_table(ANA, "start")
        record = await bot.slash(BO, "hand")  # deferred: the "thinking" message becomes the hand
        assert record.callback_type == DEFERRED_MESSAGE
        assert "hand.png" in fake.message_files(fake.response_message(record))
        table = Table(bot, USERS)
        current = USERS[bot.current_player_id()]
        hand = await table.hand_message(current, fresh=False)
        draw = next(comp for h, comp in bot.hand_buttons(hand) if h.action == "d")
        record = await bot.click(current, int(hand["id"]), draw["custom_id"])
        assert record.callback_type == DEFERRED_UPDATE
        game = (await table.match()).game
        shown = fake.embed_image(fake.messages[int(hand["id"])], -1)
        assert png_size(shown)[0] == hand_layout(len(game.hand(str(current.id))), *card_size(HAND_CARD_HEIGHT))[2]
    finally:
        await bot.stop()
    bot.assert_no_errors()


async def test_a_refused_answer_becomes_a_followup_with_its_picture(bot, fake):
    await open_game(bot)
    fake.fail_next(r"POST /interactions/\d+/[^/]+/callback", 400,
                   {"message": "Interaction has already been acknowledged.", "code": 40060})
    record = await fake.slash(BO, "hand")
    await fake.wait(record)
    await bot.settled(record)
    followup = fake.messages[record.followups[0]]
    assert followup["flags"] & EPHEMERAL
    picture = fake.embed_image(followup, -1)
    assert picture is not None and png_size(picture)[1] == card_size(HAND_CARD_HEIGHT)[1]


async def test_yellow_cards_read_as_yellow_and_every_colour_has_its_square(bot, fake):
    await open_game(bot)
    a, b, c = (str(u.id) for u in USERS.values())
    await set_position(bot, {a: ["Y5", "R3", "G3", "B3", "W"], b: ["G7"], c: ["B2"]}, ["Y3"], a)
    for language, word in (("en", "Yellow"), ("zh_CN", "黄")):
        await bot.slash(ANA, "language", language=language)
        message = fake.response_message(await bot.slash(ANA, "hand"))
        looks = {h.arg[1:]: comp for h, comp in bot.hand_buttons(message) if h.action in ("p", "w", "m")}
        yellow = looks["Y5"]
        # no yellow style exists: grey, with the yellow square and the word
        assert yellow["style"] == SECONDARY and yellow["emoji"]["name"] == "🟨" and word in yellow["label"]
        assert (looks["R3"]["style"], looks["R3"]["emoji"]["name"]) == (DANGER, "🟥")
        assert (looks["G3"]["style"], looks["G3"]["emoji"]["name"]) == (SUCCESS, "🟩")
        assert (looks["B3"]["style"], looks["B3"]["emoji"]["name"]) == (PRIMARY, "🟦")
        assert (looks["W"]["style"], looks["W"]["emoji"]["name"]) == (SECONDARY, "🌈")
    # the colour picker after a wild: the same squares
    await bot.click(ANA, int(message["id"]), looks["W"]["custom_id"])
    picker = fake.messages[int(message["id"])]
    colours = {h.arg.split("~")[1][0]: comp for h, comp in bot.hand_buttons(picker) if h.action == "c"}
    assert colours["Y"]["style"] == SECONDARY and colours["Y"]["emoji"]["name"] == "🟨"
    assert "黄" in colours["Y"]["label"]


async def test_the_cards_command_repaints_the_players_own_pictures_only(bot, fake):
    await open_game(bot)
    a, b, c = (str(u.id) for u in USERS.values())
    ana = ["R1", "G2", "W", "B+2", "Y7"]
    await set_position(bot, {a: ana, b: ["G7", "R9"], c: ["B2", "Y1"]}, ["R3"], a)
    mine = fake.response_message(await bot.slash(ANA, "hand"))
    classic = expected_hand(ana, {"R1", "W"})
    assert fake.embed_image(mine, -1) == classic
    record = await bot.slash(ANA, "cards", theme="high_contrast")
    reply = fake.response_message(record)
    assert reply["flags"] & EPHEMERAL and reply["content"] and not fake.message_files(reply)
    # Ana's open hand view is repainted at once in her new colours ...
    contrast = expected_hand(ana, {"R1", "W"}, Theme.HIGH_CONTRAST)
    assert contrast != classic
    assert fake.embed_image(fake.messages[int(mine["id"])], -1) == contrast
    assert fake.embed_image(fake.response_message(await bot.slash(ANA, "hand")), -1) == contrast
    # ... while Bo's stays classic and the public table too
    bo = fake.response_message(await bot.slash(BO, "hand"))
    assert fake.embed_image(bo, -1) == expected_hand(["G7", "R9"], None)
    # Ana plays: her hand is drawn in her colours, the public table in the classic ones
    mine = fake.response_message(await bot.slash(ANA, "hand"))
    red1 = next(comp for h, comp in bot.hand_buttons(mine) if h.arg == "pR1")
    await bot.click(ANA, int(mine["id"]), red1["custom_id"])
    rest = ["G2", "W", "B+2", "Y7"]
    assert fake.embed_image(fake.messages[int(mine["id"])], -1) == expected_hand(rest, None, Theme.HIGH_CONTRAST)
    assert fake.embed_image(bot.table_message()) == top_card_image(Card.parse("R1"), Color.RED, theme=Theme.CLASSIC)
    # answered in the player's language
    await bot.slash(ANA, "language", language="zh_CN")
    reply = fake.response_message(await bot.slash(ANA, "cards", theme="classic"))
    assert any("\u4e00" <= ch <= "\u9fff" for ch in reply["content"])
    assert fake.embed_image(fake.response_message(await bot.slash(ANA, "hand")), -1) == expected_hand(rest, None)


async def test_a_rate_limited_table_edit_is_retried_with_the_whole_picture(bot, fake):
    await open_game(bot)
    # the turn passes: the table goes out anew (a post), and that post is rate limited
    fake.rate_limit_next(r"POST /channels/\d+/messages$", retry_after=0.05)
    seen = len(fake.requests)
    await Table(bot, USERS).take_turn(USERS[bot.current_player_id()], use_slash=False)
    limited, retried = table_edits(fake, since=seen)[:2]
    assert limited.status == 429 and retried.status == 200
    assert fake.uploads(retried)["top.png"] == fake.uploads(limited)["top.png"] != b""
    game = (await Table(bot, USERS).match()).game
    assert fake.embed_image(bot.table_message()) == top_card_image(game.top, game.color)


async def test_a_channel_that_refuses_files_gets_its_table_without_the_picture(bot, fake):
    await open_game(bot)
    # no Attach Files permission: Discord refuses the table (posted anew) that carries the picture
    fake.fail_next(r"POST /channels/\d+/messages$", 403, {"message": "Missing Permissions", "code": 50013})
    table = Table(bot, USERS)
    before = await table.match()
    await table.take_turn(USERS[bot.current_player_id()], use_slash=False)
    assert (await table.match()) != before  # the move counted, and the table shows it as text
    message = bot.table_message()
    assert "image" not in message["embeds"][0] and fake.message_files(message) == {}
    game = (await table.match()).game
    assert any(f["name"] == "Top card" for f in message["embeds"][0]["fields"])
    assert message["embeds"][0]["color"] == COLOURS[game.color]
    bot.log.records.clear()  # the warning is expected; errors would have been ERROR records
    # for a while the channel is offered no picture (no second refusal) ...
    seen = len(fake.requests)
    await table.take_turn(USERS[bot.current_player_id()], use_slash=False)
    assert all(not fake.uploads(r) and r.status == 200 for r in table_edits(fake, since=seen))
    # ... then it is tried again (the permission may have been granted)
    port = bot.app.chat_port
    port.pictures_refused[str(CHANNEL)] -= 601
    await table.take_turn(USERS[bot.current_player_id()], use_slash=False)
    game = (await table.match()).game
    assert fake.embed_image(bot.table_message()) == top_card_image(game.top, game.color)


ARTIFACTS = Path(__file__).resolve().parents[3] / "test-artifacts"


async def test_screenshots_of_the_table_and_a_hand_show_the_uploaded_pictures(bot, fake):
    """What the players see, drawn from the messages the bot really sent (written to
    test-artifacts/discord-table.png and discord-hand.png; the README shows copies in docs/)."""
    await open_game(bot)
    a, b, c = (str(u.id) for u in USERS.values())
    await set_position(bot, {a: ["W", "R1", "G2", "Y3", "B+2", "GS", "G7"], b: ["B5", "R9", "Y1"],
                             c: ["G3", "B9", "R7"]}, ["R3"], c)
    await bot.slash(CY, "play", card="G3")  # Cy plays: Ana's turn, a green 3 on top
    table = bot.table_message()
    hand = fake.response_message(await bot.slash(ANA, "hand"))
    names = {str(u.id): u.name for u in USERS.values()}
    pictures = {url: stored.data for url, stored in fake.files.items()}
    ARTIFACTS.mkdir(exist_ok=True)
    for name, message, note in (("discord-table", table, ""), ("discord-hand", hand, "Only you can see this")):
        png, placed = draw_message(message, pictures, names, note=note)
        (ARTIFACTS / f"{name}.png").write_bytes(png)
        ((url, box),) = placed  # the embed's picture, drawn where a client shows it
        with Image.open(io.BytesIO(png)) as shot, Image.open(io.BytesIO(pictures[url])) as picture:
            expected = Image.new("RGBA", picture.size, EMBED_BG + (255,))
            expected.alpha_composite(picture.convert("RGBA"))
            assert shot.convert("RGB").crop(box).tobytes() == expected.convert("RGB").tobytes()
    assert fake.embed_image(table) == top_card_image(Card.parse("G3"), Color.GREEN)
    assert fake.embed_image(hand, -1) == expected_hand(["W", "R1", "G2", "Y3", "B+2", "GS", "G7"],
                                                        {"W", "G2", "Y3", "GS", "G7"})
