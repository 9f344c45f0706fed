"""Every setting a chat can see and change, derived from the RuleSet's fields.

The settings UIs (console, Discord, Telegram) list these rather than their own copies, so a
field added to ``RuleSet`` shows up everywhere: its kind comes from its type, its allowed
values from its ``FIELD_SPECS`` entry (engine, where RuleSet validates by them), its label from ``RULE_LABELS``
(the field's own name where no label was written yet). ``parse`` checks one value and
refuses with a localised message naming what is allowed.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from functools import cache
from typing import Any

from bot.engine.rules import FIELD_RANGES, FIELD_SPECS, PRESETS, RuleSet
from bot.i18n import Choice, key_named

from .fairness import REACTION_WINDOW_RANGE
from .ports import ChatSettings
from .ratings import SEASON_DAYS_RANGE
from .refusals import MESSAGES, Refusal
from .views import N_, Text

LANGUAGES = ("en", "zh_CN")
AFK_POLICIES = ("ai", "leave")
# The bots' levels, as the lobby and the settings name them.
AI_LEVELS = {"easy": N_("easy"), "normal": N_("normal"), "hard": N_("hard")}
TURN_TIMER_RANGE = (5, 3600)  # seconds, or 0 for no timer
HAND_SIZE_RANGE = FIELD_RANGES["hand_size"]  # the engine's RuleSet check, said with the numbers

RULE_LABELS: dict[str, str] = {
    "hand_size": N_("Cards dealt"),
    "stacking": N_("Stacking +2/+4"),
    "jump_in": N_("Jump-in with an identical card"),
    "multi_play": N_("Several cards of one rank at once"),
    "seven_zero": N_("7 swaps hands, 0 passes hands on"),
    "draw_until_playable": N_("Draw until playable"),
    "play_after_draw": N_("Play the drawn card at once"),
    "force_play": N_("Must play when able"),
    "uno_penalty": N_("Cards for a missed UNO"),
    "false_uno_penalty": N_("Cards for a wrong UNO call"),
    "wd4_challenge": N_("Wild Draw Four may be challenged"),
    "scoring": N_("Scoring"),
    "target_score": N_("Target score"),
    "teams": N_("Teams"),
    "team_size": N_("Players per team"),
    "first_wild": N_("A Wild turned first"),
    "wd4_rule": N_("When a Wild Draw Four is honest"),
    "uno_identical": N_("UNO with identical cards"),
    "match_end": N_("The match ends"),
    "match_hands": N_("Hands in a fixed-length match"),
    "rotation": N_("Partner rotation (teams of two, partners change)"),
    "rotation_hands": N_("Hands before partners change"),
    "tables": N_("Tables playing at once"),
    "late_join": N_("Join a running game"),
    "rotation_cycles": N_("Times the partner rotation goes round"),
    "by_value_same_color": N_("Draw Twos on a +4 must share a colour (stacking by value)"),
}
CHAT_LABELS: dict[str, str] = {
    "preset": N_("Rules"),
    "language": N_("Language"),
    "turn_timer": N_("Turn timer (seconds, 0 = off)"),
    "afk_policy": N_("After 3 missed turns"),
    "reaction_window": N_("Seconds to call UNO! before a bot moves on"),
    "season_days": N_("Days in a rating season (from the next season on)"),
    "ai_level": N_("Default bot level"),
}
VALUE_LABELS: dict[str, str] = {
    "off": N_("off"),
    "same": N_("same kind (+2 on +2, +4 on +4)"),
    "progressive": N_("progressive (+2 or +4 on +2, +4 on +4)"),
    "by_value": N_("by value (a stack adds at least as many cards as it answers)"),
    "winner_takes": N_("the winner scores the others' cards"),
    "losers_accumulate": N_("losers collect their cards' points"),
    "chips": N_("chips: every loser pays the winner their cards' points"),
    "target": N_("at the target score"),
    "hands": N_("after a fixed number of hands"),
    "dealer_names": N_("the dealer names the colour"),
    "first_player_names": N_("the first player names the colour, then plays"),
    "any_card": N_("the first player plays any card"),
    "no_color": N_("no card of the colour in force"),
    "no_match": N_("no card that could be played (colour, number or symbol)"),
    "official": N_("official"),
    "house": N_("house rules"),
    "ai": N_("a bot takes the seat"),
    "leave": N_("the player leaves"),
    "en": "English",
    "zh_CN": "简体中文",
    **AI_LEVELS,
}

_TRUE = {"true", "on", "yes", "1", "y", "开", "是"}
_FALSE = {"false", "off", "no", "0", "n", "关", "否"}


# A language as people name it, beside its code: the names the bot shows ("中文", "English")
# and the usual words for them.
LANGUAGE_WORDS = {"中文": "zh_CN", "简体中文": "zh_CN", "汉语": "zh_CN", "chinese": "zh_CN",
                  "英文": "en", "英语": "en"}


def normalize_language(code: str | None) -> str | None:
    """"zh", "zh-CN", "zh_Hans", "zh-TW", "中文", "Chinese"... → "zh_CN"; "en*", "英文" → "en";
    anything else → None."""
    if not code or not isinstance(code, str):
        return None
    lowered = code.strip().lower().replace("-", "_")
    if lowered in LANGUAGE_WORDS:
        return LANGUAGE_WORDS[lowered]
    if lowered.startswith("zh"):
        return "zh_CN"
    if lowered.startswith("en"):
        return "en"
    return None


@dataclass(frozen=True)
class Setting:
    """One setting: ``kind`` is "bool", "int" or "choice"; ``choices`` or ``low``/``high`` say
    what it accepts (a number field without a declared range accepts any whole number, the
    engine judging the rest); ``rule`` is whether it is a RuleSet field (not changeable while
    a game runs)."""

    name: str
    kind: str
    label: str
    choices: tuple[str, ...] = ()
    low: int | None = None
    high: int | None = None
    rule: bool = True

    def allowed(self) -> Text:
        """What this setting accepts, as a localisable phrase."""
        if self.kind == "bool":
            return Text(N_("on or off"))
        if self.kind == "choice":  # each as typed, with its name in the reader's language
            return Text(N_("one of {choices}"), {"choices": [
                Choice(choice, VALUE_LABELS[choice]) if choice in VALUE_LABELS else choice
                for choice in self.choices]})
        if self.name == "turn_timer":
            return Text(N_("0 (off) or {low} to {high}"), {"low": self.low, "high": self.high})
        if self.low is not None and self.high is not None:
            return Text(N_("a whole number from {low} to {high}"), {"low": self.low, "high": self.high})
        return Text(N_("a whole number"))

    def suggestions(self) -> tuple[str, ...]:
        """Values worth offering in a picker (all of them, where there are few)."""
        if self.kind == "bool":
            return ("on", "off")
        if self.kind == "choice":
            return self.choices
        if self.low is None or self.high is None:
            return ()
        if self.high - self.low <= 10:
            return tuple(str(v) for v in range(self.low, self.high + 1))
        picks = set(range(self.low, self.low + 7)) | {self.high}  # the small values, and the most
        if self.name == "turn_timer":
            picks = {0, 30, 60, 90, 120, 300}
        elif self.name == "target_score":
            picks = {100, 200, 250, 500, 1000}
        elif self.name == "hand_size":
            picks = {5, 6, 7, 8, 10, 12}
        elif self.name == "season_days":
            picks = {7, 14, 30, 60, 90, 365}
        return tuple(str(v) for v in sorted(picks))


@cache
def _rule_setting(name: str, kind: str) -> Setting:
    label = RULE_LABELS.get(name, name)
    spec = FIELD_SPECS[name]
    if kind == "bool":
        return Setting(name, "bool", label)
    if kind == "int":
        return Setting(name, "int", label, low=spec.low, high=spec.high)
    return Setting(name, "choice", label, choices=spec.choices)


def all_settings() -> tuple[Setting, ...]:
    """The chat settings, then every RuleSet field in its declared order."""
    chat = (
        Setting("preset", "choice", CHAT_LABELS["preset"], choices=tuple(PRESETS), rule=True),
        Setting("language", "choice", CHAT_LABELS["language"], choices=LANGUAGES, rule=False),
        Setting("turn_timer", "int", CHAT_LABELS["turn_timer"], low=TURN_TIMER_RANGE[0],
                high=TURN_TIMER_RANGE[1], rule=False),
        Setting("afk_policy", "choice", CHAT_LABELS["afk_policy"], choices=AFK_POLICIES, rule=False),
        Setting("reaction_window", "int", CHAT_LABELS["reaction_window"], low=REACTION_WINDOW_RANGE[0],
                high=REACTION_WINDOW_RANGE[1], rule=False),
        Setting("season_days", "int", CHAT_LABELS["season_days"], low=SEASON_DAYS_RANGE[0],
                high=SEASON_DAYS_RANGE[1], rule=False),
        Setting("ai_level", "choice", CHAT_LABELS["ai_level"], choices=tuple(AI_LEVELS), rule=False),
    )
    # (the field types are strings under ``from __future__ import annotations``: "bool", "int")
    return chat + tuple(_rule_setting(f.name, getattr(f.type, "__name__", str(f.type))) for f in fields(RuleSet))


def current_values(settings: ChatSettings) -> dict[str, Any]:
    """Every setting's value for a chat: ``{name: value}``, the rules included."""
    values: dict[str, Any] = {"preset": settings.preset}
    values.update({item.name: getattr(settings, item.name) for item in all_settings()
                   if not item.rule and hasattr(settings, item.name)})
    values.update(RuleSet.from_dict({"preset": settings.preset, **settings.overrides}).to_dict())
    return values


def setting(name: str) -> Setting:
    """The setting called ``name`` (case and ``-``/space tolerant) or named by its label in
    either language, or a localised refusal listing the settings there are."""
    key = str(name).strip().lower().replace("-", "_").replace(" ", "_")
    settings = all_settings()
    for item in settings:
        if item.name == key:
            return item
    named = key_named(str(name), {item.name: item.label for item in settings})  # "发牌数"
    if named is not None:
        return next(item for item in settings if item.name == named)
    raise Refusal("bad_setting", text=Text(N_("There is no setting \"{setting}\". Settings: {settings}."),
                                           {"setting": str(name)[:40],
                                            "settings": ", ".join(s.name for s in all_settings())}))


def label(name: str) -> Text:
    for table in (RULE_LABELS, CHAT_LABELS):
        if name in table:
            return Text(table[name])
    return Text(name)


def value_label(value: Any) -> Any:
    """A value as shown to people: on/off for booleans, a phrase for known choices."""
    if isinstance(value, bool):
        return Text(N_("on")) if value else Text(N_("off"))
    if isinstance(value, str) and value in VALUE_LABELS:
        return Text(VALUE_LABELS[value])
    return value


def format_value(value: Any, locale: str | None) -> str:
    """A value as shown to people, in ``locale`` (for pickers and buttons)."""
    from bot.i18n import format_text

    shown = value_label(value)
    return format_text(shown, locale) if isinstance(shown, Text) else str(shown)


def _refuse(item: Setting, value: Any) -> Refusal:
    return Refusal("bad_setting", text=Text(N_("{setting} cannot be {value}: it must be {allowed}."),
                                            {"setting": item.name, "value": str(value)[:40],
                                             "allowed": item.allowed()}))


def parse(item: Setting, value: Any) -> Any:
    """``value`` (typed or text) as this setting's type, checked against what it accepts."""
    if item.kind == "bool":
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text in _TRUE:
            return True
        if text in _FALSE:
            return False
        raise _refuse(item, value)
    if item.kind == "int":
        if isinstance(value, bool):
            raise _refuse(item, value)
        try:
            number = value if isinstance(value, int) else int(str(value).strip())
        except ValueError:
            raise _refuse(item, value) from None
        if item.name == "turn_timer" and number == 0:
            return 0
        if (item.low is not None and number < item.low) or (item.high is not None and number > item.high):
            if item.name == "hand_size":  # said in the words of the deal
                raise Refusal("bad_setting", text=Text(MESSAGES["bad_hand_size"], {
                    "low": item.low, "high": item.high, "value": number}))
            raise _refuse(item, value)
        return number
    text = str(value).strip()
    if item.name == "language":
        language = normalize_language(text)
        if language is None:
            raise _refuse(item, value)
        return language
    text = text.lower()
    if item.choices and text not in item.choices:
        # A choice named as the bot shows it, in either language: "房规" for house.
        named = key_named(text, {c: VALUE_LABELS[c] for c in item.choices if c in VALUE_LABELS})
        if named is None:
            raise _refuse(item, value)
        return named
    return text
