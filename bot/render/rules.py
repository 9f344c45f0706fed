"""The rules as localisable Texts: the official summary and one line per house-rule setting.

Used by ``render_rules`` (both languages, for the ``rules`` command), by the lobby (what this
chat changed) and available to the coordinator for settings replies (``describe_rule``).
"""

from __future__ import annotations

from typing import Any

from bot.coordinator.views import Text
from bot.engine.rules import RuleSet
from bot.i18n import N_

OFFICIAL_SUMMARY: tuple[str, ...] = (
    N_("Match the top card by colour, number or symbol. A Wild can go on anything; "
       "you then choose the colour."),
    N_("Cannot or do not want to play? Draw one card; if it fits you may play it at once, "
       "otherwise your turn ends."),
    N_("Skip: the next player misses a turn. Reverse: the direction changes (with two players "
       "it acts as a Skip). Draw Two: the next player draws 2 and misses a turn."),
    N_("Wild Draw Four: choose the colour; the next player draws 4 and misses a turn. It may "
       "only be played when you hold no card of the colour in force."),
    N_("Challenge: the victim of a Wild Draw Four may challenge it. A bluff costs the player 4 "
       "cards instead; a fair play costs the challenger 6."),
    N_("Say UNO! when you play your next-to-last card. Anyone who calls you out before the next "
       "player acts makes you draw 2."),
    N_("The first to empty their hand wins the hand and scores the cards left in the others' "
       "hands: numbers at face value, Skip, Reverse and Draw Two 20, Wilds 50. "
       "The first to 500 points wins the match."),
)

PRESET_NAMES = {"official": N_("official rules"), "house": N_("house rules")}

_STACKING = {
    "off": N_("Stacking: off (a Draw Two or Wild Draw Four is paid at once)."),
    "same": N_("Stacking: a Draw Two may answer a Draw Two, a Wild Draw Four a Wild Draw Four."),
    "progressive": N_("Stacking: a Draw Two or Wild Draw Four may answer a Draw Two, a Wild "
                      "Draw Four a Wild Draw Four; the penalties add up."),
}
_SCORING = {
    "winner_takes": N_("Scoring: the winner of a hand scores the cards left in the others' "
                       "hands."),
    "losers_accumulate": N_("Scoring: everyone but the winner keeps the points left in their "
                            "hand; the first to reach the target loses."),
}
# (message when on, message when off) for the true/false rules.
_SWITCHES = {
    "jump_in": (N_("Jump-in: a card identical to the top card may be played out of turn."),
                N_("Jump-in: off.")),
    "multi_play": (N_("Several cards of one rank may be played at once."),
                   N_("One card per turn.")),
    "seven_zero": (N_("7-0: a 0 passes every hand on in the direction of play; a 7 swaps hands "
                      "with a player of your choice."),
                   N_("7-0: off.")),
    "draw_until_playable": (N_("Draw until you get a card you can play."),
                            N_("Draw one card only.")),
    "play_after_draw": (N_("A card just drawn may be played at once."),
                        N_("A card just drawn may not be played in the same turn.")),
    "force_play": (N_("You must play when you can: no drawing instead."),
                   N_("You may draw even when you could play.")),
    "wd4_challenge": (N_("A Wild Draw Four may be challenged."),
                      N_("A Wild Draw Four cannot be challenged.")),
    "teams": (N_("Teams: partners sit opposite each other and score together."),
              N_("No teams: everyone plays for themselves.")),
    "late_join": (N_("Late join: people may join a running game; they are dealt a starting "
                     "hand and play after the current player."),
                  N_("Late join: off (people join in the lobby only).")),
}
_COUNTS = {
    "hand_size": N_("Starting hand: {value} cards."),
    "uno_penalty": N_("Caught without saying UNO!: draw {value}."),
    "false_uno_penalty": N_("Wrong UNO! call: the caller draws {value}."),
    "target_score": N_("The match ends at {value} points."),
}


def describe_rule(name: str, value: Any) -> Text:
    """One RuleSet field and its value as a sentence ("Stacking: off ...")."""
    if name == "stacking" and value in _STACKING:
        return Text(_STACKING[value])
    if name == "scoring" and value in _SCORING:
        return Text(_SCORING[value])
    if name in _SWITCHES:
        on, off = _SWITCHES[name]
        return Text(on if value else off)
    if name in _COUNTS:
        return Text(_COUNTS[name], {"value": value})
    return Text(N_("{name}: {value}"), {"name": name, "value": str(value)})


def preset_label(preset: str) -> Text:
    if preset in PRESET_NAMES:
        return Text(PRESET_NAMES[preset])
    return Text(N_("{name}: {value}"), {"name": Text(N_("preset")), "value": preset})


def rule_changes(rules: RuleSet | dict[str, Any], base: RuleSet | None = None) -> tuple[Text, ...]:
    """Sentences for the fields that differ from ``base`` (default: official). Accepts a
    RuleSet or an already computed ``{field: value}`` of changes (LobbyView.rule_changes)."""
    changes = rules.differences(base) if isinstance(rules, RuleSet) else dict(rules)
    return tuple(describe_rule(name, value) for name, value in changes.items())


def rules_texts(rules: RuleSet, preset: str) -> tuple[Text, ...]:
    """The official summary, then this chat's house rules (or that there are none)."""
    lines = [Text(N_("Official UNO rules:"))]
    lines += [Text(msgid) for msgid in OFFICIAL_SUMMARY]
    changes = rule_changes(rules)
    if changes:
        lines.append(Text(N_("Changes from the official rules in this chat ({preset}):"),
                          {"preset": preset_label(preset)}))
        lines += changes
    else:
        lines.append(Text(N_("This chat plays the official rules, no house rules.")))
    return tuple(lines)
