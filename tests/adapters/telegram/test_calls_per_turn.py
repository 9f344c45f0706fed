"""What a plain turn costs in Bot API calls (real PTB against the fake Bot API): the table
edited in the group, the mover's hand deleted (nothing on it to press before their next turn,
which posts it anew) and the next player's hand sent as a new, notifying message: 3 calls,
besides the answer to the press. Under jump-in the mover keeps a live keyboard: edited; and
the next player's old hand is deleted beside the move, which does not wait for it.
Counting calls, not timing them."""

from __future__ import annotations

from adapters.telegram import callbacks
from bot.coordinator import ChatKey, presses

from .conftest import ANA, BO, CY, GROUP, Harness, data_of
from .fake_bot_api import TgUser
from .helpers import match_of, refresh_hands, rig

PLAYERS = [ANA, BO, CY]
BY_ID = {str(u.id): u for u in PLAYERS}
CEILING = 3  # Bot API calls per plain turn, group and private together
# Red number cards each, played in turn on a red top card: every turn a plain one.
REDS = {0: ["R5", "R1", "R4", "G7", "B3"], 1: ["R6", "R2", "R8", "G1", "Y4"], 2: ["R7", "R3", "R9", "B8", "Y5"]}


async def red_position(harness: Harness, **settings: str) -> list[TgUser]:
    """Three players, each holding three red numbers, the first to act on R0, each with a hand
    message (as after the deal); the players in the order they act."""
    await harness.start()
    await harness.open_game(ANA, BO, CY)
    for key, value in settings.items():
        await harness.ask(ANA, f"/settings {key}={value}")
    await harness.start_game(ANA, PLAYERS)
    await harness.settle()
    state = (await match_of(harness)).game
    for key, value in settings.items():
        assert getattr(state.rules, key) == (value == "on")
    order = [state.players[i * state.direction % len(state.players)] for i in range(len(state.players))]
    await rig(harness, hands={player: REDS[i] for i, player in enumerate(order)}, current=order[0],
              top="R0", color="R")
    await refresh_hands(harness, PLAYERS)  # their keyboards show the cards given
    await harness.settle()
    return [BY_ID[p] for p in order]


def turn_calls(harness: Harness, mark: int) -> list[tuple[str, int | None]]:
    """(method, chat) of the group and private calls since ``mark``: not the press's answer."""
    return [(c.method, c.chat_id) for c in harness.api.calls[mark:]
            if c.method not in ("answerCallbackQuery", "getChatMember")]


def play_button(message, card: str) -> str:
    """The callback data of the hand's button playing ``card`` (without UNO!)."""
    return next(d for d in data_of(message) if callbacks.parse(d).verb == "p"
                and callbacks.parse(d).card == card and not callbacks.parse(d).uno)


async def play(harness: Harness, user: TgUser, card: str) -> list[tuple[str, int | None]]:
    message = harness.hand_message(user)
    data = play_button(message, card)
    mark = len(harness.api.calls)
    answer = await harness.press(user, message, data)
    assert answer.get("show_alert") is not True, answer
    await harness.settle()
    return turn_calls(harness, mark)


async def test_a_plain_turn_costs_three_calls(harness: Harness):
    order = await red_position(harness)
    for i, card in enumerate(["R5", "R6", "R7"]):  # everyone has moved once: no deal hands left
        await play(harness, order[i], card)
    mover, nxt = order[0], order[1]
    calls = await play(harness, mover, "R1")
    assert len(calls) <= CEILING, calls
    group = [method for method, chat in calls if chat == GROUP]
    assert group in (["editMessageMedia"], ["editMessageCaption"]), calls  # the table, edited
    assert sorted(c for c in calls if c[1] != GROUP) == sorted([
        ("deleteMessage", mover.id),  # the mover's hand: nothing to press until their turn
        ("sendMessage", nxt.id),  # the next player's hand: a new message notifies them
    ]), calls
    assert harness.hand_message(mover) is None
    assert harness.hand_message(nxt).text.startswith("🔔 Your turn in")


async def test_every_plain_turn_after_the_first_round_stays_under_the_ceiling(harness: Harness):
    order = await red_position(harness)
    cards = [["R5", "R1", "R4"], ["R6", "R2", "R8"], ["R7", "R3", "R9"]]
    costs = []
    for turn in range(9):
        costs.append(len(await play(harness, order[turn % 3], cards[turn % 3][turn // 3])))
    assert all(c <= CEILING + 1 for c in costs[:3]), costs  # a hand from the deal to take down
    assert all(c <= CEILING for c in costs[3:]), costs


async def test_under_jump_in_the_mover_keeps_a_live_keyboard(harness: Harness):
    order = await red_position(harness, jump_in="on")
    mover = order[0]
    before = harness.hand_message(mover)
    calls = await play(harness, mover, "R5")
    assert ("editMessageText", mover.id) in calls and ("deleteMessage", mover.id) not in calls
    shown = harness.hand_message(mover)
    assert shown is not None and shown.message_id == before.message_id
    # its buttons carry the token of the hand as it is now: a press on them is not stale
    token = presses.token(await match_of(harness), str(mover.id))
    cards = [callbacks.parse(d) for d in data_of(shown) if callbacks.parse(d).card]
    assert cards and all(c.press == token for c in cards)


async def test_the_move_does_not_wait_for_the_next_players_old_hand_to_go(harness: Harness):
    # Under jump-in the next player's hand stays up between their turns; when their turn
    # comes it is posted anew (notifying) and the old one deleted, beside the rest of the move.
    order = await red_position(harness, jump_in="on")
    mover, nxt = order[0], order[1]
    old = harness.hand_message(nxt)
    message = harness.hand_message(mover)
    release = harness.api.hold_next("deleteMessage", nxt.id)
    answer = await harness.press(mover, message, play_button(message, "R5"))
    assert answer.get("show_alert") is not True, answer
    # answered, with the move's delivery done: it did not wait for the deletion still held
    assert not harness.bot.coordinator.delivery.courier.busy(ChatKey("telegram", str(GROUP)))
    assert harness.hand_message(nxt).text.startswith("🔔 Your turn in")
    assert old.message_id not in [m.message_id for m in harness.api.deleted]
    release.set()
    await harness.settle()
    assert old.message_id in [m.message_id for m in harness.api.deleted]
