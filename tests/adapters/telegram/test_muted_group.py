"""A group where the bot may not send messages (an admin restricted it, or only admins may
write): a lobby opened there closes at once and its creator is told privately why, in their
language; a game already running goes on privately, its players told so; the operator reads one warning, not an
error per refused message; a command whose answer is refused is answered privately with why;
once the bot may write again, games open as usual. A group that forbids only media gets its
table and the match's recap as text."""

from __future__ import annotations

import logging

import pytest

from .conftest import ANA, BO, GROUP, Harness, data_of
from .helpers import CHAT, next_actor, take_turn
from .test_recap import one_hand_match_played

WHY = f"I cannot write in group {GROUP}: an admin must let me send messages there."
TOLD = f"{WHY} Then open the game again with /new."


def told(harness: Harness, user) -> list[str]:
    """What ``user`` was told privately of the group refusing the bot, in either language."""
    return [m.text for m in harness.api.chat_messages(user.id)
            if m.text and ("cannot write" in m.text or "无法" in m.text)]


async def lobby_closed(harness: Harness) -> bool:
    return await harness.store.load(CHAT) is None


async def test_a_lobby_the_group_refuses_closes_and_its_creator_is_told_why(
        harness: Harness, caplog: pytest.LogCaptureFixture):
    await harness.start()
    harness.say(ANA, "/start", chat=ANA.id)  # Ana can be written to privately
    await harness.settle()
    harness.api.mute_bot(GROUP)
    caplog.set_level(logging.INFO)
    harness.say(ANA, "/new")
    await harness.until(lambda: lobby_closed(harness), "the refused lobby closed")
    await harness.api.wait_for(lambda: told(harness, ANA) or None, what="Ana told why")
    assert told(harness, ANA) == [TOLD]
    warnings = [r for r in caplog.records if "refuses the bot's messages" in r.getMessage()]
    assert len(warnings) == 1 and warnings[0].levelno == logging.WARNING
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    # Allowed to write again: the next game opens as usual.
    harness.api.unmute_bot(GROUP)
    await harness.open_game(ANA, BO)
    assert (await harness.store.load(CHAT)).status == "lobby"
    assert told(harness, ANA) == [TOLD]


async def test_the_creator_is_told_in_their_own_language(harness: Harness):
    await harness.start()
    harness.say(ANA, "/start", chat=ANA.id)
    harness.say(ANA, "/lang zh me", chat=ANA.id)
    await harness.settle()
    harness.api.mute_bot(GROUP)
    harness.say(ANA, "/new")
    await harness.api.wait_for(lambda: told(harness, ANA) or None, what="Ana told why")
    [text] = told(harness, ANA)
    assert str(GROUP) in text and "/new" in text and "cannot" not in text


async def test_a_running_game_goes_on_privately_when_the_group_refuses(
        harness: Harness, caplog: pytest.LogCaptureFixture):
    await harness.start()
    await harness.open_game(ANA, BO)
    await harness.start_game(ANA, [ANA, BO])
    harness.api.mute_bot(GROUP)
    caplog.set_level(logging.INFO)
    for _ in range(3):  # moves from the private chats
        record = await harness.store.load(CHAT)
        version = record.version
        mover = ANA if record.current().game.current == str(ANA.id) else BO
        harness.say(mover, "/draw", chat=mover.id)
        await harness.until(lambda v=version: _moved_on(harness, v), "the move played")
        if (await harness.store.load(CHAT)).current().game.current == str(mover.id):
            harness.say(mover, "/pass", chat=mover.id)
            await harness.until(lambda v=version + 1: _moved_on(harness, v), "the pass played")
    await harness.settle()
    assert (await harness.store.load(CHAT)).status == "running"
    warnings = [r for r in caplog.records if "refuses the bot's messages" in r.getMessage()]
    assert len(warnings) == 1
    for player in (ANA, BO):  # each told once why the group's table stands still
        await harness.api.wait_for(lambda p=player: told(harness, p) or None, what="a player told")
        assert told(harness, player) == [f"{WHY} The game goes on here: your cards and your "
                                         "turns come in this chat."]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def _moved_on(harness: Harness, version: int) -> bool:
    record = await harness.store.load(CHAT)
    return record is not None and record.version > version


async def test_a_command_whose_answer_the_group_refuses_is_answered_privately_with_why(
        harness: Harness, caplog: pytest.LogCaptureFixture):
    await harness.start()
    harness.say(ANA, "/start", chat=ANA.id)
    await harness.settle()
    harness.api.mute_bot(GROUP)
    caplog.set_level(logging.INFO)
    for command in ("/stats", "/rules", "/help"):  # one note, however many are refused
        harness.say(ANA, command)
    await harness.settle()
    await harness.api.wait_for(lambda: len([c for c in harness.api.calls if c.chat_id == GROUP
                                            and c.status == 400]) == 3 or None, what="3 refusals")
    await harness.api.wait_for(lambda: told(harness, ANA) or None, what="Ana told why")
    await harness.settle()
    assert told(harness, ANA) == [WHY]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_a_group_that_forbids_media_gets_its_table_as_text(
        harness: Harness, caplog: pytest.LogCaptureFixture):
    await harness.start()
    harness.api.mute_bot(GROUP, photos_only=True)
    caplog.set_level(logging.INFO)
    await harness.open_game(ANA, BO)  # the lobby is text: it shows
    await harness.start_game(ANA, [ANA, BO])
    await harness.settle()
    record = await harness.store.load(CHAT)
    table = harness.api.message(GROUP, int(record.table_message_id))
    assert "UNO" in table.text and any(d.startswith("t:") for d in data_of(table))
    # A move edits that text table; no photo is tried again meanwhile.
    calls = len(harness.api.calls)
    mover = ANA if record.current().game.current == str(ANA.id) else BO
    harness.say(mover, "/draw", chat=mover.id)
    await harness.api.wait_for(lambda: [c for c in harness.api.calls[calls:] if c.chat_id == GROUP
                                        and c.method == "editMessageText"],
                               what="the text table edited")
    await harness.settle()
    assert not [c for c in harness.api.calls[calls:] if c.chat_id == GROUP
                and c.method in ("sendPhoto", "editMessageMedia")]
    assert not [r for r in caplog.records if "refuses the bot's messages" in r.getMessage()]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_a_group_that_forbids_media_gets_the_recap_as_text(harness: Harness):
    await harness.start()
    harness.api.mute_bot(GROUP, photos_only=True)
    await one_hand_match_played(harness)
    await harness.api.wait_for(lambda: [m for m in harness.api.chat_messages(GROUP)
                                        if not m.photo and "📈" in (m.text or "")] or None,
                               what="the recap as text")


async def test_a_photo_table_gives_way_to_text_when_the_group_forbids_media_mid_game(harness: Harness):
    """The old photo cannot be edited into text: it is taken away, so that nobody presses its
    buttons, and the game goes on under a text table."""
    await harness.start()
    await harness.open_game(ANA, BO)
    await harness.start_game(ANA, [ANA, BO])
    await harness.settle()
    photo = int((await harness.store.load(CHAT)).table_message_id)
    assert harness.api.message(GROUP, photo).photo
    harness.api.mute_bot(GROUP, photos_only=True)
    for _turn in range(40):  # until a move changes the picture (a card played)
        if int((await harness.store.load(CHAT)).table_message_id) != photo:
            break
        await take_turn(harness, await next_actor(harness, [ANA, BO]))
        await harness.settle()
    else:
        raise AssertionError("no card was played")
    table = harness.api.message(GROUP, int((await harness.store.load(CHAT)).table_message_id))
    assert not table.photo and "UNO" in table.text and any(d.startswith("t:") for d in data_of(table))
    assert [c for c in harness.api.calls if c.method == "deleteMessage" and c.chat_id == GROUP
            and int(c.params["message_id"]) == photo]
