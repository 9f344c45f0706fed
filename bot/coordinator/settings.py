"""Chat settings: validating a change request and turning settings into a RuleSet.

A change is validated as a whole before anything is stored: one bad key or value refuses
the lot (``bad_setting``) and leaves the settings as they were."""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from typing import Any

from cachetools import LRUCache

from bot.engine.errors import UnoError
from bot.engine.rules import PRESETS, RULE_FIELDS, RuleSet

from .ports import ChatSettings
from .preset_codes import decode, looks_like_code
from .refusals import Refusal
from .setting_schema import (
    AFK_POLICIES,
    HAND_SIZE_RANGE,
    LANGUAGES,
    TURN_TIMER_RANGE,
    normalize_language,
    parse,
    setting,
)

GAME_SETTINGS = ("language", "turn_timer", "afk_policy", "reaction_window", "season_days", "ai_level")  # may change while a game runs


def locale_hint(code: str | None) -> str:
    """The locale a platform's language hint suggests (Chinese or else English)."""
    return "zh_CN" if normalize_language(code) == "zh_CN" else "en"


def rules_of(settings: ChatSettings) -> RuleSet:
    return RuleSet.from_dict({"preset": settings.preset, **settings.overrides})


# One rules dict per rule set, shared by every game played by it: an open game holds no copy
# of its own. A record's rules are replaced, never changed in place (``game_rules`` relies on
# that too), so sharing cannot leak one game's change into another.
_rules_dicts: LRUCache[RuleSet, dict[str, Any]] = LRUCache(maxsize=256)


def rules_dict(rules: RuleSet) -> dict[str, Any]:
    """``rules`` as a record stores them (``RuleSet.to_dict``), shared between games."""
    shared = _rules_dicts.get(rules)
    if shared is None:
        shared = _rules_dicts[rules] = rules.to_dict()
    return shared


def first_language(settings: ChatSettings, language: str) -> ChatSettings:
    """A new chat speaks the language of whoever first opens a game or changes a setting there
    (``language``: theirs); a chat with settings keeps its own."""
    return replace(settings, language=language) if settings.new else settings


def apply_changes(settings: ChatSettings, changes: dict[str, Any]) -> ChatSettings:
    """The settings with ``changes`` applied, or Refusal("bad_setting") naming the problem."""
    if not changes or not isinstance(changes, dict):
        raise Refusal("bad_setting", {"detail": "nothing to change" if not changes else str(changes)[:40]})
    new = replace(settings, overrides=dict(settings.overrides))
    changes = expand_code(changes)
    # Each key and value is checked against the setting schema (a localised refusal naming
    # what is allowed); the RuleSet then checks the whole.
    parsed = {(item := setting(key)).name: parse(item, value) for key, value in changes.items()}
    if "preset" in parsed:
        new.preset = parsed["preset"]
        new.overrides = {}  # a new preset starts clean; overrides in the same request still apply
    for key, value in parsed.items():
        if key == "preset":
            continue
        if key == "language":
            new.language = value
        elif key == "turn_timer":
            new.turn_timer = value
        elif key == "afk_policy":
            new.afk_policy = value
        elif key == "reaction_window":
            new.reaction_window = value
        elif key == "season_days":
            new.season_days = value
        elif key == "ai_level":
            new.ai_level = value
        elif key in RULE_FIELDS:
            new.overrides[key] = value
    try:
        rules = rules_of(new)
    except UnoError as error:
        raise Refusal("bad_setting", {"detail": str(error)}) from None
    # Keep only real differences from the preset, so the stored overrides stay meaningful.
    new.overrides = rules.differences(PRESETS[new.preset])
    return new


def _key(name: Any) -> str:
    """The setting's key as typed in any way ``setting`` reads ("语言" is language)."""
    try:
        return setting(name).name
    except Refusal:
        return str(name).strip().lower().replace("-", "_")


def expand_code(changes: dict[str, Any]) -> dict[str, Any]:
    """``preset=<share code>`` as the settings the code stands for (a refusal when it is
    damaged or newer), the request's other keys applied after it."""
    code = next((value for key, value in changes.items()
                 if _key(key) == "preset" and isinstance(value, str) and looks_like_code(value)), None)
    if code is None:
        return changes
    return {**decode(code), **{key: value for key, value in changes.items() if _key(key) != "preset"}}


def rule_changes(changes: dict[str, Any]) -> bool:
    """Whether a change request touches the rules (not allowed while a game runs)."""
    return any(_key(key) not in GAME_SETTINGS for key in changes)


__all__ = ["AFK_POLICIES", "GAME_SETTINGS", "HAND_SIZE_RANGE", "LANGUAGES", "TURN_TIMER_RANGE", "apply_changes",
           "expand_code", "first_language", "locale_hint", "normalize_language", "rule_changes", "rules_dict", "rules_of"]


@lru_cache(maxsize=256)
def _shared_rules(items: tuple[tuple[str, Any], ...]) -> RuleSet:
    return RuleSet(**dict(items))


# Stored rules dicts are replaced, never changed in place: the dict last seen is the same
# RuleSet without sorting its items again (views ask several times per move). The entry
# holds the dict, so its id cannot be reused while it is cached.
_rules_by_dict: LRUCache[int, tuple[dict[str, Any], RuleSet]] = LRUCache(maxsize=4096)


def game_rules(stored: dict[str, Any]) -> RuleSet:
    """A game's RuleSet from its stored rules: one shared value for every game played by the
    same rules (a RuleSet is immutable), so open games do not each hold and validate a copy."""
    seen = _rules_by_dict.get(id(stored))
    if seen is not None and seen[0] is stored:
        return seen[1]
    try:
        rules = _shared_rules(tuple(sorted(stored.items())))
    except TypeError:  # an unhashable value: not a rules dict this bot wrote
        return RuleSet(**stored)
    _rules_by_dict[id(stored)] = (stored, rules)
    return rules
