"""Playing like a user (pressing buttons found in received messages) and rigging a position."""

from __future__ import annotations

import dataclasses

from adapters.telegram import callbacks
from bot.coordinator.ports import ChatKey
from bot.engine.cards import Card, Color
from bot.engine.match import Match

from .conftest import GROUP, Harness, data_of, hand_button, playable_buttons
from .fake_bot_api import TgUser

CHAT = ChatKey("telegram", str(GROUP))


def hand_results(h: Harness) -> list:
    return [r for r in h.store.results if r.kind == "hand"]


def actor(h: Harness, players: list[TgUser]) -> TgUser | None:
    """Whoever's hand keyboard offers Draw/Pass/Take (or, as dealer, the colour of a first
    Wild): the player to act."""
    for user in players:
        message = h.hand_message(user)
        if message and (hand_button(message, "d") or hand_button(message, "n") or hand_button(message, "o")):
            return user
    return None


def card_buttons(h: Harness, user: TgUser) -> int:
    message = h.hand_message(user)
    return len({callbacks.parse(d).card for d in data_of(message)
                if callbacks.parse(d).verb in ("p", "w", "s")}) if message else 0


async def take_turn(h: Harness, user: TgUser, *, declare: bool = True) -> str:
    """Press what a sensible player presses: a playable card (the UNO! variant with two cards
    when ``declare``; first colour for a wild), else Pass, else Draw. Returns the data pressed."""
    message = h.hand_message(user)
    playable = playable_buttons(message)
    uno = [d for _label, d in playable if callbacks.parse(d).uno]
    plain = [d for _label, d in playable if not callbacks.parse(d).uno]
    if hand_button(message, "o"):  # the dealer names the colour of a Wild turned first
        choice = hand_button(message, "o")
    elif playable:
        choice = uno[0] if uno and declare else plain[0]
    else:
        choice = hand_button(message, "n") or hand_button(message, "d")
    answer = await h.press(user, message, choice)
    if callbacks.parse(choice).verb in ("w", "s"):  # a sub-menu replaced the keyboard
        message = h.api.message(message.chat_id, message.message_id)
        follow = next(d for d in data_of(message) if callbacks.parse(d).verb == "p")
        answer = await h.press(user, message, follow)
    assert answer.get("show_alert") is not True, f"{user.first_name} pressed {choice}: {answer}"
    return choice


async def next_actor(h: Harness, players: list[TgUser]) -> TgUser | None:
    """The player to act, once their hand offers it (``actor``) and the stored game names
    them: a hand message alone may mislead for a moment, as the mover's old hand can still
    show Draw while their move's messages go out. None: nobody of ``players`` acts and a hand
    has ended."""
    found: list[TgUser | None] = []

    async def known() -> bool:
        for user in players:
            if actor(h, [user]) is not None and await _to_act(h, user):
                found.append(user)
                return True
        if hand_results(h):
            found.append(None)
        return bool(found)

    await h.until(known, "someone to act")
    return found[0]


async def _to_act(h: Harness, user: TgUser) -> bool:
    """Whether the stored game of ``user``'s hand message (its buttons name it: a table of a
    two-table match is a game of its own) has them to act."""
    game_id = callbacks.parse(data_of(h.hand_message(user))[0]).game_id
    record = await h.store.get(game_id)
    return record is not None and record.match is not None \
        and Match.from_json(record.match).game.current == str(user.id)


async def play_until_hand_ends(h: Harness, players: list[TgUser], max_turns: int = 400) -> int:
    for turn in range(max_turns):
        if hand_results(h):
            return turn
        user = await next_actor(h, players)
        if user is None:
            return turn
        await take_turn(h, user)
    raise AssertionError("the hand did not end")


async def match_of(h: Harness) -> Match:
    record = await h.store.load(CHAT)
    assert record is not None and record.match is not None
    return Match.from_json(record.match)


async def rig(h: Harness, *, hands: dict[str, list[str]] | None = None, current: str | None = None,
              top: str | None = None, color: str | None = None, first_wild: str | None = None) -> None:
    """Rewrite the stored position (keeping all 108 cards): give players exactly these cards,
    taken from the draw pile (their old cards go under it), optionally set whose turn it is
    and the top card. The coordinator reloads from the store on every command."""
    record = await h.store.load(CHAT)
    match = Match.from_json(record.match)
    state = match.game
    pile = list(state.draw_pile)
    hands_now = [list(hand) for hand in state.hands]
    discard = list(state.discard)
    for player, names in (hands or {}).items():
        seat = state.players.index(player)
        wanted = [Card.parse(n) for n in names]
        pile += hands_now[seat]
        for card in wanted:
            if card in pile:
                pile.remove(card)
                continue
            # Held by someone we leave alone: they get a card from the pile instead.
            other = next(i for i, hand in enumerate(hands_now)
                         if card in hand and state.players[i] not in hands)
            hands_now[other][hands_now[other].index(card)] = pile.pop(0)
        hands_now[seat] = wanted
    changes = {"hands": tuple(tuple(hand) for hand in hands_now)}
    if top is not None:
        card = Card.parse(top)
        pile.remove(card)
        pile.append(discard.pop())
        discard.append(card)
        changes["discard"] = tuple(discard)
        # color="" leaves no colour in force: a wild turned as the first card.
        changes["color"] = Color(color) if color else (card.color if color is None else None)
    changes["draw_pile"] = tuple(pile)
    if current is not None:
        changes["turn"] = state.players.index(current)
    if first_wild is not None:
        changes["rules"] = state.rules.with_(first_wild=first_wild)
    new_state = state.evolve(**changes)
    assert new_state.card_total() == 108
    record.match = dataclasses.replace(match, game=new_state).to_json()
    await h.store.save(record)


async def refresh_hands(h: Harness, users: list[TgUser]) -> None:
    """Each player asks for their hand again (``/hand`` in the private chat)."""
    for user in users:
        before = len(h.api.calls_to(None, user.id))
        h.say(user, "/hand", chat=user.id)
        await h.api.wait_for(lambda u=user, b=before: len(h.api.calls_to(None, u.id)) > b,
                             what=f"{user.first_name}'s refreshed hand")
