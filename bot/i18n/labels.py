"""Localised names of cards and colours.

One msgid per colour x kind, so a translation can follow its own grammar ("Red 5" -> "红5",
"Blue Skip" -> "蓝色跳过") rather than gluing a colour word to a rank word.
"""

from __future__ import annotations

from bot.engine.cards import Card, Color, Rank

from .lookup import N_, gettext

COLOR_NAMES: dict[Color, str] = {
    Color.RED: N_("Red"),
    Color.GREEN: N_("Green"),
    Color.BLUE: N_("Blue"),
    Color.YELLOW: N_("Yellow"),
}

# {number} is the digit, so translators see one template per colour.
NUMBER_CARDS: dict[Color, str] = {
    Color.RED: N_("Red {number}"),
    Color.GREEN: N_("Green {number}"),
    Color.BLUE: N_("Blue {number}"),
    Color.YELLOW: N_("Yellow {number}"),
}

ACTION_CARDS: dict[tuple[Color, Rank], str] = {
    (Color.RED, Rank.SKIP): N_("Red Skip"),
    (Color.RED, Rank.REVERSE): N_("Red Reverse"),
    (Color.RED, Rank.DRAW_TWO): N_("Red Draw Two"),
    (Color.GREEN, Rank.SKIP): N_("Green Skip"),
    (Color.GREEN, Rank.REVERSE): N_("Green Reverse"),
    (Color.GREEN, Rank.DRAW_TWO): N_("Green Draw Two"),
    (Color.BLUE, Rank.SKIP): N_("Blue Skip"),
    (Color.BLUE, Rank.REVERSE): N_("Blue Reverse"),
    (Color.BLUE, Rank.DRAW_TWO): N_("Blue Draw Two"),
    (Color.YELLOW, Rank.SKIP): N_("Yellow Skip"),
    (Color.YELLOW, Rank.REVERSE): N_("Yellow Reverse"),
    (Color.YELLOW, Rank.DRAW_TWO): N_("Yellow Draw Two"),
}

WILD_CARDS: dict[Rank, str] = {
    Rank.WILD: N_("Wild"),
    Rank.WILD_DRAW_FOUR: N_("Wild Draw Four"),
}

# Rank names on their own (e.g. "a Skip was played"), for messages that need just the rank.
RANK_NAMES: dict[Rank, str] = {
    Rank.SKIP: N_("Skip"),
    Rank.REVERSE: N_("Reverse"),
    Rank.DRAW_TWO: N_("Draw Two"),
    **WILD_CARDS,
}


def color_label(color: Color, locale: str | None) -> str:
    return gettext(COLOR_NAMES[color], locale)


def rank_label(rank: Rank, locale: str | None) -> str:
    if rank.is_number:
        return rank.value
    return gettext(RANK_NAMES[rank], locale)


def card_label(card: Card, locale: str | None) -> str:
    """"Red 5", "Blue Skip", "Wild Draw Four" / "红5", "蓝色跳过", "王牌+4"."""
    if card.color is None:
        return gettext(WILD_CARDS[card.rank], locale)
    if card.rank.is_number:
        return gettext(NUMBER_CARDS[card.color], locale).replace("{number}", card.rank.value)
    return gettext(ACTION_CARDS[(card.color, card.rank)], locale)
