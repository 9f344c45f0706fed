"""The rules text covers what players ask about: the reshuffle, playing only the drawn card,
and being safe once UNO! is said, in English and Chinese, as the rules in force say."""

import pytest

from bot.coordinator.rules_text import describe_rule, introduction
from bot.engine.rules import OFFICIAL
from bot.i18n import translate


@pytest.mark.parametrize(("locale", "expected"), [
    ("en", ("only the card you drew", "discard pile but its top card is shuffled",
            "safe as soon as you have said UNO!")),
    ("zh_CN", ("只能打出刚摸到的那张牌", "洗匀", "就安全了")),
])
def test_the_rules_cover_the_reshuffle_the_drawn_card_and_a_late_uno(locale, expected):
    text = "\n".join(translate(line, locale) for line in introduction(OFFICIAL))
    for phrase in expected:
        assert phrase in text


def test_without_play_after_draw_the_drawn_card_waits():
    text = "\n".join(translate(line, "en") for line in introduction(OFFICIAL.with_(play_after_draw=False)))
    assert "cannot be played in the same turn" in text and "only the card you drew" not in text


@pytest.mark.parametrize(("rules", "phrases"), [
    (OFFICIAL.with_(hand_size=1, uno_penalty=1),
     ("deals 1 card to each player", "you draw 1 card.", "Starting hand: 1 card.")),
    (OFFICIAL, ("deals 7 cards to each player", "you draw 2 cards.")),
])
def test_a_count_of_one_names_one_card(rules, phrases):
    text = "\n".join(translate(line, "en") for line in (*introduction(rules),
                                                        describe_rule("hand_size", rules.hand_size)))
    for phrase in phrases:
        assert phrase in text, phrase
    assert "1 cards" not in text
    assert translate(describe_rule("match_hands", 1), "en") == "A fixed-length match lasts 1 hand."
    assert translate(describe_rule("rotation_hands", 3), "zh_CN") == "每3局换一次搭档。"


@pytest.mark.parametrize("as_changes", [False, True])  # a RuleSet, or a lobby's changes alone
def test_the_target_is_told_as_the_match_is_scored_and_not_where_hands_end_it(as_changes):
    from bot.coordinator.rules_text import rule_changes

    def told(rules) -> list[str]:
        return [translate(line, "en") for line in rule_changes(rules.differences() if as_changes else rules)]

    assert "The match ends at 50 points." in told(OFFICIAL.with_(target_score=50))
    chips = told(OFFICIAL.with_(scoring="chips", target_score=50))
    assert "The match ends when someone's chips reach ±50." in chips
    assert not any("50 points" in line for line in chips)
    hands = told(OFFICIAL.with_(match_end="hands", match_hands=3, target_score=50))
    assert "A fixed-length match lasts 3 hands." in hands and not any("50" in line for line in hands)
    assert not any("Players per team" in line for line in told(OFFICIAL.with_(team_size=3)))
