"""hard: plans with public information.

- keeps Wild and Wild Draw Four for later while it has other plays (and, with a big hand and
  no opponent close to winning, draws rather than spend its only wild);
- counts the discard pile: names colours it holds and opponents are short of, and prefers
  to leave on top a colour the pile has used up;
- attacks the next player when they are low (Skip, Draw Two, Reverse, Wild Draw Four);
- challenges a Wild Draw Four when a bluff is likely given the player's card count and the
  unseen cards of the colour that was in force;
- always calls out a player who forgot UNO; swaps (7-0) with the player holding fewest cards.
"""

from __future__ import annotations

import random

from bot.engine.actions import Challenge, Draw, Pass, Play
from bot.engine.cards import Color, Rank

from .base import Move, Options, Strategy
from .knowledge import PublicView
from .normal import remaining_hand

LOW = 2  # an opponent with this many cards or fewer is about to win
ATTACKS = (Rank.SKIP, Rank.DRAW_TWO, Rank.WILD_DRAW_FOUR)
BLUFF_PRIOR = 0.3  # how often we assume a player holding the colour bluffs anyway
CHALLENGE_ABOVE = 0.3  # a bluff called swings 8 cards, a wrong call costs 2: challenge early
KEEP_WILD_HAND = 4  # with at least this many cards, a lone wild is worth more kept
# move_score weights (hand-tuned with `python -m bot.ai.arena`)
W_EXTRA_CARD = 20.0  # each extra card shed by one multi-card play
W_POINTS = 0.5  # per point of the cards shed: valuable cards are a liability at the end
W_KEEP_WILD = 35.0  # the cost of spending a Wild ...
W_KEEP_WD4 = 40.0  # ... or a Wild Draw Four while other plays exist
W_ATTACK = 60.0  # Skip/Draw Two/Wild Draw Four on a next player about to win
W_SAVE_ATTACK = 10.0  # the same cards spent when nobody is threatened
W_FLOW = 4.0  # per card still held that will match what we leave on top
W_EXCHANGE = 6.0  # per card gained or shed by a 7-0 exchange
W_SCARCE = 25.0  # leaving on top a colour already seen on the pile (per full colour seen)


class HardStrategy(Strategy):
    name = "hard"

    def decide(self, view: PublicView, options: Options, rng: random.Random) -> Play | Draw | Pass | Challenge:
        if options.can_challenge and bluff_likelihood(view) > CHALLENGE_ABOVE:
            return Challenge(view.player)
        if not options.moves:
            return self.fallback(view, options)
        best = max(options.moves, key=lambda m: move_score(view, m))
        if best.card.is_wild and view.pending_draw == 0 and self.worth_keeping(view, options):
            return self.fallback(view, options)
        if view.pending_draw == 0 and hand_after(view, best) > len(view.hand) + 1 \
                and (options.can_draw or options.can_pass):
            return self.fallback(view, options)  # a 7-0 exchange would cost more than a draw
        return self.complete(view, best)

    def pick_catch(self, view: PublicView, targets: list[str], rng: random.Random) -> str | None:
        foes = [t for t in targets if not view.is_partner(t)]
        return foes[0] if foes else None

    def pick_jump_in(self, view: PublicView, moves: tuple[Move, ...], rng: random.Random) -> Play | None:
        # A jump-in sheds a card for free; the turn then passes to the seat after us.
        return self.complete(view, max(moves, key=lambda m: move_score(view, m)))

    @staticmethod
    def worth_keeping(view: PublicView, options: Options) -> bool:
        """Only wilds are playable: keep them (draw or pass) while the hand is big and nobody
        is close to going out. Never when drawing is not allowed."""
        if not (options.can_draw or options.can_pass):
            return False
        if view.rules.draw_until_playable and view.drawn_card is None:
            return False  # drawing could cost many cards
        if len(view.hand) < KEEP_WILD_HAND:
            return False
        if any(view.count(p) <= LOW for p in view.opponents):
            return False
        return all(m.card.is_wild for m in options.moves)

    def complete(self, view: PublicView, move: Move) -> Play:
        color = best_color(view, move) if move.colors else None
        swap = min(move.swap_targets, key=view.count) if move.swap_targets else None
        return move.complete(color, swap)


def move_score(view: PublicView, move: Move) -> float:
    """Higher is better. Weights are hand-tuned; see tests/ai for the win-rate check."""
    card = move.card
    rest = remaining_hand(view, move)
    # Shed cards (several at once where allowed), the valuable ones first.
    score = 10.0 + W_EXTRA_CARD * (len(move.cards) - 1) + W_POINTS * move.points
    if card.is_wild:
        score -= W_KEEP_WD4 if card.rank is Rank.WILD_DRAW_FOUR else W_KEEP_WILD
    nxt = view.next_player
    threatened = view.count(nxt) <= LOW and not view.is_partner(nxt)
    if card.rank in ATTACKS or (card.rank is Rank.REVERSE and len(view.players) == 2):
        score += W_ATTACK if threatened else -W_SAVE_ATTACK  # save attacks for when they matter
        if view.is_partner(nxt):
            score -= 30
    elif card.rank is Rank.REVERSE and threatened:
        score += W_ATTACK / 2  # play turns away from them
    # Keep the colour flowing into what we still hold.
    after = card.color
    if after is not None:
        score += W_FLOW * sum(1 for c in rest if c.color is after or c.rank is card.rank)
        # A colour the table has used up is one the next player is less likely to follow.
        score += W_SCARCE * view.seen_of(after) / 25
    if view.rules.seven_zero and card.rank is Rank.SEVEN and move.swap_targets:
        fewest = min(view.count(p) for p in move.swap_targets)
        score += W_EXCHANGE * (len(rest) - fewest)
    if view.rules.seven_zero and card.rank is Rank.ZERO:
        # Every hand moves on one seat in play direction: we receive the previous seat's.
        score += W_EXCHANGE * (len(rest) - view.count(view.previous_player))
    return score


def hand_after(view: PublicView, move: Move) -> int:
    """How many cards this seat holds after ``move``, 7-0 exchanges included."""
    left = len(view.hand) - len(move.cards)
    if not view.rules.seven_zero or left == 0:
        return left
    if move.card.rank is Rank.SEVEN and move.swap_targets:
        return min(view.count(p) for p in move.swap_targets)
    if move.card.rank is Rank.ZERO:
        return view.count(view.previous_player)
    return left


def best_color(view: PublicView, move: Move) -> Color:
    """Name a colour we hold; among those, one the table has used up (opponents are then
    less likely to match it)."""
    rest = remaining_hand(view, move)
    weight_seen = 1.5 if view.count(view.next_player) <= LOW else 0.5

    def value(color: Color) -> float:
        held = sum(1 for c in rest if c.color is color)
        return 10 * held + weight_seen * view.seen_of(color)

    return max(move.colors, key=value)


def bluff_likelihood(view: PublicView) -> float:
    """Chance the Wild Draw Four on top is a bluff, from the player's card count and the
    unseen cards of the colour in force before it (Bayes with a fixed bluffing prior)."""
    if not view.top_is_wild_draw_four():
        return 0.0
    player = view.wild_draw_four_by or view.previous_player
    cards = view.count(player)
    before = view.color_before_top()
    colors = [before] if before is not None else list(Color)
    holds = sum(1 - view.probability_lacks(c, cards) for c in colors) / len(colors)
    bluffing = holds * BLUFF_PRIOR
    honest = 1 - holds
    return bluffing / (bluffing + honest) if bluffing + honest > 0 else 0.0
