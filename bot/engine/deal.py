"""Starting a hand: choosing the dealer, dealing, turning the first card; and building a
position from the scenario format."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Final

from . import events as ev
from .cards import Card, Color, Rank, full_deck
from .core import WorkingCopy
from .errors import BadAction
from .predicates import D2, W4
from .rng import randbelow, seeded_rng, shuffle
from .rules import MAX_PLAYERS, MIN_PLAYERS, OFFICIAL, RuleSet
from .scoring import team_ids_for
from .state import GameState, cards_from_names, use_position_builder


def _check_players(players: Sequence[str], rules: RuleSet) -> tuple[str, ...]:
    players = tuple(players)
    if not (MIN_PLAYERS <= len(players) <= MAX_PLAYERS):
        raise BadAction(f"{MIN_PLAYERS} to {MAX_PLAYERS} players", players)
    if len(set(players)) != len(players) or not all(isinstance(p, str) and p for p in players):
        raise BadAction("players are distinct non-empty ids", players)
    _check_teams(players, rules)
    if len(players) * rules.hand_size > 100:
        raise BadAction("not enough cards to deal that many", players)
    return players


def _check_teams(players: Sequence[str], rules: RuleSet) -> None:
    """Teams of ``team_size``: the seat count divides by it, and there are at least two teams."""
    size = rules.team_size
    if rules.teams and (len(players) % size or len(players) < 2 * size):
        raise BadAction(f"teams of {size} need a multiple of {size} players, at least {2 * size}",
                        list(players))


_NUMBER_VALUE: Final = {c: c.rank.number for c in full_deck() if c.rank.is_number}


def choose_dealer(players: Sequence[str], rng: random.Random
                  ) -> tuple[str, tuple[tuple[str, Card], ...]]:
    """Each contender turns cards from a shuffled deck until a number card; the highest deals;
    ties turn again. Returns (dealer, the cards turned in order)."""
    deck = full_deck()
    getrandbits = rng.getrandbits
    draws: list[tuple[str, Card]] = []
    contenders = list(players)
    while True:
        values: dict[str, int] = {}
        for p in contenders:
            while True:
                if not deck:
                    deck = full_deck()
                card = deck.pop(randbelow(getrandbits, len(deck)))  # rng.randrange(len(deck))
                draws.append((p, card))
                value = _NUMBER_VALUE.get(card)
                if value is not None:
                    values[p] = value
                    break
        best = max(values.values())
        contenders = [p for p in contenders if values[p] == best]
        if len(contenders) == 1:
            return contenders[0], tuple(draws)


def new_hand(players: Sequence[str], rules: RuleSet = OFFICIAL, seed: int | str = 0,
             dealer: str | None = None) -> tuple[GameState, list[ev.Event]]:
    """Shuffle with ``seed``, choose the dealer by drawing if None, deal, turn the first card."""
    players = _check_players(players, rules)
    events: list[ev.Event] = []
    rng = seeded_rng(seed, 0)  # one generator for choosing the dealer and the deal
    if dealer is None:
        dealer, draws = choose_dealer(players, rng)
        events.append(ev.DealerChosen(dealer, draws))
    elif dealer not in players:
        raise BadAction(f"dealer {dealer!r} is not playing", dealer)
    deck = full_deck()
    shuffle(rng, deck)  # rng.shuffle(deck), faster
    counter = 1
    n = len(players)
    d = players.index(dealer)
    pos = n * rules.hand_size
    hands: list[tuple[Card, ...]] = [()] * n
    for k in range(1, n + 1):  # one card at a time, starting left of the dealer: every n-th card
        hands[(d + k) % n] = tuple(deck[k - 1:pos:n])
    events.append(ev.HandDealt(dealer, rules.hand_size))
    state = GameState(
        rules=rules, players=players, hands=tuple(hands),
        draw_pile=tuple(deck[pos:]), discard=(), color=None, direction=1, turn=None,
        dealer=dealer, team_ids=team_ids_for(n, rules.team_size) if rules.teams else (), seed=seed,
        rng_counter=counter)
    state, more = turn_first_card(state)
    return state, events + more


def turn_first_card(state: GameState) -> tuple[GameState, list[ev.Event]]:
    """Turn the top of the stock with the official first-card effects, the dealer 'playing' it:
    W+4 goes under the stock and another is turned; Skip skips the first player; Reverse lets
    the dealer start and turns the direction; +2 makes the first player draw 2 and lose the
    turn (waits in ``pending_draw`` when stacking is on); a Wild is named by the dealer before
    play begins (``first_wild: dealer_names``: the dealer is to act, with no colour in force
    until a ``ChooseColor``) or lets the first player play any card (``any_card``). The first
    player is the one after the dealer in seat order."""
    pile = state.draw_pile
    if not pile or all(c.rank is W4 for c in pile):
        raise BadAction("no card to turn over", [str(c) for c in pile])
    reshuffled = False
    while pile[0].rank is W4:
        pile = pile[1:] + pile[:1]
        reshuffled = True
    card = pile[0]
    d = state.players.index(state.dealer)
    rank = card.rank
    wc = WorkingCopy(state)
    wc.pile = pile[1:]
    wc.discard = (card,)
    wc.color = card.color
    wc.direction = 1
    events = wc.events
    events.append(ev.FirstCardTurned(card, reshuffled))
    first = wc.next_seat(d)
    if rank is Rank.SKIP:
        wc.skip(first)
        wc.start_turn(wc.next_seat(first))
    elif rank is Rank.REVERSE:
        if wc.n > 2:  # with two players it acts as Skip: the dealer starts all the same
            wc.direction = -1
            events.append(ev.DirectionReversed(-1))
        else:
            wc.skip(first)
        wc.start_turn(d)
    elif rank is D2:
        if state.rules.stacking != "off":
            wc.pending = 2
            wc.penalty_play = 2
            wc.start_turn(first)
            events.append(ev.PenaltyPending(state.players[first], 2))
        else:
            wc.draw(first, 2, "first_card")
            wc.skip(first)
            wc.start_turn(wc.next_seat(first))
    elif rank is Rank.WILD and state.rules.first_wild == "dealer_names":
        wc.start_turn(d)
    else:
        wc.start_turn(first)
    return wc.freeze(), events


def position(players: Any, hands: Any, draw_pile: Any, *, rules: RuleSet | None = None,
             discard: Any = None, color: Any = None, current: Any = None, direction: Any = 1,
             dealer: Any = None, pending_draw: Any = 0,
             seed: Any = 0, rng_counter: int = 0) -> tuple[GameState, list[ev.Event]]:
    """A state from an arbitrary position (the scenario format). Raises BadAction if malformed.
    Any: the values come straight from a file and are checked here, with precise messages."""
    rules = rules or OFFICIAL
    players = tuple(players)
    if not (MIN_PLAYERS <= len(players) <= MAX_PLAYERS) or len(set(players)) != len(players) \
            or not all(isinstance(p, str) and p for p in players):
        raise BadAction("2 to 10 distinct players", list(players))
    _check_teams(players, rules)
    if not isinstance(hands, dict) or set(hands) != set(players):
        raise BadAction("hands must list every player", hands)
    hand_tuple = tuple(cards_from_names(hands[p]) for p in players)
    pile = cards_from_names(draw_pile if draw_pile is not None else [])
    if direction not in (1, -1):
        raise BadAction("direction is 1 or -1", direction)
    team_ids = team_ids_for(len(players), rules.team_size) if rules.teams else ()
    if discard is None:
        if dealer is None or dealer not in players:
            raise BadAction("start needs a dealer who plays", dealer)
        base = GameState(rules=rules, players=players, hands=hand_tuple, draw_pile=pile, discard=(),
                         color=None, direction=1, turn=None, dealer=dealer, team_ids=team_ids,
                         seed=seed, rng_counter=rng_counter)
        return turn_first_card(base)
    disc = cards_from_names(discard)
    if not disc:
        raise BadAction("the discard pile needs a top card", discard)
    top = disc[-1]
    if color is None:
        col = top.color
    elif isinstance(color, Color):
        col = color
    elif isinstance(color, str):
        col = Color.parse(color)
    else:
        raise BadAction("colour is R, G, B or Y", color)
    if current is None:
        current = players[0]
    if current not in players:
        raise BadAction(f"current player {current!r} is not playing", current)
    if not isinstance(pending_draw, int) or pending_draw < 0:
        raise BadAction("pending_draw is a count", pending_draw)
    if pending_draw and top.rank not in (D2, W4):
        raise BadAction("a pending penalty needs a +2 or W+4 on top", pending_draw)
    state = GameState(rules=rules, players=players, hands=hand_tuple, draw_pile=pile, discard=disc,
                      color=col, direction=direction, turn=players.index(current),
                      dealer=dealer if dealer in players else players[0],
                      pending_draw=pending_draw, team_ids=team_ids, seed=seed,
                      rng_counter=rng_counter,
                      penalty_play=top.rank.draw_amount if pending_draw else 0)
    return state, []


use_position_builder(position)  # GameState.from_position builds through this module
