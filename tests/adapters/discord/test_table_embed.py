"""The Discord table's seat lines: cards and scores worded by the narrator, in the scoring's
units and the chat's language (a chip game's balances are chips, never points)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from adapters.discord.embeds import hand_embed, table_embed

from ...render.test_text import hand, table


def players_field(view) -> str:
    embed = table_embed(view)
    return next(field.value for field in embed.fields if field.name in ("Players", "玩家"))


@pytest.mark.parametrize(("locale", "scoring", "expected"), [
    ("en", "winner_takes", ["3 cards · 10 pts", "4 cards · 1 pt"]),
    ("en", "chips", ["3 cards · 10 chips", "4 cards · 1 chip"]),
    ("zh_CN", "winner_takes", ["3张牌 · 10分", "4张牌 · 1分"]),
])
def test_seat_lines_count_cards_and_score_in_the_scorings_units(locale, scoring, expected):
    view = table(locale, scoring=scoring)
    view = replace(view, seats=tuple(replace(seat, score=1) if seat.user_id == "u2" else seat
                                     for seat in view.seats))
    lines = players_field(view)
    for part in expected:
        assert part in lines
    if scoring == "chips":
        assert "pts" not in lines


@pytest.mark.parametrize(("locale", "count", "title"), [
    ("en", 1, "Your hand (1 card)"), ("en", 3, "Your hand (3 cards)"), ("zh_CN", 1, "你的手牌（1张）"),
])
def test_the_hand_title_counts_its_cards(locale, count, title):
    view = hand(locale)
    assert hand_embed(replace(view, cards=view.cards[:count])).title == title
