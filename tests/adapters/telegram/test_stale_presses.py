"""A double tap plays one card: hand buttons and inline results carry the token of the hand
they were made for, through the real Application."""

from __future__ import annotations

from adapters.telegram import callbacks

from .conftest import ANA, BO, CY, Harness, data_of
from .helpers import match_of, refresh_hands, rig

PLAYERS = [ANA, BO, CY]
IDS = {u: str(u.id) for u in PLAYERS}


async def house_game_with_a_pair(harness: Harness) -> None:
    """House rules (jump-in); Ana to play, holding two green 6s on a green 2."""
    await harness.start()
    await harness.open_game(ANA, BO, CY)
    await harness.ask(ANA, "/settings preset=house")
    await harness.start_game(ANA, PLAYERS)
    await rig(harness, hands={IDS[ANA]: ["G6", "G6", "B3"]}, top="G2", current=IDS[ANA])
    await refresh_hands(harness, PLAYERS)


async def test_a_double_tap_on_a_card_plays_one_copy(harness: Harness):
    await house_game_with_a_pair(harness)
    hand = harness.hand_message(ANA)
    six = next(d for d in data_of(hand) if callbacks.parse(d).card == "G6" and callbacks.parse(d).verb == "p"
               and not callbacks.parse(d).uno)
    assert callbacks.parse(six).press  # the button carries its hand's token
    first, second = harness.api.press(ANA, hand, six), harness.api.press(ANA, hand, six)
    answers = [(await harness.api.wait_answer(first)).params, (await harness.api.wait_answer(second)).params]
    game = (await match_of(harness)).game
    assert len(game.hand(IDS[ANA])) == 2, answers  # one green 6 played, not both
    assert sum("earlier moment" in a.get("text", "") for a in answers) == 1, answers
    # The refreshed hand's buttons carry the new token and work.
    await harness.api.wait_for(lambda: callbacks.parse(data_of(harness.hand_message(ANA))[0]).press
                               != callbacks.parse(six).press, what="Ana's new hand")


async def test_a_button_of_an_unchanged_hand_works_after_a_restart(harness: Harness):
    await house_game_with_a_pair(harness)
    hand = harness.hand_message(ANA)
    six = next(d for d in data_of(hand) if callbacks.parse(d).card == "G6" and callbacks.parse(d).verb == "p"
               and not callbacks.parse(d).uno)
    await harness.restart()
    answer = await harness.press(ANA, hand, six)
    assert answer.get("show_alert") is not True and "earlier" not in answer.get("text", ""), answer
    assert len((await match_of(harness)).game.hand(IDS[ANA])) == 2


async def test_an_inline_result_chosen_twice_plays_once(harness: Harness):
    await house_game_with_a_pair(harness)
    query = harness.api.inline_query(ANA)
    answer = (await harness.api.wait_for(
        lambda: [c for c in harness.api.calls_to("answerInlineQuery")
                 if c.params["inline_query_id"] == query], what="inline answer"))[0].params
    six = next(r["id"] for r in answer["results"] if r["id"].endswith(":p:G6"))
    assert len(six.split(":")[0].split(".")) == 3  # <n>.<hand>.<token>
    mark = len(harness.api.calls_to("sendMessage", ANA.id))
    harness.api.choose_inline_result(ANA, six)
    harness.api.choose_inline_result(ANA, six)
    told = await harness.api.wait_for(
        lambda: [c for c in harness.api.calls_to("sendMessage", ANA.id)[mark:]
                 if "earlier moment" in c.params["text"]], what="the stale choice refused")
    assert told
    assert len((await match_of(harness)).game.hand(IDS[ANA])) == 2
