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


def turn_field(view) -> str:
    embed = table_embed(view)
    return next(field.value for field in embed.fields if field.name in ("Turn", "当前回合"))


@pytest.mark.parametrize(("changes", "said", "unsaid"), [
    ({"pending_draw": 2}, "draws 2 cards.", "stack"),  # no stacking: no answer but taking them
    ({"pending_draw": 2, "can_stack": True}, "draws 2 cards unless they stack on it.", "challenge"),
    ({"pending_draw": 4, "challenge_possible": True}, "draws 4 cards unless they challenge.", "stack"),
    ({"color_pending": True}, "names the colour of the first card now.", "Penalty"),
    ({"catchable": ("u3",)}, "Did not say UNO!: \u2068P3\u2069. Anyone can call them out.", "Penalty"),
])
def test_the_turn_says_what_waits_as_every_table_does(changes, said, unsaid):
    """The player to act is mentioned, and what waits on them is the narrator's line: a
    penalty offers only the answers the rules allow (no stacking where the rules have none)."""
    field = turn_field(table(**changes))
    assert field.startswith("👉 Your move, **\u2068P1\u2069**! ⏱️ <t:1000:R>\n")
    assert said in field and unsaid not in field


def test_the_turn_in_chinese():
    field = turn_field(table("zh_CN", pending_draw=4, challenge_possible=True))
    assert field.splitlines()[1:] == ["⚠️ 罚牌待定：\u2068P1\u2069须摸4张牌，除非质疑。",
                                      "⚔️ \u2068P1\u2069可以质疑这张王牌+4。"]


@pytest.mark.parametrize("locale", ["en", "zh_CN"])
def test_the_hand_says_what_waits_on_it_as_every_frontend_does(locale):
    """A Wild Draw Four's victim reads the penalty with the answers their hand has and what a
    challenge risks, the narrator's lines the text hand shows too."""
    from adapters.web.views import _content
    from bot.coordinator.snapshot import PlayerSnapshot
    from bot.i18n import translate
    from bot.render.hand_text import hand_notes
    from tests.adapters.test_move_labels import CHAT, victim_view

    view = victim_view(locale)
    notes = [translate(note, locale) for note in hand_notes(view)]
    assert len(notes) == 2 and ("challenge" in notes[1] or "质疑" in notes[1])
    description = hand_embed(view).description or ""
    assert all(note in description for note in notes)
    snapshot = PlayerSnapshot(game_id=view.game_id, chat=CHAT, status="running", version=1,
                              locale=locale, name="Ana", lobby=None, table=None, hand=view)
    assert _content(snapshot)["hand"]["notes"] == notes


@pytest.mark.parametrize(("locale", "team"), [("en", "team 2"), ("zh_CN", "2队")])
def test_seats_are_numbered_with_their_team_and_flags_as_every_table_shows_them(locale, team):
    """A team game's table says who plays with whom; the numbers are what /uno kick seat: takes;
    a player who may be called out is flagged."""
    view = table(locale, catchable=("u3",))
    view = replace(view, seats=tuple(replace(seat, team=i % 2) for i, seat in enumerate(view.seats)))
    lines = players_field(view).splitlines()
    assert [line.split(" ", 2)[1] for line in lines] == ["1.", "2.", "3.", "4."]
    assert team in lines[1] and team not in lines[0]
    assert lines[2].endswith("❗") and not lines[1].endswith("❗")


@pytest.mark.parametrize(("pending", "said"), [(True, "not named yet"), (False, "free choice")])
def test_a_wild_turned_first_says_what_its_colour_is_by_the_rules(pending, said):
    """Named by the dealer now, or any card may follow it (first_wild any_card): as the text
    table says it, never "not chosen yet" whatever the rules."""
    from bot.engine.cards import Card

    view = table(top=Card.parse("W"), color=None, color_pending=pending)
    top = next(field.value for field in table_embed(view).fields if field.name == "Top card")
    assert top.endswith("→ 🌈 " + said)
