"""Whose turn it is and which way play goes read the same on every table a player may look
at, in both languages: the chat's text table, Discord's table and the web pages."""

from __future__ import annotations

import pytest

from adapters.discord.embeds import table_embed
from adapters.web.tables import table_json
from bot.i18n.formatting import FSI, PDI
from bot.render.text import render_table
from tests.render.test_text import table


def text_table(view, **kwargs) -> str:
    return render_table(view, **kwargs).replace(FSI, "").replace(PDI, "")


@pytest.mark.parametrize("locale, direction, words", [
    ("en", 1, "⬇️ in seat order"), ("en", -1, "⬆️ reversed seat order"),
    ("zh_CN", 1, "⬇️ 顺时针"), ("zh_CN", -1, "⬆️ 逆时针"),
])
def test_every_table_says_which_way_play_goes_alike(locale, direction, words):
    view = table(locale, direction=direction)
    assert words in text_table(view)
    assert words in [field.value for field in table_embed(view).fields]
    assert table_json(view, locale, over=False)["direction_text"] == words


@pytest.mark.parametrize("locale, waiting, over", [
    ("en", "⏳ P1 is to move.", "The hand is over."),
    ("zh_CN", "⏳ 轮到P1出牌。", "本局结束。"),
])
def test_the_web_pages_say_whose_turn_it_is_as_the_text_table_does(locale, waiting, over):
    view = table(locale)
    assert waiting in text_table(view, reader="u2")  # read by someone not to move
    assert table_json(view, locale, over=False)["turn_text"] == waiting
    assert table_json(view, locale, over=True)["turn_text"] == over
    assert over in text_table(table(locale, current=None))
