"""The recap's score chart: its size, and every player's line told apart without colour."""

from __future__ import annotations

import io

from PIL import Image

from bot.coordinator import Recap, ScoreLine, Text
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


def test_chinese_words_in_the_picture_need_a_cjk_font() -> None:
    assert render.picture_locale("en") == "en"
    expected = "zh_CN" if render.cjk_font_file() else "en"
    assert render.picture_locale("zh_CN") == expected
    assert render.recap_image(view("zh_CN"), "周五 UNO").startswith(b"\x89PNG")


def test_the_facts_as_text() -> None:
    lines = render.recap_lines(view("zh_CN"), "Friday UNO")
    assert lines[0].startswith("📈 Friday UNO · 1970-01-01（UTC）的比赛")
    assert lines[1] == "抓到没喊 UNO!：没有。"
