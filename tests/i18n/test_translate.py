"""Translation of Texts: locales, params localised (cards, colours, nested Texts, lists)."""

import html

import pytest

from bot.coordinator.views import N_, Text
from bot.engine.cards import Card, Color, Rank
from bot.i18n import (
    LANGUAGE_NAMES,
    LOCALES,
    CommandRef,
    Mention,
    card_label,
    catalogs,
    color_label,
    format_text,
    gettext,
    language_name,
    ngettext,
    normalize_locale,
    rank_label,
    translate,
)
from bot.i18n.catalogs import LoadedCatalog


@pytest.mark.parametrize("code, expected", [
    ("zh", "zh_CN"), ("zh-CN", "zh_CN"), ("zh_CN", "zh_CN"), ("zh_Hans", "zh_CN"),
    ("zh-Hans-CN", "zh_CN"), ("zh-TW", "zh_CN"), ("ZH", "zh_CN"), (" zh-hk ", "zh_CN"),
    ("en", "en"), ("en-US", "en"), ("en_GB", "en"), ("fr", "en"), ("", "en"), (None, "en"),
    ("zhx", "en"), ("ja", "en"),
])
def test_normalize_locale(code, expected):
    assert normalize_locale(code) == expected
    assert normalize_locale(code) in LOCALES


def test_gettext_chinese_english_and_unknown_msgids():
    assert gettext("Red", "zh_CN") == "红色"
    assert gettext("Red", "zh-TW") == "红色"
    assert gettext("Red", "en") == "Red"
    assert gettext("A msgid nobody translated", "zh_CN") == "A msgid nobody translated"


def test_ngettext_forms_per_language():
    assert ngettext("{count} card", "{count} cards", 1, "en") == "{count} card"
    assert ngettext("{count} card", "{count} cards", 3, "en") == "{count} cards"
    assert ngettext("{count} card", "{count} cards", 3, "zh_CN") == "{count}张牌"
    assert ngettext("{count} card", "{count} cards", 1, "zh_CN") == "{count}张牌"
    assert ngettext("one thing", "{n} things", 2, "zh_CN") == "{n} things"  # untranslated


@pytest.mark.parametrize("text, en, zh", [
    ("R5", "Red 5", "红5"), ("G0", "Green 0", "绿0"), ("BS", "Blue Skip", "蓝色跳过"),
    ("GR", "Green Reverse", "绿色反转"), ("Y+2", "Yellow Draw Two", "黄色+2"),
    ("W", "Wild", "万能牌"), ("W+4", "Wild Draw Four", "王牌+4"),
])
def test_card_labels(text, en, zh):
    card = Card.parse(text)
    assert card_label(card, "en") == en
    assert card_label(card, "zh") == zh


def test_colour_and_rank_labels():
    assert [color_label(c, "zh_CN") for c in Color] == ["红色", "绿色", "蓝色", "黄色"]
    assert color_label(Color.YELLOW, "en") == "Yellow"
    assert rank_label(Rank.SEVEN, "zh_CN") == "7"
    assert rank_label(Rank.SKIP, "zh_CN") == "跳过"


def test_translate_localises_params_in_both_languages():
    played = Text(N_("{player} played {cards} and chose {color}."),
                  {"player": "Ana", "cards": [Card.parse("W")], "color": Color.BLUE})
    assert translate(played, "en") == "Ana played Wild and chose Blue."
    assert translate(played, "zh_CN") == "Ana打出万能牌，并指定蓝色。"


def test_translate_joins_lists_with_the_locale_separator():
    text = Text(N_("You drew {cards}."), {"cards": (Card.parse("R1"), Card.parse("GS"))})
    assert translate(text, "en") == "You drew Red 1, Green Skip."
    assert translate(text, "zh") == "你摸到了红1、绿色跳过。"


def test_translate_nested_texts_recursively():
    outer = Text(N_("Round {round} of {rounds}: new partners. {teams}"),
                 {"round": 2, "rounds": 3,
                  "teams": [Text(N_("{player} & {other}"), {"player": "Ana", "other": "Cy"}),
                            Text(N_("{player} & {other}"), {"player": "Bo", "other": "Di"})]})
    assert translate(outer, "en") == "Round 2 of 3: new partners. Ana & Cy, Bo & Di"
    zh = translate(outer, "zh_CN")
    assert zh.startswith("第2轮（共3轮）：换搭档。")
    assert zh.endswith("Ana与Cy、Bo与Di")


def test_missing_params_stay_visible_and_format_specs_apply():
    assert translate(Text(N_("{player} passed."), {}), "en") == "{player} passed."
    assert translate(Text("{n:>3}|{flag}", {"n": 7, "flag": True}), "zh_CN") == "  7|是"


def test_a_broken_translation_falls_back_to_the_english_msgid(monkeypatch):
    broken = LoadedCatalog("zh_CN", {"{player} passed.": "{玩家过牌"}, lambda n: 0, "test")
    monkeypatch.setitem(catalogs._cache, "zh_CN", broken)
    assert translate(Text("{player} passed.", {"player": "Ana"}), "zh_CN") == "Ana passed."


def test_escape_applies_to_literals_and_params_but_not_to_mentions():
    text = Text(N_("👉 Your move, {player}!"), {"player": Mention("42", "<b>Ana</b>")})
    mention = lambda uid, name: f'<a href="tg://user?id={uid}">{html.escape(name)}</a>'  # noqa: E731
    # names are isolated for right-to-left text (U+2068 ... U+2069)
    assert format_text(text, "en", escape=html.escape) == "👉 Your move, \u2068&lt;b&gt;Ana&lt;/b&gt;\u2069!"
    assert (format_text(text, "en", escape=html.escape, mention=mention)
            == '👉 Your move, <a href="tg://user?id=42">\u2068&lt;b&gt;Ana&lt;/b&gt;\u2069</a>!')
    nested = Text(N_("{player} passed."), {"player": "a&b"})
    outer = Text("{x} <", {"x": nested})
    assert format_text(outer, "en", escape=html.escape) == "\u2068a&amp;b\u2069 passed. &lt;"
    assert format_text(outer, "en", escape=html.escape, isolate_names=False) == "a&amp;b passed. &lt;"


def test_a_command_is_written_the_way_each_platform_writes_it():
    text = Text(N_("There is no game in this chat. Start one with {command}."), {"command": CommandRef("new")})
    assert translate(text, "en").endswith("Start one with /new.")  # Telegram and the console
    discord_style = format_text(text, "zh_CN", escape=html.escape, command=lambda name: f"</uno {name}:1>")
    assert "</uno new:1>" in discord_style and "/new" not in discord_style.replace("</uno new", "")
    assert any("\u4e00" <= ch <= "\u9fff" for ch in discord_style)
    nested = Text("{x}", {"x": text})  # the hook reaches nested texts too
    assert "</uno new:1>" in format_text(nested, "en", command=lambda name: f"</uno {name}:1>")


def test_languages_are_named_by_their_own_name():
    assert language_name("zh_CN") == "中文" and language_name("zh-TW") == "中文"
    assert language_name("en") == language_name(None) == "English"
    assert set(LANGUAGE_NAMES) == set(LOCALES)
