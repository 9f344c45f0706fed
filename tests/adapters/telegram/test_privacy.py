"""Privacy over every group message of whole games: no card of any hand appears, except a
card that has just been played. Hands are read from the store at the moment each group
message reaches the (fake) Telegram server: the coordinator saves before it sends."""

from __future__ import annotations

import re

import pytest

from bot.coordinator.clock import RealClock
from bot.coordinator.memory_store import MemoryStore
from bot.engine.cards import Card, full_deck
from bot.engine.match import Match
from bot.i18n import card_label
from bot.render.text import card_emoji

from .conftest import ANA, BO, CY, GROUP, Harness, hand_button, shown_text
from .fake_bot_api import ApiCall
from .helpers import CHAT, actor, hand_results, take_turn

DISTINCT = sorted(set(full_deck()), key=str)


def patterns(card: Card) -> list[re.Pattern[str]]:
    label = re.escape(card_label(card, "en"))
    # "Wild" must not match inside "Wild Draw Four" (nor 🌈 inside 🌈+4).
    return [re.compile(rf"(?<!\w){label}(?![\w+]| Draw Four)"),
            re.compile(re.escape(card_emoji(card)) + r"(?!\+4|\d)")]


PATTERNS = {card: patterns(card) for card in DISTINCT}
TOP = re.compile(r"Top card: [^·\n]*")
PLAYED = re.compile(r"\bplayed [^.\n]*")
# The cards turned face up to choose the dealer, the dealer's own first: back in the deck
# before the shuffle, so a hand may hold one of them now.
DEALER_DRAW = re.compile(r"deals \(highest number\): [^.\n]*|choose the dealer[^:]*: [^.\n]*")


class PrivacyWatch:
    def __init__(self, harness: Harness) -> None:
        self.harness = harness
        self.checked = 0
        self.leaks: list[str] = []

    async def __call__(self, call: ApiCall) -> None:
        shown = shown_text(call)
        if call.chat_id != GROUP or shown is None:
            return
        record = await self.harness.store.load(CHAT)
        if record is None or record.match is None:
            return
        state = Match.from_json(record.match).game
        played = set(state.discard)  # a card named publicly must have just been played
        held = {card for hand in state.hands for card in hand} - played
        # The card just played is named as the top card and in "X played <card>": the hand's
        # last play may be announced after the next hand was dealt (from the same deck), so
        # those two phrases are the only places a card may be named; the rest is scanned.
        text = DEALER_DRAW.sub(" ", PLAYED.sub(" ", TOP.sub(" ", shown)))
        self.checked += 1
        for card in held:
            if any(p.search(text) for p in PATTERNS[card]):
                self.leaks.append(f"{card} in {call.method}: {text[:300]!r}")


async def play_hands(harness: Harness, players, hands: int, max_turns: int = 600,
                     commands: bool = False) -> None:
    """Play by buttons; with ``commands``, every fifth turn the player types in the group
    instead (/draw, then /hand), so command replies are watched too."""
    for turn in range(max_turns):
        found = await harness.api.wait_for(
            lambda: len(hand_results(harness)) >= hands or actor(harness, players), what="someone to act")
        if found is True:
            return
        user = found
        message = harness.hand_message(user)
        if commands and turn % 5 == 0 and hand_button(message, "d"):
            before = message.edits
            harness.say(user, "/draw")
            await harness.api.wait_for(lambda m=message, b=before: m.edits > b, what="the draw")
            harness.say(user, "/hand")  # posts the hand anew in private: the group is watched
            await harness.api.wait_for(
                lambda u=user, m=message: harness.hand_message(u).message_id != m.message_id,
                what="the hand posted anew")
            continue
        await take_turn(harness, user, declare=len(hand_results(harness)) % 2 == 0)
    raise AssertionError("the hands did not end")


@pytest.mark.parametrize("seed", [3, 11])
async def test_no_card_of_any_hand_in_group_messages_of_whole_hands(api, seed):
    harness = Harness(api, MemoryStore(), RealClock(), seed=seed)
    watch = PrivacyWatch(harness)
    api.observer = watch
    try:
        await harness.start()
        await harness.open_game(ANA, BO, CY)
        await harness.start_game(ANA, [ANA, BO, CY])
        await play_hands(harness, [ANA, BO, CY], hands=2, commands=True)
        await harness.settle()
    finally:
        await harness.stop()
    assert watch.checked > 20
    assert not watch.leaks, "\n".join(watch.leaks[:5])


async def test_no_card_of_any_hand_in_group_messages_with_ai_seats(api):
    harness = Harness(api, MemoryStore(), RealClock(), seed=5)
    watch = PrivacyWatch(harness)
    api.observer = watch
    try:
        await harness.start()
        await harness.open_game(ANA, BO)
        lobby = harness.lobby()
        for _ in range(2):
            await harness.press(ANA, lobby, next(b["callback_data"] for b in lobby.buttons()
                                                 if b.get("callback_data", "").endswith(":ai")))
        await harness.start_game(ANA, [ANA, BO])
        await play_hands(harness, [ANA, BO], hands=1)
        await harness.settle()
    finally:
        await harness.stop()
    assert watch.checked > 10
    assert not watch.leaks, "\n".join(watch.leaks[:5])
    # The watch itself notices a leak (a held card named outside a play).
    state = Match.from_json((await harness.store.load(CHAT)).match).game
    secret = next(c for hand in state.hands for c in hand if c not in set(state.discard))
    await watch(ApiCall("sendMessage", {"chat_id": GROUP, "text": f"psst: {card_label(secret, 'en')}"}, 0.0))
    assert len(watch.leaks) == 1
