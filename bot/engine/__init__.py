"""The pure UNO rules engine: standard library only, no I/O, no clock, seeded randomness.

Public API (scenarios: docs/development/scenario-format.md):
    Card, Color, Rank, full_deck           -- value types           (cards.py)
    RuleSet, PRESETS, OFFICIAL, HOUSE      -- rules and presets      (rules.py)
    Play, Draw, Pass, DeclareUno, CatchUno, Challenge, ChooseColor, Action      (actions.py)
    events.*                               -- everything that happens (events.py)
    UnoError and its subclasses            -- each with .code        (errors.py)
    GameState                              -- one hand, a value, JSON round-trip exact (state.py)
                                              ``color`` is None only after a Wild turned first
                                              (dealer_names: the dealer names it first;
                                              any_card: the first player plays any card).
    apply, is_legal, remove_player, add_player -- the rules of play (game.py)
    legal_actions                          -- every legal action now (legal.py)
    legal_plays                            -- just its Plays, same order, built leaner
    new_hand, choose_dealer                -- dealing, first card    (deal.py)
    GameState.from_position -> (state, events), scenario.run -- the scenario format
    cards_value                            -- scoring helpers        (scoring.py)
    Match                                  -- hands to the target score (match.py)
    seal.sealed_seed, hand_seed, fingerprint -- sealed seeds: a hand's seed one way from the
                                              match's secret, committed by its SHA-256 (seal.py)
    python -m bot.engine.replay FILE       -- the spec's replay command (replay.py)

A wrong UNO call with ``false_uno_penalty > 0`` is refused with ``NothingToCatch`` whose
``.state``/``.events`` carry the penalised state (``.state`` is None when there is no penalty);
``Match.apply`` re-raises it with ``.match`` set as well.

Installed from the repository, the modules a move runs through are compiled with mypyc (see
setup.py); ``COMPILED`` says whether they are. Compiled, the typed API checks the types it is
given: a value of the wrong type (a list where a tuple of cards goes) raises ``TypeError``, a
well-typed action that breaks a rule raises ``UnoError`` as ever.
"""

from . import events
from .actions import (
    Action,
    CatchUno,
    Challenge,
    ChooseColor,
    DeclareUno,
    Draw,
    Pass,
    Play,
    action_from_json,
    action_to_json,
)
from .cards import Card, Color, Rank, full_deck
from .errors import (
    ERROR_CODES,
    BadAction,
    CannotChallenge,
    CannotPass,
    ColorRequired,
    GameOver,
    IllegalPlay,
    NothingToCatch,
    NotInHand,
    NotYourTurn,
    UnoError,
)
from .game import (
    add_player,
    apply,
    choose_dealer,
    is_legal,
    legal_actions,
    legal_plays,
    new_hand,
    remove_player,
)
from .match import Match
from .rules import HOUSE, OFFICIAL, PRESETS, RULE_FIELDS, RuleSet
from .scoring import cards_value
from .state import GameState

COMPILED: bool = not hasattr(apply, "__code__")  # a compiled function has no Python bytecode

__all__ = [
    "COMPILED", "Action", "BadAction", "CannotChallenge", "CannotPass", "Card", "CatchUno", "Challenge", "ChooseColor", "Color",
    "ColorRequired", "DeclareUno", "Draw", "ERROR_CODES", "GameOver", "GameState", "HOUSE",
    "IllegalPlay", "Match", "NotInHand", "NotYourTurn", "NothingToCatch", "OFFICIAL", "PRESETS",
    "Pass", "Play", "RULE_FIELDS", "Rank", "RuleSet", "UnoError", "action_from_json",
    "action_to_json", "apply", "cards_value", "choose_dealer", "events", "full_deck", "is_legal",
    "legal_actions", "legal_plays", "new_hand", "remove_player", "add_player",
]
