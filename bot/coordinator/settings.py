"""Chat settings: validating a change request and turning settings into a RuleSet.

A change is validated as a whole before anything is stored: one bad key or value refuses
the lot (``bad_setting``) and leaves the settings as they were."""

from __future__ import annotations

from dataclasses import fields, replace
from typing import Any

from bot.engine.errors import UnoError
from bot.engine.rules import PRESETS, RULE_FIELDS, RuleSet

from .fairness import REACTION_WINDOW_RANGE
from .ports import ChatSettings
from .refusals import MESSAGES, Refusal
from .views import Text

LANGUAGES = ("en", "zh_CN")
AFK_POLICIES = ("ai", "leave")
TURN_TIMER_RANGE = (5, 3600)  # seconds, or 0 for no timer
HAND_SIZE_RANGE = (1, 20)  # the engine's RuleSet check, pinned by a test; said with the numbers
GAME_SETTINGS = ("language", "turn_timer", "afk_policy", "reaction_window")  # may change while a game runs

_TRUE = {"true", "on", "yes", "1", "y"}
_FALSE = {"false", "off", "no", "0", "n"}
_RULE_TYPES = {f.name: f.type for f in fields(RuleSet)}


def normalize_language(code: str | None) -> str | None:
    """"zh", "zh-CN", "zh_Hans", "zh-TW"... → "zh_CN"; "en*" → "en"; anything else → None."""
    if not code or not isinstance(code, str):
        return None
    lowered = code.strip().lower().replace("-", "_")
    if lowered.startswith("zh"):
        return "zh_CN"
    if lowered.startswith("en"):
        return "en"
    return None


def locale_hint(code: str | None) -> str:
    """The locale a platform's language hint suggests (Chinese or else English)."""
    return "zh_CN" if normalize_language(code) == "zh_CN" else "en"


def rules_of(settings: ChatSettings) -> RuleSet:
    return RuleSet.from_dict({"preset": settings.preset, **settings.overrides})


def _coerce(name: str, value: Any) -> Any:
    kind = _RULE_TYPES[name]
    if kind in (bool, "bool"):
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text in _TRUE:
            return True
        if text in _FALSE:
            return False
        raise Refusal("bad_setting", {"detail": f"{name} = {value}"})
    if kind in (int, "int"):
        if isinstance(value, bool):
            raise Refusal("bad_setting", {"detail": f"{name} = {value}"})
        try:
            return int(str(value).strip()) if not isinstance(value, int) else value
        except ValueError:
            raise Refusal("bad_setting", {"detail": f"{name} = {value}"}) from None
    return str(value).strip().lower()


def apply_changes(settings: ChatSettings, changes: dict[str, Any]) -> ChatSettings:
    """The settings with ``changes`` applied, or Refusal("bad_setting") naming the problem."""
    if not changes or not isinstance(changes, dict):
        raise Refusal("bad_setting", {"detail": "nothing to change" if not changes else str(changes)[:40]})
    new = replace(settings, overrides=dict(settings.overrides))
    if "preset" in changes:
        preset = str(changes["preset"]).strip().lower()
        if preset not in PRESETS:
            raise Refusal("bad_setting", {"detail": f"preset = {changes['preset']}"})
        new.preset = preset
        new.overrides = {}  # a new preset starts clean; overrides in the same request still apply
    for key, value in changes.items():
        if key == "preset":
            continue
        if key == "language":
            language = normalize_language(str(value))
            if language is None:
                raise Refusal("bad_setting", {"detail": f"language = {value}"})
            new.language = language
        elif key == "turn_timer":
            seconds = _coerce("hand_size", value)  # any int field coerces the same way
            if seconds != 0 and not TURN_TIMER_RANGE[0] <= seconds <= TURN_TIMER_RANGE[1]:
                raise Refusal("bad_setting", {"detail": f"turn_timer = {value}"})
            new.turn_timer = seconds
        elif key == "afk_policy":
            policy = str(value).strip().lower()
            if policy not in AFK_POLICIES:
                raise Refusal("bad_setting", {"detail": f"afk_policy = {value}"})
            new.afk_policy = policy
        elif key == "hand_size":
            cards = _coerce(key, value)
            if not HAND_SIZE_RANGE[0] <= cards <= HAND_SIZE_RANGE[1]:
                raise Refusal("bad_setting", text=Text(MESSAGES["bad_hand_size"], {
                    "low": HAND_SIZE_RANGE[0], "high": HAND_SIZE_RANGE[1], "value": cards}))
            new.overrides[key] = cards
        elif key == "reaction_window":
            seconds = _coerce("hand_size", value)
            if not REACTION_WINDOW_RANGE[0] <= seconds <= REACTION_WINDOW_RANGE[1]:
                raise Refusal("bad_setting", {"detail": f"reaction_window = {value}"})
            new.reaction_window = seconds
        elif key in RULE_FIELDS:
            new.overrides[key] = _coerce(key, value)
        else:
            raise Refusal("bad_setting", {"detail": str(key)})
    try:
        rules = rules_of(new)
    except UnoError as error:
        raise Refusal("bad_setting", {"detail": str(error)}) from None
    # Keep only real differences from the preset, so the stored overrides stay meaningful.
    new.overrides = rules.differences(PRESETS[new.preset])
    return new


def rule_changes(changes: dict[str, Any]) -> bool:
    """Whether a change request touches the rules (not allowed while a game runs)."""
    return any(key not in GAME_SETTINGS for key in changes)
