"""The group table as a photo (real PTB against the fake Bot API): the top card's picture
with the table as its caption, one call per turn, each picture uploaded once and then sent
by its file id, also after a restart."""

from __future__ import annotations

import io

from aiohttp.web_request import FileField
from PIL import Image

from adapters.telegram import callbacks
from adapters.telegram.photos import CAPTION_LIMIT, TablePhoto, TopCard, visible_length
from adapters.telegram.port import TelegramChatPort
from bot.coordinator.record import Outbox
from bot.coordinator.views import SeatView, TableView, Text
from bot.engine.cards import Card, Color
from bot.render.images import top_card_image

from .conftest import ANA, BO, CY, GROUP, TABLE_METHODS, Harness, data_of, shown_text, table_calls
from .fake_bot_api import ApiCall
from .helpers import CHAT, match_of, refresh_hands, rig

PLAYERS = [ANA, BO, CY]
BY_ID = {str(u.id): u for u in PLAYERS}


def uploaded(call: ApiCall) -> bool:
    """Whether a table call carried the picture's bytes (else a file id)."""
    source = call.params.get("photo")
    media = call.params.get("media")
    if isinstance(media, dict):
        source = media["media"]
    return isinstance(source, FileField) or (isinstance(source, str) and source.startswith("attach://"))


async def started(harness: Harness):
    await harness.start()
    await harness.open_game(ANA, BO, CY)
    lobby = harness.lobby().message_id
    await harness.start_game(ANA, PLAYERS)
    await harness.settle()
    return lobby


async def position(harness: Harness, hand: list[str], top: str | None, color: str = "R"):
    """The player to act holds ``hand`` on ``top`` (None: the top card stays); everyone's
    hand shown again."""
    state = (await match_of(harness)).game
    mover = BY_ID[state.players[state.turn]]
    await rig(harness, hands={str(mover.id): hand}, current=str(mover.id), top=top,
              color=color if top else None)
    await refresh_hands(harness, PLAYERS)
    await harness.settle()
    return mover


async def end_turn(harness: Harness, user) -> None:
    """After a draw: pass if the drawn card could be played (the turn waits for that)."""
    message = harness.hand_message(user)
    data = next((d for d in data_of(message) if callbacks.parse(d).verb == "n"), None)
    if data is not None:
        await harness.press(user, message, data)
        await harness.settle()


async def press_and_count(harness: Harness, user, verb: str, card: str | None = None) -> list[ApiCall]:
    """Press one of the user's hand buttons; the group calls it caused."""
    message = harness.hand_message(user)
    data = next(d for d in data_of(message) if callbacks.parse(d).verb == verb
                and (card is None or callbacks.parse(d).card == card))
    mark = len(harness.api.calls)
    answer = await harness.press(user, message, data)
    assert answer.get("show_alert") is not True, answer
    await harness.settle()
    return [c for c in harness.api.calls[mark:] if c.chat_id == GROUP and c.method not in ("getChatMember", "getChat")]


async def test_the_lobby_becomes_the_photo_table(harness: Harness):
    lobby = await started(harness)
    table = harness.table()
    # The lobby's own message got the picture (editMessageMedia adds media to a text message).
    assert table.message_id == lobby and table.photo is not None
    assert [c.method for c in table_calls(harness.api)] == ["editMessageMedia"]
    match = await match_of(harness)
    state = match.game
    expected = top_card_image(state.top, state.color if state.top.is_wild else None)
    assert harness.api.picture(table) == expected
    # The caption is the table: top card, seats, whose turn; buttons as before.
    assert "Top card:" in table.text and all(u.first_name in table.text for u in PLAYERS)
    assert "Your move" in table.text and table.parse_mode == "HTML"
    assert any(d.startswith("t:") for d in data_of(table))


async def test_one_call_per_turn_and_each_picture_uploaded_once(harness: Harness):
    await started(harness)
    mover = await position(harness, ["R5", "G7", "B3", "Y4"], top="R9")
    # A card played: a new top card, so a new picture (uploaded: never shown before).
    calls = await press_and_count(harness, mover, "p", "R5")
    assert [c.method for c in calls] == ["editMessageMedia"] and uploaded(calls[0])
    # The next player draws instead: same top card, only the caption changes.
    nxt = await position(harness, ["G1", "B2", "Y3"], top=None)
    calls = await press_and_count(harness, nxt, "d")
    assert [c.method for c in calls] == ["editMessageCaption"]
    await end_turn(harness, nxt)
    # R7 on R5 (a new picture), then R5 on R7: R5 was shown before, so its file id goes out.
    third = await position(harness, ["R7", "G2", "B2"], top=None)
    calls = await press_and_count(harness, third, "p", "R7")
    assert [c.method for c in calls] == ["editMessageMedia"] and uploaded(calls[0])
    fourth = await position(harness, ["R5", "G2", "B2"], top=None)
    before = len(harness.api.uploads)
    calls = await press_and_count(harness, fourth, "p", "R5")
    assert [c.method for c in calls] == ["editMessageMedia"]
    assert not uploaded(calls[0]) and len(harness.api.uploads) == before
    # Over the whole game: every upload is a different picture, and every stored id is the
    # largest size Telegram listed.
    pictures = [harness.api.files[f] for f in harness.api.uploads]
    assert len(set(pictures)) == len(pictures) == harness.bot.port.media.uploads
    assert not any(f.endswith("-thumb") for f in harness.bot.port.media._ids.values())


async def test_a_wild_shows_the_colour_named(harness: Harness):
    await started(harness)
    mover = await position(harness, ["W", "G7", "B3"], top="R9")
    message = harness.hand_message(mover)
    await harness.press(mover, message, next(d for d in data_of(message) if callbacks.parse(d).card == "W"))
    menu = harness.api.message(message.chat_id, message.message_id)
    blue = next(d for d in data_of(menu) if callbacks.parse(d).color == "B" and not callbacks.parse(d).uno)
    await harness.press(mover, menu, blue)
    await harness.settle()
    assert harness.api.picture(harness.table()) == top_card_image(Card.parse("W"), Color.BLUE)
    assert TopCard(Card.parse("W"), Color.BLUE).key == "photo:top:v1:W:B"


async def test_a_long_table_fits_the_caption_and_keeps_seats_and_turn():
    names = [f"Player number {i} with a long name" for i in range(10)]
    seats = tuple(SeatView(str(1000 + i), name, 7, is_current=i == 3) for i, name in enumerate(names))
    last = tuple(Text("{player} played {card}", {"player": names[i % 10] * 3, "card": "x" * 150})
                 for i in range(6))
    view = TableView("g1", "en", 1, Card.parse("R5"), Color.RED, 1, seats, "1003", None, 0, (), False,
                     last=last, draw_pile=40)
    port = TelegramChatPort(bot=None, bot_username="unotest_bot")  # type: ignore[arg-type]
    body, _ = port._render_public(view)
    assert isinstance(body, TablePhoto)
    assert len(body.caption) <= CAPTION_LIMIT and visible_length(body.caption) <= CAPTION_LIMIT
    assert all(f"{i + 1}. " in body.caption for i in range(10))  # every seat stays
    assert "Your move" in body.caption and "Top card:" in body.caption


async def test_an_identical_edit_is_not_an_error(harness: Harness):
    await started(harness)
    table = harness.table()
    port = harness.bot.port
    match = await match_of(harness)
    photo = TablePhoto(table.text, TopCard(match.game.top, match.game.color if match.game.top.is_wild else None))
    from telegram import InlineKeyboardMarkup

    markup = InlineKeyboardMarkup.de_json(table.reply_markup, port.bot)
    assert await port._deliver(GROUP, photo, markup, str(table.message_id)) == str(table.message_id)
    assert harness.api.calls[-1].method == "editMessageCaption" and harness.api.calls[-1].status == 400
    assert len(harness.api.chat_messages(GROUP)) == 1


async def test_a_server_that_cannot_add_a_photo_to_the_lobby_gets_a_new_table(harness: Harness):
    """An older Bot API server refuses to add media to a text message: the table is posted
    as a new photo, the lobby message is removed, and later turns edit the new one."""
    harness.api.failures.append(_refusal("editMessageMedia"))
    lobby = await started(harness)
    harness.api.failures.clear()
    table = harness.table()
    assert table.message_id != lobby and table.photo is not None
    assert [c.method for c in table_calls(harness.api)] == ["editMessageMedia", "sendPhoto"]
    assert [m.message_id for m in harness.api.deleted] == [lobby]
    mover = await position(harness, ["R5", "G7", "B3"], top="R9")
    calls = await press_and_count(harness, mover, "p", "R5")
    assert [c.method for c in calls] == ["editMessageMedia"]
    assert calls[0].params["message_id"] == table.message_id


async def test_a_restart_sends_stored_file_ids_and_uploads_nothing(harness: Harness):
    await started(harness)
    mover = await position(harness, ["R5", "G7", "B3", "Y4"], top="R9")
    await press_and_count(harness, mover, "p", "R5")
    second = await position(harness, ["R7", "G2", "B2"], top=None)
    await press_and_count(harness, second, "p", "R7")
    uploads = len(harness.api.uploads)
    assert uploads >= 2  # R5 and R7 at least
    stored = await harness.store.media_files("telegram")
    assert stored == harness.bot.port.media._ids and all(k.startswith("photo:top:") for k in stored)
    await harness.restart()
    # After the restart the port does not know which picture the table shows: the first
    # edit sends the whole media, by the stored id.
    state = (await match_of(harness)).game
    nxt = BY_ID[state.players[state.turn]]
    await rig(harness, hands={str(nxt.id): ["G1", "B2", "Y3"]})
    await refresh_hands(harness, PLAYERS)
    calls = await press_and_count(harness, nxt, "d")
    assert [c.method for c in calls] == ["editMessageMedia"] and not uploaded(calls[0])
    await end_turn(harness, nxt)
    # A picture shown before the restart comes back (R5 on R7): no upload either.
    mover = await position(harness, ["R5", "G7", "B7"], top=None)
    calls = await press_and_count(harness, mover, "p", "R5")
    assert [c.method for c in calls] == ["editMessageMedia"] and not uploaded(calls[0])
    assert len(harness.api.uploads) == uploads


async def test_a_refused_file_id_is_uploaded_again(harness: Harness):
    """A stored id Telegram does not accept (another bot token's) is replaced by an upload."""
    await started(harness)
    port = harness.bot.port
    assert port.media._ids
    for key in list(port.media._ids):
        port.media._ids[key] = "AgACforeign"
    port._pictures.clear()  # as after a restart: the next edit sends the media
    mover = await position(harness, ["G1", "B2", "Y3"], top=None)
    before = len(harness.api.uploads)
    calls = await press_and_count(harness, mover, "d")
    # The stored id was refused once, then the picture uploaded and the table shown.
    assert [(c.method, c.status) for c in calls] == [("editMessageMedia", 400), ("editMessageMedia", 200)]
    assert not uploaded(calls[0]) and uploaded(calls[1]) and len(harness.api.uploads) == before + 1
    state = (await match_of(harness)).game
    expected = top_card_image(state.top, state.color if state.top.is_wild else None)
    assert harness.api.picture(harness.table()) == expected
    assert port.media._ids[TopCard(state.top, state.color if state.top.is_wild else None).key] != "AgACforeign"


def _refusal(method: str):
    from .fake_bot_api import Failure

    return Failure(400, "Bad Request: there is no media in the message to edit", chat_id=GROUP,
                   method=method, times=1)


def test_pictures_are_cards():
    picture = Image.open(io.BytesIO(TopCard(Card.parse("W+4"), Color.GREEN).render()))
    assert picture.format == "PNG" and picture.height > picture.width
    assert TABLE_METHODS == ("sendPhoto", "editMessageMedia", "editMessageCaption")
    assert shown_text(ApiCall("sendPhoto", {"caption": "x"}, 0.0)) == "x"


async def test_a_table_owed_at_a_crash_is_shown_after_the_restart_by_file_id(harness: Harness):
    """A move saved with its table still owed (the process died before showing it): the next
    process's resume() edits the photo table, sending the stored file id, no upload."""
    await started(harness)
    await harness.stop()
    await rig(harness, hands={str(ANA.id): ["R5", "G7"]})  # the move: Ana now holds 2 cards
    record = await harness.store.load(CHAT)
    record.delivery.outbox = Outbox(record.version, table=True)
    await harness.store.save(record)
    mark, uploads = len(harness.api.calls), len(harness.api.uploads)
    await harness.start()
    await harness.settle()
    calls = [c for c in harness.api.calls[mark:] if c.chat_id == GROUP and c.method in TABLE_METHODS]
    assert [(c.method, c.status) for c in calls] == [("editMessageMedia", 200)]
    assert not uploaded(calls[0]) and len(harness.api.uploads) == uploads
    ana = next(line for line in harness.table().text.splitlines() if "\u2068Ana\u2069 ·" in line)
    assert "· 2 cards" in ana, ana
    assert (await harness.store.load(CHAT)).delivery.outbox is None  # delivered: owed no more


async def test_a_quick_first_move_after_a_refused_lobby_photo_leaves_one_table(harness: Harness):
    """The server cannot add the photo to the lobby: the deal's table is sent anew while the
    first move's table edit already waits (queued with the lobby's id). That edit, and every
    later one, goes to the new table: one table message, the one that shows how the hand ended."""
    harness.api.failures.append(_refusal("editMessageMedia"))
    harness.api.slow_chat(GROUP, 0.3)  # the deal's table is still on its way when the move comes
    await harness.start()
    await harness.open_game(ANA, BO, CY)
    lobby = harness.lobby().message_id
    await harness.start_game(ANA, PLAYERS)
    state = (await match_of(harness)).game
    first = BY_ID[state.players[state.turn]]
    message = harness.hand_message(first)
    draw = next(d for d in data_of(message) if callbacks.parse(d).verb == "d")
    assert not harness.api.deleted  # the lobby is not replaced yet: the move is quick
    await harness.press(first, message, draw)
    harness.api.delays.pop(GROUP)
    await harness.settle()
    await end_turn(harness, first)
    mover = await position(harness, ["R5"], top="R9")
    await press_and_count(harness, mover, "p", "R5")
    assert (await match_of(harness)).hand_number == 2  # hand 1 won, hand 2 dealt
    photos = [m for m in harness.api.chat_messages(GROUP) if m.photo is not None]
    assert len(photos) == 2, [m.message_id for m in photos]  # hand 1's table, hand 2's
    ended, dealt = photos
    assert ended.message_id != lobby
    assert [m.message_id for m in harness.api.deleted if m.chat_id == GROUP] == [lobby]
    assert "won hand 1" in ended.text and not [d for d in data_of(ended) if d.startswith("t:")]  # how hand 1 ended: no buttons
    assert "⏱" not in ended.text
    assert [d for d in data_of(dealt) if d.startswith("t:")]
