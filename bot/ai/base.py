"""What every strategy shares: turning the engine's legal actions into choices.

A strategy sees the state through ``PublicView`` only (see knowledge.py): its own hand and
what is on the table. The engine lists a wild once per colour and a 7-0 seven once per swap
target, so choices are made in three steps: which cards (a ``Move``), then which colour, then
whom to swap with, always picking among the engine's own legal actions so the result is legal.
"""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import dataclass, replace

from bot.engine import GameState, legal_actions
from bot.engine.actions import Action, CatchUno, Challenge, ChooseColor, Draw, Pass, Play
from bot.engine.cards import Card, Color
from bot.engine.predicates import uno_hand
from bot.engine.rules import RuleSet

from .knowledge import PublicView


@dataclass(frozen=True)
class Move:
    """One way to play: the cards, with every legal (colour, swap) completion of it."""

    cards: tuple[Card, ...]
    completions: tuple[Play, ...]

    @property
    def card(self) -> Card:
        return self.cards[-1]

    @property
    def points(self) -> int:
        return sum(card.points for card in self.cards)

    @property
    def colors(self) -> tuple[Color, ...]:
        return tuple(dict.fromkeys(p.color for p in self.completions if p.color is not None))

    @property
    def swap_targets(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(p.swap for p in self.completions if p.swap is not None))

    def complete(self, color: Color | None, swap: str | None) -> Play:
        """The legal Play with this colour and swap target (falling back to any legal one)."""
        for play in self.completions:
            if (color is None or play.color == color) and (swap is None or play.swap == swap):
                return play
        return self.completions[0]


@dataclass(frozen=True)
class Options:
    """The choices open to a seat right now, grouped for deciding."""

    moves: tuple[Move, ...]
    can_draw: bool
    can_pass: bool
    can_challenge: bool

    @property
    def has_moves(self) -> bool:
        return bool(self.moves)


def group_plays(plays: list[Play]) -> tuple[Move, ...]:
    """Group Play actions by their cards, keeping the engine's order."""
    by_cards: dict[tuple[Card, ...], list[Play]] = defaultdict(list)
    for play in plays:
        by_cards[play.cards].append(play)
    return tuple(Move(cards, tuple(group)) for cards, group in by_cards.items())


def options_for(state: GameState, player: str) -> Options:
    """Everything ``player`` may do now except calling others out or declaring on its own."""
    actions = legal_actions(state, player)
    plays = [a for a in actions if isinstance(a, Play)]
    return Options(
        moves=group_plays(plays),
        can_draw=any(isinstance(a, Draw) for a in actions),
        can_pass=any(isinstance(a, Pass) for a in actions),
        can_challenge=any(isinstance(a, Challenge) for a in actions),
    )


def with_uno(play: Play, hand: tuple[Card, ...], rules: RuleSet, declare: bool) -> Play:
    """Declare UNO with a play that leaves a hand that must declare (one card, or identical
    cards under ``uno_identical``), unless the seat forgets."""
    rest = list(hand)
    for card in play.cards:
        rest.remove(card)
    uno = uno_hand(rules, rest) and declare
    return play if play.uno == uno else replace(play, uno=uno)  # most plays leave it as it is


class Strategy:
    """Base class: subclasses decide; this class keeps the decisions legal.

    ``choose`` returns Play, Draw, Pass or Challenge (never CatchUno, never a bare DeclareUno:
    a seat that forgot stays forgotten, so others may catch it);
    ``react`` returns a CatchUno, a jump-in Play, or None.
    """

    name = "base"

    def choose(self, state: GameState, player: str, rng: random.Random) -> Action:
        view = PublicView(state, player)
        if state.color is None and state.current == player and state.rules.first_wild != "any_card":
            return ChooseColor(player, self.name_first_color(view, rng))  # the dealer's first Wild
        options = options_for(state, player)
        if not (options.has_moves or options.can_draw or options.can_pass or options.can_challenge):
            raise ValueError(f"{player} has nothing to do in this state")
        decision = self.decide(view, options, rng)
        if isinstance(decision, Play):
            return with_uno(decision, view.hand, state.rules, self.declares_uno(rng))
        return decision

    def react(self, state: GameState, player: str, rng: random.Random) -> Action | None:
        if state.winner is not None or player not in state.players:
            return None
        may_jump_in = state.rules.jump_in and state.current != player
        if not (may_jump_in or any(t != player for t in state.catchable)):
            return None  # the common case, kept cheap: the coordinator asks after every move
        view = PublicView(state, player)
        actions = legal_actions(state, player)
        targets = [a.target for a in actions if isinstance(a, CatchUno) and a.target != player]
        if targets:
            target = self.pick_catch(view, targets, rng)
            if target is not None:
                return CatchUno(player, target)
        moves = group_plays([a for a in actions if isinstance(a, Play)]) if may_jump_in else ()
        if moves:
            play = self.pick_jump_in(view, moves, rng)
            if play is not None:
                return with_uno(play, view.hand, state.rules, self.declares_uno(rng))
        return None

    # ---- what subclasses decide -----------------------------------------------------------

    def decide(self, view: PublicView, options: Options, rng: random.Random) -> Play | Draw | Pass | Challenge:
        raise NotImplementedError

    def declares_uno(self, rng: random.Random) -> bool:
        return True

    def name_first_color(self, view: PublicView, rng: random.Random) -> Color:
        """As dealer, the colour of a Wild turned first: the colour the seat holds most."""
        return max(Color, key=lambda c: sum(1 for card in view.hand if card.color is c))

    def pick_catch(self, view: PublicView, targets: list[str], rng: random.Random) -> str | None:
        return None

    def pick_jump_in(self, view: PublicView, moves: tuple[Move, ...], rng: random.Random) -> Play | None:
        return None

    # ---- shared fallbacks -----------------------------------------------------------------

    @staticmethod
    def fallback(view: PublicView, options: Options) -> Play | Draw | Pass:
        """No play chosen: draw (or take the penalty), or keep the drawn card; where neither
        is allowed (forced play), the first legal play."""
        if options.can_draw:
            return Draw(view.player)
        if options.can_pass:
            return Pass(view.player)
        return options.moves[0].completions[0]
