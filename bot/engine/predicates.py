"""Card predicates: what may be played on what, which hands must declare UNO, when the dealer
names a first Wild's colour. Public: the AI and the coordinator ask them too."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from .cards import Card, Color, Rank
from .rules import RuleSet
from .state import GameState

W4: Final = Rank.WILD_DRAW_FOUR
D2: Final = Rank.DRAW_TWO
COLORS: Final = tuple(Color)


def matches(card: Card, top: Card, color: Color | None) -> bool:
    """Colour, number/symbol or wild match. ``color`` None (first card Wild): anything goes."""
    return card.color is None or color is None or card.color is color or card.rank is top.rank


def can_stack(rules: RuleSet, top: Card, card: Card) -> bool:
    """May ``card`` be put on a waiting +2/+4 penalty whose top card is ``top``? (Under
    ``by_value`` any +2/+4 may start a stack; ``stack_adds_enough`` checks the whole play.)"""
    stacking = rules.stacking
    if stacking == "off":
        return False
    if stacking == "by_value":
        return card.rank is D2 or card.rank is W4
    if top.rank is D2:
        return card.rank is D2 or (rules.stacking == "progressive" and card.rank is W4)
    return top.rank is W4 and card.rank is W4


def stack_adds_enough(rules: RuleSet, cards: Sequence[Card], answered: int,
                      top: Card | None = None) -> bool:
    """``by_value``: the cards played add at least as many as the play they answer (whose top
    card is ``top``); with ``by_value_same_color`` Draw Twos answering a Wild Draw Four
    together are all of one colour."""
    if rules.stacking != "by_value":
        return True
    if rules.by_value_same_color and top is not None and top.rank is W4 and len(cards) > 1 \
            and any(c.color is not cards[0].color for c in cards):
        return False
    return sum(2 if c.rank is D2 else 4 if c.rank is W4 else 0 for c in cards) >= answered


def holds_color(hand: Iterable[Card], color: Color | None) -> bool:
    return color is not None and any(c.color is color for c in hand)


def wd4_dishonest(rules: RuleSet, hand: Iterable[Card], top: Card, color: Color | None) -> bool:
    """Would a W+4 from ``hand`` be a bluff? ``no_color``: the hand holds a card of the colour
    in force; ``no_match``: it holds a non-wild card that could be played (colour, number or
    symbol)."""
    if rules.wd4_rule == "no_color":
        return holds_color(hand, color)
    return any(c.color is not None and (color is None or c.color is color or c.rank is top.rank)
               for c in hand)


def uno_hand(rules: RuleSet, hand: Sequence[Card]) -> bool:
    """A hand that must declare UNO: one card, or (``uno_identical`` where ``multi_play`` lets
    them go down together) two or more identical cards."""
    if len(hand) == 1:
        return True
    if len(hand) < 2 or not (rules.uno_identical and rules.multi_play):
        return False
    first = hand[0]
    return all(c is first for c in hand)


def awaiting_color(state: GameState) -> bool:
    """A Wild was turned as the first card under ``first_wild: dealer_names``: the player to
    act (the dealer) names the colour before anything else happens."""
    return state.color is None and state.turn is not None and state.rules.first_wild != "any_card"


def playable(rules: RuleSet, card: Card, hand: Sequence[Card], top: Card, color: Color | None) -> bool:
    """Playable as a normal turn's (first) card, W+4 restriction included when unchallengeable."""
    if not matches(card, top, color):
        return False
    return not (card.rank is W4 and not rules.wd4_challenge and wd4_dishonest(rules, hand, top, color))


def jump_in_copies(rules: RuleSet, top: Card, hand: Sequence[Card]) -> int:
    """How many cards identical to ``top`` the hand holds to jump in with: 0 unless jump-in
    is on and ``top`` is not a Wild (a Wild's colour is chosen, so no card is identical)."""
    if not rules.jump_in or top.is_wild:
        return 0
    return hand.count(top)


def may_jump_in(state: GameState, player: str) -> bool:
    """Whether ``player`` holds a card to jump in with on the top card now (the hand still
    going). Whether the jump-in is legal at this moment (a waiting penalty, whose turn it is)
    is ``legal_actions``'s to say; this tells who has such a card at all."""
    if state.winner is not None or not state.discard or player not in state.players:
        return False
    return jump_in_copies(state.rules, state.discard[-1], state.hand(player)) > 0
