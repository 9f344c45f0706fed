"""The rules as localisable Texts: a complete introduction to UNO as this chat plays it, and
one sentence per rule setting (for the house-rules part, the lobby and settings replies).

The introduction follows the printed rules: the deck, choosing the dealer, the deal and the
first card, a turn, action cards, wilds and when a Wild Draw Four is honest, the challenge,
UNO!, scoring and the match, a strategy tip, then what this chat changed. Headings end with a
colon (the bilingual renderer opens a section there). Values that depend on the chat's rules
(cards dealt, target score, the first Wild, the Wild Draw Four rule) are filled in.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.engine.rules import OFFICIAL, RuleSet

from .views import N_, Nn_, Text

PRESET_NAMES = {"official": N_("official rules"), "house": N_("house rules")}

_STACKING = {
    "off": N_("Stacking: off (a Draw Two or Wild Draw Four is paid at once)."),
    "same": N_("Stacking: a Draw Two may answer a Draw Two, a Wild Draw Four a Wild Draw Four."),
    "progressive": N_("Stacking: a Draw Two or Wild Draw Four may answer a Draw Two, a Wild "
                      "Draw Four a Wild Draw Four; the penalties add up."),
    "by_value": N_("Stacking by value: a stack must add at least as many cards as the play it "
                   "answers (two Draw Twos together answer a Wild Draw Four or two Draw Twos; one "
                   "Draw Two answers neither); colours do not matter; the penalties add up."),
}
_SCORING = {
    "winner_takes": N_("Scoring: the winner of a hand scores the cards left in the others' "
                       "hands."),
    "losers_accumulate": N_("Scoring: everyone but the winner keeps the points left in their "
                            "hand; the first to reach the target loses."),
    "chips": N_("Scoring with chips: after each hand every loser pays the winner as many chips "
                "as the points left in their hand; balances start at 0 and may go negative; the "
                "match ends when a balance reaches plus or minus the target."),
}
_MATCH_END = {
    "target": N_("The match ends when the target score is reached."),
    "hands": N_("The match lasts a fixed number of hands; then the best by the scoring wins."),
}
_FIRST_WILD = {
    "dealer_names": N_("A Wild turned as the first card: the dealer names the colour, then play "
                       "begins."),
    "first_player_names": N_("A Wild turned as the first card: the player after the dealer names "
                             "the colour, then plays."),
    "any_card": N_("A Wild turned as the first card: no colour is named; the first player may "
                   "play any card."),
}
_WD4_RULE = {
    "no_color": N_("A Wild Draw Four is honest when its player holds no card of the colour in "
                   "force."),
    "no_match": N_("A Wild Draw Four is honest only when its player holds no other card that "
                   "could be played: no card of the colour in force, of the same number or of "
                   "the same symbol."),
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
    "teams": (N_("Teams: partners sit apart, seats alternating between teams; a team scores "
                 "together."),
              N_("No teams: everyone plays for themselves.")),
    "rotation": (N_("Partner rotation: teams of two, new partners every few hands until every "
                    "two players have partnered once; each player's own total counts."),
                 N_("Partners stay the same all match.")),
    "uno_identical": (N_("Two or more identical cards left count as one: say UNO! with them, or "
                         "be caught like with one card."),
                      N_("Only a single last card needs UNO!.")),
    "late_join": (N_("Late join: people may join a running game; they are dealt a starting "
                     "hand and play after the current player."),
                  N_("Late join: off (people join in the lobby only).")),
}
# The counts whose noun follows the number ("1 card", "5 cards").
_COUNTED: dict[str, Callable[[int], Text]] = {
    "hand_size": lambda n: Nn_("Starting hand: {value} card.", "Starting hand: {value} cards.", n,
                               {"value": n}),
    "match_hands": lambda n: Nn_("A fixed-length match lasts {value} hand.",
                                 "A fixed-length match lasts {value} hands.", n, {"value": n}),
    "rotation_hands": lambda n: Nn_("Partners change after every hand.",
                                    "Partners change every {value} hands.", n, {"value": n}),
}
_COUNTS = {
    "uno_penalty": N_("Caught without saying UNO!: draw {value}."),
    "false_uno_penalty": N_("Wrong UNO! call: the caller draws {value}."),
    "target_score": N_("The match ends at {value} points."),
    "team_size": N_("Players per team: {value}."),
    "tables": N_("Tables playing at once: {value} (8 players, new pairs every round)."),
}


def describe_rule(name: str, value: Any) -> Text:
    """One RuleSet field and its value as a sentence ("Stacking: off ...")."""
    for table, key in ((_STACKING, "stacking"), (_SCORING, "scoring"), (_FIRST_WILD, "first_wild"),
                       (_WD4_RULE, "wd4_rule"), (_MATCH_END, "match_end")):
        if name == key and value in table:
            return Text(table[value])
    if name in _SWITCHES:
        on, off = _SWITCHES[name]
        return Text(on if value else off)
    if name in _COUNTED and isinstance(value, int):
        return _COUNTED[name](value)
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

    def played(name: str) -> Any:
        # Changes alone (a lobby's, from its preset): a field not among them is as in the
        # presets, which all play winner_takes to a target at one table, without teams.
        return getattr(rules, name) if isinstance(rules, RuleSet) else changes.get(name, getattr(OFFICIAL, name))

    if not played("teams"):
        changes.pop("team_size", None)  # no teams: their size does not matter
    if played("match_end") == "hands" or played("rotation") or played("tables") > 1:
        changes.pop("target_score", None)  # the match ends after its hands: no target
    chips = played("scoring") == "chips"
    return tuple(Text(N_("The match ends when someone's chips reach ±{value}."), {"value": value})
                 if name == "target_score" and chips else describe_rule(name, value)
                 for name, value in changes.items())


def introduction(rules: RuleSet = OFFICIAL) -> tuple[Text, ...]:
    """The complete rules, section by section, as this chat plays them (headings end with ':')."""
    target = rules.target_score
    lines = [
        Text(N_("The deck:")),
        Text(N_("108 cards. In each of the four colours (red, green, blue, yellow): one 0, two of "
                "each number 1 to 9, and two each of Skip, Reverse and Draw Two. Then four Wilds "
                "and four Wild Draw Fours.")),
        Text(N_("Choosing the dealer:")),
        Text(N_("Everyone turns a card from the shuffled deck; action cards are turned again. "
                "The highest number deals (a tie turns again). After that, the winner of each "
                "hand deals the next one.")),
        Text(N_("The deal and the first card:")),
        Nn_("The dealer deals {count} card to each player, starting with the player after the "
            "dealer. The rest is the draw pile; its top card is turned to start the discard pile.",
            "The dealer deals {count} cards to each player, one at a time, starting with "
            "the player after the dealer. The rest is the draw pile; its top card is turned "
            "to start the discard pile.", rules.hand_size),
        Text(N_("A first card with an effect counts as if the dealer had played it: Skip, the "
                "player after the dealer misses the turn; Reverse, the dealer plays first and "
                "play goes the other way; Draw Two, the first player draws 2 and misses the "
                "turn; a Wild Draw Four goes back into the deck and another card is turned.")),
        Text(_FIRST_WILD[rules.first_wild]),
        Text(N_("A turn:")),
        Text(N_("Play goes clockwise, starting with the player after the dealer. On your turn, "
                "put down a card that matches the top card by colour, number or symbol, or a "
                "Wild. If you cannot (or do not want to), draw a card; if it can be played you "
                "may play it at once, otherwise the turn passes.")),
        Text(N_("After drawing you may play only the card you drew, and only if it can be "
                "played; otherwise you keep it and the turn passes.")
             if rules.play_after_draw else
             N_("A card you draw cannot be played in the same turn: you keep it and the turn "
                "passes.")),
        Text(N_("When the draw pile runs out, the discard pile but its top card is shuffled to "
                "make a new draw pile.")),
        Text(N_("Action cards:")),
        Text(N_("Skip: the next player misses their turn. Reverse: play changes direction, "
                "clockwise or counter-clockwise (with two players it acts as a Skip). Draw Two: "
                "the next player draws 2 cards and misses their turn.")),
        Text(N_("Wilds:")),
        Text(N_("Wild: may be played on any card; you name the colour that play continues in. "
                "Wild Draw Four: you name the colour, and the next player draws 4 cards and "
                "misses their turn.")),
        Text(_WD4_RULE[rules.wd4_rule]),
        Text(N_("The challenge:")),
        Text(N_("The player hit by a Wild Draw Four may challenge it instead of drawing. The "
                "challenged hand is then shown to the challenger alone. If the Wild Draw Four was "
                "a bluff, its player draws the 4 cards instead; if it was honest, the challenger "
                "draws 6 (the 4 plus 2) and misses the turn. Either way the named colour stays.")
             if rules.wd4_challenge else
             N_("In this chat a Wild Draw Four cannot be challenged: it may only be played when "
                "it is honest.")),
        Text(N_("UNO!:")),
        Nn_("Say UNO! when you play your next-to-last card. If someone calls you out before "
            "the next player plays or draws, you draw {count} card.",
            "Say UNO! when you play your next-to-last card. If someone calls you out before "
            "the next player plays or draws, you draw {count} cards.", rules.uno_penalty),
        Text(N_("You are safe as soon as you have said UNO!: if you forgot, say it before anyone "
                "calls you out.")),
        Text(N_("Scoring and the match:")),
        Text(N_("The first to play their last card wins the hand and scores the cards left in "
                "the others' hands: numbers at face value, Skip, Reverse and Draw Two 20 each, "
                "Wild and Wild Draw Four 50 each. A Draw Two or Wild Draw Four that ends the hand "
                "is still drawn first. The first to reach {target} points wins the match."),
             {"target": target}),
        Text(N_("Tip:")),
        Text(N_("Keep your Wilds for when you are stuck or an opponent is about to go out; get "
                "rid of high-scoring action cards early; and when a player is down to one card, "
                "change the colour to one they are unlikely to hold.")),
    ]
    return tuple(lines)


def rules_texts(rules: RuleSet, preset: str) -> tuple[Text, ...]:
    """The complete introduction, then this chat's house rules (or that there are none)."""
    lines = list(introduction(rules))
    changes = rule_changes(rules)
    if changes:
        lines.append(Text(N_("House rules in this chat ({preset}):"), {"preset": preset_label(preset)}))
        lines += changes
    else:
        lines.append(Text(N_("House rules in this chat:")))
        lines.append(Text(N_("None: this chat plays the official rules.")))
    return tuple(lines)
