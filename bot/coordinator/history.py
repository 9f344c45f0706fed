"""A stored game's hands, rebuilt from its match log: told move by move, or written out as a
rule scenario (docs/development/scenario-format.md) that the engine replays exactly."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.engine import Match
from bot.engine import events as ev
from bot.engine.actions import action_from_json
from bot.engine.errors import NothingToCatch
from bot.engine.scenario import state_to_spec
from bot.engine.seal import fingerprint
from bot.engine.state import GameState
from bot.i18n import sentences, translate

from .match_log import Step
from .ports import MatchHistory
from .presenter import describe_all
from .seals import grouped
from .views import N_, Text


@dataclass
class Move:
    step: Step
    events: list[ev.Event]


@dataclass
class Hand:
    number: int
    start: GameState  # the position once dealt (the first card turned, its effect applied)
    moves: list[Move] = field(default_factory=list)
    end: GameState | None = None
    exportable: bool = True  # only actions: no player left or joined during the hand
    sealed: bool = False  # dealt from a sealed seed: its fingerprint may be shown, its seed once over

    @property
    def over(self) -> bool:
        return self.end is not None and self.end.winner is not None

    @property
    def last(self) -> GameState:
        return self.end if self.end is not None else self.start

    @property
    def fingerprint(self) -> str | None:
        """SHA-256 of the hand's seed, as the table showed it at the deal (None: unsealed)."""
        return fingerprint(self.start.seed) if self.sealed else None

    @property
    def seed(self) -> str | None:
        """The hand's seed, once it is over and only when sealed (an older game's hand seed
        holds its match seed, which would tell every hand)."""
        return str(self.start.seed) if self.sealed and self.over else None


def hands_of(history: MatchHistory) -> list[Hand]:
    """Every hand of the stored match, in order (a later base starts the match again)."""
    hands: list[Hand] = []
    for data, steps in history.matches():
        match = Match.from_json(data)
        hand = Hand(match.hand_number, match.game, sealed=match.sealed)
        hands.append(hand)
        for step in steps:
            match, hand = _play(match, hand, step, hands)
    return hands


def _play(match: Match, hand: Hand, step: Step, hands: list[Hand]) -> tuple[Match, Hand]:
    if "next" in step:
        match, _ = match.next_hand()
        hand = Hand(match.hand_number, match.game, sealed=match.sealed)
        hands.append(hand)
        return match, hand
    if "a" in step:
        try:
            match, events = match.apply(action_from_json(step["a"]))
        except NothingToCatch as wrong_call:  # the caller's penalty is the move
            match, events = wrong_call.match, list(wrong_call.events)
    elif "remove" in step:
        match, events = match.remove_player(step["remove"])
        hand.exportable = False
    else:
        match, events = match.add_player(step["add"])
        hand.exportable = False
    hand.moves.append(Move(step, events))
    hand.end = match.game
    return match, hand


def find_hand(hands: list[Hand], number: int | None) -> Hand | None:
    """Hand ``number`` (the last one of that number: a new match restarts the count), or the
    last hand when None."""
    if not hands:
        return None
    if number is None:
        return hands[-1]
    return next((h for h in reversed(hands) if h.number == number), None)


def told(hand: Hand, names: dict[str, str], locale: str, *, game_open: bool = True) -> list[str]:
    """The hand move by move, as the table told it. The cards people held and drew are shown
    only once the hand is over: until then they are secret, and so they stay in a hand the
    game ended before (``game_open`` False: the game was stopped)."""
    start = hand.start
    lines = [translate(Text(N_("Hand {hand}, dealt by {dealer}: {top} on the table."),
                            {"hand": hand.number, "dealer": names.get(start.dealer, start.dealer),
                             "top": start.top}), locale)]
    if hand.fingerprint is not None:
        lines.append(translate(Text(N_("Deck sealed at the deal: SHA-256 {fingerprint}"),
                                    {"fingerprint": grouped(hand.fingerprint)}), locale))
    if hand.over:
        for player, cards in zip(start.players, start.hands, strict=True):
            lines.append(translate(Text(N_("{player} held {cards}."),
                                        {"player": names.get(player, player), "cards": cards}), locale))
    for number, move in enumerate(hand.moves, 1):
        said = [translate(text, locale) for text in describe_all(move.events, names, start.rules)]
        if "remove" in move.step:  # the engine tells no event of it: the table said so itself
            gone = move.step["remove"]
            said.insert(0, translate(Text(N_("{player} left the game."),
                                          {"player": names.get(gone, gone)}), locale))
        if hand.over:
            said += [translate(Text(N_("({player} drew {cards}.)"),
                                    {"player": names.get(e.player, e.player), "cards": e.cards}), locale)
                     for e in move.events if isinstance(e, ev.CardsDrawn) and e.cards]
        lines.append(f"{number:>3}. " + (sentences(said, locale) or "·"))
    if not hand.over:
        unfinished = (N_("The hand is still being played: the cards stay secret.") if game_open
                      else N_("The game ended before this hand did: the cards stay secret."))
        lines.append(translate(Text(unfinished), locale))
    elif hand.seed is not None:
        lines.append(translate(Text(N_("Seed of hand {hand}: {seed}"),
                                    {"hand": hand.number, "seed": hand.seed}), locale))
    return lines


def scenario(hand: Hand, description: str) -> dict[str, Any]:
    """The hand as a rule scenario: its dealt position, every action, and the outcome the
    replay must reach. Only a hand of actions can be written (see ``Hand.exportable``). A
    sealed hand carries its fingerprint too: the seed's SHA-256 the table showed at the deal
    (the replay ignores it; with the seed it proves the deal was the one committed to)."""
    if not hand.over:
        raise ValueError(f"hand {hand.number} is not over: its cards and its seed are secret")
    start = hand.start
    sealed: dict[str, Any] = {} if hand.fingerprint is None else {"fingerprint": hand.fingerprint}
    return {
        "description": description,
        "rules": start.rules.to_dict(),
        "players": list(start.players),
        "hands": {p: [str(c) for c in cards] for p, cards in zip(start.players, start.hands, strict=True)},
        "draw_pile": [str(c) for c in start.draw_pile],
        "discard": [str(c) for c in start.discard],
        "color": None if start.color is None else start.color.value,
        "current": start.current,
        "direction": start.direction,
        "pending_draw": start.pending_draw,
        "dealer": start.dealer,
        "seed": start.seed,
        **sealed,
        "rng_counter": start.rng_counter,
        "actions": [move.step["a"] for move in hand.moves],
        "expected": {"state": state_to_spec(hand.last)},
    }
