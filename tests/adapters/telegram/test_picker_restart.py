"""The colour picker a player opened on their hand (a wild pressed) is part of the hand's
state: a hand delivered again after a restart shows it, not the plain hand; Back closes it."""

from __future__ import annotations

from adapters.telegram import callbacks
from bot.coordinator.record import Outbox

from .conftest import ANA, BO, Harness, data_of
from .helpers import CHAT, match_of, refresh_hands, rig

PLAYERS = [ANA, BO]
BY_ID = {str(u.id): u for u in PLAYERS}


def verbs(harness: Harness, user) -> list[tuple[str, str | None]]:
    return [(callbacks.parse(d).verb, callbacks.parse(d).color)
            for d in data_of(harness.hand_message(user))]


def is_picker(harness: Harness, user) -> bool:
    shown = verbs(harness, user)
    return {c for v, c in shown if v == "p"} == {"R", "G", "B", "Y"} and ("g", None) in shown


async def delivered_again(harness: Harness, user) -> None:
    """The process dies with the player's hand owed (saved, not yet delivered); the next one
    delivers it."""
    await harness.stop()
    record = await harness.store.load(CHAT)
    record.delivery.outbox = Outbox(record.version, hands=[str(user.id)])
    await harness.store.save(record)
    mark = len(harness.api.calls_to(None, user.id))
    await harness.start()
    await harness.api.wait_for(lambda: len(harness.api.calls_to(None, user.id)) > mark,
                               what="the hand delivered again")
    await harness.settle()


async def test_the_colour_picker_survives_a_restart(harness: Harness):
    await harness.start()
    await harness.open_game(ANA, BO)
    await harness.start_game(ANA, PLAYERS)
    state = (await match_of(harness)).game
    mover = BY_ID[state.players[state.turn]]
    await rig(harness, hands={str(mover.id): ["W", "G2", "B3"]}, current=str(mover.id), top="R9",
              color="R")
    await refresh_hands(harness, PLAYERS)
    await harness.settle()
    message = harness.hand_message(mover)
    wild = next(d for d in data_of(message) if callbacks.parse(d).verb == "w")
    await harness.press(mover, message, wild)
    await harness.api.wait_for(lambda: is_picker(harness, mover), what="the colour picker")

    await delivered_again(harness, mover)
    assert is_picker(harness, mover), verbs(harness, mover)

    back = next(d for d in data_of(harness.hand_message(mover)) if callbacks.parse(d).verb == "g")
    await harness.press(mover, harness.hand_message(mover), back)
    await harness.api.wait_for(lambda: not is_picker(harness, mover), what="the plain hand")
    await delivered_again(harness, mover)
    assert not is_picker(harness, mover)
    assert any(v == "w" for v, _ in verbs(harness, mover))
