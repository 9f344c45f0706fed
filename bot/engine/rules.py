"""RuleSet: the official rules and the house rules as one frozen, serialisable value."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from .errors import BadAction

MIN_PLAYERS = 2  # seats at one table
MAX_PLAYERS = 10


@dataclass(frozen=True)
class FieldSpec:
    """What one RuleSet field accepts and means: the choices of a text field, the inclusive
    range of a number field (booleans are on/off). RuleSet validates by these, and the
    settings UIs show them."""

    description: str
    choices: tuple[str, ...] = ()
    low: int | None = None
    high: int | None = None


# Every RuleSet field, in its declared order (a test checks that none is missing).
FIELD_SPECS: dict[str, FieldSpec] = {
    "hand_size": FieldSpec("cards dealt to each player", low=1, high=20),
    "stacking": FieldSpec("how a +2/+4 may be answered with another",
                          choices=("off", "same", "progressive", "by_value")),
    "jump_in": FieldSpec("a card identical to the top may be played out of turn"),
    "multi_play": FieldSpec("several cards of one rank go down at once"),
    "seven_zero": FieldSpec("a 7 swaps hands with a chosen player, a 0 passes every hand on"),
    "draw_until_playable": FieldSpec("a player who draws keeps drawing until a card can be played"),
    "play_after_draw": FieldSpec("the card just drawn may be played at once"),
    "force_play": FieldSpec("a player who can play must play"),
    "uno_penalty": FieldSpec("cards drawn for being caught without saying UNO", low=0, high=20),
    "false_uno_penalty": FieldSpec("cards drawn for calling out a player wrongly", low=0, high=20),
    "wd4_challenge": FieldSpec("a Wild Draw Four may be challenged"),
    "scoring": FieldSpec("who scores what when a hand ends",
                         choices=("winner_takes", "losers_accumulate", "chips")),
    "target_score": FieldSpec("the score that ends a match", low=1, high=100_000),
    "teams": FieldSpec("partners sit apart and score together"),
    "team_size": FieldSpec("players per team", low=2, high=5),
    "first_wild": FieldSpec("what a Wild turned as the first card does",
                            choices=("dealer_names", "first_player_names", "any_card")),
    "wd4_rule": FieldSpec("when a Wild Draw Four is honest", choices=("no_color", "no_match")),
    "uno_identical": FieldSpec("a hand of identical cards must declare UNO (with multi_play)"),
    "match_end": FieldSpec("a match ends at target_score (target) or after match_hands (hands)",
                           choices=("target", "hands")),
    "match_hands": FieldSpec("hands in a match that ends after a number of hands", low=1, high=1000),
    "rotation": FieldSpec("teams of two whose partners change every rotation_hands hands"),
    "rotation_hands": FieldSpec("hands before partners change", low=1, high=50),
    "tables": FieldSpec("tables playing at once (2: partners rotate between them)", low=1, high=2),
    "late_join": FieldSpec("people may join a running game (dealt hand_size, seated next)"),
    "rotation_cycles": FieldSpec("times the partner rotation goes round every pairing",
                                 low=1, high=5),
    "by_value_same_color": FieldSpec("under by_value, Draw Twos played together on a Wild "
                                     "Draw Four must share a colour"),
}

# The choices of each text field and the range of each number field, from FIELD_SPECS.
FIELD_CHOICES: dict[str, tuple[str, ...]] = {
    name: spec.choices for name, spec in FIELD_SPECS.items() if spec.choices}
FIELD_RANGES: dict[str, tuple[int, int]] = {
    name: (spec.low, spec.high) for name, spec in FIELD_SPECS.items()
    if spec.low is not None and spec.high is not None}


@dataclass(frozen=True)
class RuleSet:
    hand_size: int = 7
    stacking: str = "off"
    jump_in: bool = False
    multi_play: bool = False
    seven_zero: bool = False
    draw_until_playable: bool = False
    play_after_draw: bool = True
    force_play: bool = False
    uno_penalty: int = 2
    false_uno_penalty: int = 0
    wd4_challenge: bool = True
    scoring: str = "winner_takes"
    target_score: int = 500
    teams: bool = False
    team_size: int = 2
    first_wild: str = "dealer_names"
    wd4_rule: str = "no_color"
    uno_identical: bool = False
    # Match format (seed 002): how a match ends, partner rotation, two tables at once.
    match_end: str = "target"  # "target": first to target_score; "hands": after match_hands
    match_hands: int = 10
    rotation: bool = False  # teams of 2; partners change every rotation_hands hands
    rotation_hands: int = 4
    tables: int = 1  # 2: two tables play at once, partners rotating (whatever ``rotation`` says)
    late_join: bool = False  # people may join a running game (dealt hand_size, seated next)
    rotation_cycles: int = 1  # the rotation's (and two tables') round of pairings, played this often
    by_value_same_color: bool = False  # seed 002: only a same-colour pair of +2 covers a W+4

    def __post_init__(self) -> None:
        problems = []
        for f in fields(self):
            value = getattr(self, f.name)
            spec = FIELD_SPECS[f.name]
            if spec.choices:
                if value not in spec.choices:
                    problems.append(f"{f.name} must be one of {spec.choices}")
            elif f.type in (bool, "bool"):
                if not isinstance(value, bool):
                    problems.append(f"{f.name} must be true or false")
            elif spec.low is not None and spec.high is not None:
                if not (isinstance(value, int) and not isinstance(value, bool)
                        and spec.low <= value <= spec.high):
                    problems.append(f"{f.name} must be {spec.low}..{spec.high}")
        if problems:
            raise BadAction("; ".join(problems), asdict(self))

    def with_(self, **changes: Any) -> RuleSet:
        """A copy with some fields changed (validated)."""
        unknown = set(changes) - {f.name for f in fields(self)}
        if unknown:
            raise BadAction(f"unknown rule(s): {', '.join(sorted(unknown))}", changes)
        return replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        # Every field is a plain value: read them as they are (asdict would copy each one
        # deeply, a tenth of a snapshot's encoding, which writes the rules twice).
        return {name: getattr(self, name) for name in RULE_FIELDS}

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> RuleSet:
        """``{"preset": name, **overrides}``; a missing preset means ``official``."""
        data = dict(data or {})
        preset = data.pop("preset", "official")
        if preset not in PRESETS:
            raise BadAction(f"unknown preset {preset!r}", preset)
        return PRESETS[preset].with_(**data)

    def differences(self, other: RuleSet | None = None) -> dict[str, Any]:
        """Fields whose value differs from ``other`` (default: the official preset)."""
        base = other or OFFICIAL
        return {f.name: getattr(self, f.name) for f in fields(self)
                if getattr(self, f.name) != getattr(base, f.name)}


OFFICIAL = RuleSet()
# What groups actually play: stacking, jump-in, several cards at once, forced play,
# a 2-card penalty for a wrong UNO call, 7-0, UNO for a hand of identical cards, late joining.
HOUSE = RuleSet(stacking="progressive", jump_in=True, multi_play=True, force_play=True,
                false_uno_penalty=2, seven_zero=True, uno_identical=True, late_join=True)

PRESETS: dict[str, RuleSet] = {"official": OFFICIAL, "house": HOUSE}
RULE_FIELDS = tuple(f.name for f in fields(RuleSet))
