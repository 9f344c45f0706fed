"""The recap's score chart: its size, and every player's line told apart without colour."""

from __future__ import annotations

import io
import os

import pytest
from PIL import Image

from bot.coordinator import Recap, ScoreLine, Text
from bot.i18n import translate
from bot.render import recap as render


def view(locale: str = "en", players: int = 4) -> Recap:
    lines = tuple(ScoreLine(f"P{i}", tuple((hand + i) * 10 * (i % 2 + 1) for hand in range(6)))
                  for i in range(players))
    return Recap(locale, "g1", 0.0, Text("Match of {date} (UTC)", {"date": "1970-01-01"}), lines,
                 (Text("UNO! catches: none."),), Text("Hand"), Text("Score"))


def test_the_chart_has_its_size_and_draws_every_line() -> None:
    image = Image.open(io.BytesIO(render.recap_image(view(), "Friday UNO")))
    assert image.size == (render.WIDTH, render.HEIGHT)
    colours = {pixel for _, pixel in image.getcolors(1 << 20)}
    for index in range(4):
        assert render.COLOURS[index] in colours


def test_every_series_has_its_own_marker_and_dash() -> None:
    styles = [render._style(i) for i in range(10)]
    assert len({marker for _, marker, _ in styles}) == 10
    assert len({dash for _, _, dash in styles}) == 10
    # In greyscale too: shape and dash alone tell two lines apart.
    assert len({(marker, dash) for _, marker, dash in styles}) == 10


def test_lines_drawn_in_greyscale_still_differ() -> None:
    one = Recap("en", "g", 0.0, Text("x"), (ScoreLine("A", (10, 20)),), (), Text("Hand"), Text("Score"))
    other = Recap("en", "g", 0.0, Text("x"), (ScoreLine("B", (10, 20)), ScoreLine("A", (10, 20))),
                  (), Text("Hand"), Text("Score"))
    grey = [Image.open(io.BytesIO(render.recap_image(v))).convert("L") for v in (one, other)]
    assert grey[0].tobytes() != grey[1].tobytes()


@pytest.fixture
def fonts_in(monkeypatch):
    """Look for fonts in the given folders only (the lookup is cached: cleared around)."""

    def use(*folders) -> None:
        monkeypatch.setattr(render, "FONT_DIRS", tuple(str(f) for f in folders))
        render.cjk_font.cache_clear()
        render._font.cache_clear()

    yield use
    render.cjk_font.cache_clear()
    render._font.cache_clear()


def installed_cjk_font() -> str:
    found = render.cjk_font_file()
    if found is None:
        message = "no font with Chinese glyphs is installed (.ci/run installs fonts-wqy-microhei)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return found


def test_a_chinese_recap_is_drawn_with_chinese_words_where_a_cjk_font_is(fonts_in) -> None:
    installed_cjk_font()
    words = render.picture_words(view("zh_CN"))
    assert words.locale == "zh_CN"
    assert words.heading == "1970-01-01（UTC）的比赛" and words.axis_hand == "局"
    assert words.axis_score == translate(Text("Score"), "zh_CN") != "Score"
    chinese = render.recap_image(view("zh_CN"), "Friday UNO")
    assert chinese != render.recap_image(view("en"), "Friday UNO")
    fonts_in()  # the same recap on a machine without the font: the English fallback
    fallback = render.recap_image(view("zh_CN"), "Friday UNO")
    assert fallback != chinese
    assert fallback == render.recap_image(view("en"), "Friday UNO")


def test_without_a_cjk_font_the_picture_falls_back_to_english(fonts_in, tmp_path) -> None:
    fonts_in(tmp_path)
    assert render.cjk_font() is None
    assert render.picture_locale("zh_CN") == "en" and render.picture_locale("en") == "en"
    words = render.picture_words(view("zh_CN"))
    assert (words.locale, words.heading, words.axis_hand) == ("en", "Match of 1970-01-01 (UTC)", "Hand")
    assert render.recap_image(view("zh_CN"), "Friday UNO") == render.recap_image(view("en"), "Friday UNO")
    assert render.recap_lines(view("zh_CN"))[1] == "没喊UNO被抓：没有。"  # the text stays Chinese


@pytest.mark.parametrize(("names", "chosen"), [
    (["wqy-microhei.ttc", "NotoSansCJK-Regular.ttc", "SourceHanSansSC-Regular.otf"],
     "NotoSansCJK-Regular.ttc"),
    (["wqy-zenhei.ttc", "SourceHanSansSC-Regular.otf"], "SourceHanSansSC-Regular.otf"),
    (["DejaVuSans.ttf", "wqy-zenhei.ttc", "wqy-microhei.ttc"], "wqy-microhei.ttc"),
    (["WenQuanYi Zen Hei.ttf"], "WenQuanYi Zen Hei.ttf"),
    (["DroidSansFallbackFull.ttf"], "DroidSansFallbackFull.ttf"),
    (["DejaVuSans.ttf", "LiberationSans.ttf"], None),
])
def test_cjk_fonts_are_found_by_the_names_they_ship_under(fonts_in, tmp_path, names, chosen) -> None:
    real = next((f for f in render.LATIN_FONTS if os.path.isabs(f) and os.path.exists(f)), None)
    if real is None:
        pytest.skip("no DejaVu font to stand in for the CJK files")
    for number, name in enumerate(names):  # the names matter here, not the glyphs
        folder = tmp_path / f"d{number}"
        folder.mkdir()
        (folder / name).symlink_to(real)
    fonts_in(tmp_path)
    found = render.cjk_font_file()
    assert (os.path.basename(found) if found else None) == chosen


def test_the_facts_as_text() -> None:
    lines = render.recap_lines(view("zh_CN"), "Friday UNO")
    assert lines[0].startswith("📈 Friday UNO · 1970-01-01（UTC）的比赛")
    assert lines[1] == "没喊UNO被抓：没有。"


def test_a_long_title_is_drawn_smaller_to_fit_the_picture() -> None:
    long = Recap("en", "g", 0.0, Text("Match of {date} (UTC), {mode}", {
        "date": "1970-01-01", "mode": Text("the winner scores the others' cards")}),
        (ScoreLine("A", (10, 20)),), (), Text("Hand"), Text("Score"))
    image = Image.open(io.BytesIO(render.recap_image(long))).convert("L")
    title_band = image.crop((render.WIDTH - 30, 10, render.WIDTH, 55))  # the right margin
    assert title_band.getextrema()[0] > 200  # no ink runs into it
