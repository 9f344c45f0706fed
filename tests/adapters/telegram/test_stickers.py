"""Card stickers: the bot's sticker set made once from the renderer (116 stickers), kept
through a restart (no upload), resumed after a crash, recovered from Telegram when the
database is lost; inline results as cached stickers (greyed for cards that cannot be played
now), a chosen sticker plays its card; without TELEGRAM_OWNER_ID, text results and one log line.

The real PTB Application runs against the fake Bot API (fake_stickers.py for the sticker
methods), on SQLite and PostgreSQL where the database matters."""

from __future__ import annotations

import logging

import pytest

from adapters.telegram.stickers import FACES, MAX_INITIAL, Face, set_name, sticker_key
from bot.coordinator.ports import UserProfile
from bot.engine.cards import Card, Color
from bot.render.images import Theme, sticker_image, wild_sticker_image
from storage import open_store
from tests.storage.conftest import pg_database  # noqa: F401  (a fixture)

from .conftest import ANA, BO, Harness
from .fake_bot_api import ApiCall, Failure, FakeBotApi
from .fake_stickers import FakeSticker, FakeStickerSet
from .helpers import match_of, refresh_hands, rig

OWNER = ANA  # she started the bot (and plays too)
CLASSIC_SET = "uno_classic_by_unotest_bot"
CONTRAST_SET = "uno_contrast_by_unotest_bot"
STICKER_METHODS = ("uploadStickerFile", "createNewStickerSet", "addStickerToSet", "getStickerSet",
                   "deleteStickerSet")
TOKEN = FakeBotApi().token


def with_stickers(h: Harness, **changes) -> Harness:
    h.config_changes = {"owner_id": OWNER.id, "sticker_pace": 0, "sticker_themes": ("classic",),
                        **changes}
    return h


def sticker_calls(api: FakeBotApi, since: int = 0) -> list[ApiCall]:
    return [c for c in api.calls[since:] if c.method in STICKER_METHODS]


def uploads(api: FakeBotApi) -> list[ApiCall]:
    return [c for c in api.calls_to("uploadStickerFile") if c.status == 200]


async def ready(h: Harness, theme: Theme = Theme.CLASSIC) -> None:
    async def check() -> bool:
        return h.bot is not None and h.bot.stickers is not None and h.bot.stickers.ready(theme)

    await h.until(check, f"the {theme.value} sticker set", timeout=60)


async def game_with_stickers(h: Harness):
    """Ana and Bo in a running game, the classic sticker set ready: the fake Bot API."""
    api = with_stickers(h).api
    await h.start()
    await ready(h)
    await h.open_game(ANA, BO)
    await h.start_game(ANA, [ANA, BO])
    return api


async def inline_answer(h: Harness, user) -> dict:
    query = h.api.inline_query(user)
    calls = await h.api.wait_for(lambda: [c for c in h.api.calls_to("answerInlineQuery")
                                          if c.params["inline_query_id"] == query and c.status == 200],
                                 what="inline answer")
    return calls[-1].params


def own_lines(caplog) -> str:
    """What our modules logged (httpx's request lines carry the token: the CLI quiets and
    redacts them, tests/adapters/telegram/test_secrets.py checks that)."""
    return "\n".join(r.getMessage() for r in caplog.records if r.name.startswith(("adapters", "bot")))


def picture(api: FakeBotApi, file_id: str) -> bytes:
    sticker = api.stickers.sticker(file_id)
    assert sticker is not None, f"{file_id} is no sticker of a set"
    return sticker.data


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request, tmp_path):
    if request.param == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path / 'uno.db'}"
    return request.getfixturevalue("pg_database")


def test_a_set_holds_every_face_once_within_telegrams_limits():
    keys = [face.key for face in FACES]
    assert len(FACES) == 116 <= 120 and len(set(keys)) == len(keys)
    assert sum(1 for face in FACES if face.color is not None) == 8
    assert sum(1 for face in FACES if face.dimmed) == 54
    assert max(len(sticker_key(theme, face)) for theme in Theme for face in FACES) <= 128
    for theme in Theme:
        name = set_name(theme, "a" * 32)  # the longest bot username
        assert len(name) <= 64 and "__" not in name and name.endswith("_by_" + "a" * 32)


async def test_the_set_is_made_once_and_a_restart_uploads_nothing(api, database):
    store = await open_store(database)
    h = with_stickers(Harness(api, store, clock_of()))
    try:
        await h.start()
        await ready(h)
        assert len(uploads(api)) == len(FACES) == 116
        created = api.calls_to("createNewStickerSet")
        assert len(created) == 1 and len(created[0].params["stickers"]) == MAX_INITIAL
        assert int(created[0].params["user_id"]) == OWNER.id
        assert len(api.calls_to("addStickerToSet")) == 116 - MAX_INITIAL
        the_set = api.stickers.sets[CLASSIC_SET]
        assert the_set.owner == OWNER.id and len(the_set.stickers) == 116
        # The stickers are the renderer's pictures, in the set's order.
        assert [s.data for s in the_set.stickers] == [face.render(Theme.CLASSIC) for face in FACES]
        stored = await store.media_files("telegram")
        assert [stored[sticker_key(Theme.CLASSIC, face)] for face in FACES] == \
            [s.file_id for s in the_set.stickers]
        await h.stop()
        await store.close()
        # A restart on the same database: no upload, not even a look at the set.
        store = h.store = await open_store(database)
        mark = len(api.calls)
        await h.start()
        await ready(h)
        await h.settle()
        assert sticker_calls(api, mark) == []
        assert h.bot.stickers.file_id(Theme.CLASSIC, Card.parse("R5")) == the_set.stickers[5].file_id
    finally:
        await h.stop()
        await store.close()


async def test_a_lost_database_recovers_the_ids_from_telegram(api, tmp_path):
    first = await open_store(f"sqlite+aiosqlite:///{tmp_path / 'one.db'}")
    h = with_stickers(Harness(api, first, clock_of()))
    try:
        await h.start()
        await ready(h)
        await h.stop()
        wiped = h.store = await open_store(f"sqlite+aiosqlite:///{tmp_path / 'two.db'}")
        mark = len(api.calls)
        await h.start()
        await ready(h)
        assert [c.method for c in sticker_calls(api, mark)] == ["getStickerSet"]  # read, not made
        assert await wiped.media_files("telegram") == {
            key: value for key, value in (await first.media_files("telegram")).items()
            if key.startswith("sticker:")}
    finally:
        await h.stop()
        await first.close()
        if h.store is not first:
            await h.store.close()


@pytest.mark.parametrize("crash_at", [30, 70])  # before the set exists; in the additions
async def test_a_build_cut_short_resumes_without_uploading_again(api, tmp_path, caplog, crash_at):
    database = f"sqlite+aiosqlite:///{tmp_path / 'uno.db'}"
    store = await open_store(database)
    h = with_stickers(Harness(api, store, clock_of()), sticker_retry=3600)

    async def fail_upload(call: ApiCall) -> None:
        if call.method == "uploadStickerFile" and len(api.calls_to("uploadStickerFile")) == crash_at:
            api.failures.append(Failure(400, "Bad Request: STICKER_FILE_INVALID",
                                        method="uploadStickerFile", times=1))

    api.observer = fail_upload
    try:
        with caplog.at_level(logging.INFO):
            await h.start()
            await api.wait_for(lambda: any("trying again" in r.getMessage() for r in caplog.records),
                               what="the failure to be logged")
            await h.stop()  # the process ends midway
        warning = next(r.getMessage() for r in caplog.records if "trying again" in r.getMessage())
        assert CLASSIC_SET in warning and "sticker_file_invalid" in warning.lower()
        assert TOKEN not in own_lines(caplog)
        assert len(uploads(api)) == crash_at - 1
        api.observer = None
        await store.close()
        store = h.store = await open_store(database)
        await h.start()
        await ready(h)
        assert len(uploads(api)) == 116  # each picture uploaded once, across both runs
        the_set = api.stickers.sets[CLASSIC_SET]
        assert [s.data for s in the_set.stickers] == [face.render(Theme.CLASSIC) for face in FACES]
        assert len(api.calls_to("createNewStickerSet")) == 1
    finally:
        await h.stop()
        await store.close()


async def test_uploads_telegram_no_longer_has_are_uploaded_again(harness: Harness):
    api = with_stickers(harness, sticker_retry=0.05).api
    for face in FACES[:10]:  # stored by an earlier run, but gone from Telegram
        await harness.store.save_media_file("telegram", f"sticker-upload:classic:{face.key}",
                                            f"gone-{face.key}")
    await harness.start()
    await ready(harness)
    refused = [c for c in api.calls_to("createNewStickerSet") if c.status == 400]
    assert len(refused) == 1  # then every picture was uploaded afresh
    assert len(uploads(api)) == (MAX_INITIAL - 10) + 116
    assert len(api.stickers.sets[CLASSIC_SET].stickers) == 116


async def test_a_429_is_waited_out_and_a_stranger_owner_is_logged_not_fatal(harness: Harness, caplog):
    api = harness.api
    api.stickers.strangers.add(OWNER.id)
    with_stickers(harness, sticker_retry=0.05)
    with caplog.at_level(logging.INFO):
        await harness.start()
        harness.bot.stickers.max_retry_delay = 0.2  # tried again often: the test waits less
        await api.wait_for(lambda: len([r for r in caplog.records if "peer_id_invalid" in r.getMessage().lower()]) >= 2,
                           what="the refusals logged, twice (tried again)")
        # Meanwhile the game goes on, with text results.
        await harness.open_game(ANA, BO)
        await harness.start_game(ANA, [ANA, BO])
        answer = await inline_answer(harness, ANA)
        assert {r["type"] for r in answer["results"]} == {"article"}
        # The owner starts the bot; a 429 on the way is retried by the rate limiter.
        api.rate_limit_once(method="uploadStickerFile", retry_after=1)
        api.stickers.strangers.clear()
        await ready(harness)
    logged = [r.getMessage() for r in caplog.records if "peer_id_invalid" in r.getMessage().lower()]
    assert "TELEGRAM_OWNER_ID must be the id of a user who has started the bot" in logged[0]
    assert TOKEN not in own_lines(caplog)
    assert [c.status for c in api.calls_to("uploadStickerFile")].count(429) == 1
    assert len(uploads(api)) == 116


async def test_without_an_owner_cards_are_text_and_one_line_says_so(harness: Harness, caplog):
    with caplog.at_level(logging.INFO):
        await harness.start()
        await harness.open_game(ANA, BO)
        await harness.start_game(ANA, [ANA, BO])
        answer = await inline_answer(harness, ANA)
    assert {r["type"] for r in answer["results"]} == {"article"}
    said = [r for r in caplog.records if "TELEGRAM_OWNER_ID" in r.getMessage()]
    assert len(said) == 1 and said[0].levelno == logging.INFO
    assert TOKEN not in own_lines(caplog)
    assert sticker_calls(harness.api) == []


async def test_inline_cards_are_stickers_and_a_chosen_one_is_played(harness: Harness):
    api = await game_with_stickers(harness)
    await rig(harness, hands={str(ANA.id): ["R5", "B7", "W", "G2"]}, current=str(ANA.id), top="R1")
    await refresh_hands(harness, [ANA])
    results = (await inline_answer(harness, ANA))["results"]
    by_move = {r["id"].split(":", 2)[2]: r for r in results}
    # A playable card: its sticker, posted as itself when chosen.
    five = by_move["p:R5"]
    assert five["type"] == "sticker" and "input_message_content" not in five
    assert picture(api, five["sticker_file_id"]) == sticker_image(Card.parse("R5"))
    # A playable wild: one sticker per colour, framed in it.
    for color in Color:
        wild = by_move[f"p:W:{color.value}"]
        assert picture(api, wild["sticker_file_id"]) == wild_sticker_image(Card.parse("W"), color)
    # Cards that cannot be played now: greyed stickers that play nothing and post a line.
    for name in ("B7", "G2"):
        grey = by_move[f"x:{name}"]
        assert picture(api, grey["sticker_file_id"]) == sticker_image(Card.parse(name), dimmed=True)
        assert grey["input_message_content"]["message_text"] == "🎴 I cannot play that card now."
    # Moves that are not cards stay articles.
    assert by_move["d"]["type"] == "article" and by_move["d"]["title"] == "Draw"
    assert len(results) == 1 + 4 + 2 + 1
    # Choosing a greyed sticker plays nothing (and tells nobody anything).
    mark = len(api.calls)
    api.choose_inline_result(ANA, by_move["x:B7"]["id"])
    await harness.settle()
    assert len((await match_of(harness)).game.hand(str(ANA.id))) == 4
    assert not [c for c in api.calls[mark:] if c.method == "sendMessage"]
    # Choosing the sticker of R5 plays R5.
    api.choose_inline_result(ANA, five["id"])

    async def played() -> bool:
        return (await match_of(harness)).game.top == Card.parse("R5")

    await harness.until(played, "R5 played")
    assert Card.parse("R5") not in (await match_of(harness)).game.hand(str(ANA.id))


async def test_with_two_cards_left_card_and_uno_stays_a_text_choice(harness: Harness):
    await game_with_stickers(harness)
    await rig(harness, hands={str(ANA.id): ["R5", "B7"]}, current=str(ANA.id), top="R1")
    await refresh_hands(harness, [ANA])
    results = (await inline_answer(harness, ANA))["results"]
    by_move = {r["id"].split(":", 2)[2]: r for r in results}
    assert by_move["p:R5"]["type"] == "sticker" and by_move["x:B7"]["type"] == "sticker"
    assert by_move["pu:R5"]["type"] == "article" and "UNO!" in by_move["pu:R5"]["title"]


async def test_a_set_deleted_by_hand_falls_back_to_text_then_is_made_again(harness: Harness):
    api = await game_with_stickers(harness)
    api.stickers.sets.clear()  # the owner deleted it: the stored ids are no longer valid
    answer = await inline_answer(harness, ANA)
    assert {r["type"] for r in answer["results"]} == {"article"}  # answered all the same
    refused = [c for c in api.calls_to("answerInlineQuery") if c.status == 400]
    assert len(refused) == 1
    await ready(harness)
    assert len(api.stickers.sets[CLASSIC_SET].stickers) == 116
    answer = await inline_answer(harness, ANA)
    assert "sticker" in {r["type"] for r in answer["results"]}


async def test_a_set_edited_by_hand_is_made_again(harness: Harness):
    api = with_stickers(harness).api
    stranger = FakeSticker("CAACother", "other", "😀", sticker_image(Card.parse("R1")), 341, 512)
    api.stickers.sets[CLASSIC_SET] = FakeStickerSet(CLASSIC_SET, "UNO cards", OWNER.id, [stranger])
    await harness.start()
    await ready(harness)
    assert len(api.calls_to("deleteStickerSet")) == 1
    assert [s.emoji for s in api.stickers.sets[CLASSIC_SET].stickers] == [f.emoji for f in FACES]


async def test_both_themes_get_a_set_classic_first_and_each_player_sees_their_own(harness: Harness):
    api = with_stickers(harness, sticker_themes=("classic", "high_contrast")).api
    await harness.store.save_user_profile("telegram", str(BO.id), UserProfile(card_theme="high_contrast"))
    await harness.start()
    await ready(harness, Theme.HIGH_CONTRAST)
    assert harness.bot.stickers.ready(Theme.CLASSIC)
    names = [c.params["name"] for c in api.calls_to("createNewStickerSet")]
    assert names == [CLASSIC_SET, CONTRAST_SET]
    contrast = api.stickers.sets[CONTRAST_SET].stickers
    assert contrast[0].data == Face(Card.parse("R0")).render(Theme.HIGH_CONTRAST)
    assert contrast[0].data != api.stickers.sets[CLASSIC_SET].stickers[0].data
    await harness.open_game(ANA, BO)
    await harness.start_game(ANA, [ANA, BO])
    for user, set_of_theme in ((ANA, CLASSIC_SET), (BO, CONTRAST_SET)):
        own = {s.file_id for s in api.stickers.sets[set_of_theme].stickers}
        shown = [r["sticker_file_id"] for r in (await inline_answer(harness, user))["results"]
                 if r["type"] == "sticker"]
        assert shown and set(shown) <= own, user.first_name


def clock_of():
    from bot.coordinator.clock import FakeClock

    return FakeClock()
