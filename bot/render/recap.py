"""A finished match's recap: each player's score after every hand as a line chart (Pillow),
and the same facts as text for the frontends that print them.

Colour-blind safe: every player's line has its own marker shape and dash pattern as well as
an Okabe-Ito colour, and the legend repeats shape, dash and name, so the lines stay apart
in greyscale. The picture's own words (title, axes) are in the recap's language when a font
with CJK glyphs is installed; without one a Chinese recap draws them in English (the fact
lines, sent as text beside the picture, stay Chinese)."""

from __future__ import annotations

import contextlib
import fnmatch
import io
import math
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from bot.coordinator import Recap
from bot.i18n import translate

WIDTH, HEIGHT = 1000, 600
BACKGROUND = (255, 255, 255)
INK = (34, 34, 34)
GRID = (222, 222, 222)
# Okabe-Ito, black first: apart under the common colour-vision deficiencies.
COLOURS = ((0, 0, 0), (230, 159, 0), (0, 114, 178), (0, 158, 115), (204, 121, 167),
           (213, 94, 0), (86, 180, 233), (120, 120, 120), (160, 130, 0), (0, 80, 120))
MARKERS = ("circle", "square", "triangle", "diamond", "cross", "down", "plus", "star",
           "hexagon", "bar")
# (dash, gap) in pixels; (0, 0) is a solid line.
DASHES = ((0, 0), (18, 8), (6, 6), (24, 6), (2, 6), (12, 4), (30, 10), (4, 10), (10, 10),
          (16, 4))
LATIN_FONTS = ("DejaVuSans.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
BOLD_FONTS = ("DejaVuSans-Bold.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")
FONT_DIRS = ("/usr/share/fonts", "/usr/local/share/fonts")
FONT_FILES = (".ttf", ".ttc", ".otf", ".otc")
# Fonts with Chinese glyphs by the names they ship under, best first: Noto CJK
# (fonts-noto-cjk), Source Han (Adobe's name for the same design), WenQuanYi
# (fonts-wqy-microhei, fonts-wqy-zenhei), then Android's Droid fallback and any other CJK font.
CJK_NAMES = ("notosanscjk*", "notoserifcjk*", "noto*cjk*", "sourcehansans*", "sourcehanserif*",
             "wqy-microhei*", "wqy-zenhei*", "*wenquanyi*", "wqy*", "*droid*fallback*", "*cjk*")
# Inside a collection (.ttc) the face for Simplified Chinese, where there are several.
SIMPLIFIED = re.compile(r"\b(SC|CN|GB)\b")

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


def _font_files() -> list[str]:
    found = []
    for folder in FONT_DIRS:
        for root, _dirs, files in os.walk(folder):
            found += [os.path.join(root, f) for f in files if f.lower().endswith(FONT_FILES)]
    return sorted(found)


def _simplified_face(path: str) -> int | None:
    """The index of the file's Simplified Chinese face (else its first), None: not a font."""
    faces = []
    for index in range(16):  # Noto CJK collections hold 5 to 10 faces
        try:
            faces.append(ImageFont.truetype(path, 12, index=index).getname()[0] or "")
        except OSError:
            break
    if not faces:
        return None
    return next((i for i, name in enumerate(faces) if SIMPLIFIED.search(name)), 0)


@lru_cache(maxsize=1)
def cjk_font() -> tuple[str, int] | None:
    """A font file with Chinese glyphs and the face to use, if the machine has one (none is
    downloaded)."""
    files = _font_files()
    for pattern in CJK_NAMES:
        for path in files:
            if fnmatch.fnmatch(os.path.basename(path).lower(), pattern):
                face = _simplified_face(path)
                if face is not None:
                    return path, face
    return None


def cjk_font_file() -> str | None:
    found = cjk_font()
    return found[0] if found else None


@lru_cache(maxsize=32)
def _font(size: int, bold: bool = False, cjk: bool = False) -> Font:
    found = cjk_font() if cjk else None
    if found is not None:
        with contextlib.suppress(OSError):
            return ImageFont.truetype(found[0], size, index=found[1])
    for name in BOLD_FONTS if bold else LATIN_FONTS:
        try:
            return ImageFont.truetype(name, size)
        except OSError:
            continue
    return ImageFont.load_default(size=size)


def picture_locale(locale: str) -> str:
    """The language the picture's words can be drawn in on this machine."""
    return locale if not locale.startswith("zh") or cjk_font() else "en"


def _needs_cjk(text: str) -> bool:
    return any(ord(ch) > 0x2E7F for ch in text)


@dataclass(frozen=True)
class PictureWords:
    """The words drawn in the picture, in the language it can be drawn in here."""

    locale: str
    heading: str  # the date and the scoring mode
    axis_hand: str
    axis_score: str


def picture_words(view: Recap) -> PictureWords:
    locale = picture_locale(view.locale)
    return PictureWords(locale, translate(view.heading, locale), translate(view.axis_hand, locale),
                        translate(view.axis_score, locale))


def recap_image(view: Recap, chat_name: str = "") -> bytes:
    """The recap's chart as PNG bytes, titled with ``chat_name``, the date and the mode."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    words = picture_words(view)
    cjk = cjk_font() is not None

    def font(size: int, text: str, bold: bool = False) -> Font:
        return _font(size, bold, cjk and _needs_cjk(text))

    heading = words.heading
    title = chat_name or heading
    # A long chat name (or the heading alone, drawn as the title) gets smaller to fit.
    size = next((size for size in (28, 24, 21, 18)
                 if draw.textlength(title, font=font(size, title, True)) <= WIDTH - 60), 18)
    draw.text((30, 18), title, font=font(size, title, True), fill=INK)
    if chat_name:
        draw.text((30, 56), heading, font=font(18, heading), fill=INK)
    legend_width = 230
    left, top, right, bottom = 80, 118, WIDTH - legend_width - 20, HEIGHT - 70
    hands = max((len(line.scores) for line in view.lines), default=0)
    values = [*(line.start for line in view.lines), 0, *(s for line in view.lines for s in line.scores)]
    low, high = _nice_range(min(values), max(values))

    def at(hand: int, score: float) -> tuple[float, float]:
        x = left + (right - left) * (hand / max(hands, 1))
        y = bottom - (bottom - top) * ((score - low) / (high - low))
        return x, y

    small = font(15, "0")
    step = _nice_step((high - low) / 5)
    tick = low
    while tick <= high + 1e-9:
        _, y = at(0, tick)
        draw.line([(left, y), (right, y)], fill=GRID, width=1)
        draw.text((left - 8, y), f"{tick:g}", font=small, fill=INK, anchor="rm")
        tick += step
    every = max(1, math.ceil(hands / 15))
    for hand in range(0, hands + 1, every):
        x, _ = at(hand, low)
        draw.line([(x, bottom), (x, bottom + 5)], fill=INK, width=1)
        draw.text((x, bottom + 8), str(hand), font=small, fill=INK, anchor="ma")
    draw.line([(left, top), (left, bottom), (right, bottom)], fill=INK, width=2)
    axis_hand, axis_score = words.axis_hand, words.axis_score
    draw.text(((left + right) / 2, bottom + 32), axis_hand, font=font(17, axis_hand),
              fill=INK, anchor="ma")
    draw.text((left - 8, top - 14), axis_score, font=font(17, axis_score), fill=INK, anchor="rb")

    for index, line in enumerate(view.lines):
        colour, marker, dash = _style(index)
        points = [at(0, line.start)] + [at(i + 1, s) for i, s in enumerate(line.scores)]
        for start, end in zip(points, points[1:], strict=False):
            _dashed(draw, start, end, dash, colour, 3)
        for point in points[1:]:
            _marker(draw, point, marker, colour, 7)

    y = top
    for index, line in enumerate(view.lines):
        colour, marker, dash = _style(index)
        _dashed(draw, (right + 30, y + 10), (right + 80, y + 10), dash, colour, 3)
        _marker(draw, (right + 55, y + 10), marker, colour, 7)
        last = line.scores[-1] if line.scores else 0
        label = f"{line.name}  {last}"
        draw.text((right + 92, y + 10), label, font=font(17, label), fill=INK, anchor="lm")
        y += 34
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def _style(index: int) -> tuple[tuple[int, int, int], str, tuple[int, int]]:
    return (COLOURS[index % len(COLOURS)], MARKERS[index % len(MARKERS)],
            DASHES[index % len(DASHES)])


def _nice_step(rough: float) -> float:
    if rough <= 0:
        return 1
    power = 10 ** math.floor(math.log10(rough))
    return next(m * power for m in (1, 2, 5, 10) if m * power >= rough)


def _nice_range(low: int, high: int) -> tuple[float, float]:
    if low == high:
        high = low + 10
    step = _nice_step((high - low) / 5)
    return math.floor(low / step) * step, math.ceil(high / step) * step


def _dashed(draw: ImageDraw.ImageDraw, start: tuple[float, float], end: tuple[float, float],
            dash: tuple[int, int], colour: tuple[int, int, int], width: int) -> None:
    on, off = dash
    if on == 0:
        draw.line([start, end], fill=colour, width=width)
        return
    (x0, y0), (x1, y1) = start, end
    length = math.hypot(x1 - x0, y1 - y0)
    if length == 0:
        return
    dx, dy = (x1 - x0) / length, (y1 - y0) / length
    pos = 0.0
    while pos < length:
        stop = min(pos + on, length)
        draw.line([(x0 + dx * pos, y0 + dy * pos), (x0 + dx * stop, y0 + dy * stop)],
                  fill=colour, width=width)
        pos = stop + off


def _marker(draw: ImageDraw.ImageDraw, at: tuple[float, float], shape: str,
            colour: tuple[int, int, int], r: int) -> None:
    x, y = at

    def polygon(points: list[tuple[float, float]]) -> None:
        draw.polygon(points, fill=colour, outline=BACKGROUND)

    if shape == "circle":
        draw.ellipse([x - r, y - r, x + r, y + r], fill=colour, outline=BACKGROUND)
    elif shape == "square":
        draw.rectangle([x - r, y - r, x + r, y + r], fill=colour, outline=BACKGROUND)
    elif shape == "triangle":
        polygon([(x, y - r - 1), (x + r + 1, y + r), (x - r - 1, y + r)])
    elif shape == "down":
        polygon([(x, y + r + 1), (x + r + 1, y - r), (x - r - 1, y - r)])
    elif shape == "diamond":
        polygon([(x, y - r - 2), (x + r + 2, y), (x, y + r + 2), (x - r - 2, y)])
    elif shape == "cross":
        draw.line([(x - r, y - r), (x + r, y + r)], fill=colour, width=4)
        draw.line([(x - r, y + r), (x + r, y - r)], fill=colour, width=4)
    elif shape == "plus":
        draw.line([(x - r, y), (x + r, y)], fill=colour, width=4)
        draw.line([(x, y - r), (x, y + r)], fill=colour, width=4)
    elif shape == "star":
        polygon([(x + (r + 2 if i % 2 == 0 else r / 2) * math.sin(i * math.pi / 5),
                  y - (r + 2 if i % 2 == 0 else r / 2) * math.cos(i * math.pi / 5))
                 for i in range(10)])
    elif shape == "hexagon":
        polygon([(x + r * math.cos(i * math.pi / 3), y + r * math.sin(i * math.pi / 3))
                 for i in range(6)])
    else:  # a bar
        draw.rectangle([x - 2, y - r - 1, x + 2, y + r + 1], fill=colour)


def recap_lines(view: Recap, chat_name: str = "", *,
                escape: Callable[[str], str] = str) -> list[str]:
    """The recap as lines: the title, then the facts (for text frontends and captions)."""
    heading = translate(view.heading, view.locale)
    first = f"📈 {chat_name} · {heading}" if chat_name else f"📈 {heading}"
    return [escape(first), *(escape(translate(fact, view.locale)) for fact in view.facts)]
