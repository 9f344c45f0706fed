"""The pure UNO rules engine: standard library only, no I/O, no clock, seeded randomness.

Public API (see README and ../shared/spec/scenario.md):
    Card, Color, Rank, full_deck           -- value types           (cards.py)
    RuleSet, PRESETS, OFFICIAL, HOUSE      -- rules and presets      (rules.py)
    Play, Draw, Pass, DeclareUno, CatchUno, Challenge, Action        (actions.py)
    events.*                               -- everything that happens (events.py)
    UnoError and its subclasses            -- each with .code        (errors.py)
    GameState                              -- one hand, frozen, JSON round-trip exact (state.py)
    new_hand, legal_actions, is_legal, apply, remove_player         (game.py)
    Match                                  -- hands to the target score (match.py)
"""
