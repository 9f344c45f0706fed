"""RuleSet: the official rules and the house rules as one frozen, serialisable value."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from .errors import BadAction

STACKING_MODES = ("off", "same", "progressive", "by_value")
SCORING_MODES = ("winner_takes", "losers_accumulate", "chips")
FIRST_WILD_MODES = ("dealer_names", "any_card")
WD4_RULES = ("no_color", "no_match")
TEAM_SIZES = (2, 5)  # players per team, inclusive range
MATCH_ENDS = ("target", "hands")
MAX_MATCH_HANDS = 1000
MAX_ROTATION_HANDS = 50
MAX_TABLES = 2
MIN_PLAYERS = 2  # seats at one table
MAX_PLAYERS = 10


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

    def __post_init__(self) -> None:
        problems = []
        if not (isinstance(self.hand_size, int) and 1 <= self.hand_size <= 20):
            problems.append("hand_size must be 1..20")
        if self.stacking not in STACKING_MODES:
            problems.append(f"stacking must be one of {STACKING_MODES}")
        if self.scoring not in SCORING_MODES:
            problems.append(f"scoring must be one of {SCORING_MODES}")
        if self.first_wild not in FIRST_WILD_MODES:
            problems.append(f"first_wild must be one of {FIRST_WILD_MODES}")
        if self.wd4_rule not in WD4_RULES:
            problems.append(f"wd4_rule must be one of {WD4_RULES}")
        low, high = TEAM_SIZES
        if not (isinstance(self.team_size, int) and not isinstance(self.team_size, bool)
                and low <= self.team_size <= high):
            problems.append(f"team_size must be {low}..{high}")
        for name in ("uno_penalty", "false_uno_penalty"):
            value = getattr(self, name)
            if not (isinstance(value, int) and 0 <= value <= 20):
                problems.append(f"{name} must be 0..20")
        if not (isinstance(self.target_score, int) and 1 <= self.target_score <= 100_000):
            problems.append("target_score must be 1..100000")
        if self.match_end not in MATCH_ENDS:
            problems.append(f"match_end must be one of {MATCH_ENDS}")
        if not (isinstance(self.match_hands, int) and 1 <= self.match_hands <= MAX_MATCH_HANDS):
            problems.append(f"match_hands must be 1..{MAX_MATCH_HANDS}")
        if not (isinstance(self.rotation_hands, int) and 1 <= self.rotation_hands <= MAX_ROTATION_HANDS):
            problems.append(f"rotation_hands must be 1..{MAX_ROTATION_HANDS}")
        if not (isinstance(self.tables, int) and 1 <= self.tables <= MAX_TABLES):
            problems.append(f"tables must be 1..{MAX_TABLES}")
        for f in fields(self):
            if f.type in (bool, "bool") and not isinstance(getattr(self, f.name), bool):
                problems.append(f"{f.name} must be true or false")
        if problems:
            raise BadAction("; ".join(problems), asdict(self))

    def with_(self, **changes: Any) -> RuleSet:
        """A copy with some fields changed (validated)."""
        unknown = set(changes) - {f.name for f in fields(self)}
        if unknown:
            raise BadAction(f"unknown rule(s): {', '.join(sorted(unknown))}", changes)
        return replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

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

# What a field accepts, for the settings UIs and their messages (validation is __post_init__'s):
# the choices of a text field, the inclusive range of a number field. Booleans are on/off.
FIELD_CHOICES: dict[str, tuple[str, ...]] = {
    "stacking": STACKING_MODES, "scoring": SCORING_MODES, "first_wild": FIRST_WILD_MODES,
    "wd4_rule": WD4_RULES, "match_end": MATCH_ENDS,
}
FIELD_RANGES: dict[str, tuple[int, int]] = {
    "hand_size": (1, 20), "uno_penalty": (0, 20), "false_uno_penalty": (0, 20),
    "target_score": (1, 100_000), "team_size": TEAM_SIZES, "match_hands": (1, MAX_MATCH_HANDS),
    "rotation_hands": (1, MAX_ROTATION_HANDS), "tables": (1, MAX_TABLES),
}
