"""The catalogues: every player-facing msgid in bot/ and adapters/ has a Chinese translation
with the same {fields}; compile -> load -> Chinese output; .po fallback without a .mo."""

from pathlib import Path

import pytest
from babel.messages.catalog import Catalog

from bot.coordinator.views import Text
from bot.engine.cards import Card
from bot.i18n import catalogs, reload_catalogs, translate
from bot.i18n.compile import compile_catalogs
from bot.i18n.extract import extract_template, missing_translations, read_locale


@pytest.fixture(scope="module")
def template() -> Catalog:
    return extract_template()


def test_extraction_finds_msgids_across_bot_and_adapters(template):
    ids = {m.id if isinstance(m.id, str) else m.id[0] for m in template if m.id}
    assert {"Red Skip", "Wild Draw Four", "The deck:", "{count} card"} <= ids
    locations = {path.split("/")[0] for m in template for path, _line in m.locations}
    assert "bot" in locations


def test_every_msgid_has_a_chinese_translation_with_the_same_fields(template):
    problems = missing_translations(template, read_locale("zh_CN"))
    assert not problems, (f"{len(problems)} zh_CN catalogue problem(s); run "
                          "`python -m bot.i18n.extract` and translate:\n" + "\n".join(problems))


def test_the_checker_reports_untranslated_fuzzy_and_field_mismatches():
    template = Catalog(locale=None)
    for msgid in ("{player} passed.", "Draw", "Skip", "{n} card"):
        template.add(msgid)
    template.add(("{count} card", "{count} cards"))
    zh = Catalog(locale="zh_CN")
    zh.add("{player} passed.", "{name}过牌。")  # wrong field
    zh.add("Draw", "摸牌", flags=["fuzzy"])  # not confirmed
    zh.add("{n} card", "{n}张")  # fine
    zh.add(("{count} card", "{count} cards"), ("{count}张牌",))  # fine
    problems = missing_translations(template, zh)
    assert len(problems) == 3
    assert any("fields differ" in p and "{player} passed." in p for p in problems)
    assert "untranslated: 'Draw'" in problems and "untranslated: 'Skip'" in problems


def test_compile_then_load_gives_chinese_from_the_mo(monkeypatch):
    written = compile_catalogs()
    assert any(path.endswith("zh_CN/LC_MESSAGES/unobot.mo") for path in written)
    reload_catalogs()
    loaded = catalogs.get_catalog("zh_CN")
    assert loaded.source == "mo"
    text = Text("{player} played {cards}.", {"player": "Ana", "cards": [Card.parse("B+2")]})
    assert translate(text, "zh") == "Ana打出蓝色+2。"


def test_without_a_mo_the_po_is_read_directly(monkeypatch, tmp_path):
    monkeypatch.setattr(catalogs, "mo_path", lambda locale: tmp_path / f"{locale}.mo")
    monkeypatch.setattr(catalogs, "_cache", {})
    loaded = catalogs.get_catalog("zh_CN")
    assert loaded.source == "po"
    assert translate(Text("It is not your turn.", {}), "zh_CN") == "还没轮到你。"


def test_a_stale_mo_loses_to_a_newer_po(monkeypatch, tmp_path):
    stale = tmp_path / "unobot.mo"
    stale.write_bytes(b"not a catalogue")  # older than the .po below: must not be read
    po = tmp_path / "unobot.po"
    po.write_bytes(catalogs.po_path("zh_CN").read_bytes())
    monkeypatch.setattr(catalogs, "mo_path", lambda locale: stale)
    monkeypatch.setattr(catalogs, "po_path", lambda locale: po)
    import os
    os.utime(stale, (1, 1))
    assert catalogs.load_catalog("zh_CN").source == "po"


def test_unknown_locale_catalogue_is_empty(monkeypatch, tmp_path):
    monkeypatch.setattr(catalogs, "LOCALES_DIR", tmp_path)
    monkeypatch.setattr(catalogs, "po_path", lambda locale: Path(tmp_path, "x.po"))
    monkeypatch.setattr(catalogs, "mo_path", lambda locale: Path(tmp_path, "x.mo"))
    assert catalogs.load_catalog("xx").messages == {}
