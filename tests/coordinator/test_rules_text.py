"""The rules text covers what players ask about: the reshuffle, playing only the drawn card,
and being safe once UNO! is said, in English and Chinese, as the rules in force say."""

import pytest

from bot.coordinator.rules_text import introduction
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
