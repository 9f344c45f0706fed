"""Your turn reaches you: the table, posted anew when the turn passes, mentions only the
player to act (the previous table deleted, AI seats never pinged), and the open hand view
refreshes itself through its interaction's webhook, so an ordinary card takes one click."""

from __future__ import annotations

import copy
import time

from bot.coordinator import MemoryStore

from .fake_discord import EPHEMERAL, FakeUser
from .harness import MENTION, BotHarness
from .players import Table, shows_turn
from .test_game import ANA, BO, CY, USERS, open_game
from .test_resilience import set_position

A, B, C = (str(u.id) for u in (ANA, BO, CY))


def pinged(message: dict) -> list[str]:
    return MENTION.findall(message.get("content") or "")


def allowed_users(message: dict) -> list[str]:
    allowed = message["_allowed_mentions"]
    assert allowed["parse"] == []  # no @everyone, no roles, nobody named by text
    return [str(u) for u in allowed["users"]]


def webhook_edits(fake, record, target: str = "@original") -> int:
    path = f"/webhooks/{fake.application_id}/{record.token}/messages/{target}"
    return sum(1 for r in fake.requests if r.method == "PATCH" and r.path == path)


def creator_of(fake, message: dict):
    return next(r for r in fake.interactions.values() if r.message_id == int(message["id"]))


async def known_position(bot) -> None:
    """Ana to play R1 on R3; Bo holds an ordinary playable card (R5) and plays next."""
    await set_position(bot, {A: ["R1", "G2", "B3"], B: ["R5", "Y7", "G9"], C: ["B2", "Y1"]}, ["R3"], A)


async def test_each_turn_pings_the_player_to_act_and_only_them(bot, fake):
    # the views the Frontend opens are the ones the ChatPort refreshes (even while none is open)
    assert bot.app.frontend.hands is bot.app.chat_port.hands is bot.app.hands
    await open_game(bot)
    table = Table(bot, USERS)
    previous: dict | None = None
    for _ in range(9):
        current = bot.current_player_id()
        (ping,) = bot.pings()  # the channel keeps exactly one
        assert pinged(ping) == [current] and allowed_users(ping) == [current]
        assert not ping["flags"] & EPHEMERAL and ping["id"] == bot.table_message()["id"]  # the table itself
        assert "it is your turn" in ping["content"]
        assert bot.table_button("hand", ping)  # My hand, right under the mention
        if previous is not None and previous["id"] != ping["id"]:
            gone = f"/channels/{ping['channel_id']}/messages/{previous['id']}"
            assert any(r.method == "DELETE" and r.path == gone for r in fake.requests)
        if previous is not None and pinged(previous) == [current]:
            assert previous["id"] == ping["id"]  # still their turn: no second ping
        previous = ping
        await table.take_turn(USERS[current], use_slash=False)


async def test_ai_seats_are_never_pinged(fake):
    bot = BotHarness(fake, MemoryStore(), ai_delay=1.0)
    await bot.start()
    try:
        await bot.slash(ANA, "new")
        await bot.slash(ANA, "settings", hand_size=5)
        for _ in range(2):
            await bot.press_table(ANA, "ai")
        await bot.press_table(ANA, "start")
        table = Table(bot, {A: ANA})
        ai_turns = 0
        for _ in range(40):
            match = await table.match()
            if match is None or match.game.winner is not None:
                break
            if match.game.current != A:
                ai_turns += 1
                assert bot.pings() == []  # Ana's ping went when her turn did; no AI gets one
                await bot.clock.advance(1.5)
                continue
            (ping,) = bot.pings()
            assert pinged(ping) == [A]
            await table.take_turn(ANA, use_slash=False)
        assert ai_turns > 3
        created = [m for kind, m in fake.message_history if kind == "create" and not m["flags"] & EPHEMERAL]
        assert all(pinged(m) in ([], [A]) for m in created)
        assert table.refresh_clicks == 0  # Ana's view had refreshed itself whenever her turn came
    finally:
        await bot.stop()
    bot.assert_no_errors()


async def test_the_open_hand_view_refreshes_itself_when_the_turn_comes(bot, fake):
    await open_game(bot)
    await known_position(bot)
    table = Table(bot, USERS)
    bo_view = await table.hand_message(BO, fresh=False)  # Bo looks at his cards while waiting
    assert not shows_turn(bo_view)
    opened_by = creator_of(fake, bo_view)
    await table.take_turn(ANA, use_slash=False)  # Ana plays R1: Bo's turn
    assert bot.current_player_id() == B
    view = fake.messages[int(bo_view["id"])]
    assert shows_turn(view)  # Bo clicked nothing
    assert webhook_edits(fake, opened_by) == 1  # through the interaction that opened it
    playable = [h.arg for h, c in bot.hand_buttons(view) if h.action == "p" and not c.get("disabled")]
    assert playable == ["pR5"]
    (ping,) = bot.pings()
    assert "press My hand" not in ping["content"]  # his view is ready: nothing to open
    clicks = sum(1 for r in fake.interactions.values() if r.user is BO)
    await table.take_turn(BO, use_slash=False)
    assert sum(1 for r in fake.interactions.values() if r.user is BO) == clicks + 1  # one click
    assert str((await table.match()).game.top) == "R5"
    # Cy's cards did not change and it is not his turn: his view was left alone
    assert table.ready_views == 1 and table.refresh_clicks == 0


async def test_after_15_minutes_the_ping_asks_for_a_click_on_my_hand(bot, fake):
    await open_game(bot)
    await known_position(bot)
    table = Table(bot, USERS)
    bo_view = await table.hand_message(BO, fresh=False)
    opened_by = creator_of(fake, bo_view)
    bot.app.hands.clock = lambda: time.monotonic() + 15 * 60  # the interaction's token has expired
    await table.take_turn(ANA, use_slash=False)
    assert webhook_edits(fake, opened_by) == 0  # not edited with a dead token
    assert not shows_turn(fake.messages[int(bo_view["id"])])
    (ping,) = bot.pings()
    assert ping["content"].startswith(f"🔔 <@{B}>, it is your turn: press My hand to play.")
    record = await bot.click(BO, int(ping["id"]), bot.table_button("hand", ping)[1])
    fresh = fake.response_message(record)
    assert fresh["flags"] & EPHEMERAL and shows_turn(fresh)


async def test_a_dismissed_hand_view_is_forgotten_quietly(bot, fake):
    await open_game(bot)
    await known_position(bot)
    table = Table(bot, USERS)
    await table.hand_message(BO, fresh=False)
    fake.fail_next(r"PATCH /webhooks/", 404, {"message": "Unknown Message", "code": 10008})
    await table.take_turn(ANA, use_slash=False)
    assert bot.app.hands.live("1000", B) is None  # the next ping will ask for My hand
    assert bot.current_player_id() == B  # the move stands


async def test_a_hand_shown_in_a_follow_up_is_refreshed_by_its_id(bot, fake):
    await open_game(bot)
    await known_position(bot)
    fake.fail_next(r"POST /interactions/\d+/[^/]+/callback", 400,
                   {"message": "Interaction has already been acknowledged.", "code": 40060})
    record = await bot.settled(await fake.wait(await fake.slash(BO, "hand")))
    (followup,) = record.followups
    table = Table(bot, USERS)
    await table.take_turn(ANA, use_slash=False)
    assert webhook_edits(fake, record, str(followup)) == 1
    assert shows_turn(fake.messages[followup])


async def test_only_the_newest_hand_view_stays_live(bot, fake):
    await open_game(bot)
    older = await bot.open_hand(BO)
    newer = fake.response_message(await bot.slash(BO, "hand"))
    stub = fake.messages[int(older["id"])]
    assert "newer message below" in stub["content"] and stub["components"] == [] and stub["embeds"] == []
    assert bot.hand_buttons(fake.messages[int(newer["id"])])
    # clicking on the newest view keeps it the live one: no stub for itself
    refresh = next(c for h, c in bot.hand_buttons(newer) if h.action == "b")
    await bot.click(BO, int(newer["id"]), refresh["custom_id"])
    assert bot.hand_buttons(fake.messages[int(newer["id"])])


async def test_stopping_the_game_removes_the_ping_and_closes_open_hands(bot, fake):
    await open_game(bot)
    view = await bot.open_hand(BO)
    assert len(bot.pings()) == 1
    await bot.slash(ANA, "stop")
    assert bot.pings() == []
    closed = fake.messages[int(view["id"])]
    assert all(c.get("disabled") for c in fake.iter_components(closed))
    assert "The hand is over." in closed["embeds"][0]["description"]


async def test_pings_and_hand_views_speak_the_channels_language(bot, fake):
    li = FakeUser(120, "Li", locale="zh-CN")
    await bot.slash(li, "new")
    await bot.slash(li, "language", language="zh_CN", scope="chat")
    await bot.press_table(BO, "join")
    await bot.press_table(li, "start")
    match = await Table(bot, {B: BO, "120": li}).match()
    current = match.game.current
    (ping,) = bot.pings()
    assert pinged(ping) == [current] and "轮到你了" in ping["content"]
    older = await bot.open_hand(li)
    await bot.slash(li, "hand")
    assert "较新" in fake.messages[int(older["id"])]["content"]


async def test_a_click_is_answered_with_the_hand_as_it_is_after_the_ai_seats_moved(bot, fake):
    await bot.slash(ANA, "new")
    await bot.slash(ANA, "settings", hand_size=6)
    for _ in range(2):
        await bot.press_table(ANA, "ai")
    await bot.press_table(ANA, "start")
    table = Table(bot, {A: ANA})
    for _ in range(3):
        await table.take_turn(ANA, use_slash=False)  # the AI seats answer before the click does
        if (await table.match()).game.winner is not None:
            break
        assert shows_turn(fake.messages[table.hand_messages[A]])
    # the click's own answer showed it: no second edit through the webhook was needed
    assert not any(r.method == "PATCH" and r.path.startswith("/webhooks/") for r in fake.requests)
    assert table.refresh_clicks == 0


async def test_a_notice_during_a_turn_keeps_that_turns_ping(bot, fake):
    from bot.coordinator import presenter
    from bot.coordinator.views import Notice, Text
    from bot.engine import Match

    from .players import CHAT

    await open_game(bot)
    (ping,) = bot.pings()
    port = bot.app.chat_port
    await port.publish(CHAT, Notice("en", Text("Something happened.")))
    assert [p["id"] for p in bot.pings()] == [ping["id"]]  # not deleted
    record = await bot.store.load(CHAT)
    same_turn = presenter.table_view(record, Match.from_json(record.match), "en")
    await port.publish(CHAT, same_turn, edit=record.table_message_id)  # the table again, same turn
    assert [p["id"] for p in bot.pings()] == [ping["id"]]  # not pinged twice


async def test_a_table_deleted_by_a_moderator_or_a_failing_repost_breaks_nothing(bot, fake):
    await open_game(bot)
    table = Table(bot, USERS)
    (ping,) = bot.pings()
    current = USERS[bot.current_player_id()]
    await table.hand_message(current, fresh=False)  # opened before the table went
    del fake.messages[int(ping["id"])]  # a moderator removed it: deleting it again finds nothing
    await table.take_turn(current, use_slash=False)
    assert len(bot.pings()) == 1
    fake.fail_next(r"POST /channels/\d+/messages$", 403, {"message": "Missing Access", "code": 50001})
    before = await table.match()
    await table.take_turn(USERS[bot.current_player_id()], use_slash=False)
    assert (await table.match()) != before  # the move stands without its table
    await table.take_turn(USERS[(await table.match()).game.current], use_slash=True)
    assert len(bot.pings()) == 1  # and the table with its mention is back


async def test_a_table_button_of_a_stopped_game_says_the_game_is_over(bot, fake):
    await open_game(bot)
    message_id, custom_id = bot.table_button("hand", bot.table_message())
    shown = copy.deepcopy(fake.messages[message_id])
    await bot.slash(ANA, "stop")
    # Bo's client still showed the table as it was (its edit had not reached him) when he pressed.
    fake.messages[message_id] = shown
    answer = fake.response_message(await bot.click(BO, message_id, custom_id))
    assert answer["content"].startswith("This game is over. Start a new one with ")
    assert answer["flags"] & EPHEMERAL
